// Liveness and readiness for load balancers and orchestrators: unauthenticated, outside the REST
// roots (the index stays the contract's), readiness answering for the database. (How fast they
// answer is measured with autocannon, not asserted here: on a shared machine times say little.)
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import Fastify, { type FastifyInstance } from 'fastify';
import { Kysely, SqliteDialect, type SqliteDialectConfig } from 'kysely';
import { pino } from 'pino';
import Database from 'better-sqlite3';
import type { AppServices } from '../../src/site/services.ts';
import { buildServer } from '../../src/server/http.ts';
import { registerHealthRoutes } from '../../src/server/health.ts';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { listenOnLoopback } from './support.ts';

for (const target of dbTargets()) {
  describe(`health checks (${target.name})`, () => {
    let t: TestApp;
    let server: FastifyInstance;
    let base: string;
    before(async () => {
      t = await createTestApp(target);
      server = await buildServer(t.app);
      base = await listenOnLoopback(server);
    });
    after(async () => {
      await server.close();
      await t.close();
    });

    test('GET /healthz: the process answers', async () => {
      const res = await fetch(`${base}/healthz`);
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json(), { status: 'ok' });
      assert.equal(res.headers.get('cache-control'), 'no-store');
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    });

    test('GET /readyz: the database answers; HEAD too; no credentials needed, wrong ones ignored', async () => {
      const res = await fetch(`${base}/readyz`, { headers: { authorization: 'Basic bm9ib2R5Ondyb25n' } });
      assert.equal(res.status, 200);
      assert.deepEqual(await res.json(), { status: 'ok', database: 'ok' });
      const head = await fetch(`${base}/readyz`, { method: 'HEAD' });
      assert.equal(head.status, 200);
      assert.equal(await head.text(), '');
    });

    test('outside the REST roots: the index does not list them', async () => {
      const index = (await (await fetch(`${base}/en/cms-json/`)).json()) as { routes: Record<string, unknown> };
      assert.ok(!Object.keys(index.routes).some((r) => /healthz|readyz/.test(r)));
      assert.equal((await fetch(`${base}/en/cms-json/healthz`)).status, 404);
    });
  });
}

/** What the health routes read of the app: a database and a log. */
const bareApp = (database: SqliteDialectConfig['database']) =>
  ({
    db: new Kysely<never>({ dialect: new SqliteDialect({ database }) }),
    log: pino({ level: 'silent' }),
  }) as unknown as AppServices;

test('a database that fails, or does not answer within 2 s: readiness 503, liveness still 200', async () => {
  for (const database of [
    () => Promise.reject(new Error('the database is gone')),
    () => new Promise<never>(() => {}),
  ]) {
    const server = Fastify();
    registerHealthRoutes(server, bareApp(database), []);
    try {
      const ready = await server.inject({ method: 'GET', url: '/readyz' });
      assert.equal(ready.statusCode, 503);
      assert.deepEqual(ready.json(), { status: 'unavailable', database: 'unavailable' });
      assert.equal((await server.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
    } finally {
      await server.close();
    }
  }
});

test('while the server shuts down, readiness is 503', async () => {
  // As buildServer: requests arriving while it closes are answered, not refused by Fastify.
  const server = Fastify({ return503OnClosing: false });
  registerHealthRoutes(
    server,
    bareApp(() => new Promise<never>(() => {})),
    [],
  );
  await server.ready();
  // preClose runs first thing in close(); inject answers while the close goes on.
  const closing = server.close();
  const ready = await server.inject({ method: 'GET', url: '/readyz' });
  await closing;
  assert.equal(ready.statusCode, 503);
  assert.deepEqual(ready.json(), { status: 'unavailable', reason: 'shutting down' });
});

test('while start-up work is under way readiness is 503 "starting", naming it; 200 once each has settled, even by failing', async () => {
  const server = Fastify();
  const columns = Promise.withResolvers<void>();
  const other = Promise.withResolvers<void>();
  registerHealthRoutes(server, bareApp(new Database(':memory:')), [
    { what: 'log columns', done: columns.promise },
    { what: 'another cache', done: other.promise },
  ]);
  const readiness = async () => {
    const res = await server.inject({ method: 'GET', url: '/readyz' });
    return { status: res.statusCode, body: res.json() as unknown };
  };
  try {
    assert.deepEqual(await readiness(), {
      status: 503,
      body: { status: 'starting', database: 'ok', warming_up: 'log columns, another cache' },
    });
    const head = await server.inject({ method: 'HEAD', url: '/readyz' });
    assert.deepEqual([head.statusCode, head.body], [503, '']);
    columns.resolve();
    await columns.promise;
    assert.deepEqual(await readiness(), {
      status: 503,
      body: { status: 'starting', database: 'ok', warming_up: 'another cache' },
    });
    assert.equal((await server.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
    other.reject(new Error('gave up'));
    await other.promise.catch(() => undefined);
    assert.deepEqual(await readiness(), { status: 200, body: { status: 'ok', database: 'ok' } });
  } finally {
    await server.close();
  }
});

test('readiness waits for start-up work only so long: then 200, though it goes on', async () => {
  const server = Fastify();
  registerHealthRoutes(
    server,
    bareApp(new Database(':memory:')),
    [{ what: 'log columns', done: new Promise(() => {}) }],
    100,
  );
  try {
    assert.equal((await server.inject({ method: 'GET', url: '/readyz' })).statusCode, 503);
    await new Promise((r) => setTimeout(r, 150));
    const ready = await server.inject({ method: 'GET', url: '/readyz' });
    assert.deepEqual([ready.statusCode, ready.json()], [200, { status: 'ok', database: 'ok' }]);
  } finally {
    await server.close();
  }
});
