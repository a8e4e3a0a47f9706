// Occasions maintained on write (runs.ts) must group exactly like grouping at read time,
// whatever order events arrive in (backfilled old dates, equal dates, splits of runs).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { sql } from 'kysely';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { rebuildRuns } from '../../src/namespaces/history/write/runs.ts';
import { generateEvents } from '../../src/namespaces/history/bulk/generate.ts';
import { referenceOverview } from './occasions-model.ts';
import { COUNTER_RUN_HEADS } from '../../src/namespaces/history/model/runs.ts';
import { cutRunCount, groupsWithout } from '../../src/namespaces/history/read/heads.ts';
import { readCounter } from '../../src/namespaces/history/model/counters.ts';
import { selectEventPage } from '../../src/namespaces/history/read/paging.ts';

const ALL = sql<boolean>`1 = 1`;

/** Every page grouped from the maintained runs (fast), by walking the rows (slow), and by the original's rule (model). */
async function groupedBothWays(t: TestApp, perPage: number, maxId?: number) {
  const fast: unknown[] = [];
  const slow: unknown[] = [];
  const model: unknown[] = [];
  const cond = maxId === undefined ? ALL : sql<boolean>`${sql.ref('id')} <= ${maxId}`;
  const rows = (await t.app.db.selectFrom('history_events').select(['id', 'date', 'occasions_id']).execute()).filter(
    (r) => maxId === undefined || r.id <= maxId,
  );
  for (let page = 1; ; page++) {
    const a = await selectEventPage(t.app, cond, {
      grouped: true,
      page,
      perPage,
      countTotal: true,
      unfiltered: true,
      maxId,
    });
    const b = await selectEventPage(t.app, cond, { grouped: true, page, perPage, countTotal: true, unfiltered: false });
    fast.push([a.rows.map((r) => [r.id, a.counts.get(r.id)]), a.total]);
    slow.push([b.rows.map((r) => [r.id, b.counts.get(r.id)]), b.total]);
    const m = referenceOverview(rows, page, perPage);
    model.push([m.items, m.total]);
    if (!a.rows.length && !b.rows.length) break;
  }
  assert.deepEqual(slow, model, `walked pages as the original's${maxId === undefined ? '' : `, max id ${maxId}`}`);
  return { fast, slow };
}

interface Arrival {
  day: number;
  minute: number;
  kind: number;
}

/** Events arriving in random order, of three kinds (occasions), with equal dates and back-dated days; some marked `removed`. */
function arrivals(maxLength: number): fc.Arbitrary<(Arrival & { removed: boolean })[]> {
  return fc.array(
    fc.record({
      day: fc.integer({ min: 1, max: 4 }),
      minute: fc.integer({ min: 0, max: 3 }),
      kind: fc.integer({ min: 0, max: 2 }),
      removed: fc.boolean(),
    }),
    { minLength: 1, maxLength },
  );
}

for (const target of dbTargets()) {
  describe(`occasions maintained on write (${target.name})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(target);
    });
    after(() => t.close());

    /** Logs an option change of the arrival's kind at its date (equal dates and back-dated days: runs split and joined on write). */
    const logArrival = (e: Arrival) =>
      t.app.activity.log(
        {
          logger: 'SimpleOptionsLogger',
          messageKey: 'option_updated',
          date: `2025-01-0${e.day} 10:0${e.minute}:00`,
          context: { option: `o${e.kind}`, option_page: 'p' },
        },
        { user: null, ip: '' },
      );

    test('random arrival orders group like the window query', async () => {
      await fc.assert(
        fc.asyncProperty(arrivals(25), async (events) => {
          await t.app.db.deleteFrom('history_events').execute();
          await t.app.db.deleteFrom('history_counters').execute();
          for (const e of events) await logArrival(e);
          const { fast, slow } = await groupedBothWays(t, 3);
          assert.deepEqual(fast, slow);
          // Cut at every id (max_id_first_page), including ids whose later rows were back-dated.
          const ids = (await t.app.db.selectFrom('history_events').select('id').execute()).map((r) => r.id);
          for (const maxId of [...ids, 0, Math.max(...ids) + 5]) {
            const cut = await groupedBothWays(t, 2, maxId);
            assert.deepEqual(cut.fast, cut.slow, `max id ${maxId}`);
            // Both ways of counting the groups of a cut log: neighbours of few cut-off rows, or a walk.
            const expected = (cut.slow[0] as [unknown, number])[1];
            if (expected > 0) {
              assert.equal(await cutRunCount(t.app.db, maxId, { few: 1000 }), expected, `neighbours, max id ${maxId}`);
              assert.equal(await cutRunCount(t.app.db, maxId, { few: 0 }), expected, `walk, max id ${maxId}`);
            }
          }
        }),
        { numRuns: 30 },
      );
    });

    test('the groups of the log without some rows, counted around them, are those of the rows kept', async () => {
      await fc.assert(
        fc.asyncProperty(arrivals(30), async (events) => {
          await t.app.db.deleteFrom('history_events').execute();
          await t.app.db.deleteFrom('history_counters').execute();
          const removed = new Set<number>();
          for (const e of events) {
            const id = await logArrival(e);
            if (e.removed) removed.add(id);
          }
          const rows = await t.app.db.selectFrom('history_events').select(['id', 'date', 'occasions_id']).execute();
          const kept = rows.filter((r) => !removed.has(r.id));
          const got = await groupsWithout(
            t.app.db,
            sql`select id from history_events where id in (${sql.join([0, ...removed])})`,
          );
          assert.equal(got.groups, referenceOverview(kept, 1, 1).total);
          assert.equal(got.maxId, Math.max(...rows.map((r) => r.id)));
        }),
        { numRuns: target.name === 'postgres' ? 40 : 100 },
      );
    });

    test('a walk that skips long groups through the maintained runs groups like one computed from all rows', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.record({
              day: fc.integer({ min: 1, max: 4 }),
              kind: fc.integer({ min: 0, max: 2 }),
              warning: fc.boolean(),
            }),
            { minLength: 1, maxLength: 40 },
          ),
          fc.record({
            level: fc.constantFrom(null, 'info', 'warning'),
            notDay: fc.integer({ min: 0, max: 4 }),
            notKind: fc.integer({ min: -1, max: 2 }),
          }),
          fc.integer({ min: 1, max: 3 }),
          async (events, f, longGroup) => {
            await t.app.db.deleteFrom('history_events').execute();
            await t.app.db.deleteFrom('history_counters').execute();
            const kindOf = new Map<number, number>();
            for (const e of events) {
              // Equal dates within a day, back-dated days: runs split and joined by linkIntoRuns.
              const id = await t.app.activity.log(
                {
                  logger: 'SimpleOptionsLogger',
                  messageKey: 'option_updated',
                  level: e.warning ? 'warning' : 'info',
                  date: `2025-01-0${e.day} 10:00:00`,
                  context: { option: `o${e.kind}`, option_page: 'p' },
                },
                { user: null, ip: '' },
              );
              kindOf.set(id, e.kind);
            }
            const rows = await t.app.db
              .selectFrom('history_events')
              .select(['id', 'date', 'level', 'occasions_id'])
              .execute();
            // The filters either keep or drop whole runs (level, kind) or cut into them (day).
            const match = (r: (typeof rows)[number]) =>
              (f.level === null || r.level === f.level) &&
              !r.date.startsWith(`2025-01-0${f.notDay} `) &&
              kindOf.get(r.id) !== f.notKind;
            const excludedOccasions = rows.filter((r) => kindOf.get(r.id) === f.notKind).map((r) => r.occasions_id);
            const cond = sql<boolean>`${sql.ref('level')} like ${f.level ?? '%'} and ${sql.ref('date')} not like ${`2025-01-0${f.notDay} %`} and ${sql.ref('occasions_id')} not in (${sql.join(['-', ...excludedOccasions])})`;
            const total = referenceOverview(rows.filter(match), 1, 2).total;
            for (let page = 1; page <= total + 1; page++) {
              const got = await selectEventPage(t.app, cond, {
                grouped: true,
                page,
                perPage: 2,
                countTotal: page === 1,
                longGroup,
              });
              assert.deepEqual(
                got.rows.map((r) => [r.id, got.counts.get(r.id)]),
                referenceOverview(rows.filter(match), page, 2).items,
                `page ${page}, skipping after ${longGroup} rows`,
              );
              if (page === 1) assert.equal(got.total, total);
            }
          },
        ),
        { numRuns: target.name === 'postgres' ? 40 : 80 },
      );
    });

    test('a long run shows its highest id, found among the ids above it or by date', async () => {
      await t.app.db.deleteFrom('history_events').execute();
      await t.app.db.deleteFrom('history_counters').execute();
      const log = (option: string, date: string) =>
        t.app.activity.log(
          { logger: 'SimpleOptionsLogger', messageKey: 'option_updated', date, context: { option, option_page: 'p' } },
          { user: null, ip: '' },
        );
      const minute = (n: number) =>
        new Date(Date.UTC(2025, 0, 1) + n * 60_000).toISOString().slice(0, 19).replace('T', ' ');
      // A flood of one occasion longer than a run read by date at once (2,000 rows).
      await Promise.all(Array.from({ length: 2100 }, (_, i) => log('flood', minute(i))));
      // Every page as the original's (groupedBothWays compares the walk with the model).
      const check = async () => {
        const { fast, slow } = await groupedBothWays(t, 3);
        assert.deepEqual(fast, slow);
      };
      // Back-dated into it: the newest row heads the maintained run, the back-dated one has the highest id.
      await log('flood', minute(1000));
      await check();
      // Many newer rows above it (in a few runs): its highest id is read by date.
      await Promise.all(Array.from({ length: 2200 }, (_, i) => log(`o${Math.floor(i / 500)}`, minute(3000 + i))));
      await log('flood', minute(1500));
      await check();
    });

    test('concurrent writes are group-committed and grouped correctly', async () => {
      await t.app.db.deleteFrom('history_events').execute();
      await t.app.db.deleteFrom('history_counters').execute();
      const calls = Array.from({ length: 300 }, (_, i) =>
        t.app.activity.log(
          {
            logger: 'SimpleOptionsLogger',
            messageKey: 'option_updated',
            context: { option: `o${Math.floor(i / 7) % 3}`, option_page: 'p' },
            // Every 50th event is back-dated between existing ones.
            ...(i % 50 === 49 ? { date: '2020-01-01 00:00:00' } : {}),
          },
          { user: null, ip: '' },
        ),
      );
      const ids = await Promise.all(calls);
      assert.equal(new Set(ids).size, 300);
      assert.ok(ids.every((id) => id > 0));
      const { fast, slow } = await groupedBothWays(t, 20);
      assert.deepEqual(fast, slow);
    });

    test('bulk generation appends runs; rebuild agrees', async () => {
      await t.app.db.deleteFrom('history_events').execute();
      await t.app.db.deleteFrom('history_counters').execute();
      await generateEvents(t.app, { count: 700, days: 2 });
      const { fast, slow } = await groupedBothWays(t, 50);
      assert.deepEqual(fast, slow);
      const heads = await readCounter(t.app.db, COUNTER_RUN_HEADS);
      await rebuildRuns(t.app.db);
      assert.equal(await readCounter(t.app.db, COUNTER_RUN_HEADS), heads);
      // A second generation overlaps the first in time: rebuilt at the end.
      await generateEvents(t.app, { count: 300, days: 2, seed: 7 });
      const again = await groupedBothWays(t, 50);
      assert.deepEqual(again.fast, again.slow);
    });
  });
}
