// Reads that SQLite would otherwise run in one long statement, holding every other request:
// grouped totals are counted in chunks of matching rows (events.ts countMatching), and reads
// that test row after row go in slices (slices.ts). Whatever the chunk and slice sizes and the
// filter, the answers must equal those made from all rows, and the event loop must run between
// chunks and slices.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { sql, type SqlBool } from 'kysely';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { accessFromPlan, countRows, newestFirst, type Position } from '../../src/namespaces/history/read/slices.ts';
import { countMatching } from '../../src/namespaces/history/read/paging.ts';

const date = (day: number, minute: number) => `2025-01-0${day} 10:0${minute}:00`;
const pick = (r: { id: number; date: string }) => ({ id: r.id, date: r.date });

for (const target of dbTargets()) {
  describe(`reads in chunks and slices (${target.name})`, () => {
    let t: TestApp;
    /** With read workers (SQLite: grouped totals in one statement of a worker). */
    let tw: TestApp;
    before(async () => {
      // Slices share the main connection's event loop with other requests; read workers take
      // the statements off it, and the turns counted here with them: the main connection reads.
      t = await createTestApp(target, { DB_READ_WORKERS: '0' });
      tw = await createTestApp(target, { DB_READ_WORKERS: '1' });
    });
    after(async () => {
      await t.close();
      await tw.close();
    });

    async function freshLog(
      events: { day: number; minute: number; kind: number; warning: boolean }[],
      app: TestApp['app'] = t.app,
    ) {
      await app.db.deleteFrom('history_events').execute();
      await app.db.deleteFrom('history_counters').execute();
      // Arrival order is random: back-dated events and equal dates, so that (date, id) order differs from id order.
      for (const e of events) {
        await app.activity.log(
          {
            logger: 'SimpleOptionsLogger',
            messageKey: 'option_updated',
            level: e.warning ? 'warning' : 'info',
            date: date(e.day, e.minute),
            context: { option: `o${e.kind}`, option_page: 'p' },
          },
          { user: null, ip: '' },
        );
      }
      return app.db.selectFrom('history_events').select(['id', 'date', 'level', 'occasions_id']).execute();
    }

    test('groups counted in chunks equal groups made from all rows', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.record({
              day: fc.integer({ min: 1, max: 5 }),
              minute: fc.integer({ min: 0, max: 2 }),
              kind: fc.integer({ min: 0, max: 2 }),
              warning: fc.boolean(),
            }),
            { minLength: 0, maxLength: 50 },
          ),
          fc.constantFrom(null, 'info', 'warning'),
          fc.option(fc.integer({ min: 1, max: 5 })),
          fc.integer({ min: 1, max: 7 }),
          async (events, level, notDay, chunkRows) => {
            const rows = await freshLog(events);
            await freshLog(events, tw.app);
            // Levels keep or drop whole runs; a day cuts into them.
            const cond = sql<SqlBool>`${sql.ref('level')} like ${level ?? '%'} and ${sql.ref('date')} not like ${`2025-01-0${notDay ?? 0} %`}`;
            const matching = rows
              .filter((r) => (!level || r.level === level) && !r.date.startsWith(`2025-01-0${notDay} `))
              .sort((a, b) => (a.date === b.date ? b.id - a.id : a.date < b.date ? 1 : -1));
            const groups = matching.filter((r, i) => i === 0 || matching[i - 1].occasions_id !== r.occasions_id).length;
            assert.equal(
              await countMatching(t.app, cond, 'groups', { chunkRows }),
              groups,
              `in chunks of ${chunkRows}`,
            );
            assert.equal(await countMatching(t.app, cond, 'groups'), groups, 'in one chunk');
            assert.equal(await countMatching(tw.app, cond, 'groups'), groups, 'with a read worker');
            assert.equal(await countMatching(t.app, cond, 'rows'), matching.length);
          },
        ),
        { numRuns: target.name === 'postgres' ? 25 : 60 },
      );
    });

    /** The result of `read`, and how often the event loop turned meanwhile. */
    async function withTurns<T>(read: () => Promise<T>): Promise<{ value: T; turns: number }> {
      let turns = 0;
      let reading = true;
      const turn = () => {
        turns++;
        if (reading) setImmediate(turn);
      };
      setImmediate(turn);
      const value = await read();
      reading = false;
      return { value, turns };
    }

    const onlySqlite = { skip: target.name !== 'sqlite' && 'PostgreSQL reads in one statement on its own connection' };

    test('the event loop runs between chunks', onlySqlite, async () => {
      await freshLog(
        Array.from({ length: 200 }, (_, i) => ({ day: 1 + (i % 5), minute: i % 3, kind: i % 3, warning: false })),
      );
      const { value: n, turns } = await withTurns(() =>
        countMatching(t.app, sql<SqlBool>`1 = 1`, 'groups', { chunkRows: 10 }),
      );
      assert.ok(n > 0);
      assert.ok(turns >= 15, `only ${turns} turns of the event loop during a count in 20 chunks`);
    });

    // No index serves a LIKE, nor holds search_text: SQLite walks the date index for this
    // condition, and scans the table to count it. `level =` is served by the level index.
    const unindexed = (level: string | null) =>
      sql<SqlBool>`${sql.ref('level')} like ${level ?? '%'} and ${sql.ref('search_text')} like '%'`;

    test('rows read and counted in slices equal those of all rows', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.record({
              day: fc.integer({ min: 1, max: 5 }),
              minute: fc.integer({ min: 0, max: 2 }),
              kind: fc.integer({ min: 0, max: 2 }),
              warning: fc.boolean(),
            }),
            { minLength: 0, maxLength: 40 },
          ),
          fc.constantFrom(null, 'info', 'warning'),
          fc.boolean(),
          fc.option(fc.record({ at: fc.nat(), inclusive: fc.boolean() })),
          fc.integer({ min: 1, max: 12 }),
          fc.boolean(),
          fc.record({
            walkFirst: fc.integer({ min: 1, max: 3 }),
            walkMost: fc.integer({ min: 1, max: 6 }),
            countFirst: fc.integer({ min: 1, max: 5 }),
            countMost: fc.integer({ min: 1, max: 5 }),
            ms: fc.constantFrom(0.001, 10),
          }),
          fc.integer({ min: 0, max: 15 }),
          fc.option(fc.tuple(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 0, max: 4 }))),
          async (events, level, indexed, start, limit, few, slices, offset, days) => {
            const rows = (await freshLog(events)).sort((a, b) =>
              a.date === b.date ? b.id - a.id : a.date < b.date ? 1 : -1,
            );
            // A range of days, with the walk told its dates.
            const dates = days ? { from: date(days[0], 0), to: date(Math.min(5, days[0] + days[1]), 2) } : {};
            const inDays = (r: { date: string }) => !days || (r.date >= dates.from! && r.date <= dates.to!);
            const levelCond = indexed && level ? sql<SqlBool>`${sql.ref('level')} = ${level}` : unindexed(level);
            const cond = days
              ? sql<SqlBool>`${levelCond} and ${sql.ref('date')} >= ${dates.from} and ${sql.ref('date')} <= ${dates.to}`
              : levelCond;
            // Any row of the log is a position to read from, matching or not.
            const from: Position | null =
              start && rows.length ? { ...pick(rows[start.at % rows.length]!), inclusive: start.inclusive } : null;
            const matching = rows.filter((r) => (!level || r.level === level) && inDays(r));
            const below = matching.filter(
              (r) =>
                !from ||
                r.date < from.date ||
                (r.date === from.date && (from.inclusive ? r.id <= from.id : r.id < from.id)),
            );
            const read = await newestFirst(t.app, cond, from, limit, { slices, few, dates });
            assert.deepEqual(read.map(pick), below.slice(0, limit).map(pick), `slices ${JSON.stringify(slices)}`);
            const skipped = await newestFirst(t.app, cond, from, limit, { slices, few, offset, dates });
            assert.deepEqual(
              skipped.map(pick),
              below.slice(offset, offset + limit).map(pick),
              `offset ${offset}, slices ${JSON.stringify(slices)}`,
            );
            assert.equal(await countRows(t.app, cond, slices), matching.length);
          },
        ),
        {
          numRuns: target.name === 'postgres' ? 25 : 80,
          // A slice ending at the range's first date, with another row of that date below it.
          examples: [
            [
              [
                { day: 5, minute: 0, kind: 0, warning: false },
                { day: 5, minute: 0, kind: 0, warning: false },
              ],
              null,
              false,
              null,
              2,
              false,
              { walkFirst: 1, walkMost: 1, countFirst: 1, countMost: 1, ms: 0.001 },
              0,
              [5, 0],
            ],
          ],
        },
      );
    });

    test('the event loop runs between slices; reads an index serves are one statement', onlySqlite, async () => {
      await freshLog(
        Array.from({ length: 60 }, (_, i) => ({ day: 1 + (i % 5), minute: i % 3, kind: i % 3, warning: i % 2 === 0 })),
      );
      const slices = { walkFirst: 2, walkMost: 2, countFirst: 2, countMost: 2, ms: 10 };
      const walked = await withTurns(() => newestFirst(t.app, unindexed('warning'), null, 100, { slices }));
      assert.equal(walked.value.length, 30);
      assert.ok(walked.turns >= 20, `only ${walked.turns} turns of the event loop during a walk in 30 slices`);
      const counted = await withTurns(() => countRows(t.app, unindexed('warning'), slices));
      assert.equal(counted.value, 30);
      assert.ok(counted.turns >= 20, `only ${counted.turns} turns of the event loop during a count in 30 slices`);

      const indexed = sql<SqlBool>`${sql.ref('level')} = ${'warning'}`;
      assert.ok(
        (await withTurns(() => newestFirst(t.app, indexed, null, 100, { slices }))).turns <= 1,
        'the level index leads: one statement',
      );
      assert.ok(
        (await withTurns(() => newestFirst(t.app, unindexed('warning'), null, 100, { slices, few: true }))).turns <= 1,
        'few rows: one statement',
      );
      assert.ok((await withTurns(() => countRows(t.app, indexed, slices))).turns <= 1);
    });

    test('a walk of a date range reads the log between its dates only', onlySqlite, async () => {
      // Five days of 12 events; slices of two rows: a walk from the log's top to its end takes 30.
      await freshLog(
        Array.from({ length: 60 }, (_, i) => ({ day: 1 + (i % 5), minute: i % 3, kind: i % 3, warning: i % 2 === 0 })),
      );
      const slices = { walkFirst: 2, walkMost: 2, countFirst: 2, countMost: 2, ms: 10 };
      const days = (from: number, to: number) => ({ from: `2025-01-0${from} 00:00:00`, to: `2025-01-0${to} 23:59:59` });
      const between = ({ from, to }: { from: string; to: string }) =>
        sql<SqlBool>`${unindexed('warning')} and ${sql.ref('date')} >= ${from} and ${sql.ref('date')} <= ${to}`;
      for (const [name, dates] of [
        ['the oldest day', days(1, 1)],
        ['the newest day', days(5, 5)],
        ['a middle day', days(3, 3)],
      ] as const) {
        const unbounded = await newestFirst(t.app, between(dates), null, 100, { slices });
        const walked = await withTurns(() => newestFirst(t.app, between(dates), null, 100, { slices, dates }));
        assert.deepEqual(walked.value.map(pick), unbounded.map(pick), name);
        assert.equal(walked.value.length, 6, name);
        assert.ok(walked.turns <= 9, `${name}: ${walked.turns} slices for a day of 12 events`);
        const counted = await withTurns(() => countMatching(t.app, between(dates), 'groups', { slices, dates }));
        assert.equal(counted.value, await countMatching(t.app, between(dates), 'groups'), name);
        assert.ok(counted.turns <= 12, `${name}: ${counted.turns} turns counting a day of 12 events`);
      }
    });

    test('the plan line of the log itself decides', () => {
      const access = (...details: string[]) => accessFromPlan(details);
      const exists = [
        'SEARCH x EXISTS USING INTEGER PRIMARY KEY (rowid=?)',
        'CORRELATED SCALAR SUBQUERY 1',
        'SCAN c VIRTUAL TABLE INDEX 1:',
      ];
      assert.deepEqual(access('SCAN history_events USING INDEX history_events_date'), {
        dateIndex: true,
        inOrderIndex: false,
        testsEveryRow: true,
      });
      assert.deepEqual(access('SEARCH history_events USING INDEX history_events_date (date>?)', ...exists), {
        dateIndex: true,
        inOrderIndex: false,
        testsEveryRow: false,
      });
      assert.deepEqual(
        access('SEARCH history_events USING COVERING INDEX history_events_filters_in_order (date>? AND date<?)'),
        { dateIndex: false, inOrderIndex: true, testsEveryRow: false },
        "the index of the filters in the log's order",
      );
      assert.deepEqual(access('SCAN history_events'), { dateIndex: false, inOrderIndex: false, testsEveryRow: true });
      assert.deepEqual(access('SCAN history_events USING COVERING INDEX history_events_user', ...exists), {
        dateIndex: false,
        inOrderIndex: false,
        testsEveryRow: true,
      });
      assert.deepEqual(
        access('SCAN history_events USING COVERING INDEX history_events_user'),
        { dateIndex: false, inOrderIndex: false, testsEveryRow: false },
        'a plain index scan',
      );
      assert.deepEqual(access('SEARCH history_events USING INDEX history_events_level (level=?)', ...exists), {
        dateIndex: false,
        inOrderIndex: false,
        testsEveryRow: false,
      });
      assert.deepEqual(access('SEARCH history_events USING INDEX history_events_date_x (date>?)'), {
        dateIndex: false,
        inOrderIndex: false,
        testsEveryRow: false,
      });
      assert.deepEqual(access('SCAN n', 'SEARCH history_events USING INTEGER PRIMARY KEY (rowid=?)'), {
        dateIndex: false,
        inOrderIndex: false,
        testsEveryRow: false,
      });
    });
  });
}
