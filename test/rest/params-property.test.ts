// Property: for every route of the registry, random values for its declared parameters
// either validate (and the handler answers) or give a 4xx in the contract's error shape —
// never a 500. Fixed seed in CI; FUZZ_SEED overrides it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import qs from 'qs';
import type { CompiledRoute } from '../../src/rest/registry.ts';
import { OUTBOUND_ROUTES, assertWellFormedAnswer, samplePath, siteUnderTest } from '../support/registry.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const RUNS = Number(process.env.FUZZ_RUNS ?? 12);

const scalar = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.integer().map(String),
  fc.constantFrom(
    '0',
    '-1',
    '1e308',
    '99999999999999999999',
    'true',
    'false',
    'null',
    '',
    ' ',
    '%',
    '\u0000',
    'NaN',
    '1.5',
    '[]',
    '{}',
    '2024-13-45 25:61:61',
    'a,b,c',
    '1,2,3',
  ),
);
const wireValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: scalar },
  { weight: 2, arbitrary: fc.array(scalar, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), scalar, { maxKeys: 3 }) },
);

const site = siteUnderTest();

test('random parameter values never produce a 500, on every route of the registry', async () => {
  const routes: CompiledRoute[] = site.server.restApi.registry.routes.filter(
    (r) => !OUTBOUND_ROUTES.has(r.pattern) && r.pattern !== '/batch/v1',
  );
  let requests = 0;
  for (const route of routes) {
    for (const endpoint of route.endpoints) {
      const names = Object.keys(endpoint.args);
      const method = endpoint.methods[0]!;
      const url = `/en/cms-json${samplePath(route.pattern)}`;
      await fc.assert(
        fc.asyncProperty(
          fc.record(Object.fromEntries(names.map((n) => [n, wireValue])), { requiredKeys: [] }),
          fc.boolean(),
          async (params, asJson) => {
            requests++;
            const query = method === 'GET' || !asJson ? qs.stringify(params) : '';
            const res = await site.server.inject({
              method,
              url: query ? `${url}?${query}` : url,
              headers: {
                authorization: site.admin,
                ...(method !== 'GET' && asJson ? { 'content-type': 'application/json' } : {}),
              },
              ...(method !== 'GET' && asJson ? { payload: JSON.stringify(params) } : {}),
            });
            assertWellFormedAnswer(res.statusCode, res.headers['content-type'], res.body, `${method} ${url}?${query}`);
          },
        ),
        { seed: SEED, numRuns: RUNS },
      );
    }
  }
  assert.ok(requests > 100);
});
