// The log's columns (src/namespaces/history/columns) must count every filter they take exactly
// as the SQL condition does: rows, groups, the newest matching row and pages, after events arrive in
// any order (back-dated, equal dates), are appended or purged.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { sql } from 'kysely';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import type { EventFilter } from '../../src/namespaces/history/read/query.ts';
import { countMatching, loadRows, newestFirstRows, selectEventPage } from '../../src/namespaces/history/read/paging.ts';
import { pageFromColumns, type ColumnsPage } from '../../src/namespaces/history/columns/page.ts';
import { dateWindow, filterCondition } from '../../src/namespaces/history/read/conditions.ts';
import { logState } from '../../src/namespaces/history/read/caches.ts';
import { columnsAt, columnsWalker } from '../../src/namespaces/history/columns/sync.ts';
import { countFromColumns } from '../../src/namespaces/history/columns/count.ts';
import { LogColumns } from '../../src/namespaces/history/columns/store.ts';
import { idBits } from '../../src/namespaces/history/model/id-bits.ts';
import { strictUtcSeconds } from '../../src/site/zone-time.ts';
import { purgeEvents } from '../../src/namespaces/history/write/maintenance.ts';
import { callRoute, userWithRole } from '../support/http.ts';
import { assertListedAsWalked } from './support.ts';
import type { AuthUser } from '../../src/auth/types.ts';
import { generateEvents } from '../../src/namespaces/history/bulk/generate.ts';
import { eventFilterFromParams } from '../../src/namespaces/history/read/query.ts';
import { indexPlan } from '../../src/namespaces/history/read/plan.ts';
import { newestEventId } from '../../src/namespaces/history/model/counters.ts';
import { WalkThread, walkHere, type Walker } from '../../src/namespaces/history/columns/walk-thread.ts';

/** A walk thread of the tests' own: every walk is checked here and in it, over the same shared arrays. */
const walkThread = new WalkThread((err) => assert.fail(`the walk thread failed: ${err.message}`));
after(() => walkThread.stop());
const WALKERS: [string, Walker][] = [
  ['here', walkHere],
  ['in the walk thread', walkThread.walk],
];

const ALL = { all: true, slugs: [] };
/** Slices of one to three rows: a walk by dates crosses its ranges' ends within a few rows. */
const TINY_SLICES = { walkFirst: 1, walkMost: 3, countFirst: 1, countMost: 3, ms: 10 };
import { ipFilterCondition } from '../../src/namespaces/history/model/ip.ts';

const LEVELS = ['info', 'notice', 'warning'];
const LOGGERS = ['SimpleOptionsLogger', 'SimplePluginLogger', 'SimpleUserLogger'];
const KEYS = ['option_updated', 'plugin_activated', 'user_logged_in'];
const INITIATORS = ['cms_user', 'cms', 'web_user'];

const day = (d: number, minute: number) => `2025-01-0${d} 10:0${minute}:00`;

const row = fc.record({
  day: fc.integer({ min: 1, max: 4 }),
  minute: fc.integer({ min: 0, max: 3 }),
  kind: fc.integer({ min: 0, max: 2 }),
  level: fc.constantFrom(...LEVELS),
  logger: fc.constantFrom(...LOGGERS),
  key: fc.option(fc.constantFrom(...KEYS), { nil: null }),
  initiator: fc.constantFrom(...INITIATORS),
  user: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }),
  addr: fc.constantFrom(
    '10.0.1.x',
    '10.0.2.x',
    '10.1.0.x',
    '10.0.1.0',
    '010.0.1.x',
    '2001:db8::',
    '2001:db8::1',
    '',
    null,
  ),
});
type Row = typeof row extends fc.Arbitrary<infer T> ? T : never;

const list = <T>(values: readonly T[]) => fc.option(fc.subarray([...values], { minLength: 1 }), { nil: undefined });
const bound = fc.option(
  fc.tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: 3 })).map(([d, m]) => day(d, m)),
  { nil: undefined },
);
/** `dates` or `months`: ranges in order (an open end now and then), often apart, whose reads then go range by range. */
const rangesArb = (minLength: number) =>
  fc.array(
    fc
      .tuple(
        bound.map((b) => b ?? day(1, 0)),
        bound.map((b) => b ?? null),
      )
      .map(([from, to]) => (to === null || from <= to ? [from, to] : [to, from])),
    { minLength, maxLength: 3 },
  );
const CONDITIONS = {
  loglevels: list(LEVELS),
  loggers: list(LOGGERS),
  initiators: list(INITIATORS),
  users: list([1, 2, 3, 4]),
  excludeLoglevels: list(LEVELS),
  excludeLoggers: list(LOGGERS),
  excludeInitiators: list(INITIATORS),
  excludeUsers: list([1, 2, 3]),
  messages: fc.option(fc.subarray(LOGGERS.map((l, i) => [l, [KEYS[i]!]] as [string, string[]])), { nil: undefined }),
  excludeMessages: fc.option(fc.subarray(LOGGERS.map((l, i) => [l, [KEYS[(i + 1) % 3]!]] as [string, string[]])), {
    nil: undefined,
  }),
  dateFrom: bound,
  dateTo: bound,
  lastdaysFrom: bound,
  ranges: fc.option(rangesArb(0), {
    nil: undefined,
  }),
  maxIdBack: fc.option(fc.integer({ min: 0, max: 10 }), { nil: undefined }),
  slugs: fc.option(fc.subarray(LOGGERS), { nil: undefined }),
  /** exclude_search's and search's events holding their words, as offsets from the first id logged. */
  excludedOffsets: fc.option(fc.array(fc.integer({ min: 0, max: 30 })), { nil: undefined }),
  includedOffsets: fc.option(fc.array(fc.integer({ min: 0, max: 30 })), { nil: undefined }),
  /** context_filters' events holding its pairs, and metadata_search's holding its words in their values, likewise. */
  contextOffsets: fc.option(fc.array(fc.integer({ min: 0, max: 30 })), { nil: undefined }),
  metadataOffsets: fc.option(fc.array(fc.integer({ min: 0, max: 30 })), { nil: undefined }),
  /** Templates holding search's words. */
  searchTemplates: fc.subarray(LOGGERS.map((l, i) => [l, [KEYS[i]!]] as [string, string[]])),
  ip: fc.option(fc.constantFrom('10.0.x.x', '10.0.1.x', '10.0.1.5', '2001:db8::', '10.1.x.x').map(ipFilterCondition), {
    nil: undefined,
  }),
};
/** One to three of the conditions: more would match nothing, mostly. */
const filterArb = fc
  .tuple(fc.record(CONDITIONS), fc.shuffledSubarray(Object.keys(CONDITIONS), { minLength: 1, maxLength: 3 }))
  .map(([all, keys]) => Object.fromEntries(keys.map((k) => [k, all[k as keyof typeof all]])) as Partial<typeof all>);

type DrawnFilter = typeof filterArb extends fc.Arbitrary<infer T> ? T : never;

for (const target of dbTargets()) {
  describe(`the log's columns (${target.name})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(target);
    });
    after(() => t.close());

    const log = async (r: Row) => {
      const id = await t.app.activity.log(
        {
          logger: 'SimpleOptionsLogger',
          messageKey: 'option_updated',
          date: day(r.day, r.minute),
          context: { option: `o${r.kind}`, option_page: 'p' },
        },
        { user: null, ip: '' },
      );
      // The columns a filter reads, set apart from the occasions (which alone make the runs).
      await t.app.db
        .updateTable('history_events')
        .set({
          level: r.level,
          logger: r.logger,
          message_key: r.key,
          initiator: r.initiator,
          user_id: r.user,
          remote_addr: r.addr,
        })
        .where('id', '=', id)
        .execute();
      return id;
    };

    /**
     * Columns and SQL agree on rows, groups and the newest row of `f`, whose `search`,
     * `exclude_search`, `context_filters` and `metadata_search` stand for the events given as
     * holding their words and pairs.
     */
    const agree = async (
      f: EventFilter,
      words: { included?: number[]; excluded?: number[]; context?: number[]; metadata?: number[] },
      label: string,
    ) => {
      const state = await logState(t.app);
      const view = await columnsAt(t.app, state);
      assert.ok(view, 'a small log has its columns at once');
      const dates = dateWindow(f);
      const { search, excludeSearch, contextFilters, metadataWords, ...plain } = f;
      const plainCond = filterCondition(plain);
      if (!plainCond) return;
      const id = sql.ref('id');
      const inList = (ids: number[]) => (ids.length ? sql<boolean>`${id} in (${sql.join(ids)})` : sql<boolean>`1 = 0`);
      const templates = search?.templateMatches.size
        ? filterCondition({ scope: { all: true }, messages: search.templateMatches })!
        : sql<boolean>`1 = 0`;
      const cond = [words.context, words.metadata].reduce(
        (c, ids) => (ids ? sql<boolean>`${c} and ${inList(ids)}` : c),
        plainCond,
      );
      const where = sql<boolean>`${cond}
        and ${words.excluded ? sql`not ${inList(words.excluded)}` : sql`1 = 1`}
        and ${words.included ? sql`(${inList(words.included)} or ${templates})` : sql`1 = 1`}`;
      const bits = (ids: number[] | undefined) => ids && idBits(ids.join(','), state.maxId);
      const matches = {
        included: bits(words.included),
        excluded: bits(words.excluded),
        context: bits(words.context),
        metadata: bits(words.metadata),
      };
      assert.equal(!!contextFilters, !!words.context);
      assert.equal(!!metadataWords, !!words.metadata);
      for (const mode of ['rows', 'groups'] as const) {
        const got = await countFromColumns(view, f, mode, matches, walkHere);
        assert.ok(got, 'the columns count this filter');
        assert.deepEqual(await countFromColumns(view, f, mode, matches, walkThread.walk), got, 'walked in the thread');
        assert.equal(got.value, await countMatching(t.app, where, mode), `${label} ${mode} ${JSON.stringify(f)}`);
        // Read by the filter's dates (several ranges: range by range), in slices of a row or
        // three, and grouped in the log's order from the first matching row on.
        for (const how of [{ slices: TINY_SLICES, chunkRows: 2 }, { inOrderFrom: 1 }])
          assert.equal(
            await countMatching(t.app, where, mode, { dates, ...how }),
            got.value,
            `${label} ${mode} by its dates ${JSON.stringify(how)} ${JSON.stringify(f)}`,
          );
        const newest = await t.app.db
          .selectFrom('history_events')
          .select(['id', 'date', 'occasions_id'])
          .where(where)
          .orderBy('date', 'desc')
          .orderBy('id', 'desc')
          .executeTakeFirst();
        assert.deepEqual(got.newest, newest ?? null, `${label} newest`);
      }
      // Pages, grouped and not, as the walk of the rows finds them.
      if (search || excludeSearch) return;
      for (const grouped of [true, false])
        for (const [page, perPage] of [
          [1, 3],
          [2, 3],
          [3, 2],
          [2, 1],
          [3, 1],
          [5, 1],
          [1, 50],
        ] as const) {
          const walked = await selectEventPage(t.app, cond, { grouped, page, perPage, countTotal: true });
          const byDates = await selectEventPage(t.app, cond, {
            grouped,
            page,
            perPage,
            countTotal: true,
            dates,
            slices: TINY_SLICES,
          });
          const served: ColumnsPage = (await pageFromColumns(
            view,
            f,
            { grouped, offset: (page - 1) * perPage, limit: perPage },
            matches,
            walkHere,
          ))!;
          const what = `${label} page ${page}×${perPage}${grouped ? ' grouped' : ''} ${JSON.stringify(f)}`;
          // A grouped page's rows are shown by date, then id (list.ts sorts them as paging.ts does).
          const rows = await loadRows(t.app, served.ids);
          assert.deepEqual(
            (grouped ? newestFirstRows(rows) : rows).map((r) => r.id),
            walked.rows.map((r) => r.id),
            what,
          );
          assert.deepEqual([...served.counts], grouped ? [...walked.counts] : [], what);
          assert.equal(served.total, walked.total, what);
          // A few positions tested at a time, so that the page and the rows counted after it
          // cross their borders; with the total known, the walk stops at the page.
          for (const [where, walker] of WALKERS)
            for (const chunk of [1, 3, 7])
              for (const knownTotal of [undefined, served.total])
                assert.deepEqual(
                  await pageFromColumns(
                    view,
                    f,
                    { grouped, offset: (page - 1) * perPage, limit: perPage, knownTotal },
                    matches,
                    walker,
                    chunk,
                  ),
                  served,
                  `${what}, walked ${where}, ${chunk} positions at a time, total ${knownTotal === undefined ? 'counted' : 'known'}`,
                );
          assert.deepEqual(byDates, walked, `${what} by its dates`);
        }
    };

    /** The EventFilter a drawn filter stands for over the events `ids`, and the events its words name. */
    const filterOf = (g: DrawnFilter, ids: number[]) => {
      const {
        maxIdBack,
        slugs,
        excludedOffsets,
        includedOffsets,
        contextOffsets,
        metadataOffsets,
        searchTemplates,
        messages,
        excludeMessages,
        ranges,
        ...rest
      } = g;
      const f: EventFilter = {
        ...rest,
        scope: slugs ? { all: false, slugs } : { all: true },
        messages: messages && new Map(messages),
        excludeMessages: excludeMessages && new Map(excludeMessages),
        ranges: ranges as [string, string | null][] | undefined,
        maxId: maxIdBack === undefined ? undefined : Math.max(...ids) - maxIdBack,
        search: includedOffsets && { words: ['w'], templateMatches: new Map(searchTemplates) },
        excludeSearch: excludedOffsets && { words: ['w'], templateMatches: new Map() },
        contextFilters: contextOffsets && [['k', 'v']],
        metadataWords: metadataOffsets && ['m'],
        dialect: target.name,
      };
      const words = {
        included: includedOffsets?.map((k) => ids[0]! + k),
        excluded: excludedOffsets?.map((k) => ids[0]! + k),
        context: contextOffsets?.map((k) => ids[0]! + k),
        metadata: metadataOffsets?.map((k) => ids[0]! + k),
      };
      return { f, words };
    };

    test('a request at a state the columns have moved past gets the rows of its state, without their being read again', async () => {
      await t.app.db.deleteFrom('history_events').execute();
      await t.app.db.deleteFrom('history_counters').execute();
      const r: Row = {
        day: 2,
        minute: 0,
        kind: 0,
        level: 'info',
        logger: LOGGERS[0]!,
        key: KEYS[0]!,
        initiator: 'cms',
        user: 1,
        addr: null,
      };
      for (let i = 0; i < 3; i++) await log(r);
      const before = await logState(t.app);
      const first = (await columnsAt(t.app, before))!;
      await log({ ...r, day: 4, minute: 3 });
      const after = await logState(t.app);
      const moved = (await columnsAt(t.app, after))!;
      assert.equal(moved.cols, first.cols, 'the appended event is added');
      assert.equal(moved.length, first.length + 1);
      const again = await columnsAt(t.app, before);
      assert.equal(again?.cols, moved.cols, 'not read again');
      assert.equal(again?.length, first.length);
      for (const [where, walker] of WALKERS)
        assert.equal((await countFromColumns(again!, { scope: { all: true } }, 'rows', {}, walker))?.value, 3, where);
    });

    test('count every filter of their columns as the SQL condition does, while events are appended, back-dated and purged', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(row, { minLength: 1, maxLength: 25 }),
          fc.array(row, { maxLength: 5 }),
          filterArb,
          async (rows, later, g) => {
            await t.app.db.deleteFrom('history_events').execute();
            await t.app.db.deleteFrom('history_counters').execute();
            const ids: number[] = [];
            for (const r of rows) ids.push(await log(r));
            const { f, words } = filterOf(g, ids);
            await agree(f, words, 'built');
            // Appended (and, when dated before the newest, back-dated: read again).
            for (const r of later) ids.push(await log({ ...r, day: 4 }));
            await agree(f, words, 'appended');
            for (const r of later) await log(r);
            await agree(f, words, 'back-dated');
            await purgeEvents(t.app, { before: day(2, 0) });
            await agree(f, words, 'purged');
          },
        ),
        { numRuns: target.name === 'postgres' ? 25 : 150 },
      );
    });

    test('several ranges of dates, alone or beside other filters: read range by range, as the columns count and page them', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(row, { minLength: 1, maxLength: 25 }),
          fc.option(filterArb, { nil: {} }),
          rangesArb(2),
          async (rows, g, ranges) => {
            await t.app.db.deleteFrom('history_events').execute();
            await t.app.db.deleteFrom('history_counters').execute();
            const ids: number[] = [];
            for (const r of rows) ids.push(await log(r));
            const { f, words } = filterOf({ ...g, ranges }, ids);
            await agree(f, words, 'ranges');
          },
        ),
        { numRuns: target.name === 'postgres' ? 15 : 80 },
      );
    });
  });
}

test('the columns are in shared memory as they grow; a walk thread that has ended leaves its walks to this one', async () => {
  const cols = new LogColumns();
  const event = (id: number) => ({
    id,
    date: `2025-01-01 10:${String(Math.floor(id / 60)).padStart(2, '0')}:${String(id % 60).padStart(2, '0')}`,
    occasions_id: `o${id % 7}`,
    level: 'info',
    logger: 'SimpleUserLogger',
    message_key: 'user_logged_in',
    initiator: 'cms_user',
    user_id: 1,
    remote_addr: null,
    search_text: 'logged in',
  });
  for (let id = 1; id <= 3000; id++) cols.appendRow(event(id));
  for (const [name, array] of Object.entries(cols.arrays()))
    assert.ok(array.buffer instanceof SharedArrayBuffer, `${name} grown to ${array.length} is shared`);
  const view = { cols, length: cols.length };
  const thread = new WalkThread((err) => assert.fail(err.message));
  const total = (walker: Walker) => countFromColumns(view, { scope: ALL, maxId: 2000 }, 'rows', {}, walker);
  assert.deepEqual(await total(thread.walk), await total(walkHere));
  await thread.stop();
  assert.equal((await total(thread.walk))?.value, 2000, 'walked here once the thread has ended');
});

test('the columns take dates that SQL compares as text, and no other', () => {
  assert.equal(strictUtcSeconds('2024-02-29 01:00:00'), Date.UTC(2024, 1, 29, 1) / 1000);
  assert.equal(strictUtcSeconds('2025-01-31 23:59:59'), Date.UTC(2025, 0, 31, 23, 59, 59) / 1000);
  // Times no calendar has (Date.parse rolls them over) and other forms.
  for (const date of ['2025-02-30 10:00:00', '2025-04-31 00:00:00', '2025-02-28 24:00:00', '2025-13-01 00:00:00'])
    assert.equal(strictUtcSeconds(date), null, date);
  for (const date of ['2025-01-01', '2025-1-01 00:00:00', '2025-01-01T00:00:00', '2025-01-01 00:60:00'])
    assert.equal(strictUtcSeconds(date), null, date);
  // Any text of the form, read as Date.parse reads it when it does not roll the time over.
  assert.equal(strictUtcSeconds('2000-02-29 00:00:00'), Date.UTC(2000, 1, 29) / 1000);
  for (const date of ['1900-02-29 00:00:00', '2100-02-29 00:00:00', '2025-02-29 00:00:00'])
    assert.equal(strictUtcSeconds(date), null, date);
  const digits = (n: number, lo = 0, hi = 10 ** n - 1) =>
    fc.integer({ min: lo, max: hi }).map((x) => String(x).padStart(n, '0'));
  fc.assert(
    fc.property(
      fc.oneof(
        fc.tuple(digits(4), digits(2), digits(2), digits(2), digits(2), digits(2)),
        // Near the ends of months and days, across leap-year rules.
        fc.tuple(
          digits(4, 1596, 2404),
          digits(2, 1, 12),
          digits(2, 27, 32),
          digits(2, 22, 24),
          digits(2, 58, 60),
          digits(2, 58, 60),
        ),
      ),
      ([y, m, d, hh, mm, ss]) => {
        const text = `${y}-${m}-${d} ${hh}:${mm}:${ss}`;
        const ms = Date.parse(`${y}-${m}-${d}T${hh}:${mm}:${ss}Z`);
        const rolled =
          Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 19) !== `${y}-${m}-${d}T${hh}:${mm}:${ss}`;
        assert.equal(strictUtcSeconds(text), rolled ? null : ms / 1000, text);
      },
    ),
    { numRuns: 20_000 },
  );
});

describe("the log's columns over HTTP (sqlite)", () => {
  let t: TestApp;
  let admin: AuthUser;
  before(async () => {
    t = await createTestApp({ name: 'sqlite' });
    admin = (await userWithRole(t.app, 'administrator')).user;
    await generateEvents(t.app, { count: 60_000, days: 60, seed: 5 });
  });
  after(() => t.close());

  /** The columns at the log's state, once read (a log this size is read in the background). */
  const columnsReady = async () => {
    for (;;) {
      const view = await columnsAt(t.app, await logState(t.app));
      if (view) return view;
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  test('ungrouped pages of the whole log (read at their positions in the columns), with and without a cut, as the rows walked say', async () => {
    const view = await columnsReady();
    const opts = { loggers: t.app.loggers, scope: ALL, zone: 'UTC', lang: 'en' as const, dialect: t.app.dialect };
    const newest = await newestEventId(t.app.db);
    // No cut, a cut at the newest id (cuts nothing), and one below it (the rows are tested).
    for (const cut of [undefined, newest, newest - 100]) {
      const params = cut === undefined ? {} : { max_id_first_page: cut };
      const filter = eventFilterFromParams(params, opts);
      for (const [page, perPage] of [
        [1, 10],
        [2000, 25],
        [5999, 10],
        // Past the last page: no rows, the same total.
        [6001, 10],
      ] as const) {
        await assertListedAsWalked(t.app, admin, { ...params, ungrouped: 1 }, filter, {
          grouped: false,
          page,
          perPage,
        });
      }
    }
    assert.equal(view.length, 60_000);
    // A log this size is walked in the walk thread: the pages above came from it.
    assert.notEqual(columnsWalker(t.app, view), walkHere);
  });

  test('search and exclude_search of a word in more than 20,000 events (pages and totals from the columns, alone and beside another filter), as the rows walked say', async () => {
    await columnsReady();
    const opts = { loggers: t.app.loggers, scope: ALL, zone: 'UTC', lang: 'en' as const, dialect: t.app.dialect };
    const cases: { query: Record<string, string | number | string[]>; words: 'searchIndex' | 'excludeWords' }[] = [
      ...['ser', 'User'].map((search) => ({ query: { search }, words: 'searchIndex' as const })),
      { query: { search: 'User', loglevels: ['info'] }, words: 'searchIndex' },
      { query: { exclude_search: 'User' }, words: 'excludeWords' },
      { query: { exclude_search: 'ser', ungrouped: 1 }, words: 'excludeWords' },
      { query: { exclude_search: 'User', loglevels: ['info', 'warning'] }, words: 'excludeWords' },
    ];
    for (const { query, words } of cases) {
      const filter = eventFilterFromParams(query, opts);
      const grouped = !query.ungrouped && !query.search;
      const plan = await indexPlan(t.app.db, filter, await newestEventId(t.app.db));
      const what = JSON.stringify(query);
      assert.ok((plan[words]?.matches ?? 0) > 20_000, `${what}: ${plan[words]?.matches} matches`);
      // The events of the messages whose heads hold the word come from the columns (read/whole-messages.ts).
      assert.ok(plan[words]?.wholeMessages?.size, `${what}: messages whose heads hold it`);
      for (const [page, perPage] of [
        [1, 10],
        [7, 25],
        [400, 50],
      ] as const) {
        await assertListedAsWalked(t.app, admin, query, filter, { grouped, page, perPage });
      }
    }
  });

  test("a filter's pages grouped and ungrouped in turn, each walk stopping at its page once the total is known: each mode its own total", async () => {
    await columnsReady();
    const opts = { loggers: t.app.loggers, scope: ALL, zone: 'UTC', lang: 'en' as const, dialect: t.app.dialect };
    const query = { loglevels: ['info', 'warning'] };
    const filter = eventFilterFromParams(query, opts);
    const totals = new Map<boolean, Set<number>>([
      [true, new Set()],
      [false, new Set()],
    ]);
    for (const [grouped, page, perPage] of [
      [true, 1, 20],
      [false, 2, 20],
      [true, 3, 15],
      [false, 1, 40],
      [true, 250, 30],
      [false, 900, 30],
    ] as const) {
      const total = await assertListedAsWalked(t.app, admin, grouped ? query : { ...query, ungrouped: 1 }, filter, {
        grouped,
        page,
        perPage,
      });
      totals.get(grouped)!.add(total);
    }
    assert.equal(totals.get(true)!.size, 1);
    assert.notDeepEqual(totals.get(true), totals.get(false), 'groups and rows are told apart');
  });

  test('sticking and unsticking an event keeps the columns (none of theirs changes); the answers follow it', async () => {
    // Last: sticking logs events, which the search index takes a moment to add.
    const view = await columnsReady();
    const id = (await newestEventId(t.app.db)) - 100;
    /** context_filters[_sticky] (its count from the columns) and only_sticky, ungrouped. */
    const stuck = async () => {
      const answers = [];
      for (const query of [{ context_filters: { _sticky: '{}' } }, { only_sticky: 1 }]) {
        const res = await callRoute(t.app, 'GET', '/history/v1/events', {
          query: { ...query, ungrouped: 1 },
          user: admin,
        });
        assert.equal(res.status, 200);
        answers.push({ ids: (res.body as { id: number }[]).map((e) => e.id), total: res.headers['x-wp-total'] });
      }
      return answers;
    };
    const none = { ids: [], total: '0' };
    assert.deepEqual(await stuck(), [none, none]);
    for (const [change, expected] of [
      ['stick', { ids: [id], total: '1' }],
      ['unstick', none],
    ] as const) {
      const res = await callRoute(t.app, 'POST', `/history/v1/events/${id}/${change}`, { user: admin });
      assert.equal(res.status, 200, change);
      const now = await columnsAt(t.app, await logState(t.app));
      assert.equal(now?.cols, view.cols, `${change}: not read again`);
      assert.deepEqual(await stuck(), [expected, expected], change);
    }
  });
});
