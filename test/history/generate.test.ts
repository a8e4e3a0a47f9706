// The generator's bulk paths (bulk-sqlite.ts, bulk-postgres.ts, indexes built after the load)
// write exactly the rows the normal write path (insertEvents through the query builder) writes:
// events, context rows in order, run fields and counters; and every index is there afterwards.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { generateEvents, type GenerateOptions } from '../../src/namespaces/history/bulk/generate.ts';
import { utcFormatter } from '../../src/site/time.ts';
import { formatUtc } from '../../src/site/time.ts';
import { FTS_INDEXES } from '../../src/namespaces/history/index/fts.ts';

async function snapshot(t: TestApp) {
  const db = t.app.db;
  const events = await db.selectFrom('history_events').selectAll().orderBy('id').execute();
  const contexts = await db.selectFrom('history_event_contexts').selectAll().orderBy('event_id').execute();
  const counters = await db
    .selectFrom('history_counters')
    .selectAll()
    .where('name', 'in', ['total_logged_events', 'run_heads'])
    .orderBy('name')
    .execute();
  // SQLite's search indexes (index/fts.ts): the events each names for some words.
  const fts: [string, string, number[]][] = [];
  if (t.app.dialect === 'sqlite')
    for (const index of FTS_INDEXES)
      for (const word of ['page', 'example', 'logged', 'plugin'])
        fts.push([
          index.table,
          word,
          (
            await sql<{
              id: number;
            }>`select rowid as id from ${sql.table(index.table)} where ${sql.table(index.table)} match ${`"${word}"`} order by rowid`.execute(
              db,
            )
          ).rows.map((r) => Number(r.id)),
        ]);
  // The buffer a bulk load gives FTS5 (index/fts.ts), set back to FTS5's default for the serving process's writes.
  const ftsBuffers: [string, number | null][] = [];
  if (t.app.dialect === 'sqlite')
    for (const index of FTS_INDEXES) {
      const { rows } = await sql<{
        v: number;
      }>`select v from ${sql.table(`${index.table}_config`)} where k = 'hashsize'`.execute(db);
      ftsBuffers.push([index.table, rows.length ? Number(rows[0]!.v) : null]);
    }
  return { events, contexts, counters: counters.map((c) => [c.name, Number(c.value)]), fts, ftsBuffers };
}

/** The indexes (and SQLite's triggers) of history_events and history_event_contexts as the database defines them (schema names left out). */
async function indexes(t: TestApp): Promise<string[]> {
  if (t.app.dialect === 'sqlite') {
    const { rows } = await sql<{
      name: string;
      sql: string | null;
    }>`select name, sql from sqlite_master where type in ('index', 'trigger') and tbl_name in ('history_events', 'history_event_contexts') order by name`.execute(
      t.app.db,
    );
    return rows.map((r) => `${r.name}: ${r.sql}`);
  }
  const { rows } = await sql<{
    name: string;
    def: string;
  }>`select indexname as name, indexdef as def from pg_indexes where tablename in ('history_events', 'history_event_contexts') and schemaname = current_schema() order by indexname`.execute(
    t.app.db,
  );
  return rows.map((r) => `${r.name}: ${r.def.replace(`${t.pgSchema}.`, '')}`);
}

for (const target of dbTargets()) {
  describe(`events generator: bulk paths write what the normal path writes (${target.name})`, () => {
    let reference: TestApp;
    let fast: TestApp;
    let deferred: TestApp;
    let migrated: string[];
    before(async () => {
      reference = await createTestApp(target);
      fast = await createTestApp(target);
      deferred = await createTestApp(target);
      migrated = await indexes(reference);
      assert.ok(migrated.length >= 10, migrated.join('\n'));
    });
    after(async () => {
      await reference.close();
      await fast.close();
      await deferred.close();
    });

    // The same generation into three databases: query builder, bulk with indexes kept, bulk
    // with indexes dropped and built at the end. Small batches, so runs cross batch borders.
    const generateAll = async (opts: GenerateOptions) => {
      assert.equal(await generateEvents(reference.app, { ...opts, bulk: false }), opts.count);
      assert.equal(await generateEvents(fast.app, { ...opts, deferIndexes: false }), opts.count);
      const progress: number[] = [];
      assert.equal(
        await generateEvents(deferred.app, { ...opts, deferIndexes: true, onProgress: (n) => progress.push(n) }),
        opts.count,
      );
      assert.equal(progress.at(-1), opts.count);
      const want = await snapshot(reference);
      assert.deepEqual(await snapshot(fast), want);
      assert.deepEqual(await snapshot(deferred), want);
      assert.deepEqual(await indexes(fast), migrated);
      assert.deepEqual(await indexes(deferred), migrated);
      return want;
    };

    test('into an empty log', async () => {
      const want = await generateAll({
        count: 2500,
        days: 3,
        seed: 3,
        batchSize: 400,
        now: new Date('2026-03-10T12:00:00Z'),
      });
      assert.equal(want.events.length, 2500);
      assert.deepEqual(
        want.contexts.map((c) => c.event_id),
        want.events.map((e) => e.id),
        'every event has its context',
      );
      assert.ok(want.contexts.every((c) => Object.keys(JSON.parse(c.context) as object).length > 0));
      assert.ok(
        want.events.some((e) => e.run_head === 0),
        'some runs',
      );
      assert.deepEqual(
        want.counters.find(([n]) => n === 'total_logged_events'),
        ['total_logged_events', 2500],
      );
      if (target.name === 'sqlite')
        assert.deepEqual(
          want.ftsBuffers,
          FTS_INDEXES.map((index) => [index.table, 1024 * 1024]),
          "FTS5's default buffer after the load",
        );
    });

    test('appending after the newest row', async () => {
      const want = await generateAll({
        count: 1500,
        days: 1,
        seed: 4,
        batchSize: 300,
        now: new Date('2026-03-11T12:00:00Z'),
      });
      assert.equal(want.events.length, 4000);
    });

    test('between older rows (runs rebuilt)', async () => {
      const want = await generateAll({
        count: 1200,
        days: 2,
        seed: 5,
        batchSize: 500,
        now: new Date('2026-03-11T00:00:00Z'),
      });
      assert.equal(want.events.length, 5200);
    });

    test('a failed deferred load leaves rows and indexes as they were', async () => {
      const was = await snapshot(deferred);
      await assert.rejects(
        generateEvents(deferred.app, {
          count: 1000,
          batchSize: 200,
          deferIndexes: true,
          onProgress: (n) => {
            if (n >= 400) throw new Error('stop here');
          },
        }),
        /stop here/,
      );
      assert.deepEqual(await indexes(deferred), migrated);
      assert.deepEqual(await snapshot(deferred), was);
    });
  });
}

test('generator dates are formatUtc of the time', () => {
  const format = utcFormatter();
  let ms = Date.parse('2025-12-31T23:59:58.500Z');
  for (let i = 0; i < 20000; i++) {
    ms += 1 + ((i * 7919) % 40000) + 0.37;
    assert.equal(format(ms), formatUtc(new Date(ms)));
  }
});
