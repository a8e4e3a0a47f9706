// Occasions maintained on write (runs.ts) must group exactly like grouping at read time,
// whatever order events arrive in (backfilled old dates, equal dates, splits of runs).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { sql } from 'kysely';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { callRoute, userWithRole } from '../support/http.ts';
import { rebuildRuns } from '../../src/namespaces/history/write/runs.ts';
import { generateEvents } from '../../src/namespaces/history/bulk/generate.ts';
import { referenceOverview } from './occasions-model.ts';
import { COUNTER_RUN_HEADS } from '../../src/namespaces/history/model/runs.ts';
import { cutRunCount, groupsInDateRanges, groupsWithout } from '../../src/namespaces/history/read/run-counts.ts';
import {
  groupTotalShortcut,
  inOrderCountFrom,
  onlyDateRanges,
  rowsOutside,
} from '../../src/namespaces/history/read/totals.ts';
import type { EventFilter } from '../../src/namespaces/history/read/query.ts';
import { readCounter } from '../../src/namespaces/history/model/counters.ts';
import { countMatching, countRunsInWorker, selectEventPage } from '../../src/namespaces/history/read/paging.ts';
import { filterCondition } from '../../src/namespaces/history/read/conditions.ts';

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

    test('the groups of rows in date ranges, counted from the run heads, are those of the rows in them', async () => {
      const at = (day: number, minute: number) => `2025-01-0${day} 10:0${minute}:00`;
      const point = fc.record({ day: fc.integer({ min: 1, max: 4 }), minute: fc.integer({ min: 0, max: 3 }) });
      const bound = fc.option(point, { nil: undefined });
      const dateFilter = fc.record({
        from: bound,
        to: bound,
        // Mostly closed ranges, so that several stay apart (their groups may join across a gap).
        ranges: fc.option(fc.array(fc.tuple(point, fc.option(point, { freq: 5 })), { minLength: 1, maxLength: 3 }), {
          nil: undefined,
        }),
      });
      await fc.assert(
        fc.asyncProperty(arrivals(30), dateFilter, async (events, d) => {
          await t.app.db.deleteFrom('history_events').execute();
          await t.app.db.deleteFrom('history_counters').execute();
          for (const e of events) await logArrival(e);
          const date = (b: { day: number; minute: number } | undefined) => b && at(b.day, b.minute);
          const filter: EventFilter = {
            scope: { all: true },
            dateFrom: date(d.from),
            dateTo: date(d.to),
            ranges: d.ranges?.map(([from, to]) => [date(from)!, date(to ?? undefined) ?? null]),
          };
          const ranges = onlyDateRanges(filter);
          if (!ranges) return; // no date at all: not a filter of dates
          const rows = await t.app.db.selectFrom('history_events').select(['id', 'date', 'occasions_id']).execute();
          const inRange = (r: { date: string }) =>
            (!filter.dateFrom || r.date >= filter.dateFrom) &&
            (!filter.dateTo || r.date <= filter.dateTo) &&
            (!filter.ranges || filter.ranges.some(([from, to]) => r.date >= from && (to === null || r.date <= to)));
          const got = await groupsInDateRanges(t.app.db, ranges);
          assert.equal(got.groups, referenceOverview(rows.filter(inRange), 1, 1).total, JSON.stringify(ranges));
          assert.equal(got.maxId, Math.max(...rows.map((r) => r.id)));
          // One range: its pages through the run heads, as the original's (every page, and one past the end).
          if (ranges.length !== 1) return;
          const cond = filterCondition(filter)!;
          for (let page = 1; ; page++) {
            const a = await selectEventPage(t.app, cond, {
              grouped: true,
              page,
              perPage: 2,
              countTotal: true,
              dateSlice: ranges[0],
            });
            const m = referenceOverview(rows.filter(inRange), page, 2);
            assert.deepEqual(
              [a.rows.map((r) => [r.id, a.counts.get(r.id)]), a.total],
              [m.items, m.total],
              `page ${page} of ${JSON.stringify(ranges[0])}`,
            );
            if (!a.rows.length) break;
          }
        }),
        { numRuns: target.name === 'postgres' ? 40 : 150 },
      );
    });

    test('the groups of a filter of levels, loggers, initiators, users or messages are those of the log without the rows it leaves out, and those counted in order', async () => {
      const LEVELS = ['info', 'notice', 'warning'];
      const LOGGERS = ['SimpleOptionsLogger', 'SimplePluginLogger', 'SimpleUserLogger'];
      const INITIATORS = ['cms_user', 'web_user', 'cms'];
      const KEYS = ['a', 'b'];
      const some = <T>(values: T[]) => fc.option(fc.subarray(values, { minLength: 1 }), { nil: undefined });
      const columns = fc.record({
        level: fc.constantFrom(...LEVELS),
        logger: fc.constantFrom(...LOGGERS),
        initiator: fc.constantFrom(...INITIATORS),
        user: fc.constantFrom(null, 1, 2),
        key: fc.constantFrom(...KEYS),
      });
      const setFilter = fc.record({
        loglevels: some(LEVELS),
        loggers: some(LOGGERS),
        initiators: some(INITIATORS),
        excludeLoglevels: some(LEVELS),
        excludeLoggers: some(LOGGERS),
        excludeInitiators: some(INITIATORS),
        excludeUsers: some([1, 2, 3]),
        excludeMessages: fc.option(
          fc
            .subarray(LOGGERS, { minLength: 1 })
            .chain((loggers) =>
              fc.tuple(...loggers.map((l) => fc.tuple(fc.constant(l), fc.subarray(KEYS, { minLength: 1 })))),
            ),
          { nil: undefined },
        ),
      });
      await fc.assert(
        fc.asyncProperty(
          arrivals(30),
          fc.array(columns, { minLength: 30, maxLength: 30 }),
          setFilter,
          async (events, cols, f) => {
            await t.app.db.deleteFrom('history_events').execute();
            await t.app.db.deleteFrom('history_counters').execute();
            const ids: number[] = [];
            for (const e of events) ids.push(await logArrival(e));
            // The columns a filter reads, set apart from the occasions (which alone make the runs).
            for (const [i, id] of ids.entries()) {
              const c = cols[i]!;
              await t.app.db
                .updateTable('history_events')
                .set({ level: c.level, logger: c.logger, initiator: c.initiator, user_id: c.user, message_key: c.key })
                .where('id', '=', id)
                .execute();
            }
            const filter: EventFilter = {
              scope: { all: true },
              ...f,
              excludeMessages: f.excludeMessages && new Map(f.excludeMessages),
            };
            const removed = rowsOutside(filter);
            if (!removed) return; // no condition at all
            const rows = await t.app.db.selectFrom('history_events').selectAll().execute();
            const kept = rows.filter(
              (r) =>
                (!f.loglevels || f.loglevels.includes(r.level)) &&
                (!f.loggers || f.loggers.includes(r.logger)) &&
                (!f.initiators || f.initiators.includes(r.initiator)) &&
                !f.excludeLoglevels?.includes(r.level) &&
                !f.excludeLoggers?.includes(r.logger) &&
                !f.excludeInitiators?.includes(r.initiator) &&
                !(r.user_id !== null && f.excludeUsers?.includes(r.user_id)) &&
                !f.excludeMessages?.some(([l, keys]) => r.logger === l && keys.includes(r.message_key!)),
            );
            const expected = referenceOverview(kept, 1, 1).total;
            const got = await groupsWithout(t.app.db, removed);
            assert.equal(got.groups, expected, JSON.stringify(f));
            // Counted from the index of the filters' columns in the log's order (SQLite), as a broad filter's are.
            const cond = filterCondition({ ...filter, dialect: target.name })!;
            assert.equal(await countMatching(t.app, cond, 'groups', { inOrderFrom: 1 }), expected, 'in order');
          },
        ),
        { numRuns: target.name === 'postgres' ? 30 : 100 },
      );
    });

    test("a count in the log's order, split at the middle of its time, counts a group across the seam once and reports the newest row", async () => {
      await t.app.db.deleteFrom('history_events').execute();
      await t.app.db.deleteFrom('history_counters').execute();
      // Kind 0 from day 1 to day 4 (the middle of the log's time is day 2, 22:00), then kind 1.
      const ids: number[] = [];
      for (const [day, kind] of [
        [1, 0],
        [2, 0],
        [3, 0],
        [4, 0],
        [4, 1],
      ] as const)
        ids.push(await logArrival({ day, minute: kind, kind }));
      const rows = await t.app.db.selectFrom('history_events').select(['id', 'date', 'occasions_id']).execute();
      const expected = referenceOverview(rows, 1, 1).total;
      assert.equal(expected, 2);
      assert.equal(await countMatching(t.app, ALL, 'groups', { inOrderFrom: 1 }), expected);
      if (t.app.dbHandle.readsInWorkers) {
        const counted = await countRunsInWorker(t.app, ALL, { inOrderFrom: 1 });
        assert.deepEqual(counted, { groups: 2, newest: rows.find((r) => r.id === ids[4]) });
        // Nothing matches: no group, no newest row.
        const none = sql<boolean>`${sql.ref('level')} = 'nonexistent'`;
        assert.deepEqual(await countRunsInWorker(t.app, none, { inOrderFrom: 1 }), { groups: 0, newest: null });
      }
    });

    test('a grouped first total is counted from the runs for dates alone, and (SQLite) around a few rows left out', async () => {
      await t.app.db.deleteFrom('history_events').execute();
      await t.app.db.deleteFrom('history_counters').execute();
      const ids: number[] = [];
      for (let i = 0; i < 48; i++) ids.push(await logArrival({ day: 1 + (i % 4), minute: i % 3, kind: i % 2 }));
      // Three rows of another logger, one of them amid rows of its occasions.
      await t.app.db
        .updateTable('history_events')
        .set({ logger: 'SimplePluginLogger' })
        .where('id', 'in', ids.slice(5, 8))
        .execute();
      const rows = await t.app.db.selectFrom('history_events').selectAll().execute();
      const newestId = Math.max(...ids);
      const total = async (filter: EventFilter) => {
        const shortcut = groupTotalShortcut(t.app, filter, {}, rows.length);
        return shortcut && (await shortcut());
      };
      const scope = { all: true } as const;
      const groupsOf = (keep: (r: (typeof rows)[number]) => boolean) =>
        referenceOverview(rows.filter(keep), 1, 1).total;

      const days = {
        scope,
        ranges: [
          ['2025-01-02 00:00:00', '2025-01-02 23:59:59'],
          ['2025-01-04 00:00:00', null],
        ],
      } as EventFilter;
      const inDays = (r: { date: string }) => r.date.startsWith('2025-01-02') || r.date >= '2025-01-04';
      assert.deepEqual(await total(days), { value: groupsOf(inDays), maxId: newestId });

      const withoutPlugins: EventFilter = { scope, excludeLoggers: ['SimplePluginLogger'] };
      const kept = (r: { logger: string }) => r.logger !== 'SimplePluginLogger';
      const options: EventFilter = { scope, loggers: ['SimpleOptionsLogger'] };
      if (target.name === 'sqlite') {
        assert.deepEqual(await total(withoutPlugins), { value: groupsOf(kept), maxId: newestId });
        assert.deepEqual(await total(options), { value: groupsOf(kept), maxId: newestId });
        // More rows left out than a sixteenth of the log: their rows are read instead.
        assert.equal(await total({ scope, loggers: ['SimplePluginLogger'] }), null);
      } else assert.equal(groupTotalShortcut(t.app, withoutPlugins, {}, rows.length), undefined);
      // Another condition beside them: no shortcut.
      assert.equal(groupTotalShortcut(t.app, { ...options, ...days, users: [1] }, {}, rows.length), undefined);
      assert.equal(groupTotalShortcut(t.app, { ...days, excludeLoggers: ['x'] }, {}, rows.length), undefined);
      // And over HTTP, the same totals.
      const admin = (await userWithRole(t.app, 'administrator')).user;
      const get = async (query: Record<string, string | number>) => {
        const res = await callRoute(t.app, 'GET', '/history/v1/events', {
          query: { per_page: 5, ...query },
          user: admin,
        });
        assert.equal(res.status, 200);
        const items = (res.body as { id: number; subsequent_occasions_count: number }[]).map((e) => [
          e.id,
          e.subsequent_occasions_count,
        ]);
        return { total: Number(res.headers['x-wp-total']), items };
      };
      const events = async (query: Record<string, string>) => (await get(query)).total;
      assert.equal(await events({ exclude_loggers: 'SimplePluginLogger' }), groupsOf(kept));
      assert.equal(await events({ loggers: 'SimpleOptionsLogger' }), groupsOf(kept));
      const twoDays = (r: { date: string }) => r.date >= '2025-01-02' && r.date < '2025-01-04';
      assert.equal(await events({ date_from: '2025-01-02', date_to: '2025-01-03' }), groupsOf(twoDays));
      // A range's pages through the run heads, every one and one past the end, as the original's.
      for (let page = 1; ; page++) {
        const got = await get({ date_from: '2025-01-02', date_to: '2025-01-03', page, per_page: 3 });
        assert.deepEqual(got.items, referenceOverview(rows.filter(twoDays), page, 3).items, `page ${page}`);
        if (!got.items.length) break;
      }
      // Two months, one of them empty: the total of the ranges.
      assert.equal(
        await events({ months: '2024-12,2025-01' }),
        groupsOf(() => true),
      );
    });

    test('over HTTP, the grouped total of a filter of most of the log is counted in its order (SQLite: from the filters index)', async () => {
      // A log of its own: the share of the log is reckoned from the newest id, which earlier tests raised.
      const own = await createTestApp(target);
      try {
        for (let i = 0; i < 40; i++) {
          await own.app.activity.log(
            {
              logger: i % 7 === 0 ? 'SimplePluginLogger' : 'SimpleOptionsLogger',
              messageKey: i % 7 === 0 ? 'plugin_activated' : 'option_updated',
              date: `2025-01-0${1 + (i % 4)} 10:0${i % 3}:00`,
              context: { option: `o${i % 2}`, option_page: 'p', plugin_name: 'p' },
            },
            { user: null, ip: '' },
          );
        }
        const rows = await own.app.db.selectFrom('history_events').selectAll().execute();
        const wanted = (r: { date: string; logger: string }) =>
          r.date >= '2025-01-02' && r.logger === 'SimpleOptionsLogger';
        const filter: EventFilter = {
          scope: { all: true },
          dateFrom: '2025-01-02 00:00:00',
          loggers: ['SimpleOptionsLogger'],
        };
        const from = inOrderCountFrom(own.app, filter, {}, Math.max(...rows.map((r) => r.id)));
        if (target.name === 'sqlite') assert.ok(from !== undefined && rows.filter(wanted).length >= from);
        else assert.equal(from, undefined);
        const res = await callRoute(own.app, 'GET', '/history/v1/events', {
          query: { date_from: '2025-01-02', loggers: 'SimpleOptionsLogger', per_page: 5 },
          user: (await userWithRole(own.app, 'administrator')).user,
        });
        assert.equal(res.status, 200);
        assert.equal(Number(res.headers['x-wp-total']), referenceOverview(rows.filter(wanted), 1, 5).total);
      } finally {
        await own.close();
      }
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
