// The context index (context-index.ts, migration 0013) serves context_filters: complete blocks
// of 4,096 events list each (key, value) pair's events. Whatever the index says, the answers
// must be those of the stored contexts: checked against contexts parsed here, on both
// databases, through the filter condition and over HTTP, with events above the index, a stuck
// and an unstuck event, keys and values JSON escapes, and a context written in another format.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CompiledQuery, sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { userWithRole } from '../support/http.ts';
import { buildServer } from '../../src/server/http.ts';
import { generateEvents } from '../../src/namespaces/history/bulk/generate.ts';
import { eventFilterFromParams, searchWords, type EventFilter } from '../../src/namespaces/history/read/query.ts';
import type { LoggerScope } from '../../src/site/loggers.ts';
import { COUNTER_INDEXED_BLOCKS, indexBlocks, indexChangedContext } from '../../src/namespaces/history/index/build.ts';
import type { AuthUser } from '../../src/auth/types.ts';
import { selectEventPage } from '../../src/namespaces/history/read/paging.ts';
import { stickEvent, unstickEvent } from '../../src/namespaces/history/write/sticky.ts';
import {
  candidateCount,
  FEW_CANDIDATES,
  indexPlan,
  pagePlan,
  type QueryPlan,
} from '../../src/namespaces/history/read/plan.ts';
import { filterCondition } from '../../src/namespaces/history/read/conditions.ts';
import {
  addTrigramTerms,
  BLOCK_EVENTS,
  blockRows,
  contextTerm,
  pairCheck,
} from '../../src/namespaces/history/index/terms.ts';
import { contextCandidates, pairListing, wordBlocks } from '../../src/namespaces/history/index/lookup.ts';
import { idsOf } from '../../src/namespaces/history/model/id-bits.ts';
import { startContextIndexer } from '../../src/namespaces/history/index/indexer.ts';
import { CONTEXT_VALUES_PENDING, contextValuesIds } from '../../src/namespaces/history/index/context-values.ts';
import { metadataEvents } from '../../src/namespaces/history/columns/metadata-events.ts';
import { logState } from '../../src/namespaces/history/read/caches.ts';
import { CONTEXT_FTS, FTS_INDEXES, indexNewEvents } from '../../src/namespaces/history/index/fts.ts';

const ALL: LoggerScope = { all: true };
const BASE = '/en/cms-json/history/v1';

test('pagePlan: candidates lead when a walk by date would read far more rows', () => {
  const f = (ids: number[], through: number): QueryPlan => ({ contextIndex: { through, ids } });
  // Three old candidates in a log of 100,000: the walk would read nearly all of it.
  assert.ok(pagePlan(f([5, 6, 7], 99_000), 100_000, 10, false).contextIndex);
  // 5,000 recent candidates: ten rows are found after a few hundred rows read by date.
  const recent = Array.from({ length: 5000 }, (_, i) => 90_000 + 2 * i);
  assert.equal(pagePlan(f(recent, 99_999), 100_000, 10, false).contextIndex, undefined);
  // A grouped page may have to walk to the end of one long group: bounded candidates lead.
  assert.ok(pagePlan(f(recent, 99_999), 100_000, 10, true).contextIndex);
  // Events above the index are candidates too.
  assert.equal(pagePlan(f([5], 10_000), 100_000, 10, true).contextIndex, undefined);
});

test('pagePlan: blocks named for metadata_search lead a page up to FEW_CANDIDATES events', () => {
  const blocks = (count: number) => ({
    through: 100 * BLOCK_EVENTS - 1,
    blocks: Array.from({ length: count }, (_, i) => 3 * i),
  });
  const few = Math.floor(FEW_CANDIDATES / BLOCK_EVENTS);
  const newest = 100 * BLOCK_EVENTS + 10;
  const led = pagePlan({ metadataIndex: blocks(few) }, newest, 10, false);
  assert.deepEqual(led.metadataIndex, blocks(few));
  assert.equal(candidateCount(led, newest), few * BLOCK_EVENTS + 11);
  // More: the page walks by date without them (the total still counts in them only).
  const walked = pagePlan({ metadataIndex: blocks(few + 1) }, newest, 10, false);
  assert.equal(walked.metadataIndex, undefined);
  assert.equal(candidateCount(walked, newest), undefined);
});

test('pagePlan: the search index leads a page up to FEW_CANDIDATES events, and only when no template matches', () => {
  const matches = (n: number, exact = true) => ({ searchIndex: { query: '"abc"', matches: n, exact, alone: false } });
  const newest = 1_000_000;
  assert.equal(candidateCount(pagePlan(matches(FEW_CANDIDATES), newest, 10, false), newest), FEW_CANDIDATES);
  // More: the page walks by date testing the rows (the total still counts the matches).
  assert.equal(pagePlan(matches(FEW_CANDIDATES + 1), newest, 10, false).searchIndex, undefined);
  // A template's events match whatever the index says: they are not among its matches.
  assert.equal(pagePlan(matches(5, false), newest, 10, false).searchIndex, undefined);
  assert.equal(candidateCount(matches(5, false), newest), undefined);
});

test('contextTerm: distinct pairs, the separator between key and value counts', () => {
  assert.notEqual(contextTerm('ab', 'c'), contextTerm('a', 'bc'));
  assert.equal(contextTerm('k', 'v'), contextTerm('k', 'v'));
  assert.ok(Number.isSafeInteger(contextTerm('_user_login', 'x😀')));
});

for (const target of dbTargets()) {
  describe(`context index (${target.name})`, () => {
    let t: TestApp;
    let server: FastifyInstance;
    let admin: { user: AuthUser; authorization: string };
    let editor: { user: AuthUser; authorization: string };
    const special: Record<string, number> = {};

    const log = async (name: string, context: Record<string, string>, options = false) => {
      const [logger, messageKey] = options
        ? ['SimpleOptionsLogger', 'option_updated']
        : ['CustomEntryLogger', 'custom_entry_added'];
      special[name] = await t.app.activity.log(
        { logger, messageKey, context: { name, ...context } },
        { user: admin.user, ip: '10.1.2.3', rest: true },
      );
    };

    /** The stored contexts, parsed here. */
    const contexts = async () => {
      const rows = await t.app.db
        .selectFrom('history_event_contexts')
        .select(['event_id', 'context'])
        .orderBy('event_id')
        .execute();
      return rows.map((r) => ({
        id: Number(r.event_id),
        context: JSON.parse(r.context) as Record<string, string | null>,
      }));
    };
    const truth = async (pairs: [string, string][]) =>
      (await contexts())
        .filter((r) => pairs.every(([k, v]) => Object.hasOwn(r.context, k) && r.context[k] === v))
        .map((r) => r.id);
    const newestId = async () =>
      Number(
        (
          await t.app.db
            .selectFrom('history_events')
            .select((eb) => eb.fn.max('id').as('m'))
            .executeTakeFirstOrThrow()
        ).m,
      );
    const ids = async (f: EventFilter, plan: QueryPlan = {}) =>
      (
        await t.app.db
          .selectFrom('history_events')
          .select('id')
          .where(filterCondition(f, plan)!)
          .orderBy('id')
          .execute()
      ).map((r) => Number(r.id));
    const indexed = async () =>
      Number(
        (
          await t.app.db
            .selectFrom('history_counters')
            .select('value')
            .where('name', '=', COUNTER_INDEXED_BLOCKS)
            .executeTakeFirstOrThrow()
        ).value,
      );
    /** The rows indexing the block's current contexts gives. */
    const expectedRows = async (block: number) => {
      const rows = await t.app.db
        .selectFrom('history_event_contexts')
        .select(['event_id', 'context'])
        .where('event_id', '>=', block * BLOCK_EVENTS)
        .where('event_id', '<', (block + 1) * BLOCK_EVENTS)
        .execute();
      return blockRows(
        block,
        rows.map((r) => ({ event_id: Number(r.event_id), context: r.context })),
      );
    };
    const storedRows = async (block: number) =>
      (
        await t.app.db
          .selectFrom('history_context_terms')
          .select(['term', 'ids', 'pair_check'])
          .where('block', '=', block)
          .orderBy('term')
          .execute()
      ).map((r) => ({ term: Number(r.term), ids: r.ids, check: r.pair_check === null ? null : Number(r.pair_check) }));

    /** What a serving process does a moment after a write (or a read that needs them): SQLite's search indexes take the new events. */
    const indexNewEventsNow = async () => {
      if (t.app.dialect === 'sqlite') for (const index of FTS_INDEXES) await indexNewEvents(t.app.db, index);
    };
    before(async () => {
      t = await createTestApp(target);
      server = await buildServer(t.app);
      admin = await userWithRole(t.app, 'administrator');
      editor = await userWithRole(t.app, 'editor');
      await log('rare', { post_id: 'rare-1', note: 'say "hi" \\ there' });
      await log('tricky-key', { 'a","k': 'v' });
      await log('match', { k: 'v' });
      await log('case', { k: 'V' });
      await log('emoji', { emoji: 'x😀y' });
      await log('option', { k: 'v' }, true);
      await log('other-format', { k2: 'w' });
      await log('words', { title: 'Zebrafish-Quokka 42', path: 'a%b_c' });
      await log('search', { message: 'Wombat-Sighting at dawn near the Überweg, 100%_sure x😀y' });
      // A context as PostgreSQL's json_object_agg wrote it in migration 0011: spaced.
      await t.app.db
        .updateTable('history_event_contexts')
        .set({ context: '{ "name" : "other-format", "k2" : "w" }' })
        .where('event_id', '=', special['other-format'])
        .execute();
      await generateEvents(t.app, { count: 9000, days: 30, seed: 7 });
      // What a serving process's background indexer does while idle.
      await indexBlocks(t.app.db, t.app.dialect, Infinity);
      // Above the index: the block being filled.
      await log('rare-tail', { post_id: 'rare-1' });
      await log('match-tail', { k: 'v' });
      await log('words-tail', { title: 'the QUOKKA again' });
      await log('search-tail', { message: 'one more wombat' });
      await indexNewEventsNow();
    });
    after(async () => {
      await server.close();
      await t.close();
    });

    test('indexing lists every event of every complete block under each pair of its context', async () => {
      const newest = await newestId();
      assert.equal(await indexed(), Math.floor((newest + 1) / BLOCK_EVENTS));
      assert.equal(await indexed(), 2);
      for (const block of [0, 1])
        assert.deepEqual(await storedRows(block), await expectedRows(block), `block ${block}`);
      assert.deepEqual(await storedRows(2), [], 'the block being filled is not indexed');
      // A spot check of the layout, independent of blockRows.
      const row = (await storedRows(0)).find((r) => r.term === contextTerm('post_id', 'rare-1'));
      assert.equal(row?.ids, String(special.rare));
      // Support info tells how far the index has come.
      const res = await server.inject({
        method: 'GET',
        url: `${BASE}/support-info`,
        headers: { authorization: admin.authorization },
      });
      const history = (
        res.json() as {
          info: { history: { context_index_through_id: number; table_stats: Record<string, { num_rows: number }> } };
        }
      ).info.history;
      assert.equal(history.context_index_through_id, 2 * BLOCK_EVENTS - 1);
      assert.equal(
        history.table_stats.history_context_terms?.num_rows,
        (await storedRows(0)).length + (await storedRows(1)).length,
      );
    });

    const CASES: [string, [string, string][]][] = [
      ['a rare value, in the index and above it', [['post_id', 'rare-1']]],
      ['exact value (not another case), not in an escaped key', [['k', 'v']]],
      ['a value JSON escapes', [['note', 'say "hi" \\ there']]],
      ['a value outside the BMP', [['emoji', 'x😀y']]],
      ['a context written in another format', [['k2', 'w']]],
      ['a common pair', [['_rest_api_request', 'true']]],
      [
        'two pairs',
        [
          ['k', 'v'],
          ['name', 'match'],
        ],
      ],
      ['a pair found nowhere', [['nokey', 'none']]],
      ['a key found nowhere with a common value', [['nokey', '1']]],
    ];

    test("the candidates and the log read in full give the stored contexts' answer", async () => {
      const newest = await newestId();
      for (const [name, pairs] of CASES) {
        const expected = await truth(pairs);
        const f: EventFilter = { scope: ALL, contextFilters: pairs, dialect: t.app.dialect };
        assert.deepEqual(await ids(f), expected, `${name}: without the index`);
        const plan = await indexPlan(t.app.db, f, newest, { limit: 100_000 });
        assert.ok(plan.contextIndex, `${name}: the index is used`);
        assert.deepEqual(await ids(f, plan), expected, `${name}: through the index`);
      }
      // By default the index leads for a few candidates, not for a twelfth or fortieth of the log.
      const led = async (pairs: [string, string][]) => {
        const f: EventFilter = { scope: ALL, contextFilters: pairs, dialect: t.app.dialect };
        const plan = await indexPlan(t.app.db, f, newest);
        return plan.contextIndex !== undefined;
      };
      assert.equal(await led([['post_id', 'rare-1']]), true);
      assert.equal(await led([['_rest_api_request', 'true']]), false);
      assert.ok((await truth([['_rest_api_request', 'true']])).length > 2000);
      assert.deepEqual(await truth([['post_id', 'rare-1']]), [special.rare, special['rare-tail']]);
      assert.deepEqual(await truth([['k', 'v']]), [special.match, special.option, special['match-tail']]);
      assert.deepEqual(await truth([['k2', 'w']]), [special['other-format']]);
    });

    test('GET /events with context_filters answers as the stored contexts, for an administrator and an editor', async () => {
      const editorScope = t.app.loggers.scope(editor.user);
      for (const [name, pairs] of CASES) {
        const query = pairs
          .map(([k, v]) => `context_filters[${encodeURIComponent(k)}]=${encodeURIComponent(v)}`)
          .join('&');
        for (const who of [admin, editor]) {
          const res = await server.inject({
            method: 'GET',
            url: `${BASE}/events?${query}&ungrouped=1&per_page=100`,
            headers: { authorization: who.authorization },
          });
          assert.equal(res.statusCode, 200, `${name}: ${res.body}`);
          const scope: LoggerScope = who === admin ? ALL : editorScope;
          const expected = await ids({ scope, contextFilters: pairs, dialect: t.app.dialect });
          const newest: { id: number }[] = await t.app.db
            .selectFrom('history_events')
            .select('id')
            .where(filterCondition({ scope, contextFilters: pairs, dialect: t.app.dialect })!)
            .orderBy('date', 'desc')
            .orderBy('id', 'desc')
            .limit(100)
            .execute();
          assert.deepEqual(
            (res.json() as { id: number }[]).map((e) => e.id),
            newest.map((r) => Number(r.id)),
            `${name} (${who.user.login})`,
          );
          assert.equal(Number(res.headers['x-wp-total']), expected.length, `${name}: total (${who.user.login})`);
        }
      }
      const res = await server.inject({
        method: 'GET',
        url: `${BASE}/events?context_filters[k]=v&ungrouped=1`,
        headers: { authorization: admin.authorization },
      });
      assert.deepEqual(
        (res.json() as { id: number }[]).map((e) => e.id),
        [special['match-tail'], special.option, special.match],
      );
    });

    test('grouped pages read through the candidates in one read equal pages walked by date', async () => {
      const newest = await newestId();
      for (const pairs of [[['_rest_api_request', 'true']], [['k', 'v']], [['name', 'match']]] as [
        string,
        string,
      ][][]) {
        const f: EventFilter = { scope: ALL, contextFilters: pairs, dialect: t.app.dialect };
        const byDate = filterCondition(f)!;
        const plan = await indexPlan(t.app.db, f, newest, { limit: 100_000 });
        const rowsAtMost = candidateCount(plan, newest);
        assert.ok(rowsAtMost !== undefined && rowsAtMost < 50_000);
        for (const page of [1, 2, 7]) {
          const request = { grouped: true, page, perPage: 10, countTotal: true };
          const a = await selectEventPage(t.app, filterCondition(f, plan)!, { ...request, rowsAtMost });
          const b = await selectEventPage(t.app, byDate, request);
          assert.deepEqual(
            a.rows.map((r) => r.id),
            b.rows.map((r) => r.id),
            `${pairs} page ${page}`,
          );
          assert.deepEqual([...a.counts], [...b.counts]);
          assert.equal(a.total, b.total);
        }
      }
    });

    const WORDS: string[][] = [
      ['quokka'],
      ['QUOKKA', 'zebra'],
      ['zebrafish-quokka 42'],
      ['a%b_c'],
      ['x😀y'],
      ['"hi"'],
      ['example.test'],
      ['xyzzy-nowhere'],
      ['quokka', 'xyzzy-nowhere'],
      // A word shorter than a trigram beside a longer one: tested on the events the longer one names.
      ['quokka', '42'],
      ['quokka', 'GA'],
    ];
    /** Some value of the context contains each word, ignoring ASCII case. */
    const lower = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());
    const wordsTruth = async (words: string[]) =>
      (await contexts())
        .filter((r) =>
          words.every((w) =>
            Object.values(r.context).some((v) => typeof v === 'string' && lower(v).includes(lower(w))),
          ),
        )
        .map((r) => r.id);

    /**
     * `fn` while the index of the context values (SQLite's FTS table, PostgreSQL's values table)
     * is not caught up: metadata_search then reads the blocks (the indexes themselves:
     * test/history/search-index.test.ts).
     */
    async function withBlocksOnly(fn: () => Promise<void>): Promise<void> {
      const counter = t.app.dialect === 'sqlite' ? CONTEXT_FTS.pending : CONTEXT_VALUES_PENDING;
      const pending = () => t.app.db.updateTable('history_counters').where('name', '=', counter);
      await pending().set({ value: 1 }).execute();
      try {
        await fn();
      } finally {
        await pending().set({ value: 0 }).execute();
      }
    }

    test('metadata_search: the blocks named by the trigram rows hold every match', () =>
      withBlocksOnly(async () => {
        const newest = await newestId();
        for (const words of WORDS) {
          const expected = await wordsTruth(words);
          const f: EventFilter = { scope: ALL, metadataWords: words, dialect: t.app.dialect };
          assert.deepEqual(await ids(f), expected, `${words}: without the index`);
          const plan = await indexPlan(t.app.db, f, newest, { limit: 100_000 });
          assert.ok(plan.metadataIndex, `${words}: the index is used`);
          assert.deepEqual(await ids(f, plan), expected, `${words}: through the index`);
        }
        assert.deepEqual(await wordsTruth(['quokka']), [special.words, special['words-tail']]);
        // A word found nowhere names no block: only the events above the index are read.
        const f: EventFilter = { scope: ALL, metadataWords: ['xyzzy-nowhere'], dialect: t.app.dialect };
        const plan = await indexPlan(t.app.db, f, newest);
        assert.deepEqual(plan.metadataIndex?.blocks, []);
        // Words shorter than a trigram say nothing.
        const short: EventFilter = { scope: ALL, metadataWords: ['ok'], dialect: t.app.dialect };
        const shortPlan = await indexPlan(t.app.db, short, newest);
        assert.equal(shortPlan.metadataIndex, undefined);
        // The rare word's block is named, and few others.
        const rare: EventFilter = { scope: ALL, metadataWords: ['zebrafish'], dialect: t.app.dialect };
        const rarePlan = await indexPlan(t.app.db, rare, newest);
        assert.deepEqual(rarePlan.metadataIndex?.blocks, [Math.floor(special.words / BLOCK_EVENTS)]);
      }));

    /** Events whose stored search text holds every word, lower-cased as the search lower-cases them. */
    const searchTruth = async (words: string[]) =>
      (await t.app.db.selectFrom('history_events').select(['id', 'search_text']).orderBy('id').execute())
        .filter((r) => words.every((w) => r.search_text.includes(w.toLowerCase())))
        .map((r) => Number(r.id));
    const SEARCHES: string[][] = [
      ['wombat'],
      ['WOMBAT', 'dawn'],
      ['überweg'],
      ['ÜBERWEG'],
      ['100%_sure'],
      ['x😀y'],
      ['customentrylogger'],
      ['xyzzy-nowhere'],
      ['wombat', 'xyzzy-nowhere'],
    ];

    test('search: the search index names every match', async () => {
      await indexNewEventsNow(); // (the tests before logged events)
      const newest = await newestId();
      for (const words of SEARCHES) {
        const expected = await searchTruth(words);
        const f = eventFilterFromParams(
          { search: words.join(' ') },
          { loggers: t.app.loggers, scope: ALL, zone: 'UTC', lang: 'en', dialect: t.app.dialect },
        );
        assert.equal(f.search?.templateMatches.size, 0, `${words}: no template holds the words`);
        assert.deepEqual(await ids(f), expected, `${words}: without the index`);
        const plan = await indexPlan(t.app.db, f, newest, { limit: 100_000 });
        if (t.app.dialect === 'sqlite') assert.ok(plan.searchIndex, `${words}: the index is used`);
        assert.deepEqual(await ids(f, plan), expected, `${words}: through the index`);
      }
      assert.deepEqual(await searchTruth(['wombat']), [special.search, special['search-tail']]);
      assert.deepEqual(await searchTruth(['ÜBERWEG']), [special.search]);
      assert.ok(
        (await searchTruth(['customentrylogger'])).length > 3,
        "a logger's slug is in its events' search texts",
      );
      // SQLite's search index names the rare words' events, and no others; PostgreSQL's planner uses its own.
      const named = async (search: string) => {
        const f = eventFilterFromParams(
          { search },
          { loggers: t.app.loggers, scope: ALL, zone: 'UTC', lang: 'en', dialect: t.app.dialect },
        );
        return (await indexPlan(t.app.db, f, newest)).searchIndex?.matches;
      };
      if (t.app.dialect === 'sqlite') {
        assert.equal(await named('Wombat-Sighting'), 1);
        assert.equal(await named('überweg'), 1);
        assert.equal(await named('xyzzy-nowhere'), 0);
        // Words shorter than a trigram are not in the index.
        assert.equal(await named('ok'), undefined);
      }
    });

    test('search: random pieces of stored search texts find the same events through the index', async () => {
      await indexNewEventsNow();
      const newest = await newestId();
      const texts = (await t.app.db.selectFrom('history_events').select('search_text').orderBy('id').execute()).map(
        (r) => r.search_text,
      );
      // mulberry32, seeded: the same pieces on every run.
      let seed = 42;
      const random = (n: number) => {
        seed = (seed + 0x6d2b79f5) | 0;
        let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
        x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
        return Math.floor((((x ^ (x >>> 14)) >>> 0) / 2 ** 32) * n);
      };
      let narrowed = 0;
      for (let i = 0; i < 80; i++) {
        // Mostly the placeholder values (after template, logger and level): a template's words
        // match its events whatever the blocks say, and are not narrowed.
        const lines = texts[random(texts.length)]!.split('\n');
        const values = lines.slice(3);
        const line = i % 4 && values.length ? values[random(values.length)]! : lines[random(lines.length)]!;
        const start = random(Math.max(1, line.length - 3));
        const piece = line.slice(start, start + 4 + random(9));
        const search = i % 3 ? piece : piece.toUpperCase();
        const f = eventFilterFromParams(
          { search },
          { loggers: t.app.loggers, scope: ALL, zone: 'UTC', lang: 'en', dialect: t.app.dialect },
        );
        if (!f.search) continue;
        const expected = await ids(f);
        const plan = await indexPlan(t.app.db, f, newest, { limit: 100_000 });
        if (plan.searchIndex) narrowed++;
        assert.deepEqual(await ids(f, plan), expected, `search=${JSON.stringify(search)}`);
      }
      if (t.app.dialect === 'sqlite') assert.ok(narrowed > 40, `${narrowed} searches narrowed by the index`);
    });

    test('GET /events with search answers as the stored search texts, in English and German', async () => {
      for (const words of SEARCHES) {
        const expected = await searchTruth(words);
        for (const lang of ['en', 'de']) {
          const url = `/${lang}/cms-json/history/v1/events?search=${encodeURIComponent(words.join(' '))}&per_page=100`;
          const res = await server.inject({ method: 'GET', url, headers: { authorization: admin.authorization } });
          assert.equal(res.statusCode, 200, res.body);
          assert.equal(Number(res.headers['x-wp-total']), expected.length, `${words} (${lang}): total`);
          if (expected.length <= 100)
            assert.deepEqual(
              (res.json() as { id: number }[]).map((e) => e.id).sort((a, b) => a - b),
              expected,
              `${words} (${lang})`,
            );
        }
      }
    });

    test("a changed context of an indexed event names its block under the new values' trigrams", async () => {
      const event = special.rare;
      const original = (
        await t.app.db
          .selectFrom('history_event_contexts')
          .select('context')
          .where('event_id', '=', event)
          .executeTakeFirstOrThrow()
      ).context;
      const context = JSON.stringify({ ...JSON.parse(original), note: 'platypus' });
      await t.app.db.transaction().execute(async (tx) => {
        await tx.updateTable('history_event_contexts').set({ context }).where('event_id', '=', event).execute();
        await indexChangedContext(tx, t.app.dialect, event, context, original);
      });
      const f: EventFilter = { scope: ALL, metadataWords: ['platypus'], dialect: t.app.dialect };
      await withBlocksOnly(async () => {
        const plan = await indexPlan(t.app.db, f, await newestId());
        assert.deepEqual(plan.metadataIndex?.blocks, [Math.floor(event / BLOCK_EVENTS)]);
        assert.deepEqual(await ids(f, plan), [event]);
      });
      if (t.app.dialect === 'sqlite') {
        // The context values' index follows the change too (the tests before logged events).
        await indexNewEventsNow();
        const plan = await indexPlan(t.app.db, f, await newestId());
        assert.equal(plan.metadataSearch?.matches, 1);
        assert.deepEqual(await ids(f, plan), [event]);
      } else {
        // So does the values table (its triggers).
        const plan = await indexPlan(t.app.db, f, await newestId());
        assert.ok(plan.metadataValues);
        assert.deepEqual(await ids(f, plan), [event]);
      }
      // Back as it was, for the tests that follow: no longer listed under the pair it lost.
      await t.app.db.transaction().execute(async (tx) => {
        await tx
          .updateTable('history_event_contexts')
          .set({ context: original })
          .where('event_id', '=', event)
          .execute();
        await indexChangedContext(tx, t.app.dialect, event, original, context);
      });
      const gone = (await storedRows(Math.floor(event / BLOCK_EVENTS))).find(
        (r) => r.term === contextTerm('note', 'platypus'),
      );
      assert.equal(gone, undefined, 'the row that listed only it is gone');
    });

    test('GET /events with metadata_search answers as the stored contexts', async () => {
      for (const words of WORDS) {
        const res = await server.inject({
          method: 'GET',
          url: `${BASE}/events?metadata_search=${encodeURIComponent(words.join(' '))}&per_page=100`,
          headers: { authorization: admin.authorization },
        });
        assert.equal(res.statusCode, 200, res.body);
        const expected = await wordsTruth(searchWords(words.join(' ')));
        assert.equal(Number(res.headers['x-wp-total']), expected.length, `${words}: total`);
        if (expected.length <= 100)
          assert.deepEqual(
            (res.json() as { id: number }[]).map((e) => e.id).sort((a, b) => a - b),
            expected,
            `${words}`,
          );
      }
    });

    if (target.name === 'postgres')
      test('PostgreSQL: the events whose values hold the words, gathered up to a bound (null beyond), up to the newest id', async () => {
        const newest = await newestId();
        const ids = (list: string | null) =>
          list === null
            ? null
            : list
                .split(',')
                .filter(Boolean)
                .map(Number)
                .sort((a, b) => a - b);
        for (const words of WORDS) {
          const expected = await wordsTruth(searchWords(words.join(' '))!);
          const gathered = async (most: number, maxId = newest) =>
            ids(await contextValuesIds(t.app.db, words, maxId, most));
          assert.deepEqual(await gathered(expected.length), expected, `${words}`);
          if (!expected.length) continue;
          assert.equal(await gathered(expected.length - 1), null, `${words}: more than gathered`);
          const below = expected.at(-1)! - 1;
          assert.deepEqual(
            await gathered(expected.length, below),
            expected.filter((id) => id <= below),
            `${words}: up to ${below}`,
          );
        }
      });

    if (target.name === 'postgres')
      test('PostgreSQL: metadata_search words the newest events say are in more events than are gathered are not gathered; others are, exactly', async () => {
        const state = await logState(t.app);
        const newest = (await contexts()).reduce((a, b) => (a.id > b.id ? a : b));
        // A fresh state each time: the gathered sets are kept per words and state.
        let k = 0;
        const events = (words: string[], options: { most: number; sampled: number }) =>
          metadataEvents(t.app, words, { ...state, sticks: state.sticks + ++k }, options);
        let skipped = 0;
        for (const words of WORDS) {
          const expected = await wordsTruth(searchWords(words.join(' '))!);
          if (!expected.length) continue;
          const most = expected.length;
          // The whole log sampled: exactly as many as may be gathered.
          const bits = await events(words, { most, sampled: state.total });
          assert.deepEqual(bits && idsOf(bits), expected, `${words}`);
          // Only the newest event sampled: when it holds the words, the log seems to hold them everywhere.
          const byNewest = await events(words, { most, sampled: 1 });
          if (expected.includes(newest.id)) {
            skipped++;
            assert.equal(byNewest, null, `${words}: the newest event holds them`);
          } else assert.deepEqual(byNewest && idsOf(byNewest), expected, `${words}: the newest event holds none`);
        }
        assert.ok(skipped > 0, 'some words are in the newest event');
        // Over HTTP, words whose events are not gathered at this state (as the newest events or
        // the bound decide) are read by date and counted: the same pages and totals.
        for (const words of WORDS) {
          const expected = await wordsTruth(searchWords(words.join(' '))!);
          if (!expected.length) continue;
          assert.equal(await metadataEvents(t.app, words, state, { most: 0, sampled: 1 }), null);
          const newestFirst = [...expected].reverse();
          for (const page of [1, 2]) {
            const res = await server.inject({
              method: 'GET',
              url: `${BASE}/events?metadata_search=${encodeURIComponent(words.join(' '))}&per_page=3&page=${page}`,
              headers: { authorization: admin.authorization },
            });
            assert.equal(res.statusCode, 200, res.body);
            assert.equal(Number(res.headers['x-wp-total']), expected.length, `${words}: total`);
            assert.equal(Number(res.headers['x-wp-totalpages']), Math.ceil(expected.length / 3), `${words}: pages`);
            assert.deepEqual(
              (res.json() as { id: number }[]).map((e) => e.id),
              newestFirst.slice((page - 1) * 3, page * 3),
              `${words}: page ${page}`,
            );
          }
        }
      });

    test('the listing of pairs is their events exactly: a pair sharing the term is told apart by its check', async () => {
      const newest = await newestId();
      const through = (await indexed()) * BLOCK_EVENTS - 1;
      const listed = async (pairs: [string, string][]) => {
        const listing = (await pairListing(t.app.db, t.app.dialect, pairs, newest, 100_000))!;
        return { exact: listing.exact, ids: contextCandidates(listing, newest, Infinity)!.ids };
      };
      for (const [name, pairs] of CASES) {
        const expected = (await truth(pairs)).filter((id) => id <= through);
        assert.deepEqual(await listed(pairs), { exact: true, ids: expected }, name);
      }
      // Another pair's events under the term of k=v, as a shared hash would list them.
      const term = contextTerm('k', 'v');
      const stranger = BLOCK_EVENTS + 7;
      const expected = (await truth([['k', 'v']])).filter((id) => id <= through);
      assert.ok(!expected.includes(stranger));
      const own = { block: 1, term };
      try {
        await t.app.db
          .insertInto('history_context_terms')
          .values({ ...own, ids: '7', pair_check: pairCheck('k', 'v') + 1 })
          .execute();
        assert.deepEqual(await listed([['k', 'v']]), { exact: true, ids: expected }, 'another check: left out');
        // A row of two pairs (no check): candidates, not the pair's events.
        await t.app.db
          .updateTable('history_context_terms')
          .set({ pair_check: null })
          .where('block', '=', 1)
          .where('term', '=', term)
          .execute();
        assert.deepEqual(await listed([['k', 'v']]), {
          exact: false,
          ids: [...expected, stranger].sort((a, b) => a - b),
        });
      } finally {
        await t.app.db.deleteFrom('history_context_terms').where('block', '=', 1).where('term', '=', term).execute();
      }
    });

    test('stick lists an indexed event under _sticky; unstick takes it off again', async () => {
      const viewer = { user: admin.user, lang: 'en' as const };
      const event = special.rare;
      const sticky = async () => {
        const f: EventFilter = { scope: ALL, contextFilters: [['_sticky', '{}']], dialect: t.app.dialect };
        const plan = await indexPlan(t.app.db, f, await newestId());
        assert.ok(plan.contextIndex);
        return ids(f, plan);
      };
      assert.deepEqual(await sticky(), []);
      await stickEvent(t.app, event, viewer);
      assert.deepEqual(await sticky(), [event]);
      const row = (await storedRows(0)).find((r) => r.term === contextTerm('_sticky', '{}'));
      assert.equal(row?.ids, String(event));
      const listing = async () =>
        (await pairListing(t.app.db, t.app.dialect, [['_sticky', '{}']], await newestId(), 100_000))!;
      assert.deepEqual((await listing()).exact, true);
      assert.deepEqual(idsOf((await listing()).bits), [event]);
      // Over HTTP, where the log's columns count the listing.
      const listed = async () => {
        const res = await server.inject({
          method: 'GET',
          url: `${BASE}/events?context_filters[_sticky]=${encodeURIComponent('{}')}&ungrouped=1`,
          headers: { authorization: admin.authorization },
        });
        assert.equal(res.statusCode, 200, res.body);
        return { ids: (res.json() as { id: number }[]).map((e) => e.id), total: res.headers['x-wp-total'] };
      };
      assert.deepEqual(await listed(), { ids: [event], total: '1' });
      await unstickEvent(t.app, event, viewer);
      assert.deepEqual(await sticky(), []);
      // Its only event unstuck, the row goes; the listing is exactly the sticky events: none.
      assert.equal(
        (await storedRows(0)).find((r) => r.term === contextTerm('_sticky', '{}')),
        undefined,
      );
      assert.deepEqual(await listing(), { ...(await listing()), exact: true, listed: 0 });
      assert.deepEqual(await listed(), { ids: [], total: '0' });
    });

    test('not used when more events than the limit lie above the index or match', async () => {
      const newest = await newestId();
      const candidates = async (pairs: [string, string][], limit: number) => {
        const listing = await pairListing(t.app.db, t.app.dialect, pairs, newest, limit);
        return listing && contextCandidates(listing, newest, limit);
      };
      assert.ok(await candidates([['k', 'v']], 10_000));
      assert.equal(await candidates([['k', 'v']], 100), undefined, 'more than 100 events above the index');
      assert.equal(
        await candidates([['_rest_api_request', 'true']], 2000),
        undefined,
        'the pair lists more than 2,000 events',
      );
    });

    if (target.name === 'sqlite') {
      test('SQLite reads the candidates by id, not an index of other columns', async () => {
        const f: EventFilter = {
          scope: ALL,
          loggers: ['SimpleLogger'],
          loglevels: ['info'],
          contextFilters: [['k', 'v']],
          dialect: 'sqlite',
        };
        const plan = await indexPlan(t.app.db, f, await newestId());
        const query = t.app.db
          .selectFrom('history_events')
          .select('id')
          .where(filterCondition(f, plan)!)
          .orderBy('date', 'desc')
          .orderBy('id', 'desc')
          .limit(10)
          .compile();
        const explained = await t.app.db.executeQuery<{ detail: string }>(
          CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
        );
        const text = explained.rows.map((r) => r.detail).join('\n');
        assert.match(text, /SEARCH history_events USING INTEGER PRIMARY KEY \(rowid=\?\)/);
        assert.doesNotMatch(text, /history_events_(logger|level|date)/);
      });
    }

    test('indexers running at once index each block once (PostgreSQL: one holds the counter, the others skip)', async () => {
      await t.app.db.deleteFrom('history_context_terms').execute();
      await t.app.db
        .updateTable('history_counters')
        .set({ value: 0 })
        .where('name', '=', COUNTER_INDEXED_BLOCKS)
        .execute();
      let rounds = 0;
      while ((await indexed()) < 2 && rounds++ < 20) {
        const done = await Promise.all([1, 2, 3, 4].map(() => indexBlocks(t.app.db, t.app.dialect, 1)));
        assert.ok(done.reduce((a, b) => a + b, 0) >= 1, 'some indexer went on');
      }
      assert.equal(await indexed(), 2);
      assert.deepEqual([await storedRows(0), await storedRows(1)], [await expectedRows(0), await expectedRows(1)]);
    });

    test('the background indexer indexes complete blocks while the server is idle', async () => {
      await t.app.db.deleteFrom('history_context_terms').execute();
      await t.app.db
        .updateTable('history_counters')
        .set({ value: 0 })
        .where('name', '=', COUNTER_INDEXED_BLOCKS)
        .execute();
      const indexer = startContextIndexer(t.app);
      try {
        const deadline = Date.now() + 20_000;
        while ((await indexed()) < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      } finally {
        await indexer.stop();
      }
      assert.equal(await indexed(), 2);
      assert.deepEqual([await storedRows(0), await storedRows(1)], [await expectedRows(0), await expectedRows(1)]);
      assert.equal(
        (await sql<{ n: number }>`select count(*) as n from history_context_terms where block >= 2`.execute(t.app.db))
          .rows[0]?.n ?? 0,
        0,
      );
    });

    test('the background indexer keeps up while the server is never idle', async () => {
      await t.app.db.deleteFrom('history_context_terms').execute();
      await t.app.db
        .updateTable('history_counters')
        .set({ value: 0 })
        .where('name', '=', COUNTER_INDEXED_BLOCKS)
        .execute();
      // The event loop busy most of the time, as under steady traffic.
      const busy = setInterval(() => {
        const until = performance.now() + 40;
        while (performance.now() < until);
      }, 50);
      const indexer = startContextIndexer(t.app);
      try {
        // Both blocks well before the next idle moment would come (none does) or a block every 5 s would.
        const deadline = Date.now() + 4000;
        while ((await indexed()) < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      } finally {
        clearInterval(busy);
        await indexer.stop();
      }
      assert.equal(await indexed(), 2);
    });
  });
}

for (const target of dbTargets()) {
  describe(`context index: which blocks a word may be in (${target.name})`, () => {
    let t: TestApp;
    const BLOCKS = 40;
    const newest = BLOCKS * BLOCK_EVENTS + 9;
    /** Statements sent through `counted`. */
    let statements = 0;
    const counted = () =>
      t.app.db.withPlugin({
        transformQuery: (args) => (statements++, args.node),
        transformResult: async (args) => args.result,
      });
    const search = (words: string[], limit: number) => wordBlocks(counted(), t.app.dialect, words, newest, limit);

    before(async () => {
      t = await createTestApp(target);
      const rows: { block: number; term: number; ids: string }[] = [];
      const add = (word: string, blocks: (b: number) => boolean) => {
        const terms = new Set<number>();
        addTrigramTerms(word, terms);
        for (let b = 0; b < BLOCKS; b++)
          if (blocks(b)) for (const term of terms) rows.push({ block: b, term, ids: '' });
      };
      add('rare', (b) => [5, 17, 30].includes(b));
      add('common', () => true);
      add('half', (b) => b % 2 === 0);
      await t.app.db.insertInto('history_context_terms').values(rows).execute();
      await t.app.db
        .updateTable('history_counters')
        .set({ value: BLOCKS })
        .where('name', '=', COUNTER_INDEXED_BLOCKS)
        .execute();
    });
    after(() => t.close());

    test('a rare word: its blocks', async () => {
      assert.deepEqual((await search(['rare'], 10 * BLOCK_EVENTS))?.blocks, [5, 17, 30]);
      assert.deepEqual((await search(['rare', 'half'], 10 * BLOCK_EVENTS))?.blocks, [30]);
      assert.deepEqual((await search(['nowhere'], 10 * BLOCK_EVENTS))?.blocks, []);
    });

    test('a word in most blocks is told from a sample, without a look-up in every block', async () => {
      statements = 0;
      assert.equal(await search(['common'], 10 * BLOCK_EVENTS), undefined);
      // The indexed blocks, then the sample: the word's four trigrams.
      assert.ok(statements <= 5, `${statements} statements`);
      // Looked up in full when its blocks may fit: all of them, or the half the sample suggests.
      assert.equal((await search(['common'], 50 * BLOCK_EVENTS))?.blocks.length, BLOCKS);
      assert.deepEqual(
        (await search(['half'], 25 * BLOCK_EVENTS))?.blocks,
        Array.from({ length: 20 }, (_, i) => 2 * i),
      );
      assert.equal(await search(['half'], 15 * BLOCK_EVENTS), undefined);
    });
  });
}
