// The hourly event counts behind the statistics (migrations 0009, 0010): added by every writer
// of events (activity log, generators), taken off by triggers on deletion, and the ranges cut
// into whole hours (from the counts) and partial hours (from the events).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { countsByMessage, splitRange } from '../../src/namespaces/history/stats/range.ts';
import { generateEvents } from '../../src/namespaces/history/bulk/generate.ts';
import { unixToUtc, utcToUnix } from '../../src/site/zone-time.ts';

const origin = { user: null, ip: '', initiator: 'cms' as const };

test('ranges split into whole hours and partial edges', () => {
  assert.deepEqual(splitRange({ fromUtc: '2025-01-01 00:00:00', toUtc: '2025-01-02 23:59:59' }), { hours: ['2025-01-01 00', '2025-01-02 23'], edges: [] });
  assert.deepEqual(splitRange({ fromUtc: '2025-01-01 10:30:00', toUtc: '2025-01-01 12:15:00' }), {
    hours: ['2025-01-01 11', '2025-01-01 11'],
    edges: [['2025-01-01 10:30:00', '2025-01-01 10:59:59'], ['2025-01-01 12:00:00', '2025-01-01 12:15:00']],
  });
  assert.deepEqual(splitRange({ fromUtc: '2025-01-01 10:30:00', toUtc: '2025-01-01 11:15:00' }), { hours: null, edges: [['2025-01-01 10:30:00', '2025-01-01 11:15:00']] });
  assert.deepEqual(splitRange({ fromUtc: '2024-12-31 23:00:01', toUtc: '2025-01-01 01:00:00' }), {
    hours: ['2025-01-01 00', '2025-01-01 00'],
    edges: [['2024-12-31 23:00:01', '2024-12-31 23:59:59'], ['2025-01-01 01:00:00', '2025-01-01 01:00:00']],
  });
  assert.deepEqual(splitRange({ fromUtc: '2025-01-02 00:00:00', toUtc: '2025-01-01 00:00:00' }), { hours: null, edges: [] });
});

for (const target of dbTargets()) {
  describe(`hourly event counts (${target.name})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(target);
    });
    after(() => t.close());

    /** The counts straight from the events, as the statistics counted before migration 0009. */
    async function direct(fromUtc: string, toUtc: string): Promise<Map<string, number>> {
      const rows = await t.app.db
        .selectFrom('history_events')
        .select(['logger', 'message_key', sql<number>`count(*)`.as('n')])
        .where('date', '>=', fromUtc)
        .where('date', '<=', toUtc)
        .groupBy(['logger', 'message_key'])
        .execute();
      return new Map(rows.map((r) => [`${r.logger}:${r.message_key ?? ''}`, Number(r.n)]));
    }

    async function storedMatchesEvents(): Promise<void> {
      const stored = await sql<{ hour: string; logger: string; message_key: string; n: number }>`
        select hour, logger, message_key, n from history_stats_hourly where n <> 0 order by 1, 2, 3`.execute(t.app.db);
      const fromEvents = await sql<{ hour: string; logger: string; message_key: string; n: number }>`
        select substr(date, 1, 13) as hour, logger, coalesce(message_key, '') as message_key, count(*) as n
        from history_events group by 1, 2, 3 order by 1, 2, 3`.execute(t.app.db);
      assert.deepEqual(stored.rows.map((r) => ({ ...r, n: Number(r.n) })), fromEvents.rows.map((r) => ({ ...r, n: Number(r.n) })));
    }

    test('counts follow inserts (in order, back-dated, grouped) and deletions; every range agrees with the events', async () => {
      const base = utcToUnix('2025-03-01 00:00:00');
      const writes: Promise<number>[] = [];
      for (let i = 0; i < 60; i++) {
        const date = unixToUtc(base + i * 1000 + (i % 7) * 13);
        const entry = i % 3 === 0
          ? { logger: 'SimpleUserLogger', messageKey: 'user_logged_in', date }
          : i % 3 === 1
            ? { logger: 'SimplePostLogger', messageKey: 'post_updated', date, context: { post_title: `p${i}` } }
            : { logger: 'CustomLoggerWithoutKey', messageKey: '', date };
        writes.push(t.app.activity.log(entry, origin));
      }
      await Promise.all(writes); // one group: a multi-row insert
      await t.app.activity.log({ logger: 'SimplePostLogger', messageKey: 'post_created', date: '2025-03-01 00:20:00' }, origin); // back-dated
      await storedMatchesEvents();

      const ranges: [string, string][] = [
        ['2025-03-01 00:00:00', '2025-03-01 23:59:59'],
        ['2025-03-01 00:20:00', '2025-03-01 10:59:59'],
        ['2025-03-01 01:30:00', '2025-03-01 05:10:00'],
        ['2025-03-01 02:10:00', '2025-03-01 02:50:00'],
        ['2025-02-28 23:59:59', '2025-03-01 16:00:00'],
      ];
      for (const [fromUtc, toUtc] of ranges) {
        const r = { from: utcToUnix(fromUtc), to: utcToUnix(toUtc), fromUtc, toUtc };
        assert.deepEqual(await countsByMessage(t.app, r), await direct(fromUtc, toUtc), `${fromUtc} … ${toUtc}`);
      }

      await t.app.db.deleteFrom('history_events').where('date', '<', '2025-03-01 03:00:00').execute();
      await storedMatchesEvents();
      const r = { from: 0, to: 0, fromUtc: '2025-03-01 00:00:00', toUtc: '2025-03-01 23:59:59' };
      assert.deepEqual(await countsByMessage(t.app, r), await direct(r.fromUtc, r.toUtc));
      await t.app.db.deleteFrom('history_events').execute();
      await storedMatchesEvents();
    });

    test('the generators count what they write: query builder, bulk, bulk with indexes built afterwards', async () => {
      const now = new Date('2025-06-01T12:00:00Z');
      await generateEvents(t.app, { count: 400, days: 2, now, seed: 3, bulk: false });
      await storedMatchesEvents();
      await generateEvents(t.app, { count: 400, days: 2, now, seed: 4, deferIndexes: false, batchSize: 150 });
      await storedMatchesEvents();
      await generateEvents(t.app, { count: 400, days: 3, now, seed: 5, deferIndexes: true, batchSize: 150 });
      await storedMatchesEvents();
      const stored = await t.app.db.selectFrom('history_stats_hourly').select(sql<number>`sum(n)`.as('n')).executeTakeFirstOrThrow();
      assert.equal(Number(stored.n), 1200);
    });
  });
}
