// Property: random values for every parameter of every i18n/tm/v1 route (declared ones and
// the body fields the logic reads) give a success or a 4xx in the contract's error shape —
// never a 500 — for a manager and for a translator, on every database target.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import qs from 'qs';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/server/http.ts';
import { i18nTmNamespace } from '../../src/namespaces/i18n-tm/routes.ts';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { basicAuth } from '../support/http.ts';
import { createAppPassword } from '../../src/auth/app-passwords.ts';
import { createFixture } from './fixtures.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);

const scalar = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.integer().map(String),
  fc.integer(),
  fc.constantFrom(
    '0',
    '-1',
    '1',
    '2',
    '3',
    '1e308',
    '99999999999999999999',
    '2147483648',
    'true',
    'null',
    '',
    ' ',
    '%',
    '_',
    '\u0000',
    'a\u0000b',
    '1,2,3',
    '1,x',
    '2026-03-04',
    '2026-02-30',
    'include',
    'exclude',
    'asc',
    'desc',
    'post',
    'package',
    'local',
    'remote',
    'ate',
    'all',
    'deepl',
  ),
);
const value: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: scalar },
  { weight: 2, arbitrary: fc.array(scalar, { maxLength: 4 }) },
  {
    weight: 2,
    arbitrary: fc.dictionary(
      fc.constantFrom('id', 'title', 'status', 'ate_job_id', 'ate_status', 'enabled', 'priority', 'i18n_job_id', 'x'),
      scalar,
      { maxKeys: 3 },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.array(
      fc.dictionary(
        fc.constantFrom('id', 'ate_job_id', 'ate_status', 'enabled', 'priority', 'i18n_job_id', 'job_id'),
        scalar,
        { maxKeys: 3 },
      ),
      { maxLength: 3 },
    ),
  },
);

/** Body fields read by routes whose payload the contract leaves open. */
const EXTRA: Record<string, string[]> = {
  '/ate/jobs': ['jobs', 'job_ids', 'i18n_job_id'],
  '/ams/engines': ['engines'],
};

function samplePath(pattern: string, id: string): string {
  return pattern.replace(/\(\?P<(\w+)>([^)]*)\)/g, () => id);
}

for (const target of dbTargets()) {
  describe(`i18n/tm/v1 random input (${target.name})`, () => {
    let t: TestApp;
    let server: FastifyInstance;
    const auth: string[] = [];
    before(async () => {
      t = await createTestApp(target);
      const fx = await createFixture(t.app);
      server = await buildServer(t.app);
      for (const u of [fx.admin, fx.anna])
        auth.push(basicAuth(u.login, (await createAppPassword(t.app, u.id, { name: 'fuzz' })).password));
    });
    after(async () => {
      await server.close();
      await t.close();
    });

    test('never a 500, errors in the contract shape', async () => {
      let requests = 0;
      for (const route of i18nTmNamespace.routes) {
        for (const endpoint of route.endpoints) {
          const method = endpoint.methods[0]!;
          const names = [...Object.keys(endpoint.args), ...(EXTRA[route.path] ?? [])];
          await fc.assert(
            fc.asyncProperty(
              fc.record(Object.fromEntries(names.map((n) => [n, value])), { requiredKeys: [] }),
              fc.boolean(),
              fc.constantFrom(0, 1),
              fc.constantFrom('1', '3', '7', '999999', '99999999999'),
              async (params, asJson, who, id) => {
                requests++;
                const url = `/en/cms-json/i18n/tm/v1${samplePath(route.path, id)}`;
                const query = method === 'GET' || !asJson ? qs.stringify(params) : '';
                const res = await server.inject({
                  method,
                  url: query ? `${url}?${query}` : url,
                  headers: {
                    authorization: auth[who]!,
                    ...(method !== 'GET' && asJson ? { 'content-type': 'application/json' } : {}),
                  },
                  ...(method !== 'GET' && asJson ? { payload: JSON.stringify(params) } : {}),
                });
                const where = `${method} ${url}?${query} ${asJson ? JSON.stringify(params) : ''}`;
                assert.ok(res.statusCode < 500, `${where}: ${res.statusCode} ${res.body.slice(0, 300)}`);
                if (res.statusCode >= 400) {
                  const json = JSON.parse(res.body);
                  assert.equal(typeof json.code, 'string', where);
                  assert.equal(typeof json.message, 'string', where);
                  assert.equal(json.data?.status, res.statusCode, where);
                }
              },
            ),
            { seed: SEED, numRuns: RUNS },
          );
        }
      }
      assert.ok(requests > 400);
    });
  });
}
