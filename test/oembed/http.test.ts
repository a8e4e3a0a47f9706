// oembed/1.0 over HTTP: the lead's pipeline (buildServer + inject).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import dns from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/server/http.ts';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { userWithRole } from '../support/http.ts';
import { seedDemo } from '../../src/pages/seed.ts';

const BASE = 'http://localhost:8080';

for (const target of dbTargets()) {
  describe(`oembed/1.0 over HTTP (${target.name})`, () => {
    let t: TestApp;
    let server: FastifyInstance;
    let provider: http.Server;
    let providerBase: string;
    let contributor: string;
    let subscriber: string;
    before(async () => {
      t = await createTestApp(target, { CONTENT_SITE_ALLOW_PRIVATE_OUTBOUND: '1' });
      await seedDemo(t.app);
      server = await buildServer(t.app);
      contributor = (await userWithRole(t.app, 'contributor')).authorization;
      subscriber = (await userWithRole(t.app, 'subscriber')).authorization;
      provider = http.createServer((req, res) => {
        const u = new URL(req.url!, 'http://x');
        if (u.pathname === '/page') {
          res.writeHead(200, { 'Content-Type': 'text/html' });
          res.end(
            '<html><head><link rel="alternate" type="application/json+oembed" href="/oembed"></head><body></body></html>',
          );
        } else if (u.pathname === '/oembed') {
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.end(
            JSON.stringify({ version: '1.0', type: 'link', title: 'Linked', maxwidth: u.searchParams.get('maxwidth') }),
          );
        } else {
          res.writeHead(404);
          res.end();
        }
      });
      await new Promise<void>((r) => provider.listen(0, '127.0.0.1', r));
      providerBase = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
    });
    after(async () => {
      provider.closeAllConnections();
      await new Promise<void>((r) => provider.close(() => r()));
      await server.close();
      await t.close();
    });

    const get = (url: string, headers: Record<string, string> = {}) => server.inject({ method: 'GET', url, headers });
    const q = (url: string) => encodeURIComponent(url);

    test('embed: JSON for a page, public', async () => {
      const res = await get(`/en/cms-json/oembed/1.0/embed?url=${q(`${BASE}/en/about/`)}`);
      assert.equal(res.statusCode, 200);
      const body = res.json();
      assert.equal(body.title, 'About us');
      assert.equal(body.width, 600);
      assert.equal(body.height, 338);
      const small = await get(`/en/cms-json/oembed/1.0/embed?url=${q(`${BASE}/en/about/`)}&maxwidth=356`);
      assert.equal(small.json().height, 201);
      const junk = await get(`/en/cms-json/oembed/1.0/embed?url=${q(`${BASE}/en/about/`)}&maxwidth=abc&format=yaml`);
      assert.equal(junk.statusCode, 200);
      assert.equal(junk.json().width, 200, 'non-numeric maxwidth → 0 → clamped to 200');
    });

    test('embed: XML, and errors in XML', async () => {
      const res = await get(`/en/cms-json/oembed/1.0/embed?url=${q(`${BASE}/en/about/`)}&format=xml`);
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'text/xml; charset=UTF-8');
      assert.match(res.body, /^<\?xml version="1.0"\?>\n<oembed><version>1.0<\/version>/);
      const missing = await get(`/en/cms-json/oembed/1.0/embed?url=${q(`${BASE}/en/nope/`)}&format=xml`);
      assert.equal(missing.statusCode, 404);
      assert.equal(missing.headers['content-type'], 'text/xml; charset=UTF-8');
      assert.match(missing.body, /<code>oembed_invalid_url<\/code>/);
    });

    test('embed: errors', async () => {
      const nf = await get(`/en/cms-json/oembed/1.0/embed?url=${q(`${BASE}/en/nope/`)}`);
      assert.equal(nf.statusCode, 404);
      assert.deepEqual(nf.json(), { code: 'oembed_invalid_url', message: 'Not Found', data: { status: 404 } });
      const de = await get(`/de/cms-json/oembed/1.0/embed?url=${q(`${BASE}/de/nope/`)}`);
      assert.equal(de.json().message, 'Nicht gefunden');
      const noUrl = await get('/en/cms-json/oembed/1.0/embed');
      assert.equal(noUrl.statusCode, 400);
      assert.equal(noUrl.json().code, 'rest_missing_callback_param');
    });

    test('proxy: permissions', async () => {
      const url = `/en/cms-json/oembed/1.0/proxy?url=${q(`${BASE}/en/about/`)}`;
      const anon = await get(url);
      assert.equal(anon.statusCode, 401);
      assert.equal(anon.json().code, 'rest_forbidden');
      assert.equal(anon.json().message, 'Sorry, you are not allowed to make proxied oEmbed requests.');
      const sub = await get(url, { authorization: subscriber });
      assert.equal(sub.statusCode, 403);
      const ok = await get(`${url}&maxwidth=300`, { authorization: contributor });
      assert.equal(ok.statusCode, 200);
      assert.equal(ok.json().title, 'About us');
      assert.equal(ok.json().width, 300);
    });

    test('proxy: validation and remote discovery', async () => {
      const bad = await get(`/en/cms-json/oembed/1.0/proxy?url=${q(`${providerBase}/page`)}&maxwidth=abc`, {
        authorization: contributor,
      });
      assert.equal(bad.statusCode, 400);
      assert.equal(bad.json().code, 'rest_invalid_param');
      const badFormat = await get(`/en/cms-json/oembed/1.0/proxy?url=${q(`${providerBase}/page`)}&format=yaml`, {
        authorization: contributor,
      });
      assert.equal(badFormat.statusCode, 400);
      const noUrl = await get('/en/cms-json/oembed/1.0/proxy', { authorization: contributor });
      assert.equal(noUrl.statusCode, 400);
      assert.equal(noUrl.json().code, 'rest_missing_callback_param');
      const res = await get(`/en/cms-json/oembed/1.0/proxy?url=${q(`${providerBase}/page`)}&maxwidth=480&format=xml`, {
        authorization: contributor,
      });
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /^application\/json/, 'the proxy answers JSON either way');
      assert.equal(res.json().title, 'Linked');
      assert.equal(res.json().maxwidth, '480');
      assert.equal(res.json().html, `<a href="${providerBase}/page">Linked</a>`);
      const nolink = await get(`/en/cms-json/oembed/1.0/proxy?url=${q(`${providerBase}/none`)}`, {
        authorization: contributor,
      });
      assert.equal(nolink.statusCode, 404);
      assert.equal(nolink.json().code, 'oembed_invalid_url');
      const noDiscover = await get(`/en/cms-json/oembed/1.0/proxy?url=${q(`${providerBase}/page`)}&discover=false`, {
        authorization: contributor,
      });
      assert.equal(noDiscover.statusCode, 404);
    });
  });
}

describe('oembed/1.0/proxy over HTTP refuses private targets by default', () => {
  let t: TestApp;
  let server: FastifyInstance;
  let contributor: string;
  before(async () => {
    t = await createTestApp(dbTargets()[0]!, { SITE_URL: 'http://site.example' });
    server = await buildServer(t.app);
    contributor = (await userWithRole(t.app, 'contributor')).authorization;
  });
  after(async () => {
    await server.close();
    await t.close();
  });

  const proxy = (url: string) =>
    server.inject({
      method: 'GET',
      url: `/en/cms-json/oembed/1.0/proxy?url=${encodeURIComponent(url)}`,
      headers: { authorization: contributor },
    });

  test('loopback, private and IPv6 special targets are 400', async () => {
    for (const url of [
      'http://127.0.0.1/',
      'http://localhost/',
      'http://foo.localhost/',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://10.0.0.5/',
      'http://169.254.169.254/latest/',
    ]) {
      const res = await proxy(url);
      assert.equal(res.statusCode, 400, url);
      assert.equal(res.json().code, 'oembed_forbidden_url', url);
    }
  });

  test('how internal names resolve stays in the log: a name of a private address is answered as one that does not resolve', async (ctx) => {
    // The system resolver, as the server uses it: `vm` is this machine, `nx` is no name at all.
    ctx.mock.method(dns.promises, 'lookup', async (host: string) => {
      if (host === 'vm') return [{ address: '127.0.0.1', family: 4 }];
      if (host === 'intra.example')
        return [
          { address: '93.184.216.34', family: 4 },
          { address: '10.1.2.3', family: 4 },
        ];
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    });
    const logged = ctx.mock.method(t.app.log, 'warn');
    const answers = [];
    for (const host of ['vm', 'intra.example', 'nx']) {
      const res = await proxy(`http://${host}/page`);
      assert.equal(res.statusCode, 502, host);
      assert.doesNotMatch(res.body, /127\.0\.0\.1|10\.1\.2\.3|ENOTFOUND|resolve|not public/, host);
      answers.push(res.body.replace(host, 'HOST'));
    }
    assert.equal(new Set(answers).size, 1, `one answer for all three: ${answers.join(' | ')}`);
    assert.deepEqual(JSON.parse(answers[0]!).data, {
      status: 502,
      url: 'http://HOST/page',
      reason: 'the URL could not be fetched',
    });
    // The refusals are in the server log, with what the caller is not told.
    const details = logged.mock.calls.map((c) => JSON.stringify(c.arguments[0]));
    assert.ok(
      details.some((d) => d.includes('vm resolves to 127.0.0.1, which is not public')),
      details.join('\n'),
    );
    assert.ok(
      details.some((d) => d.includes('intra.example resolves to 10.1.2.3')),
      details.join('\n'),
    );
  });
});
