import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { seedDemo } from '../../src/pages/seed.ts';
import {
  DEFAULT_PROXY_LIMITS,
  proxyOembed,
  type ProxyLimits,
  type ProxyParams,
} from '../../src/namespaces/oembed/proxy.ts';
import { isPublicAddress } from '../../src/namespaces/oembed/net.ts';
import { findProvider } from '../../src/namespaces/oembed/providers.ts';
import { discoverLinks, sanitizeDiscoveredHtml } from '../../src/namespaces/oembed/sanitize.ts';
import { handleProxy } from '../../src/namespaces/oembed/routes.ts';
import type { RestError } from '../../src/rest/types.ts';
import { fakeRequest } from '../sliderx/fake-request.ts';

interface Fixture {
  server: http.Server;
  base: string;
  port: number;
  hits: Map<string, number>;
  lastQuery: Map<string, URLSearchParams>;
  total(): number;
}

const RICH_HTML =
  '<blockquote><a href="https://provider.example/post">A post</a> <a href="javascript:alert(1)">bad</a></blockquote>' +
  '<script>alert("x")</script><iframe src="https://player.example/embed/1" width="500" height="281" onload="alert(2)" allow="camera">fallback <b>text</b></iframe>' +
  '<img src=x onerror=alert(3)><style>body{}</style>';

async function startFixture(): Promise<Fixture> {
  const hits = new Map<string, number>();
  const lastQuery = new Map<string, URLSearchParams>();
  let base = '';
  const server = http.createServer((req, res) => {
    const u = new URL(req.url!, 'http://x');
    hits.set(u.pathname, (hits.get(u.pathname) ?? 0) + 1);
    lastQuery.set(u.pathname, u.searchParams);
    const html = (head: string, body = '') => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end(`<!DOCTYPE html><html><head><title>t</title>${head}</head><body>${body}</body></html>`);
    };
    const json = (obj: unknown, status = 200) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(obj));
    };
    const host = req.headers.host;
    const self = `http://${host}`;
    switch (u.pathname) {
      case '/page':
        return html(
          `<link rel="alternate" type="application/json+oembed" href="/oembed/rich?from=page"><link rel="alternate" type="text/xml+oembed" href="/oembed/xml">`,
        );
      case '/page-xml':
        return html(`<link rel="alternate" type="text/xml+oembed" href="${self}/oembed/xml">`);
      case '/page-doctype':
        return html(`<link rel="alternate" type="text/xml+oembed" href="/oembed/doctype">`);
      case '/page-nolink':
        return html('<meta name="x" content="y">');
      case '/page-bodylink':
        return html('', '<link rel="alternate" type="application/json+oembed" href="/oembed/rich">');
      case '/page-to':
        return html(`<link rel="alternate" type="application/json+oembed" href="${u.searchParams.get('href')}">`);
      case '/page-photo':
        return html(`<link rel="alternate" type="application/json+oembed" href="/oembed/photo">`);
      case '/page-link':
        return html(`<link rel="alternate" type="application/json+oembed" href="/oembed/link">`);
      case '/page-noiframe':
        return html(`<link rel="alternate" type="application/json+oembed" href="/oembed/noiframe">`);
      case '/page-array':
        return html(`<link rel="alternate" type="application/json+oembed" href="/oembed/array">`);
      case '/page-500':
        return html(`<link rel="alternate" type="application/json+oembed" href="/oembed/500">`);
      case '/page-404':
        return html(`<link rel="alternate" type="application/json+oembed" href="/oembed/404">`);
      case '/page-big':
        return html(`<link rel="alternate" type="application/json+oembed" href="/oembed/big">`);
      case '/page-slow-provider':
        return html(`<link rel="alternate" type="application/json+oembed" href="/slow">`);
      case '/huge-page': {
        res.writeHead(200, { 'Content-Type': 'text/html' });
        res.end(
          `<html><head><link rel="alternate" type="application/json+oembed" href="/oembed/rich?from=huge"></head><body>${'x'.repeat(400 * 1024)}</body></html>`,
        );
        return;
      }
      case '/missing':
        res.writeHead(404);
        res.end('no');
        return;
      case '/oembed/rich':
        return json({
          version: '1.0',
          type: 'rich',
          title: 'Rich "thing"',
          provider_name: 'Example',
          html: RICH_HTML,
          width: 500,
          height: 281,
        });
      case '/oembed/noiframe':
        return json({ version: '1.0', type: 'rich', html: '<div><script>alert(1)</script>only text</div>' });
      case '/oembed/photo':
        return json({
          version: '1.0',
          type: 'photo',
          title: 'A "photo"',
          url: 'https://img.example/p.jpg',
          width: 640,
          height: 480,
        });
      case '/oembed/link':
        return json({ version: '1.0', type: 'link', title: '<b>Link</b> title' });
      case '/oembed/array':
        return json([1, 2, 3]);
      case '/oembed/500':
        return json({ error: 'x' }, 500);
      case '/oembed/404':
        return json({ error: 'x' }, 404);
      case '/oembed/big':
        return json({ type: 'rich', html: '<iframe src="https://a.example/"></iframe>', pad: 'y'.repeat(200 * 1024) });
      case '/oembed/xml':
      case '/oembed/doctype': {
        if (u.searchParams.get('format') === 'json') {
          res.writeHead(501);
          res.end();
          return;
        }
        res.writeHead(200, { 'Content-Type': 'text/xml' });
        const doctype =
          u.pathname === '/oembed/doctype' ? '<!DOCTYPE foo [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>' : '';
        res.end(
          `<?xml version="1.0"?>${doctype}<oembed><version>1.0</version><type>rich</type><title>From XML &amp; more</title><html>&lt;iframe src="https://x.example/e"&gt;&lt;/iframe&gt;</html></oembed>`,
        );
        return;
      }
      case '/redirect': {
        const n = Number(u.searchParams.get('n') ?? 0);
        const to = u.searchParams.get('to') ?? '/page';
        res.writeHead(302, { Location: n > 0 ? `/redirect?n=${n - 1}&to=${encodeURIComponent(to)}` : to });
        res.end();
        return;
      }
      case '/slow':
        return; // never answers
      default:
        res.writeHead(404);
        res.end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  return { server, base, port, hits, lastQuery, total: () => [...hits.values()].reduce((a, b) => a + b, 0) };
}

async function stopFixture(f: Fixture): Promise<void> {
  f.server.closeAllConnections();
  await new Promise<void>((r) => f.server.close(() => r()));
}

const err = (code: string, status: number) => (e: RestError) => {
  assert.equal(e.code, code, e.message);
  assert.equal(e.status, status);
  return true;
};

test('isPublicAddress refuses every special range', () => {
  for (const a of [
    '127.0.0.1',
    '127.1.2.3',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '255.255.255.255',
    '224.0.0.1',
    '::1',
    '::',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::7f00:1',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'ff02::1',
    '64:ff9b::7f00:1',
    '2002:7f00:1::',
    'not-an-ip',
  ]) {
    assert.equal(isPublicAddress(a), false, a);
  }
  for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:93.184.216.34'])
    assert.equal(isPublicAddress(a), true, a);
});

test('allowlist matches the reference providers', () => {
  assert.equal(findProvider('https://www.youtube.com/watch?v=abc'), 'https://www.youtube.com/oembed');
  assert.equal(findProvider('http://YOUTU.BE/abc'), 'https://www.youtube.com/oembed');
  assert.equal(findProvider('https://vimeo.com/123'), 'https://vimeo.com/api/oembed.json');
  assert.equal(findProvider('https://www.ted.com/talks/x'), 'https://www.ted.com/services/v1/oembed.json');
  assert.equal(findProvider('https://twitter.com/jack/status/20'), 'https://publish.twitter.com/oembed');
  assert.equal(findProvider('https://www.reddit.com/r/node/comments/abc/x/'), 'https://www.reddit.com/oembed');
  assert.equal(findProvider('https://amzn.to/xyz'), 'https://read.amazon.com/kp/api/oembed');
  assert.equal(findProvider('https://bsky.app/profile/a.bsky.social/post/3k'), 'https://embed.bsky.app/oembed');
  assert.equal(findProvider('https://www.canva.com/design/DAF/view'), 'https://canva.com/_oembed');
  assert.equal(findProvider('https://www.tiktok.com/@user/video/1'), 'https://www.tiktok.com/oembed');
  assert.equal(
    findProvider('https://videopress.com/v/abc', 'site.example'),
    'https://public-api.wordpress.com/oembed/?for=site.example',
  );
  assert.equal(findProvider('https://VIDEOPRESS.com/v/abc'), null, 'VideoPress is case-sensitive');
  assert.equal(findProvider('https://example.org/watch'), null);
  assert.equal(findProvider('ftp://youtube.com/watch?v=1'), null);
});

test('discovery reads only the head, prefers JSON, resolves relative hrefs', () => {
  const page =
    '<html><head><link rel="alternate" type="text/xml+oembed" href="/x.xml"><LINK REL="Alternate" TYPE="application/json+oembed" HREF="o.json?a=1&amp;b=2"></head><body><link rel="alternate" type="application/json+oembed" href="/body"></body></html>';
  assert.deepEqual(discoverLinks(page, 'https://site.example/dir/page'), {
    json: 'https://site.example/dir/o.json?a=1&b=2',
    xml: 'https://site.example/x.xml',
  });
  // without a head/body structure the whole text counts, as the reference (cut at </head> only when present)
  assert.deepEqual(
    discoverLinks('<p><link rel="alternate" type="application/json+oembed" href="/b"></p>', 'https://s.example/'),
    { json: 'https://s.example/b', xml: null },
  );
  assert.deepEqual(
    discoverLinks('<head></head><link rel="alternate" type="application/json+oembed" href="/b">', 'https://s.example/'),
    { json: null, xml: null },
  );
});

test('sanitising discovered HTML', () => {
  const out = sanitizeDiscoveredHtml(RICH_HTML, 'abcdefghij')!;
  assert.equal(
    out,
    '<blockquote class="wp-embedded-content" data-secret="abcdefghij"><a href="https://provider.example/post">A post</a> <a>bad</a></blockquote>' +
      '<iframe class="wp-embedded-content" sandbox="allow-scripts" security="restricted" style="position: absolute; visibility: hidden;" src="https://player.example/embed/1#?secret=abcdefghij" data-secret="abcdefghij" width="500" height="281"></iframe>',
  );
  assert.equal(sanitizeDiscoveredHtml('<div>no frame<script>x</script></div>'), null);
  assert.equal(sanitizeDiscoveredHtml('<iframe src="javascript:alert(1)"></iframe>'), null);
  const noQuote = sanitizeDiscoveredHtml(
    '<iframe src="https://a.example/x?y=1" title="&quot;&gt;<script>"></iframe>',
    'ABCDEFGHIJ',
  )!;
  assert.equal(
    noQuote,
    '<iframe class="wp-embedded-content" sandbox="allow-scripts" security="restricted" src="https://a.example/x?y=1#?secret=ABCDEFGHIJ" data-secret="ABCDEFGHIJ" title="&quot;&gt;&lt;script&gt;"></iframe>',
  );
});

for (const target of dbTargets()) {
  describe(`oembed/1.0/proxy with private outbound allowed (${target.name})`, () => {
    let t: TestApp;
    let f: Fixture;
    const limits: ProxyLimits = { ...DEFAULT_PROXY_LIMITS, timeoutMs: 1500 };
    const proxy = (params: ProxyParams, l: ProxyLimits = limits) => proxyOembed(t.app, params, 'en', l);
    before(async () => {
      t = await createTestApp(target, { CONTENT_SITE_ALLOW_PRIVATE_OUTBOUND: '1' });
      await seedDemo(t.app);
      f = await startFixture();
    });
    after(async () => {
      await stopFixture(f);
      await t.close();
    });

    test('discovery → provider data with sanitised HTML and the provider parameters', async () => {
      const data = await proxy({ url: `${f.base}/page`, maxwidth: 600, discover: true });
      assert.equal(data.title, 'Rich "thing"');
      assert.equal(data.provider_name, 'Example');
      const html = String(data.html);
      assert.ok(!html.includes('<script'), html);
      assert.ok(!html.includes('onload'));
      assert.ok(!html.includes('onerror'));
      assert.match(
        html,
        /<iframe class="wp-embedded-content" sandbox="allow-scripts" security="restricted" style="position: absolute; visibility: hidden;" src="https:\/\/player\.example\/embed\/1#\?secret=([A-Za-z0-9]{10})" data-secret="\1"/,
      );
      const q = f.lastQuery.get('/oembed/rich')!;
      assert.equal(q.get('from'), 'page');
      assert.equal(q.get('maxwidth'), '600');
      assert.equal(q.get('maxheight'), '750');
      assert.equal(q.get('url'), `${f.base}/page`);
      assert.equal(q.get('dnt'), '1');
      assert.equal(q.get('format'), 'json');
    });

    test('answers are cached for a day in the database, per parameter set', async () => {
      const before = f.total();
      const a = await proxy({ url: `${f.base}/page`, maxwidth: 600, discover: true });
      assert.equal(f.total(), before, 'served from the cache');
      assert.equal(a.title, 'Rich "thing"');
      const row = await t.app.db.selectFrom('oembed_cache').selectAll().execute();
      assert.ok(row.length >= 1);
      assert.ok(
        row.every(
          (r) =>
            r.cache_key.startsWith('oembed_') && r.expires_at > new Date().toISOString().replace('T', ' ').slice(0, 19),
        ),
      );
      await proxy({ url: `${f.base}/page`, maxwidth: 400, maxheight: 300, discover: true });
      assert.equal(f.total(), before + 2, 'other parameters: fetched again');
      assert.equal(f.lastQuery.get('/oembed/rich')!.get('maxheight'), '300');
      assert.equal(f.lastQuery.get('/oembed/rich')!.get('maxwidth'), '400');
      // expired entries are not used
      await t.app.db.updateTable('oembed_cache').set({ expires_at: '2000-01-01 00:00:00' }).execute();
      await proxy({ url: `${f.base}/page`, maxwidth: 600, discover: true });
      assert.equal(f.total(), before + 4);
    });

    test('XML providers: 501 on json → retried as xml; DOCTYPE refused', async () => {
      const data = await proxy({ url: `${f.base}/page-xml` });
      assert.equal(data.title, 'From XML & more');
      assert.match(
        String(data.html),
        /^<iframe class="wp-embedded-content"[^>]* src="https:\/\/x\.example\/e#\?secret=/,
      );
      assert.equal(f.lastQuery.get('/oembed/xml')!.get('format'), 'xml');
      await assert.rejects(proxy({ url: `${f.base}/page-doctype` }), err('oembed_invalid_response', 502));
    });

    test('photo and link types are rendered and escaped', async () => {
      const photo = await proxy({ url: `${f.base}/page-photo` });
      assert.equal(
        photo.html,
        `<a href="${f.base}/page-photo"><img src="https://img.example/p.jpg" alt="A &quot;photo&quot;" width="640" height="480" /></a>`,
      );
      const link = await proxy({ url: `${f.base}/page-link` });
      assert.equal(link.html, `<a href="${f.base}/page-link">&lt;b&gt;Link&lt;/b&gt; title</a>`);
      const noIframe = await proxy({ url: `${f.base}/page-noiframe` });
      assert.equal(noIframe.html, false);
    });

    test('provider and page failures get honest statuses', async () => {
      await assert.rejects(proxy({ url: `${f.base}/page-nolink` }), err('oembed_invalid_url', 404));
      await assert.rejects(proxy({ url: `${f.base}/page-bodylink` }), err('oembed_invalid_url', 404));
      await assert.rejects(proxy({ url: `${f.base}/missing` }), err('oembed_invalid_url', 404));
      await assert.rejects(proxy({ url: `${f.base}/page-array` }), err('oembed_invalid_response', 502));
      await assert.rejects(proxy({ url: `${f.base}/page-500` }), err('oembed_provider_error', 502));
      await assert.rejects(proxy({ url: `${f.base}/page-404` }), err('oembed_invalid_url', 404));
      await assert.rejects(proxy({ url: `${f.base}/page-big` }), err('oembed_response_too_large', 502));
      await assert.rejects(proxy({ url: 'http://127.0.0.1:1/nothing-listens' }), err('oembed_fetch_failed', 502));
      const before = f.total();
      await assert.rejects(proxy({ url: `${f.base}/page-nolink`, discover: false }), err('oembed_invalid_url', 404));
      assert.equal(f.total(), before, 'discover=false makes no request');
    });

    test('a large page is read up to 150 KB for discovery', async () => {
      const data = await proxy({ url: `${f.base}/huge-page` });
      assert.equal(data.title, 'Rich "thing"');
      assert.equal(f.lastQuery.get('/oembed/rich')!.get('from'), 'huge');
    });

    test('timeouts are 504', async () => {
      const fast = { ...limits, timeoutMs: 300 };
      await assert.rejects(proxy({ url: `${f.base}/slow` }, fast), err('oembed_timeout', 504));
      await assert.rejects(proxy({ url: `${f.base}/page-slow-provider` }, fast), err('oembed_timeout', 504));
    });

    test('redirects are followed by hand, at most 5', async () => {
      const data = await proxy({ url: `${f.base}/redirect?n=2&to=/page`, maxwidth: 321 });
      assert.equal(data.title, 'Rich "thing"');
      await assert.rejects(proxy({ url: `${f.base}/redirect?n=6&to=/page` }), err('oembed_fetch_failed', 502));
    });

    test('local URLs are answered locally, without a request or cache entry', async () => {
      const before = f.total();
      await t.app.db.deleteFrom('oembed_cache').execute();
      const data = await proxy({ url: 'http://localhost:8080/en/about/', maxwidth: 300 });
      assert.equal(data.title, 'About us');
      assert.equal(data.width, 300);
      assert.equal(f.total(), before);
      assert.equal((await t.app.db.selectFrom('oembed_cache').selectAll().execute()).length, 0);
      await assert.rejects(proxy({ url: 'http://localhost:8080/en/unknown/' }), err('oembed_invalid_url', 404));
    });

    test('direct media files use the classic embed handler', async () => {
      const v = await proxy({ url: 'https://media.example/clip.mp4', maxwidth: 640 });
      assert.equal(v.provider_name, 'Embed Handler');
      assert.match(String(v.html), /^<video class="wp-video-shortcode" width="640" height="360"/);
      assert.deepEqual(v.scripts, []);
      const a = await proxy({ url: 'https://media.example/a.mp3?x="><b>' });
      assert.match(String(a.html), /^<audio /);
      assert.ok(!String(a.html).includes('"><b>'));
    });

    test('handler passes the validated params', async () => {
      const data = (await handleProxy(
        fakeRequest(t.app, { params: { url: `${f.base}/page-link`, format: 'xml', maxwidth: 500, discover: true } }),
      )) as Record<string, unknown>;
      assert.equal(data.type, 'link');
      await assert.rejects(
        handleProxy(
          fakeRequest(t.app, {
            params: { url: `${f.base}/page-link`, format: 'json', maxwidth: 500, discover: false },
          }),
        ),
        err('oembed_invalid_url', 404),
      );
    });
  });

  describe(`oembed/1.0/proxy refuses private targets (${target.name})`, () => {
    let t: TestApp;
    let f: Fixture;
    let resolveCalls: string[] = [];
    // public.test stands in for a public host and is served by the local fixture; every other
    // target (redirects, discovered endpoints) is checked as in production.
    const limits = (): ProxyLimits => ({
      ...DEFAULT_PROXY_LIMITS,
      timeoutMs: 1500,
      trustHost: (h) => h === 'public.test',
      resolve: async (h) => {
        resolveCalls.push(h);
        if (h === 'public.test') return [{ address: '127.0.0.1', family: 4 }];
        if (h === 'mixed.test')
          return [
            { address: '93.184.216.34', family: 4 },
            { address: '127.0.0.1', family: 4 },
          ];
        if (h === 'v6.test') return [{ address: '::1', family: 6 }];
        if (h === 'mapped.test') return [{ address: '::ffff:10.0.0.1', family: 6 }];
        if (h === 'hang.test') return new Promise(() => {});
        if (h === 'localhost')
          return [
            { address: '127.0.0.1', family: 4 },
            { address: '::1', family: 6 },
          ];
        throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      },
    });
    before(async () => {
      // The site is not on localhost here, so localhost URLs are not answered locally.
      t = await createTestApp(target, { SITE_URL: 'http://site.example' });
      f = await startFixture();
    });
    after(async () => {
      await stopFixture(f);
      await t.close();
    });

    test('private, loopback, link-local and IPv6 special addresses are refused without a connection', async () => {
      assert.equal(t.app.config.allowPrivateOutbound, false);
      const before = f.total();
      const p = f.port;
      for (const url of [
        `${f.base}/page`,
        `http://127.0.0.1/page`,
        `http://localhost:${p}/page`,
        `http://localhost/page`,
        `http://[::1]:${p}/page`,
        `http://[::ffff:127.0.0.1]:${p}/page`,
        'http://[::ffff:7f00:1]/',
        'http://[::7f00:1]/',
        'http://10.0.0.1/',
        'http://192.168.0.10/',
        'http://172.16.0.1/',
        'http://169.254.169.254/latest/meta-data/',
        'http://0.0.0.0/',
        'http://2130706433/',
        'http://0x7f.1/',
        'http://[fd00::1]/',
        'http://[fe80::1]/',
        'http://100.64.1.1/',
        'http://93.184.216.34:22/',
        'http://user:pass@93.184.216.34/',
        'ftp://93.184.216.34/x',
        'file:///etc/passwd',
      ]) {
        await assert.rejects(proxyOembed(t.app, { url }, 'en', limits()), err('oembed_forbidden_url', 400), url);
      }
      assert.equal(f.total(), before, 'no request reached the local server');
    });

    test('host names resolving to loopback or mixed addresses are refused, answered as a name that does not resolve', async () => {
      const before = f.total();
      for (const host of ['mixed.test', 'v6.test', 'mapped.test']) {
        await assert.rejects(
          proxyOembed(t.app, { url: `http://${host}/page` }, 'en', limits()),
          err('oembed_fetch_failed', 502),
          host,
        );
      }
      // the real system resolver: localhost → loopback
      await assert.rejects(
        proxyOembed(t.app, { url: `http://localhost:${f.port}/page` }, 'en', DEFAULT_PROXY_LIMITS),
        err('oembed_forbidden_url', 400),
      );
      await assert.rejects(
        proxyOembed(t.app, { url: 'http://nx.test/' }, 'en', limits()),
        err('oembed_fetch_failed', 502),
      );
      await assert.rejects(
        proxyOembed(t.app, { url: 'http://hang.test/' }, 'en', { ...limits(), timeoutMs: 200 }),
        err('oembed_timeout', 504),
      );
      assert.equal(f.total(), before);
    });

    test('a trusted public host works; redirects and discovered endpoints to private targets are refused', async () => {
      const pub = `http://public.test:${f.port}`;
      resolveCalls = [];
      const ok = await proxyOembed(
        t.app,
        { url: `${pub}/page-to?href=${encodeURIComponent(`${pub}/oembed/link`)}` },
        'en',
        limits(),
      );
      assert.equal(ok.type, 'link');
      assert.deepEqual(resolveCalls, ['public.test', 'public.test'], 'one resolution per request, the socket uses it');
      const before = f.total();
      for (const to of [
        `http://127.0.0.1:${f.port}/page`,
        `http://localhost:${f.port}/page`,
        `http://[::1]:${f.port}/page`,
        `http://[::ffff:127.0.0.1]:${f.port}/page`,
        'http://10.1.1.1/',
      ]) {
        await assert.rejects(
          proxyOembed(t.app, { url: `${pub}/redirect?to=${encodeURIComponent(to)}` }, 'en', limits()),
          err('oembed_forbidden_url', 400),
          to,
        );
      }
      assert.equal(f.total(), before + 5, 'only the redirecting hop was requested');
      await assert.rejects(
        proxyOembed(
          t.app,
          { url: `${pub}/page-to?href=${encodeURIComponent(`http://127.0.0.1:${f.port}/oembed/rich`)}` },
          'en',
          limits(),
        ),
        err('oembed_forbidden_url', 400),
      );
      assert.equal(f.hits.get('/oembed/rich') ?? 0, 0);
    });
  });
}
