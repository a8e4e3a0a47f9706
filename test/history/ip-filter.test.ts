// The `ip_address` filter with `.x` wildcards: a narrow prefix is read through the address
// index (its range), a broad one tested on rows read by date; both forms select the same rows,
// on both databases. PostgreSQL compares addresses byte by byte (migration 0012), so that the
// range is exactly the addresses starting with the prefix, whatever the database's collation.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CompiledQuery, sql } from 'kysely';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { loadFixture } from './fixture.ts';
import type { EventFilter } from '../../src/namespaces/history/read/query.ts';
import { ipFilterCondition } from '../../src/namespaces/history/model/ip.ts';
import type { LoggerScope } from '../../src/site/loggers.ts';
import { filterCondition } from '../../src/namespaces/history/read/conditions.ts';
import { isNarrowIpRange, type QueryPlan } from '../../src/namespaces/history/read/plan.ts';

const ALL: LoggerScope = { all: true };

for (const target of dbTargets()) {
  describe(`ip_address filter (${target.name})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(target);
      await loadFixture(t.app);
    });
    after(() => t.close());

    const ids = async (f: EventFilter, plan: QueryPlan = {}) => {
      const rows = await t.app.db
        .selectFrom('history_events')
        .select('id')
        .where(filterCondition(f, plan)!)
        .orderBy('id')
        .execute();
      return rows.map((r) => r.id);
    };

    test('the index range and the LIKE alone select the same rows', async () => {
      const found: Record<string, number> = {};
      for (const pattern of [
        '192.168.x.x',
        '192.168.2.x',
        '192.168.1.x',
        '10.0.0.x',
        '10.0.x.5',
        '172.16.0.x',
        '192.169.x.x',
        '203.0.113.x',
      ]) {
        const ip = ipFilterCondition(pattern);
        assert.ok(ip.like);
        const a = await ids({ scope: ALL, ip }, { ipNarrow: true });
        assert.deepEqual(a, await ids({ scope: ALL, ip }, { ipNarrow: false }), pattern);
        found[pattern] = a.length;
      }
      assert.deepEqual(found, {
        '192.168.x.x': 9,
        '192.168.2.x': 5,
        '192.168.1.x': 4,
        '10.0.0.x': 4,
        '10.0.x.5': 0,
        '172.16.0.x': 1,
        '192.169.x.x': 0,
        '203.0.113.x': 1,
      });
    });

    test('a prefix is narrow while its range holds at most the limit of rows', async () => {
      const mark = (pattern: string, limit?: number) => isNarrowIpRange(t.app.db, ipFilterCondition(pattern), limit);
      assert.equal(await mark('192.168.x.x'), true);
      assert.equal(await mark('192.168.x.x', 9), true);
      assert.equal(await mark('192.168.x.x', 8), false);
      assert.equal(await mark('192.168.2.x', 5), true);
      assert.equal(await mark('192.168.1.10'), undefined, 'an exact address needs no range');
    });

    test('a narrow prefix is read through the address index', async () => {
      const ip = ipFilterCondition('192.168.2.x');
      assert.ok(ip.like);
      const query = t.app.db
        .selectFrom('history_events')
        .select('id')
        .where(filterCondition({ scope: ALL, ip }, { ipNarrow: true })!)
        .orderBy('date', 'desc')
        .compile();
      if (t.app.dialect === 'sqlite') {
        const plan = await t.app.db.executeQuery<{ detail: string }>(
          CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
        );
        assert.match(
          plan.rows.map((r) => r.detail).join('\n'),
          /history_events_addr \(remote_addr>\? AND remote_addr<\?\)/,
        );
      } else {
        // Byte order: the range holds exactly the addresses starting with the prefix, and
        // PostgreSQL may also serve a LIKE prefix from the index.
        const column = await sql<{
          collation_name: string | null;
        }>`select collation_name from information_schema.columns
          where table_schema = current_schema() and table_name = 'history_events' and column_name = 'remote_addr'`.execute(
          t.app.db,
        );
        assert.equal(column.rows[0]?.collation_name, 'C');
        const plan = await t.app.db.connection().execute(async (db) => {
          await sql`set enable_seqscan = off`.execute(db);
          try {
            return await db.executeQuery<{ 'QUERY PLAN': string }>(
              CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]),
            );
          } finally {
            await sql`reset enable_seqscan`.execute(db);
          }
        });
        assert.match(plan.rows.map((r) => r['QUERY PLAN']).join('\n'), /history_events_addr/);
      }
    });
  });
}
