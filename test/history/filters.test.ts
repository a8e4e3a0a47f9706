// Every filter of GET /events alone and combined, against the known data set, on every
// database target; the same request must give the same answer on SQLite and PostgreSQL.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { CompiledQuery, sql } from 'kysely';
import { createTestApp, dbTargets, PG_URL, type TestApp } from '../support/db.ts';
import { hasUpdatesParams, listParams, loadFixture, ORDER, type Fixture } from './fixture.ts';
import { countNewEvents, listEvents } from '../../src/namespaces/history/read/list.ts';
import type { AuthUser } from '../../src/auth/types.ts';
import { RestError } from '../../src/rest/types.ts';
import { rebuildRuns } from '../../src/namespaces/history/write/runs.ts';
import { asciiLower } from '../../src/util.ts';
import { contextJson, contextMap } from '../../src/namespaces/history/model/context.ts';
import { getEvent } from '../../src/namespaces/history/read/single.ts';
import { stickEvent } from '../../src/namespaces/history/write/sticky.ts';
import { dateWindow, filterCondition, pgValueContainsPattern } from '../../src/namespaces/history/read/conditions.ts';

interface Case {
  name: string;
  params: Record<string, unknown>;
  /** Fixture numbers in the expected order (ungrouped unless `grouped`). */
  expect: number[];
  viewer?: 'admin' | 'editor' | 'author' | 'subscriber';
  lang?: 'en' | 'de';
  /** Group sizes of grouped results, by fixture number (others 1). */
  counts?: Record<number, number>;
  total?: number;
}

const all = ORDER;
const without = (...n: number[]) => all.filter((x) => !n.includes(x));
const flat = (params: Record<string, unknown>) => ({ ungrouped: true, per_page: 100, ...params });

const CASES: Case[] = [
  { name: 'no filter, ungrouped', params: flat({}), expect: all, total: 18 },
  {
    name: 'no filter, grouped',
    params: { per_page: 100 },
    expect: [17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 5, 4, 1, 18],
    counts: { 7: 2, 4: 3 },
    total: 15,
  },
  { name: 'grouped, page 2 of 4', params: { per_page: 4, page: 2 }, expect: [13, 12, 11, 10], total: 15 },
  { name: 'loglevels', params: flat({ loglevels: ['warning'] }), expect: [13, 4, 3, 2] },
  {
    name: 'loglevels grouped: runs form in the filtered order',
    params: { loglevels: ['warning'] },
    expect: [13],
    counts: { 13: 4 },
    total: 1,
  },
  { name: 'loggers', params: flat({ loggers: ['SimplePostLogger'] }), expect: [16, 7, 6, 5] },
  { name: 'messages', params: flat({ messages: ['SimplePostLogger:post_updated'] }), expect: [7, 6] },
  {
    name: 'messages, two loggers in one item',
    params: flat({ messages: ['SimplePostLogger:post_created,SimpleUserLogger:user_logged_out'] }),
    expect: [17, 5],
  },
  { name: 'users', params: flat({ users: ['@editor'] }), expect: [16, 11, 7, 6, 5] },
  { name: 'user', params: flat({ user: '@author' }), expect: [12] },
  { name: 'initiator string', params: flat({ initiator: 'web_user' }), expect: [15, 13, 4, 3, 2] },
  { name: 'initiator array', params: flat({ initiator: ['cms', 'cms_cli'] }), expect: [10, 18] },
  { name: 'ip_address with x', params: flat({ ip_address: '192.168.2.x' }), expect: [16, 11, 7, 6, 5] },
  {
    name: 'ip_address with two x',
    params: flat({ ip_address: '192.168.x.x' }),
    expect: [17, 16, 14, 11, 8, 7, 6, 5, 1],
  },
  { name: 'ip_address full IPv4 does not match anonymised', params: flat({ ip_address: '192.168.1.10' }), expect: [] },
  { name: 'ip_address IPv6', params: flat({ ip_address: '2001:db8:85a3::' }), expect: [9] },
  { name: 'context_filters', params: flat({ context_filters: { post_title: 'About us' } }), expect: [7, 6, 5] },
  {
    name: 'context_filters, two pairs',
    params: flat({ context_filters: { post_title: 'About us', post_id: '5' } }),
    expect: [5],
  },
  { name: 'metadata_search', params: { metadata_search: 'logo.png' }, expect: [12] },
  { name: 'metadata_search ignores ASCII case, words AND-ed', params: { metadata_search: 'WELT hallo' }, expect: [15] },
  {
    name: 'metadata_search any key',
    params: { metadata_search: 'ADMIN', per_page: 100 },
    expect: [17, 14, 13, 10, 9, 8, 4, 3, 2, 1],
  },
  { name: 'search placeholder value', params: { search: 'about', per_page: 100 }, expect: [7, 6, 5] },
  { name: 'search template text', params: { search: 'logged', per_page: 100 }, expect: [17, 11, 1] },
  { name: 'search two words (AND)', params: { search: 'about updated', per_page: 100 }, expect: [7, 6] },
  { name: 'search comment title', params: { search: 'hallo' }, expect: [15] },
  { name: 'search German template', params: { search: 'angemeldet' }, lang: 'de', expect: [11, 1] },
  { name: 'search is not grouped', params: { search: 'failed', per_page: 100 }, expect: [13, 4, 3, 2], total: 4 },
  { name: 'exclude_search', params: flat({ exclude_search: 'about' }), expect: without(7, 6, 5) },
  { name: 'exclude_loglevels', params: flat({ exclude_loglevels: ['warning'] }), expect: without(13, 4, 3, 2) },
  {
    name: 'exclude_loggers',
    params: flat({ exclude_loggers: ['SimpleUserLogger'] }),
    expect: [16, 15, 14, 12, 10, 9, 8, 7, 6, 5],
  },
  {
    name: 'exclude_messages',
    params: flat({ exclude_messages: ['SimpleUserLogger:user_login_failed'] }),
    expect: without(13, 4, 3, 2),
  },
  {
    name: 'exclude_users keeps events without user',
    params: flat({ exclude_users: ['@admin'] }),
    expect: [16, 15, 13, 12, 11, 7, 6, 5, 4, 3, 2, 18],
  },
  { name: 'exclude_user', params: flat({ exclude_user: '@editor' }), expect: without(16, 11, 7, 6, 5) },
  { name: 'exclude_initiator', params: flat({ exclude_initiator: 'web_user' }), expect: without(15, 13, 4, 3, 2) },
  { name: 'include', params: flat({ include: ['#1', '#5', 99999] }), expect: [5, 1] },
  { name: 'max_id_first_page', params: flat({ max_id_first_page: '#10' }), expect: [10, 9, 8, 7, 6, 5, 4, 3, 2, 1] },
  { name: 'since_id', params: flat({ since_id: '#15' }), expect: [17, 16, 18] },
  {
    name: 'since_id with since_date',
    params: flat({ since_id: '#15', since_date: '2025-03-03 10:00:00' }),
    expect: [17, 16],
  },
  {
    name: 'date_from/date_to days in site time',
    params: flat({ date_from: '2025-02-01', date_to: '2025-02-28' }),
    expect: [11, 10, 9, 8],
  },
  {
    name: 'date_from timestamp',
    params: flat({ date_from: '1738411200' }),
    expect: [17, 16, 15, 14, 13, 12, 11, 10, 9, 8],
  },
  { name: 'months', params: flat({ months: ['2025-02'] }), expect: [11, 10, 9, 8] },
  {
    name: 'months OR-ed',
    params: flat({ months: ['2025-01', '2025-03'] }),
    expect: [15, 14, 13, 12, 7, 6, 5, 4, 3, 2, 1, 18],
  },
  { name: 'dates month', params: flat({ dates: ['month:2025-02'] }), expect: [11, 10, 9, 8] },
  { name: 'dates lastdays', params: flat({ dates: ['lastdays:2'] }), expect: [17, 16] },
  { name: 'dates yesterday', params: flat({ dates: ['yesterday'] }), expect: [16] },
  { name: 'dates replaces months', params: flat({ dates: ['allDates'], months: ['2025-02'] }), expect: all },
  { name: 'lastdays 1 = today', params: flat({ lastdays: 1 }), expect: [17] },
  {
    name: 'combined: logger, initiator, date',
    params: flat({ loggers: ['SimpleUserLogger'], initiator: 'web_user', date_from: '2025-01-01' }),
    expect: [13, 4, 3, 2],
  },
  {
    name: 'combined grouped',
    params: { loggers: ['SimpleUserLogger'], initiator: 'web_user' },
    expect: [13],
    counts: { 13: 4 },
    total: 1,
  },
  {
    name: 'combined: user, search, exclude_messages',
    params: { users: ['@editor'], search: 'about', exclude_messages: ['SimplePostLogger:post_created'] },
    expect: [7, 6],
  },
  {
    name: 'include and exclude: exclusion wins',
    params: flat({ loggers: ['SimplePostLogger'], exclude_loggers: ['SimplePostLogger'] }),
    expect: [],
  },
  { name: 'editor sees only readable loggers', viewer: 'editor', params: flat({}), expect: [16, 15, 12, 8, 7, 6, 5] },
  {
    name: 'editor grouped',
    viewer: 'editor',
    params: { per_page: 100 },
    expect: [16, 15, 12, 8, 7, 5],
    counts: { 7: 2 },
    total: 6,
  },
  {
    name: 'editor cannot widen with loggers',
    viewer: 'editor',
    params: flat({ loggers: ['SimpleUserLogger'] }),
    expect: [],
  },
  { name: 'author reads none of these loggers', viewer: 'author', params: {}, expect: [], total: 0 },
  { name: 'subscriber gets an empty list', viewer: 'subscriber', params: {}, expect: [], total: 0 },
  {
    name: 'occasions expansion',
    params: { type: 'occasions', logRowID: '#4', occasionsID: '@occ4', occasionsCount: 2 },
    expect: [3, 2],
  },
  {
    name: 'occasions expansion, max return',
    params: { type: 'occasions', logRowID: '#4', occasionsID: '@occ4', occasionsCount: 2, occasionsCountMaxReturn: 1 },
    expect: [3],
  },
  { name: 'occasions without count', params: { type: 'occasions', logRowID: '#4', occasionsID: '@occ4' }, expect: [] },
  {
    name: 'occasions keep logger permissions',
    viewer: 'subscriber',
    params: { type: 'occasions', logRowID: '#4', occasionsID: '@occ4', occasionsCount: 5 },
    expect: [],
  },
  {
    name: 'occasions ignore other filters',
    params: { type: 'occasions', logRowID: '#13', occasionsID: '@occ4', occasionsCount: 9, loglevels: ['debug'] },
    expect: [4, 3, 2],
  },
  { name: 'surrounding', params: { surrounding_event_id: '#9', surrounding_count: 2 }, expect: [11, 10, 9, 8, 7] },
];

/** Answers per target: case name → [ids as fixture numbers, counts, total]. */
const answers = new Map<string, Map<string, unknown>>();

for (const target of dbTargets()) {
  describe(`GET /events filters (${target.name})`, () => {
    let t: TestApp;
    let fx: Fixture;
    const seen = new Map<string, unknown>();
    answers.set(target.name, seen);
    before(async () => {
      t = await createTestApp(target);
      fx = await loadFixture(t.app);
    });
    after(() => t.close());

    const number = (id: number) => {
      for (let n = 1; n <= 18; n++) if (fx.id(n) === id) return n;
      return -id;
    };
    const resolve = async (params: Record<string, unknown>) => {
      const occ4 = (
        await t.app.db
          .selectFrom('history_events')
          .select('occasions_id')
          .where('id', '=', fx.id(4))
          .executeTakeFirstOrThrow()
      ).occasions_id;
      const map = (v: unknown): unknown => {
        if (Array.isArray(v)) return v.map(map);
        if (typeof v === 'string' && v.startsWith('#')) return fx.id(Number(v.slice(1)));
        if (typeof v === 'string' && v === '@occ4') return occ4;
        if (typeof v === 'string' && v.startsWith('@')) return fx.users[v.slice(1) as keyof Fixture['users']].id;
        return v;
      };
      return Object.fromEntries(Object.entries(params).map(([k, v]) => [k, map(v)]));
    };

    for (const c of CASES) {
      test(c.name, async () => {
        const user: AuthUser = fx.users[c.viewer ?? 'admin'];
        const result = await listEvents(t.app, listParams(await resolve(c.params)), { user, lang: c.lang ?? 'en' });
        const got = result.items.map((i) => number(i.id));
        assert.deepEqual(got, c.expect);
        const counts = Object.fromEntries(
          result.items
            .filter((i) => i.subsequent_occasions_count !== 1)
            .map((i) => [number(i.id), i.subsequent_occasions_count]),
        );
        assert.deepEqual(counts, c.counts ?? {});
        if (c.total !== undefined) assert.equal(result.headers['X-WP-Total'], String(c.total));
        seen.set(c.name, { got, counts, headers: { ...result.headers, 'X-History-MaxDate': undefined } });
      });
    }

    if (target.name === 'sqlite')
      test('SQLite reads the pairs of a messages filter through their index, without first gathering every rowid they hold', async () => {
        const messages = new Map([
          ['SimplePostLogger', ['post_updated', 'post_created']],
          ['SimpleUserLogger', ['user_logged_in']],
        ]);
        const query = t.app.db
          .selectFrom('history_events')
          .select((eb) => eb.fn.countAll().as('n'))
          .where(filterCondition({ scope: { all: true }, messages, dialect: 'sqlite' })!)
          .compile();
        const explained = await t.app.db.executeQuery<{ detail: string }>(
          CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
        );
        const text = explained.rows.map((r) => r.detail).join('\n');
        // An OR of pairs is read as a MULTI-INDEX OR: a set of every matching rowid in memory (74 MB on 10,000,000 events).
        assert.doesNotMatch(text, /MULTI-INDEX OR/);
        assert.match(text, /history_events_message_key \(logger=\? AND message_key=\?\)/);
      });

    if (target.name === 'sqlite')
      test('SQLite reads several ranges of dates range by range, not as an OR that first gathers the rowids of them all', async () => {
        const months: [string, string][] = [
          ['2025-01-01 00:00:00', '2025-01-31 23:59:59'],
          ['2025-06-01 00:00:00', '2025-06-30 23:59:59'],
          ['2025-01-15 00:00:00', '2025-02-10 23:59:59'],
        ];
        const filter = { scope: { all: true }, ranges: months, dialect: 'sqlite' } as const;
        const query = t.app.db
          .selectFrom('history_events')
          .select((eb) => eb.fn.countAll().as('n'))
          .where(filterCondition(filter)!)
          .compile();
        const explained = await t.app.db.executeQuery<{ detail: string }>(
          CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
        );
        // An OR of date ranges: a MULTI-INDEX OR (two months of 10,000,000 events: 50 MB for a page and its count).
        assert.doesNotMatch(explained.rows.map((r) => r.detail).join('\n'), /MULTI-INDEX OR/);
        // The reads go range by range, newest first, overlapping ranges joined.
        assert.deepEqual(dateWindow(filter).ranges, [
          { from: '2025-06-01 00:00:00', to: '2025-06-30 23:59:59' },
          { from: '2025-01-01 00:00:00', to: '2025-02-10 23:59:59' },
        ]);
        // Unless the context index's few candidates lead: bounds on the date would lure SQLite away from them.
        const candidates = { through: 0, ids: [1, 2, 3] };
        assert.equal(dateWindow(filter, { contextIndex: candidates }).ranges, undefined);
      });

    test('sticky: only_sticky and include_sticky', async () => {
      await stickEvent(t.app, fx.id(9), { user: fx.users.admin, lang: 'en' });
      const only = await listEvents(t.app, listParams({ only_sticky: true }), { user: fx.users.admin, lang: 'en' });
      assert.deepEqual(
        only.items.map((i) => number(i.id)),
        [9],
      );
      assert.equal(only.items[0].sticky, true);
      const page = await listEvents(t.app, listParams({ include_sticky: true, per_page: 3 }), {
        user: fx.users.admin,
        lang: 'en',
      });
      assert.deepEqual(
        page.items.map((i) => [number(i.id), i.sticky_appended]),
        [
          [9, true],
          [17, false],
          [16, false],
          [15, false],
        ],
      );
      assert.equal(page.headers['X-WP-Total'], '15');
      assert.equal(page.headers['X-History-MaxId'], String(fx.id(17)));
      // Not readable by the editor: no sticky row is prepended for them.
      const editor = await listEvents(t.app, listParams({ include_sticky: true, per_page: 1 }), {
        user: fx.users.editor,
        lang: 'en',
      });
      assert.deepEqual(
        editor.items.map((i) => number(i.id)),
        [16],
      );
      // Ignored on ungrouped requests.
      const flatPage = await listEvents(t.app, listParams({ include_sticky: true, ungrouped: true, per_page: 1 }), {
        user: fx.users.admin,
        lang: 'en',
      });
      assert.deepEqual(
        flatPage.items.map((i) => number(i.id)),
        [17],
      );
    });

    test('headers: totals, max id/date, links', async () => {
      const urls: Record<string, unknown>[] = [];
      const result = await listEvents(
        t.app,
        listParams({ per_page: 4, page: 2 }),
        { user: fx.users.admin, lang: 'en' },
        {
          query: { per_page: '4', page: '2' },
          urlFor: (q) => (urls.push(q), `U${JSON.stringify(q)}`),
        },
      );
      assert.equal(result.headers['X-WP-Total'], '15');
      assert.equal(result.headers['X-WP-TotalPages'], '4');
      assert.equal(result.headers['X-History-MaxId'], String(fx.id(13)));
      assert.equal(result.headers['X-History-MaxDate'], '2025-03-01 00:00:00');
      assert.deepEqual(urls, [
        { per_page: '4', page: 1 },
        { per_page: '4', page: 3 },
      ]);
      assert.match(result.headers.Link, /rel="prev".*rel="next"/);
      const empty = await listEvents(t.app, listParams({ page: 9 }), { user: fx.users.admin, lang: 'en' });
      assert.deepEqual(empty.items, []);
      assert.equal(empty.headers['X-History-MaxId'], '0');
      assert.equal(empty.headers['X-History-MaxDate'], undefined);
      const skipped = await listEvents(t.app, listParams({ skip_count_query: true }), {
        user: fx.users.admin,
        lang: 'en',
      });
      assert.equal(skipped.headers['X-WP-Total'], '0');
      assert.equal(skipped.headers['X-WP-TotalPages'], '0');
      assert.equal(skipped.items.length, 10);
    });

    test('surrounding headers; missing centre is 404', async () => {
      const r = await listEvents(t.app, listParams({ surrounding_event_id: fx.id(9), surrounding_count: 2 }), {
        user: fx.users.admin,
        lang: 'en',
      });
      assert.equal(r.headers['X-History-CenterEventId'], String(fx.id(9)));
      assert.equal(r.headers['X-History-EventsBefore'], '2');
      assert.equal(r.headers['X-History-EventsAfter'], '2');
      assert.equal(r.headers['X-WP-Total'], '5');
      assert.equal(r.headers['X-History-MinId'], String(fx.id(7)));
      await assert.rejects(
        listEvents(t.app, listParams({ surrounding_event_id: 99999 }), { user: fx.users.admin, lang: 'en' }),
        (e: RestError) => e.code === 'event_not_found' && e.status === 404,
      );
    });

    test('max_id_first_page keeps later pages stable while events arrive', async (ctx) => {
      ctx.after(async () => {
        await t.app.db.deleteFrom('history_events').where('id', '>', fx.id(18)).execute();
        await rebuildRuns(t.app.db);
      });
      const admin = { user: fx.users.admin, lang: 'en' as const };
      const first = await listEvents(t.app, listParams({ per_page: 3 }), admin);
      const maxId = Number(first.headers['X-History-MaxId']);
      const secondBefore = await listEvents(
        t.app,
        listParams({ per_page: 3, page: 2, max_id_first_page: maxId }),
        admin,
      );
      await t.app.activity.log(
        { logger: 'SimpleOptionsLogger', messageKey: 'option_updated', context: { option: 'a', option_page: 'b' } },
        { user: fx.users.admin, ip: '' },
      );
      await t.app.activity.log(
        { logger: 'SimpleMenuLogger', messageKey: 'created_menu', context: { menu_name: 'Main' } },
        { user: fx.users.admin, ip: '' },
      );
      const secondAfter = await listEvents(
        t.app,
        listParams({ per_page: 3, page: 2, max_id_first_page: maxId }),
        admin,
      );
      assert.deepEqual(
        secondAfter.items.map((i) => i.id),
        secondBefore.items.map((i) => i.id),
      );
      assert.equal(secondAfter.headers['X-WP-Total'], secondBefore.headers['X-WP-Total']);
      const shifted = await listEvents(t.app, listParams({ per_page: 3, page: 2 }), admin);
      assert.notDeepEqual(
        shifted.items.map((i) => i.id),
        secondBefore.items.map((i) => i.id),
      );
      // The backfilled event 18 has a higher id but an old date: since_date leaves it out.
      assert.equal((await countNewEvents(t.app, hasUpdatesParams({ since_id: maxId }), admin)).new_events_count, 3);
      const news = await countNewEvents(
        t.app,
        hasUpdatesParams({ since_id: maxId, since_date: first.headers['X-History-MaxDate'] }),
        admin,
      );
      assert.equal(news.new_events_count, 2);
    });

    test('has-updates: flat count newer than the cursor; excludes and sticky ignored', async () => {
      const admin = { user: fx.users.admin, lang: 'en' as const };
      assert.deepEqual(await countNewEvents(t.app, hasUpdatesParams({ since_id: fx.id(15) }), admin), {
        new_events_count: 3,
      });
      assert.deepEqual(
        await countNewEvents(
          t.app,
          hasUpdatesParams({ since_id: fx.id(15), since_date: '2025-03-03 10:00:00' }),
          admin,
        ),
        { new_events_count: 2 },
      );
      assert.deepEqual(
        await countNewEvents(
          t.app,
          hasUpdatesParams({ since_id: fx.id(15), exclude_loggers: ['SimplePostLogger'], only_sticky: true }),
          admin,
        ),
        { new_events_count: 3 },
      );
      assert.deepEqual(await countNewEvents(t.app, hasUpdatesParams({ since_id: 0, loglevels: ['warning'] }), admin), {
        new_events_count: 4,
      });
      assert.deepEqual(
        await countNewEvents(t.app, hasUpdatesParams({ since_id: 0 }), { user: fx.users.editor, lang: 'en' }),
        { new_events_count: 7 },
      );
      assert.deepEqual(await countNewEvents(t.app, hasUpdatesParams({ since_id: 0, skip_count_query: true }), admin), {
        new_events_count: null,
      });
    });

    test('single event: visible, unknown, not readable', async () => {
      const item = await getEvent(t.app, fx.id(5), { user: fx.users.editor, lang: 'en' });
      assert.equal(item.message, 'Created page "About us"');
      await assert.rejects(
        getEvent(t.app, 99999, { user: fx.users.admin, lang: 'en' }),
        (e: RestError) => e.code === 'rest_event_invalid_id' && e.status === 404,
      );
      await assert.rejects(
        getEvent(t.app, fx.id(14), { user: fx.users.editor, lang: 'en' }),
        (e: RestError) => e.code === 'rest_forbidden_context' && e.status === 403,
      );
      const unknown = await getEvent(t.app, fx.id(14), { user: fx.users.admin, lang: 'en' });
      assert.equal(unknown.message, 'thing_done');
      assert.equal(unknown.via, '');
    });
  });
}

for (const target of dbTargets()) {
  describe(`context_filters and metadata_search on values JSON escapes or LIKE reads specially (${target.name})`, () => {
    let t: TestApp;
    let fx: Fixture;
    let tricky = 0;
    let plain = 0;
    // Traps for reading the JSON text instead of parsing it (PostgreSQL, pgValueContainsPattern).
    let traps = 0;
    let spaced = 0;
    let long = 0;
    // The letters PostgreSQL's table of values writes punctuation as (index/value-words.ts), in a value of their own.
    let standIns = 0;
    before(async () => {
      t = await createTestApp(target);
      fx = await loadFixture(t.app);
      const log = (context: Record<string, string | null>) =>
        t.app.activity.log(
          { logger: 'SimpleOptionsLogger', messageKey: 'option_updated', context },
          { user: null, ip: '' },
        );
      tricky = await log({ note: 'Say "hi" 100% sure_ok', path: 'C:\\dir\\file', line: 'a\nb', title: 'Größe ÜBER' });
      plain = await log({ note: 'say hi 100 percent sure ok', title: 'größe über', misc: 'axb' });
      traps = await log({
        keyword_zq: 'v',
        'k":': null,
        ctl: 'a\u001fz',
        line2: 'x\nabc',
        quoted: 'he said "wombat',
        after: 'zebra',
        specials: 'a.b(c)+[d]$^|{2}',
      });
      spaced = await log({ note: 'platypus' });
      standIns = await log({ note: 'aㄒb 7ㄒ3 ㄅ! #x' });
      // Longer than SQLite's LIKE takes (50,000 bytes) and than a regular expression PostgreSQL compiles.
      long = await log({ option: `${'q'.repeat(60_000)} tail`, option_page: 'general' });
      // A context as migration 0011 wrote it on PostgreSQL (json_object_agg spaces its members).
      await t.app.db
        .updateTable('history_event_contexts')
        .set({ context: '{ "note" : "Platypus" }' })
        .where('event_id', '=', spaced)
        .execute();
    });
    after(() => t.close());

    const cases: [Record<string, unknown>, () => number[]][] = [
      [{ context_filters: { note: 'Say "hi" 100% sure_ok' } }, () => [tricky]],
      [{ context_filters: { path: 'C:\\dir\\file' } }, () => [tricky]],
      [{ context_filters: { line: 'a\nb' } }, () => [tricky]],
      [{ context_filters: { title: 'Größe ÜBER' } }, () => [tricky]],
      [{ context_filters: { title: 'größe über' } }, () => [plain]],
      [{ context_filters: { title: 'GRÖSSE ÜBER' } }, () => []],
      [{ metadata_search: '100%' }, () => [tricky]],
      [{ metadata_search: 'SURE_OK' }, () => [tricky]],
      [{ metadata_search: '"hi"' }, () => [tricky]],
      [{ metadata_search: 'dir\\file' }, () => [tricky]],
      [{ metadata_search: 'GRÖSSE' }, () => []],
      [{ metadata_search: 'über' }, () => [plain]],
      [{ metadata_search: 'ÜBER' }, () => [tricky]],
      [{ metadata_search: 'sure' }, () => [plain, tricky]],
      [{ metadata_search: 'keyword_zq' }, () => []],
      [{ metadata_search: 'null' }, () => []],
      [{ metadata_search: '001f' }, () => []],
      [{ metadata_search: 'nabc' }, () => []],
      [{ metadata_search: 'abc' }, () => [traps]],
      [{ metadata_search: 'WOMBAT' }, () => [traps]],
      [{ metadata_search: 'zebra' }, () => [traps]],
      [{ metadata_search: 'b(c)+[d]$^|{2}' }, () => [traps]],
      [{ metadata_search: 'a.b' }, () => [traps]],
      [{ metadata_search: 'aㄒb' }, () => [standIns]],
      [{ metadata_search: 'A.B 7ㄒ3' }, () => []],
      [{ metadata_search: '7.3' }, () => []],
      [{ metadata_search: 'ㄅ!' }, () => [standIns]],
      [{ metadata_search: '!!' }, () => []],
      [{ metadata_search: '#X' }, () => [standIns]],
      [{ metadata_search: 'b' }, () => [standIns, traps, plain, tricky]],
      [{ metadata_search: 'axb' }, () => [plain]],
      [{ metadata_search: 'platypus' }, () => [spaced]],
      [{ metadata_search: 'Q'.repeat(60_000) }, () => [long]],
      [{ metadata_search: `${'q'.repeat(60_000)}x` }, () => []],
      [{ search: 'Q'.repeat(60_000) }, () => [long]],
      [{ search: `${'q'.repeat(60_000)}x` }, () => []],
      [{ exclude_search: 'q'.repeat(60_000) }, () => [standIns, spaced, traps, plain, tricky]],
      [{ context_filters: { option: `${'q'.repeat(60_000)} tail` } }, () => [long]],
      [{ context_filters: { option: `${'q'.repeat(60_000)} TAIL` } }, () => []],
    ];
    for (const [params, expected] of cases) {
      test(
        JSON.stringify(params)
          .replace(/q{100,}/g, (q) => `q×${q.length}`)
          .replace(/Q{100,}/g, (q) => `Q×${q.length}`),
        async () => {
          const result = await listEvents(
            t.app,
            listParams({ ungrouped: true, per_page: 100, loggers: ['SimpleOptionsLogger'], ...params }),
            { user: fx.users.admin, lang: 'en' },
          );
          assert.deepEqual(
            result.items.map((i) => i.id).filter((id) => [tricky, plain, traps, spaced, long, standIns].includes(id)),
            expected(),
          );
        },
      );
    }
  });
}

describe('pgValueContainsPattern (PostgreSQL)', { skip: !PG_URL && 'TEST_DATABASE_URL is not set' }, () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ name: 'postgres' });
  });
  after(() => t.close());

  test('matches a context as contextJson writes it exactly when one of its values contains the word, ASCII case ignored', async () => {
    // Pieces that JSON escapes, that regular expressions or the JSON syntax read specially, and letters in both cases.
    const piece = fc.constantFrom(
      'a',
      'B',
      'u',
      '0',
      'f',
      'n',
      'ull',
      ':',
      ',',
      '"',
      '\\',
      '\n',
      '\u001f',
      '{',
      '}',
      '.',
      '*',
      '(',
      ' ',
      'é',
      'É',
    );
    const text = fc.array(piece, { maxLength: 8 }).map((p) => p.join(''));
    const word = fc
      .array(piece, { minLength: 1, maxLength: 2 })
      .map((p) => p.join(''))
      .filter((w) => /^[^"\\\u0000-\u001f]+$/.test(w));
    const context = fc.array(fc.tuple(text, fc.option(text, { nil: null })), { minLength: 1, maxLength: 4 });
    const cases = fc.sample(fc.tuple(context, word), { numRuns: 1000, seed: 20261123 }).map(([pairs, w]) => {
      const stored = contextJson(new Map(pairs));
      const values = [...contextMap(stored).values()];
      return { stored, word: w, expected: values.some((v) => v !== null && asciiLower(v).includes(asciiLower(w))) };
    });
    const { rows } = await sql<{
      m: boolean;
    }>`select c collate "C" ~* p as m from unnest(${cases.map((c) => c.stored)}::text[], ${cases.map((c) => pgValueContainsPattern(c.word))}::text[]) with ordinality as u(c, p, n) order by n`.execute(
      t.app.db,
    );
    const wrong = cases.filter((c, i) => rows[i]!.m !== c.expected);
    assert.deepEqual(wrong, []);
    // Both answers occur often enough for the comparison to mean something.
    assert.ok(cases.filter((c) => c.expected).length > 100, 'too few matches');
    assert.ok(
      cases.filter((c) => !c.expected && c.stored.toLowerCase().includes(c.word.toLowerCase())).length > 20,
      'too few words found only outside the values',
    );
  });
});

describe('same answers on every database', () => {
  test('SQLite and PostgreSQL agree on every case', {
    skip: dbTargets().length < 2 && 'TEST_DATABASE_URL is not set',
  }, () => {
    const [a, b] = [answers.get('sqlite')!, answers.get('postgres')!];
    assert.equal(a.size, CASES.length);
    for (const c of CASES) assert.deepEqual(b.get(c.name), a.get(c.name), c.name);
  });
});
