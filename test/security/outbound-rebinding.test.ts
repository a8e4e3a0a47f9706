// The oEmbed proxy against DNS rebinding, and its XML path against entity tricks. The SSRF
// suite (private, loopback, link-local, mapped and mixed addresses; redirects and discovered
// endpoints to private targets) is test/oembed/proxy.test.ts; XML configuration input is
// covered in test/i18n (DOCTYPE, XXE, entity bombs). Here:
//   - pinning: the socket connects to the address that was checked; the system resolver is
//     never asked again, so a second, different DNS answer cannot redirect the connection;
//   - every request checks its own fresh answer: a host that resolved to a public address
//     once and to a private one next time is refused the next time (no trust is cached);
//   - provider XML with DOCTYPE, entity declarations (XXE, billion laughs), parameter
//     entities or absurd nesting yields no data and no crash.
// No traffic leaves 127.0.0.1.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import dns from 'node:dns';
import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp } from '../support/db.ts';
import {
  DEFAULT_PROXY_LIMITS,
  parseProviderBody,
  proxyOembed,
  type ProxyLimits,
} from '../../src/namespaces/oembed/proxy.ts';
import { FetchError, resolveChecked, type FetchLimits } from '../../src/namespaces/oembed/net.ts';
import type { RestError } from '../../src/rest/types.ts';

let t: TestApp;
let fixture: http.Server;
let port = 0;
let hits = 0;

before(async () => {
  // Not a local site: URLs on 127.0.0.1 are fetched, not answered locally.
  t = await createTestApp({ name: 'sqlite' }, { SITE_URL: 'http://site.example' });
  fixture = http.createServer((req, res) => {
    hits++;
    const self = `http://${req.headers.host}`;
    if (req.url!.startsWith('/page')) {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end(
        `<html><head><link rel="alternate" type="application/json+oembed" href="${self}/oembed"></head><body></body></html>`,
      );
    } else if (req.url!.startsWith('/oembed')) {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ version: '1.0', type: 'link', title: 'Pinned' }));
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((r) => fixture.listen(0, '127.0.0.1', r));
  port = (fixture.address() as AddressInfo).port;
});
after(async () => {
  fixture.closeAllConnections();
  await new Promise<void>((r) => fixture.close(() => r()));
  await t.close();
});

test('the connection goes to the checked address: the system resolver is never asked a second time', async () => {
  const systemLookups: string[] = [];
  const original = dns.lookup;
  (dns as { lookup: unknown }).lookup = function (hostname: string, ...rest: unknown[]) {
    systemLookups.push(hostname);
    // A rebinding attacker's second answer: somewhere else entirely.
    if (hostname === 'rebind.test') return (original as (...a: unknown[]) => unknown).call(dns, '127.0.0.2', ...rest);
    return (original as (...a: unknown[]) => unknown).call(dns, hostname, ...rest);
  } as typeof dns.lookup;
  try {
    // Control: a plain request does go through the spied system resolver.
    await new Promise<void>((resolve) => {
      http
        .get({ host: 'localhost', port, path: '/control', agent: false }, (res) => res.resume().on('end', resolve))
        .on('error', () => resolve());
    });
    assert.ok(systemLookups.includes('localhost'), 'the spy sees system lookups');
    systemLookups.length = 0;

    const resolved: string[] = [];
    const limits: ProxyLimits = {
      ...DEFAULT_PROXY_LIMITS,
      timeoutMs: 3000,
      // rebind.test stands in for a public host (its first answer is the checked one) …
      trustHost: (h) => h === 'rebind.test',
      resolve: async (h) => {
        resolved.push(h);
        if (h === 'rebind.test') return [{ address: '127.0.0.1', family: 4 }];
        throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      },
    };
    const before = hits;
    const data = await proxyOembed(t.app, { url: `http://rebind.test:${port}/page` }, 'en', limits);
    assert.equal(data.title, 'Pinned');
    assert.equal(hits - before, 2, 'page and provider were fetched from the checked address');
    assert.deepEqual(resolved, ['rebind.test', 'rebind.test'], 'one checked resolution per request');
    assert.deepEqual(systemLookups, [], '… and no second lookup by the socket');
  } finally {
    (dns as { lookup: unknown }).lookup = original;
  }
});

test('each request checks its own answer: public first, private next → refused, without a connection', async () => {
  const answers = [
    [{ address: '93.184.216.34', family: 4 }],
    [{ address: '127.0.0.1', family: 4 }],
    [{ address: '10.0.0.8', family: 4 }],
    [{ address: '::ffff:169.254.169.254', family: 6 }],
  ];
  let call = 0;
  const limits: FetchLimits = {
    timeoutMs: 1000,
    maxBytes: 1024,
    truncate: false,
    maxRedirects: 0,
    allowPrivate: false,
    userAgent: 'test',
    resolve: async () => answers[Math.min(call++, answers.length - 1)]!,
  };
  const url = new URL('http://flip.test/oembed');
  assert.deepEqual(
    await resolveChecked(url, limits),
    answers[0],
    'the first (public) answer is accepted and returned for the socket',
  );
  for (let i = 1; i < answers.length; i++) {
    await assert.rejects(resolveChecked(url, limits), (err: unknown) => {
      assert.ok(err instanceof FetchError);
      assert.equal(err.kind, 'private');
      assert.match(err.message, /not public/);
      return true;
    });
  }
  // Through the proxy: the rebound host is refused as a whole, answered as a host that does
  // not resolve (the caller learns nothing of internal names), nothing is fetched.
  const before = hits;
  let n = 0;
  const proxyLimits: ProxyLimits = {
    ...DEFAULT_PROXY_LIMITS,
    timeoutMs: 1000,
    resolve: async () => (n++ === 0 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '127.0.0.1', family: 4 }]),
  };
  await assert.rejects(proxyOembed(t.app, { url: 'http://flip2.test/page' }, 'en', proxyLimits), (err: RestError) => {
    assert.equal(err.code, 'oembed_fetch_failed');
    assert.equal(err.status, 502);
    return true;
  });
  assert.equal(hits, before);
});

test('provider XML: DOCTYPE, XXE, entity bombs, parameter entities and deep nesting give no data and no crash', () => {
  const ok = parseProviderBody(
    '<?xml version="1.0"?><oembed><type>link</type><title>A &amp; B &lt;i&gt; &#65;</title></oembed>',
    'xml',
  );
  assert.deepEqual(ok, { type: 'link', title: 'A & B <i> A' }, 'predefined and numeric entities are decoded as text');
  let bomb = '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">';
  for (let i = 1; i < 10; i++) bomb += `<!ENTITY lol${i} "${`&lol${i === 1 ? '' : i - 1};`.repeat(10)}">`;
  bomb += ']><oembed><type>link</type><title>&lol9;</title></oembed>';
  const refused = [
    bomb,
    '<?xml version="1.0"?><!DOCTYPE oembed [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><oembed><type>link</type><title>&xxe;</title></oembed>',
    '<?xml version="1.0"?><!DOCTYPE oembed SYSTEM "http://127.0.0.1:1/evil.dtd"><oembed><type>link</type><title>x</title></oembed>',
    '<?xml version="1.0"?><!doctype oembed [<!ENTITY % p SYSTEM "http://127.0.0.1:1/x">%p;]><oembed><title>x</title></oembed>',
    '<?xml version="1.0"?>\n  <!DocType oembed><oembed><title>x</title></oembed>',
    '<oembed><title>x</title></oembed><!ENTITY a "b">',
  ];
  for (const body of refused) assert.equal(parseProviderBody(body, 'xml'), null, body.slice(0, 80));
  // An undefined entity stays undefined (no external lookup), the document still parses or is refused.
  const undefinedEntity = parseProviderBody('<oembed><type>link</type><title>&xxe;</title></oembed>', 'xml');
  assert.ok(undefinedEntity === null || !JSON.stringify(undefinedEntity).includes('root:'), 'no file contents');
  // Absurd nesting within the 150 KB response limit: an answer, not a stack overflow.
  const depth = Math.floor((150 * 1024) / 8);
  const deep = `<oembed><type>rich</type><html>${'<a>'.repeat(depth)}${'</a>'.repeat(depth)}</html></oembed>`;
  const parsed = parseProviderBody(deep, 'xml');
  assert.ok(parsed === null || typeof parsed === 'object');
  const unclosed = parseProviderBody(`<oembed>${'<a>'.repeat(depth)}`, 'xml');
  assert.ok(unclosed === null || typeof unclosed === 'object');
});
