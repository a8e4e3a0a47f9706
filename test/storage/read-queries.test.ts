// Reads on `app.readDb`: a read that outlives its time is cancelled and answered as a JSON
// error (never a dropped connection), other requests are served meanwhile, writes have no such
// limit, and the SQLite read workers end with the app.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type net from 'node:net';
import pg from 'pg';
import { CompiledQuery, Kysely, sql } from 'kysely';
import { Worker } from 'node:worker_threads';
import { once } from 'node:events';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { READ_WORKER_URL, ReadPool } from '../../src/db/read-pool.ts';
import type { ReadAnswer, ReadWorkerData } from '../../src/db/read-messages.ts';
import { buildServer } from '../../src/server/http.ts';
import { endpoint, namespace, PUBLIC, route } from '../../src/rest/define.ts';
import type { AppServices } from '../../src/site/services.ts';
import { dbTargets, createTestApp, PG_URL } from '../support/db.ts';
import { PgReadDialect, readPoolConfig } from '../../src/db/pg-read.ts';
import { postgresConnection } from '../../src/db/pg-connection.ts';
import { withDeadline } from '../../src/db/deadline.ts';

const execFileAsync = promisify(execFile);

/**
 * A read that takes about `seconds` or more: SQLite counts a long recursive sequence (ten million
 * steps a second, more than a fast machine takes: at two million, one counted 8 million steps
 * within the tests' 1 s limit), PostgreSQL sleeps.
 */
function slowRead(app: AppServices, seconds: number, db = app.readDb) {
  return app.dialect === 'postgres'
    ? sql`select pg_sleep(${seconds})`.execute(db)
    : sql`with recursive c(x) as (select 1 union all select x + 1 from c where x < ${seconds * 10_000_000}) select count(*) from c`.execute(
        db,
      );
}

const probeNamespace = namespace('probe/v1', [
  route('/slow', [endpoint('GET', { permission: PUBLIC, handler: async (req) => (await slowRead(req.app, 4)).rows })]),
  route('/two-reads', [
    endpoint('GET', {
      permission: PUBLIC,
      handler: async (req) => {
        await sql`select pg_sleep(0.6)`.execute(req.app.readDb);
        return (await sql`select pg_sleep(0.6)`.execute(req.app.readDb)).rows;
      },
    }),
  ]),
  route('/fast', [
    endpoint('GET', {
      permission: PUBLIC,
      handler: async (req) => (await sql`select 1 as one`.execute(req.app.readDb)).rows,
    }),
  ]),
]);

/** Threads of this process (Linux), to see the read workers come and go. */
/**
 * The ids of this process's worker threads (Node names them WorkerThread). By id rather than
 * counted: a worker an earlier test terminated runs on until its statement ends, and its end
 * would change a count.
 */
function workerThreadIds(): Set<string> {
  const ids = new Set<string>();
  for (const id of fs.readdirSync('/proc/self/task')) {
    try {
      if (fs.readFileSync(`/proc/self/task/${id}/comm`, 'utf8').trim() === 'WorkerThread') ids.add(id);
    } catch {
      // ended meanwhile
    }
  }
  return ids;
}

for (const target of dbTargets()) {
  describe(`read queries, ${target.name}`, () => {
    test('a read that runs out of time answers 503 rest_query_timeout, in the request language, while others are served', async () => {
      const t = await createTestApp(target, { DB_QUERY_TIMEOUT_MS: '1000' });
      const server = await buildServer(t.app, { namespaces: [probeNamespace] });
      try {
        // Both read connections started (under load that can take longer than the limit), so
        // that the fast request does not wait for a thread to start.
        for (let tries = 0; tries < 50; tries++) {
          const warm = await Promise.all([
            server.inject('/en/cms-json/probe/v1/fast'),
            server.inject('/en/cms-json/probe/v1/fast'),
          ]);
          if (warm.every((res) => res.statusCode === 200)) break;
        }
        const finished: string[] = [];
        const slow = server.inject('/de/cms-json/probe/v1/slow').then((res) => (finished.push('slow'), res));
        await new Promise((resolve) => setTimeout(resolve, 50));
        const fast = await server.inject('/en/cms-json/probe/v1/fast');
        finished.push('fast');
        assert.equal(fast.statusCode, 200, fast.body);
        assert.deepEqual(fast.json(), [{ one: 1 }]);
        const res = await slow;
        assert.deepEqual(finished, ['fast', 'slow'], 'the fast request was answered while the slow one ran');
        assert.equal(res.statusCode, 503);
        const body = res.json();
        assert.equal(body.code, 'rest_query_timeout');
        assert.match(body.message, /Die Anfrage hat zu lange gedauert/);
        assert.deepEqual(body.data, { status: 503 });
        // The pool goes on serving.
        assert.equal((await server.inject('/en/cms-json/probe/v1/fast')).statusCode, 200);
      } finally {
        await server.close();
        await t.close();
      }
    });

    test('the reads of one request share its time: a second read gets only what is left', {
      skip: target.name !== 'postgres' && 'pg_sleep',
    }, async () => {
      const t = await createTestApp(target, { DB_QUERY_TIMEOUT_MS: '1000' });
      const server = await buildServer(t.app, { namespaces: [probeNamespace] });
      try {
        const res = await server.inject('/en/cms-json/probe/v1/two-reads');
        assert.equal(res.statusCode, 503, 'each read is shorter than the limit, both together are not');
        assert.equal(res.json().code, 'rest_query_timeout');
        // The connection's limit is back at the whole query timeout for the next request.
        const pool = await t.app.readDb
          .connection()
          .execute((db) => sql<{ statement_timeout: string }>`show statement_timeout`.execute(db));
        assert.equal(pool.rows[0]!.statement_timeout, '1s');
      } finally {
        await server.close();
        await t.close();
      }
    });

    test('the main connection (writes, migrations, bulk loads) has no such limit', async () => {
      const t = await createTestApp(target, { DB_QUERY_TIMEOUT_MS: '100' });
      try {
        assert.equal((await slowRead(t.app, 0.5, t.app.db)).rows.length, 1);
      } finally {
        await t.close();
      }
    });

    test('an answer is sent even when the connection idle limit is shorter than the read limit', async () => {
      const t = await createTestApp(target, {
        DB_QUERY_TIMEOUT_MS: '1000',
        HTTP_REQUEST_TIMEOUT_MS: '300',
        HTTP_HEADERS_TIMEOUT_MS: '300',
      });
      const server = await buildServer(t.app, { namespaces: [probeNamespace] });
      await server.listen({ port: 0, host: '127.0.0.1' });
      try {
        const { port } = server.server.address() as net.AddressInfo;
        const res = await fetch(`http://127.0.0.1:${port}/en/cms-json/probe/v1/slow`);
        assert.equal(res.status, 503);
        assert.equal(((await res.json()) as { code: string }).code, 'rest_query_timeout');
      } finally {
        await server.close();
        await t.close();
      }
    });
  });
}

describe('SQLite read workers', () => {
  test('start on demand and end when the app closes', {
    skip: !fs.existsSync('/proc/self/task') && 'needs /proc (Linux)',
  }, async () => {
    const t = await createTestApp({ name: 'sqlite' }, { DB_READ_WORKERS: '2' });
    const before = workerThreadIds();
    await Promise.all([sql`select 1`.execute(t.app.readDb), sql`select 2`.execute(t.app.readDb)]);
    const started = [...workerThreadIds()].filter((id) => !before.has(id));
    assert.equal(started.length, 2, 'two read threads run');
    await t.close();
    const running = workerThreadIds();
    assert.deepEqual(
      started.filter((id) => running.has(id)),
      [],
      'they end with the app',
    );
    await assert.rejects(sql`select 1`.execute(t.app.readDb), /destroyed/);
  });

  test('a database the workers cannot open fails the waiting reads at once (no restarts in a loop)', async () => {
    const pool = new ReadPool({ file: '/nonexistent/site.db', size: 2, timeoutMs: 60_000, cacheKib: 1024 });
    try {
      const reads = [pool.run(CompiledQuery.raw('select 1')), pool.run(CompiledQuery.raw('select 2'))];
      for (const read of reads)
        await assert.rejects(read, (err: Error & { code?: string }) => err.code !== 'QUERY_TIMEOUT');
    } finally {
      await pool.close();
    }
  });

  test('closing stops idle and still starting threads without terminating them', async () => {
    const t = await createTestApp({ name: 'sqlite' }, { DB_READ_WORKERS: '0' });
    try {
      const file = t.app.dbHandle.location;
      const idle = new ReadPool({ file, size: 2, timeoutMs: 60_000, cacheKib: 1024 });
      await Promise.all([idle.run(CompiledQuery.raw('select 1')), idle.run(CompiledQuery.raw('select 2'))]);
      assert.deepEqual(await idle.close(), { terminated: 0 });
      const starting = new ReadPool({ file, size: 2, timeoutMs: 60_000, cacheKib: 1024 });
      const read = assert.rejects(starting.run(CompiledQuery.raw('select 1')), /closed/);
      assert.deepEqual(await starting.close(), { terminated: 0 });
      await read;
    } finally {
      await t.close();
    }
  });

  test("a read thread runs without Node's type stripper (which costs each thread that loads TypeScript about 10 MB)", async () => {
    const t = await createTestApp({ name: 'sqlite' }, { DB_READ_WORKERS: '0' });
    const workerData: ReadWorkerData = { file: t.app.dbHandle.location, cacheKib: 1024 };
    const thread = new Worker(READ_WORKER_URL, { workerData, execArgv: ['--no-experimental-strip-types'] });
    try {
      const failed = once(thread, 'error').then(([err]) => assert.fail(`the read thread failed: ${err}`));
      const answer = () => Promise.race([once(thread, 'message').then(([m]) => m as ReadAnswer), failed]);
      assert.deepEqual(await answer(), { ready: true });
      thread.postMessage({ id: 7, sql: 'select ? + 1 as n', parameters: [41] });
      assert.deepEqual(await answer(), { id: 7, columns: ['n'], rows: [[42]] });
    } finally {
      await thread.terminate();
      await t.close();
    }
  });

  test("a read thread frees the SQLite memory of the statements it drops from its cache, which V8's collector does not count", async () => {
    const t = await createTestApp({ name: 'sqlite' }, { DB_READ_WORKERS: '0' });
    try {
      // In a process of its own, whose resident memory is the thread's: different statements of
      // about half a MB each (a CASE of 1,000 branches), first as many as the thread's cache keeps,
      // then four times as many more, each dropping one of the cache.
      const script = path.join(path.dirname(t.app.dbHandle.location), 'statements.mjs');
      fs.writeFileSync(
        script,
        `import { Worker } from 'node:worker_threads';
        import { once } from 'node:events';
        const thread = new Worker(new URL(${JSON.stringify(READ_WORKER_URL.href)}), {
          workerData: { file: ${JSON.stringify(t.app.dbHandle.location)}, cacheKib: 1024 },
        });
        await once(thread, 'message');
        const branches = Array.from({ length: 1000 }, (_, i) => \`when \${i} then 'v\${i}'\`).join(' ');
        const rss = () => process.memoryUsage().rss / 1e6;
        const start = rss();
        const growth = [];
        for (let id = 0; id < 1000; id++) {
          thread.postMessage({ id, sql: \`select case \${id} \${branches} end as n\`, parameters: [] });
          const [answer] = await once(thread, 'message');
          if (answer.error) throw new Error(answer.error.message);
          if (id === 199 || id === 999) growth.push(rss() - start);
        }
        thread.postMessage({ stop: true });
        await once(thread, 'exit');
        console.log(JSON.stringify(growth));`,
      );
      const { stdout } = await execFileAsync(process.execPath, [script]);
      const [cacheFull, after] = JSON.parse(stdout) as [number, number];
      assert.ok(cacheFull > 40, `200 statements hold ${cacheFull.toFixed(0)} MB`);
      // At most 250 statements are held at once (a full cache and those dropped since the last
      // reconnection): 1.7 times the full cache's. Without freeing them, four times as much.
      assert.ok(after < cacheFull * 2.5, `${after.toFixed(0)} MB after 800 dropped, ${cacheFull.toFixed(0)} MB before`);
    } finally {
      await t.close();
    }
  });

  test('DB_READ_WORKERS=0 reads on the main connection', async () => {
    const t = await createTestApp({ name: 'sqlite' }, { DB_READ_WORKERS: '0' });
    try {
      assert.equal(t.app.readDb, t.app.db);
    } finally {
      await t.close();
    }
  });
});

describe('PostgreSQL read limits (pg-read.ts)', { skip: !PG_URL && 'TEST_DATABASE_URL is not set' }, () => {
  test('the reads keep their time limit and the schema when the connection string gives server options', async () => {
    const url = new URL(PG_URL!);
    url.searchParams.set('options', '-c search_path=read_limit_schema,public -c application_name=from_url');
    const connection = postgresConnection(url.toString(), '-c search_path=test_schema');
    const pool = new pg.Pool({ ...readPoolConfig(connection, 7_000), max: 1 });
    try {
      const { rows } = await pool.query<{ t: string; path: string; app: string }>(
        `select current_setting('statement_timeout') as t, current_setting('search_path') as path,
          current_setting('application_name') as app`,
      );
      assert.equal(rows[0]!.t, '7s');
      assert.equal(rows[0]!.path, 'test_schema', 'the schema given beside the string is not replaced by it');
      assert.equal(rows[0]!.app, 'from_url', "the string's other options still apply");
    } finally {
      await pool.end();
    }
  });

  test("a request's reads set statement_timeout only when what is left of its time moves away from the limit", async () => {
    const timeoutMs = 10_000;
    const pool = new pg.Pool({ ...readPoolConfig(postgresConnection(PG_URL!), timeoutMs), max: 1 });
    const sets: string[] = [];
    pool.on('connect', (client) => {
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      client.query = ((...args: unknown[]) => {
        const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string }).text;
        if (text?.startsWith('set statement_timeout')) sets.push(text);
        return query(...args);
      }) as typeof client.query;
    });
    const db = new Kysely<unknown>({ dialect: new PgReadDialect(pool, timeoutMs) });
    try {
      const limit = async () =>
        (await sql<{ t: string }>`select current_setting('statement_timeout') as t`.execute(db)).rows[0]!.t;
      await withDeadline(timeoutMs, async () => {
        for (let i = 0; i < 20; i++) await sql`select 1`.execute(db);
      });
      assert.deepEqual(sets, [], 'far from the deadline, none');
      // Near it, the limit is what is left, and the read is cancelled when that runs out.
      const started = Date.now();
      await assert.rejects(
        withDeadline(300, () => sql`select pg_sleep(2)`.execute(db)),
        (err: Error & { code?: string }) => err.code === '57014',
      );
      assert.ok(Date.now() - started < 1500, 'cancelled near the deadline');
      assert.equal(sets.length, 1);
      assert.equal(await limit(), '10s', 'raised again for a read without a deadline');
      assert.equal(sets.length, 2);
    } finally {
      await db.destroy();
    }
  });
});
