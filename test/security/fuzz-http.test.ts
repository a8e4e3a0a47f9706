// Adversarial HTTP input against every route of both roots: broken encodings, NUL bytes, huge
// numbers, arrays and objects where scalars belong, duplicate keys, broken JSON, wrong content
// types, bodies at and over the limit. Every answer is JSON in the contract's shape with a
// 2xx/4xx status (501 for routes not built yet) — never a 500, never a hang — and rejected
// requests change nothing in the database. Fixed seed in CI; FUZZ_SEED/FUZZ_RUNS for soak runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { BODY_LIMIT } from '../../src/server/http.ts';
import type { CompiledRoute } from '../../src/rest/registry.ts';
import { databaseDigest } from '../support/db.ts';
import { OUTBOUND_ROUTES, assertWellFormedAnswer, samplePath, siteUnderTest } from '../support/registry.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 7);
const RUNS = Number(process.env.FUZZ_RUNS ?? 8);

const site = siteUnderTest();

function assertWellFormed(res: LightMyRequestResponse, where: string): void {
  assertWellFormedAnswer(res.statusCode, res.headers['content-type'], res.body, where);
}

const nasty = fc.constantFrom(
  '%',
  '%zz',
  '%E0%A4%A',
  '%00',
  '\u0000',
  '1e309',
  '-1e309',
  '99999999999999999999999',
  '-0',
  '0x1F',
  'NaN',
  'Infinity',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '../../etc/passwd',
  '😀'.repeat(50),
  'a'.repeat(5000),
  '[]',
  '{}',
  'null',
  'true',
);
const queryPiece = fc.tuple(
  fc.constantFrom(
    'page',
    'per_page',
    'id',
    'search',
    'include[]',
    'include[x]',
    'dates[]',
    'context',
    'since_date',
    'url',
    'limit',
    'global',
    'force',
    '_fields',
    '_method',
    'i18n_language',
    'x[y][z][w][v][u]',
  ),
  fc.oneof(nasty, fc.string({ maxLength: 30 })),
);

test('adversarial query strings on every route, both roots: never a 500', async () => {
  const routes: CompiledRoute[] = site.server.restApi.registry.routes.filter((r) => !OUTBOUND_ROUTES.has(r.pattern));
  for (const route of routes) {
    for (const endpoint of route.endpoints) {
      await fc.assert(
        fc.asyncProperty(fc.array(queryPiece, { maxLength: 6 }), fc.constantFrom('en', 'de'), async (pieces, lang) => {
          const query = pieces
            .map(([k, v]) => `${k}=${encodeURIComponent(v).replace(/%25/g, Math.random() < 0.5 ? '%' : '%25')}`)
            .join('&');
          const url = `/${lang}/cms-json${samplePath(route.pattern)}?${query}`;
          const res = await site.server.inject({
            method: endpoint.methods[0]!,
            url,
            headers: { authorization: site.admin },
          });
          assertWellFormed(res, `${endpoint.methods[0]} ${url}`);
        }),
        { seed: SEED, numRuns: RUNS },
      );
    }
  }
});

test('rejected requests leave the database unchanged', async () => {
  const before = await databaseDigest(site.t.app);
  const writes = site.server.restApi.registry.routes.flatMap((route) =>
    route.endpoints
      .filter((e) => e.methods[0] !== 'GET' && !OUTBOUND_ROUTES.has(route.pattern))
      .map((e) => ({ route, method: e.methods[0]! })),
  );
  for (const { route, method } of writes) {
    const url = `/en/cms-json${samplePath(route.pattern)}`;
    const attempts: InjectOptions[] = [
      {
        method,
        url,
        payload: '{"broken":',
        headers: { 'content-type': 'application/json', authorization: site.admin },
      },
      { method, url, payload: '<xml/>', headers: { 'content-type': 'application/xml', authorization: site.admin } },
      {
        method,
        url,
        payload: JSON.stringify({ pad: 'x'.repeat(BODY_LIMIT) }),
        headers: { 'content-type': 'application/json', authorization: site.admin },
      },
      { method, url: `${url}?i18n_language=fr`, headers: { authorization: site.admin } },
      { method, url, payload: { anything: 1 } }, // anonymous
    ];
    for (const attempt of attempts) {
      const res = await site.server.inject(attempt);
      assert.ok(
        res.statusCode >= 400 && res.statusCode < 500,
        `${method} ${url}: expected a 4xx, got ${res.statusCode} ${res.body.slice(0, 200)}`,
      );
      assertWellFormed(res, `${method} ${url}`);
    }
  }
  assert.equal(await databaseDigest(site.t.app), before);
});

test('bodies: exactly at the limit is read, one byte over is a 413', async () => {
  const base = JSON.stringify({ message: '' });
  const atLimit = JSON.stringify({ message: 'x'.repeat(BODY_LIMIT - base.length) });
  assert.equal(Buffer.byteLength(atLimit), BODY_LIMIT);
  const ok = await site.server.inject({
    method: 'POST',
    url: '/en/cms-json/sched/v1/templates/validate',
    payload: atLimit,
    headers: { 'content-type': 'application/json', authorization: site.admin },
  });
  assert.notEqual(ok.statusCode, 413);
  assertWellFormed(ok, 'at limit');
  const over = await site.server.inject({
    method: 'POST',
    url: '/en/cms-json/sched/v1/templates/validate',
    payload: atLimit + ' ',
    headers: { 'content-type': 'application/json', authorization: site.admin },
  });
  assert.equal(over.statusCode, 413);
  assertWellFormed(over, 'over limit');
});

test('duplicate keys, deep nesting, broken percent-encoding in the path and odd methods', async () => {
  const cases: [string, string][] = [
    ['GET', '/en/cms-json/history/v1/events?page=1&page=2&page=x'],
    ['GET', '/en/cms-json/history/v1/events?' + 'a'.repeat(10) + '[b]'.repeat(40) + '=1'],
    ['GET', '/en/cms-json/history/v1/%E0%A4%A'],
    ['GET', '/en/cms-json/%'],
    ['GET', '/de/cms-json/sliderx/sliders/stream/,,,,'],
    ['DELETE', '/en/cms-json/'],
    ['PATCH', '/en/cms-json/batch/v1'],
  ];
  for (const [method, url] of cases) {
    const res = await site.server.inject({ method: method as 'GET', url, headers: { authorization: site.admin } });
    assertWellFormed(res, `${method} ${url}`);
  }
  const nestedBatch = await site.server.inject({
    method: 'POST',
    url: '/en/cms-json/batch/v1',
    headers: { authorization: site.admin },
    payload: { requests: [{ path: '/batch/v1', body: { requests: [{ path: '/batch/v1' }] } }, { path: '/BATCH/v1/' }] },
  });
  assert.equal(nestedBatch.statusCode, 207);
  for (const r of nestedBatch.json().responses) assert.equal(r.body.code, 'rest_batch_not_allowed');
});

test('batch: 25 items near the size limit, every method', async () => {
  const each = Math.floor((BODY_LIMIT - 4096) / 25) - 200;
  const requests = ['POST', 'PUT', 'PATCH', 'DELETE'].flatMap((method) =>
    Array.from({ length: 6 }, () => ({
      method,
      path: '/sched/v1/templates/validate',
      body: { message: 'y'.repeat(each) },
    })),
  );
  requests.push({ method: 'POST', path: '/history/v1/events', body: { message: 'z'.repeat(each) } });
  const payload = JSON.stringify({ requests });
  assert.ok(Buffer.byteLength(payload) <= BODY_LIMIT);
  const res = await site.server.inject({
    method: 'POST',
    url: '/en/cms-json/batch/v1',
    payload,
    headers: { 'content-type': 'application/json', authorization: site.admin },
  });
  assert.equal(res.statusCode, 207);
  assert.equal(res.json().responses.length, 25);
  for (const r of res.json().responses) assert.ok(r.status < 500, JSON.stringify(r.body).slice(0, 200));
});
