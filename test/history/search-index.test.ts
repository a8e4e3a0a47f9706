// The search indexes (index/search.ts, index/fts.ts, migrations 0023–0025): new events indexed
// behind the writes, a log written before them caught up, and answers exact as the rows' meanwhile.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp, dbTargets, PG_URL, type TestApp } from '../support/db.ts';
import { callRoute, userWithRole } from '../support/http.ts';
import type { AuthUser } from '../../src/auth/types.ts';
import { generateEvents } from '../../src/namespaces/history/bulk/generate.ts';
import { purgeEvents } from '../../src/namespaces/history/write/maintenance.ts';
import { eventFilterFromParams } from '../../src/namespaces/history/read/query.ts';
import { dateWindow, filterCondition } from '../../src/namespaces/history/read/conditions.ts';
import { countTemplateEventsBeside, FEW_CANDIDATES, indexPlan } from '../../src/namespaces/history/read/plan.ts';
import { MAX_COLUMN_ROWS } from '../../src/namespaces/history/columns/bound.ts';
import { startSearchIndexing } from '../../src/namespaces/history/index/search.ts';
import {
  catchUpFtsIndex,
  CONTEXT_FTS,
  countFtsMatches,
  ftsMatchIds,
  FTS_INDEXES,
  FTS_WORD_MAX,
  ftsQuery,
  indexNewEvents,
  newEvents,
  SEARCH_FTS,
} from '../../src/namespaces/history/index/fts.ts';
import { HEADS_TABLE, MAX_SEARCH_HEADS } from '../../src/namespaces/history/index/search-heads.ts';
import { asciiLower } from '../../src/util.ts';
import { SEARCH_REST_PENDING } from '../../src/namespaces/history/index/pg-search-heads.ts';
import { CONTEXT_VALUES_PENDING, fillContextValues } from '../../src/namespaces/history/index/context-values.ts';
import { historyContextValuesMigration } from '../../src/namespaces/history/migrations/0028_history_context_values.ts';
import { historyContextValueWordsMigration } from '../../src/namespaces/history/migrations/0031_history_context_value_words.ts';
import { valueWordsOf } from '../../src/namespaces/history/index/value-words.ts';
import { COUNTER_TOTAL, newestEventId, readCounter } from '../../src/namespaces/history/model/counters.ts';
import { EVENT_COLUMNS } from '../../src/namespaces/history/write/insert.ts';
import { referenceOverview } from './occasions-model.ts';
import { filterFromParams } from './support.ts';

const ALL = { all: true, slugs: [] };
const WORDS = ['contact', 'händlerportal', 'anna logged', 'upd', 'xyzzy-nowhere', 'produktübersicht'];
const META_WORDS = ['contact', 'EXAMPLE.com', 'demo-editor page', 'Produktübersicht', 'xyzzy-nowhere', '100'];

/**
 * SQLite: `exclude_search` alone of words only templates hold (German): totals from the index
 * and the templates' events, as the rows say. `headsFull`: the heads table is full, so the
 * templates' events are counted beside the index's matches (index/search-heads.ts).
 */
async function excludeOfTemplateWords(t: TestApp, admin: AuthUser, headsFull = false): Promise<void> {
  // German words of two comment templates ("als Spam markiert", "freigegeben"): the search
  // texts (English) do not hold them, so the events are the templates'.
  for (const word of ['markiert', 'freigegeben']) {
    const filter = eventFilterFromParams(
      { exclude_search: word },
      { loggers: t.app.loggers, scope: ALL, zone: 'UTC', lang: 'de', dialect: t.app.dialect },
    );
    const plan = await indexPlan(t.app.db, filter, await newestEventId(t.app.db));
    // The index names the templates' events through their heads, or, its heads table full, beside them.
    const path = headsFull ? plan.excludeIndex?.templated : plan.excludeIndex?.withTemplates;
    assert.equal(path, true, `${word}: the index and the templates`);
    // The truth: the rows the condition keeps, tested without any index.
    const kept = await t.app.db.selectFrom('history_events').selectAll().where(filterCondition(filter)!).execute();
    assert.ok(kept.length > 0 && kept.length < (await newestEventId(t.app.db)), word);
    const total = async (ungrouped: boolean) => {
      const res = await callRoute(t.app, 'GET', '/de/cms-json/history/v1/events', {
        query: { exclude_search: word, per_page: 5, ...(ungrouped ? { ungrouped: true } : {}) },
        user: admin,
      });
      assert.equal(res.status, 200);
      return Number(res.headers['x-wp-total']);
    };
    assert.equal(await total(true), kept.length, `ungrouped exclude_search=${word}`);
    assert.equal(await total(false), referenceOverview(kept, 1, 5).total, `grouped exclude_search=${word}`);
  }
}

/** SQLite: `search` of words templates hold: totals and pages as the rows say (`headsFull` as above). */
async function searchOfTemplateWords(t: TestApp, admin: AuthUser, headsFull = false): Promise<void> {
  // In German the templates' words are not in the (English) search texts: their events lie beside the index's matches.
  for (const [search, lang] of [
    ['logged', 'en'],
    ['Logged out', 'en'],
    ['angemeldet', 'de'],
  ] as const) {
    const f = eventFilterFromParams(
      { search },
      { loggers: t.app.loggers, scope: ALL, zone: 'UTC', lang, dialect: t.app.dialect },
    );
    const templates = f.search!.templateMatches;
    assert.ok(templates.size > 0, `${search}: a template holds it`);
    const plan = await indexPlan(t.app.db, f, await newestEventId(t.app.db));
    assert.ok(headsFull ? plan.searchIndex?.templated : plan.searchIndex?.withTemplates, search);
    const words = search.toLowerCase().split(' ');
    const rows = await t.app.db.selectFrom('history_events').select(['search_text', 'logger', 'message_key']).execute();
    const inText = (r: (typeof rows)[number]) => words.every((w) => r.search_text.includes(w));
    const total = rows.filter((r) => inText(r) || (templates.get(r.logger) ?? []).includes(r.message_key ?? '')).length;
    if (lang === 'de') assert.ok(total > rows.filter(inText).length, 'events beside the matches');
    const beside = headsFull ? await countTemplateEventsBeside(t.app.db, f.search!, plan.searchIndex!) : 0;
    assert.equal(plan.searchIndex!.matches + beside, total, search);
    const res = await callRoute(t.app, 'GET', `/${lang}/cms-json/history/v1/events`, {
      query: { search, per_page: 5, ungrouped: true },
      user: admin,
    });
    assert.equal(Number(res.headers['x-wp-total']), total, `${search} over HTTP`);
    // Without a total, the same rows and no total.
    const skipped = await callRoute(t.app, 'GET', `/${lang}/cms-json/history/v1/events`, {
      query: { search, per_page: 5, ungrouped: true, skip_count_query: true },
      user: admin,
    });
    assert.equal(skipped.headers['x-wp-total'], '0');
    assert.deepEqual(skipped.body, res.body);
  }
}

for (const target of dbTargets()) {
  describe(`search index (${target.name})`, () => {
    let t: TestApp;
    let admin: AuthUser;
    before(async () => {
      t = await createTestApp(target);
      admin = (await userWithRole(t.app, 'administrator')).user;
      await generateEvents(t.app, { count: 3000, days: 30, deferIndexes: false });
    });
    after(() => t.close());

    /** Ids and total of a search's first page, and the truth from the stored search texts. */
    const answer = async (search: string, param = 'search') => {
      const res = await callRoute(t.app, 'GET', '/history/v1/events', {
        query: { [param]: search, per_page: 100, page: 2, ungrouped: true },
        user: admin,
      });
      assert.equal(res.status, 200);
      return { total: Number(res.headers['x-wp-total']), ids: (res.body as { id: number }[]).map((e) => e.id) };
    };
    const truth = async (search: string, exclude = false) => {
      const words = search.toLowerCase().split(' ');
      const rows = await t.app.db
        .selectFrom('history_events')
        .select(['id', 'date', 'search_text'])
        .orderBy('date', 'desc')
        .orderBy('id', 'desc')
        .execute();
      const hits = rows.filter((r) => words.every((w) => r.search_text.includes(w)) !== exclude);
      return { total: hits.length, ids: hits.slice(100, 200).map((r) => r.id) };
    };
    /** The same for metadata_search, from the stored contexts: every word in some value, ASCII case folded. */
    const metaTruth = async (search: string) => {
      const words = asciiLower(search).split(' ');
      const rows = await t.app.db
        .selectFrom('history_events as e')
        .leftJoin('history_event_contexts as x', 'x.event_id', 'e.id')
        .select(['e.id', 'x.context'])
        .orderBy('e.date', 'desc')
        .orderBy('e.id', 'desc')
        .execute();
      const hits = rows.filter((r) => {
        const values = Object.values(JSON.parse(r.context ?? '{}') as Record<string, string | null>);
        return words.every((w) => values.some((v) => v !== null && asciiLower(v).includes(w)));
      });
      return { total: hits.length, ids: hits.slice(100, 200).map((r) => r.id) };
    };
    const metaPlan = (metadata_search: string) => paramsPlan({ metadata_search });
    const searchPlan = (search: string) => paramsPlan({ search });
    const paramsPlan = async (params: Record<string, string>) =>
      indexPlan(t.app.db, filterFromParams(t.app, params), await newestEventId(t.app.db));
    const usesIndex = async (search: string) => (await searchPlan(search)).searchIndex !== undefined;

    /** PostgreSQL: the contexts' values table (index/context-values.ts) against the stored contexts; how many hold values. */
    const valuesAsStored = async () => {
      const { rows } = await sql<{ event_id: number; context_values: string; context: string }>`
        select x.event_id, v.context_values, x.context from history_event_contexts x
        left join history_context_values v on v.event_id = x.event_id`.execute(t.app.db);
      const { rows: orphans } = await sql`select event_id from history_context_values v
        where not exists (select 1 from history_event_contexts x where x.event_id = v.event_id)`.execute(t.app.db);
      assert.equal(orphans.length, 0, 'no values without their context');
      for (const r of rows) {
        const values = Object.values(JSON.parse(r.context) as Record<string, string | null>).filter((v) => v !== null);
        // As words (index/value-words.ts), followed by the values as written where they hold a stand-in letter.
        const joined = values.join('\n');
        const stored = valueWordsOf(joined) + (/[\u3105-\u3124]/u.test(joined) ? `#${joined}` : '');
        assert.equal(r.context_values ?? null, values.length ? stored : null, `event ${r.event_id}`);
      }
      return rows.filter((r) => r.context_values !== null).length;
    };

    test('PostgreSQL: trigram indexes of the search texts and of the contexts', {
      skip: target.name !== 'postgres' && 'SQLite has its FTS5 table',
    }, async () => {
      const { rows } = await sql<{
        def: string;
      }>`select indexdef as def from pg_indexes where tablename = 'history_events' and schemaname = current_schema() and indexname = 'history_events_search_trgm'`.execute(
        t.app.db,
      );
      assert.match(rows[0]?.def ?? '', /gin \(search_text .*gin_trgm_ops\)/);
      const contexts = await sql<{
        def: string;
      }>`select indexdef as def from pg_indexes where tablename = 'history_context_values' and schemaname = current_schema() and indexname = 'history_context_values_trgm'`.execute(
        t.app.db,
      );
      assert.match(contexts.rows[0]?.def ?? '', /gin \(context_values .*gin_trgm_ops\)/);
      const old =
        await sql`select 1 from pg_indexes where schemaname = current_schema() and indexname = 'history_event_contexts_trgm'`.execute(
          t.app.db,
        );
      assert.equal(old.rows.length, 0, 'the index of the contexts JSON text is replaced');
      // The planner can find the values holding a word through it (on a log this small it
      // would read them all, unless told not to).
      const plan = await t.app.db.transaction().execute(async (tx) => {
        await sql`set local enable_seqscan = off`.execute(tx);
        return sql<{ 'QUERY PLAN': string }>`explain select event_id from history_context_values
          where context_values ilike '%quokka-xyz%'`.execute(tx);
      });
      assert.match(plan.rows.map((r) => r['QUERY PLAN']).join('\n'), /history_context_values_trgm/);
    });

    test("PostgreSQL: the contexts' values table holds every event's values, kept by every write", {
      skip: target.name !== 'postgres' && 'SQLite has its FTS5 table of the values',
    }, async () => {
      assert.ok((await valuesAsStored()) > 1000, 'written by the bulk load');
      for (const search of [...META_WORDS, 'ab', 'post_title', 'EXAMPLE.com 1']) {
        assert.deepEqual(await answer(search, 'metadata_search'), await metaTruth(search), `metadata_search=${search}`);
        assert.ok((await metaPlan(search)).metadataValues, search);
      }
      assert.equal((await metaPlan('contact')).metadataValues?.alone, true);
      await t.app.activity.log(
        {
          logger: 'SimplePostLogger',
          messageKey: 'post_updated',
          context: { post_type: 'page', post_title: 'QUOKKA-corner', note: null },
        },
        { user: null, ip: '' },
      );
      assert.equal((await answer('quokka', 'metadata_search')).total, 1, 'an append');
      const oldest = (await t.app.db.selectFrom('history_events').select('id').orderBy('id').executeTakeFirstOrThrow())
        .id;
      for (const change of ['stick', 'unstick']) {
        const res = await callRoute(t.app, 'POST', `/history/v1/events/${oldest}/${change}`, { user: admin });
        assert.equal(res.status, 200, `${change}: ${JSON.stringify(res.body)}`);
        await valuesAsStored();
      }
      await purgeEvents(t.app, {
        before: (
          await t.app.db
            .selectFrom('history_events')
            .select('date')
            .where('id', '=', oldest + 50)
            .executeTakeFirstOrThrow()
        ).date,
      });
      await valuesAsStored();
      assert.deepEqual(await answer('quokka', 'metadata_search'), await metaTruth('quokka'));
      assert.deepEqual(await answer('contact', 'metadata_search'), await metaTruth('contact'));
    });

    test('PostgreSQL: a log written before the values table is filled in slices, newest first; a truncate empties it', {
      skip: target.name !== 'postgres' && 'SQLite has its FTS5 table of the values',
    }, async () => {
      const held = await valuesAsStored();
      const newest = await newestEventId(t.app.db);
      await sql`delete from history_context_values`.execute(t.app.db);
      await t.app.db
        .updateTable('history_counters')
        .set({ value: newest + 1 })
        .where('name', '=', CONTEXT_VALUES_PENDING)
        .execute();
      const left: number[] = [];
      for (let below = newest + 1; below > 0; ) left.push((below = await fillContextValues(t.app.db, 700)));
      assert.ok(left.length >= Math.floor(newest / 700), `${left.length} slices`);
      assert.deepEqual(
        left,
        [...left].sort((a, b) => b - a),
        'newest first',
      );
      assert.equal(await valuesAsStored(), held);
      assert.equal(await fillContextValues(t.app.db, 700), 0, 'nothing left');
      await t.app.db.transaction().execute(async (tx) => {
        await sql`create temporary table saved_contexts on commit drop as select * from history_event_contexts`.execute(
          tx,
        );
        await sql`truncate history_event_contexts`.execute(tx);
        assert.equal(
          Number((await sql<{ n: string }>`select count(*) as n from history_context_values`.execute(tx)).rows[0]!.n),
          0,
        );
        await sql`insert into history_event_contexts select * from saved_contexts`.execute(tx);
      });
      assert.equal(await valuesAsStored(), held, 'and the contexts written again fill it');
    });

    test('SQLite: an exclude_search alone of a word a template holds: its totals from the index, as the rows say', {
      skip: target.name !== 'sqlite' && 'PostgreSQL counts the rows',
    }, async () => {
      await excludeOfTemplateWords(t, admin);
    });

    test('SQLite: the index names exactly the events holding the words, written by the bulk load and every append', {
      skip: target.name !== 'sqlite' && 'PostgreSQL keeps its index itself',
    }, async () => {
      // `pa`, `ü`: shorter than the index's trigrams, tested on the rows the other word's matches name.
      for (const search of [...WORDS, 'upd pa', 'upd ü']) {
        assert.ok(await usesIndex(search), search);
        assert.deepEqual(await answer(search), await truth(search), search);
        assert.deepEqual(await answer(search, 'exclude_search'), await truth(search, true), `exclude_search=${search}`);
        // Grouped: alone, its total is counted around the matches (read/run-counts.ts groupsWithout).
        const grouped = await callRoute(t.app, 'GET', '/history/v1/events', {
          query: { exclude_search: search, per_page: 5 },
          user: admin,
        });
        const words = search.toLowerCase().split(' ');
        const kept = (
          await t.app.db.selectFrom('history_events').select(['id', 'date', 'occasions_id', 'search_text']).execute()
        ).filter((r) => !words.every((w) => r.search_text.includes(w)));
        assert.equal(
          Number(grouped.headers['x-wp-total']),
          referenceOverview(kept, 1, 5).total,
          `grouped exclude_search=${search}`,
        );
      }
      const before = await countFtsMatches(t.app.db, '"wombat-sighting"');
      await t.app.activity.log(
        {
          logger: 'SimplePostLogger',
          messageKey: 'post_updated',
          context: { post_type: 'page', post_title: 'Wombat-Sighting' },
        },
        { user: null, ip: '' },
      );
      assert.equal(await countFtsMatches(t.app.db, '"wombat-sighting"'), before, 'indexed behind the write');
      assert.equal(await usesIndex('wombat'), false, 'not used while an event is new to it');
      // A read that would use the index indexes the few new events first.
      assert.deepEqual(await answer('wombat'), await truth('wombat'));
      assert.equal(await countFtsMatches(t.app.db, '"wombat-sighting"'), before + 1);
      assert.ok(await usesIndex('wombat'));
    });

    test("a word a message template holds: the index names the templates' events too, as the rows say", {
      skip: target.name !== 'sqlite' && 'PostgreSQL counts the rows',
    }, async () => {
      await searchOfTemplateWords(t, admin);
    });

    test('exclude_search of words no event holds excludes nothing: grouped pages and totals as without it', async () => {
      const plan = async (exclude_search: string, more: Record<string, unknown> = {}) =>
        indexPlan(
          t.app.db,
          eventFilterFromParams(
            { exclude_search, ...more },
            { loggers: t.app.loggers, scope: ALL, zone: 'UTC', lang: 'en', dialect: t.app.dialect },
          ),
          await newestEventId(t.app.db),
        );
      assert.equal((await plan('xyzzy-nowhere contact')).excludesNothing, true);
      assert.equal((await plan('xyzzy-nowhere', { loglevels: ['info'] })).excludesNothing, true);
      assert.notEqual((await plan('contact')).excludesNothing, true);
      const page = async (query: Record<string, unknown>) => {
        const res = await callRoute(t.app, 'GET', '/history/v1/events', {
          query: { per_page: 25, page: 3, ...query },
          user: admin,
        });
        assert.equal(res.status, 200);
        const items = res.body as { id: number; subitem_count?: number }[];
        return { total: res.headers['x-wp-total'], items: items.map((e) => [e.id, e.subitem_count]) };
      };
      for (const more of [{}, { loglevels: 'info' }, { lastdays: 7 }]) {
        const whole = await page(more);
        assert.ok(Number(whole.total) > 75);
        assert.deepEqual(await page({ ...more, exclude_search: 'xyzzy-nowhere Contact' }), whole, JSON.stringify(more));
      }
    });

    test("SQLite: the context values' index names exactly the events whose values hold the words, kept by every write", {
      skip: target.name !== 'sqlite' && 'PostgreSQL reads the contexts',
    }, async () => {
      for (const search of META_WORDS) {
        // (The read indexes the events new to the index first: the earlier tests logged some.)
        assert.deepEqual(await answer(search, 'metadata_search'), await metaTruth(search), `metadata_search=${search}`);
        const plan = (await metaPlan(search)).metadataSearch;
        assert.ok(plan, search);
        // Few: gathered, and a page lists them (the answers above).
        assert.equal(plan.named?.split(',').filter(Boolean).length ?? -1, plan.matches, search);
      }
      // More than asked for: not gathered, and the count says how many.
      const query = ftsQuery(['page'])!;
      const all = await countFtsMatches(t.app.db, query, CONTEXT_FTS);
      assert.ok(all > 10);
      assert.equal(await ftsMatchIds(t.app.db, query, CONTEXT_FTS, all - 1), undefined);
      assert.equal((await ftsMatchIds(t.app.db, query, CONTEXT_FTS, all))?.matches, all);
      // A key is not a value; a word of two characters, or with a line break, is tested on the contexts.
      assert.equal((await metaPlan('post_title')).metadataSearch?.matches, 0);
      assert.equal((await metaPlan('ab')).metadataSearch, undefined);
      assert.equal((await metaPlan('a\nb')).metadataSearch, undefined);
      const quokkas = async () => (await metaPlan('Quokka-Corner')).metadataSearch?.matches;
      assert.equal(await quokkas(), 0);
      await t.app.activity.log(
        {
          logger: 'SimplePostLogger',
          messageKey: 'post_updated',
          context: { post_type: 'page', post_title: 'QUOKKA-corner' },
        },
        { user: null, ip: '' },
      );
      assert.equal(await quokkas(), undefined, 'not used while an event is new to it');
      assert.equal((await answer('quokka', 'metadata_search')).total, 1, 'the read indexes it first');
      assert.equal(await quokkas(), 1);
      const oldest = (await t.app.db.selectFrom('history_events').select('id').orderBy('id').executeTakeFirstOrThrow())
        .id;
      await callRoute(t.app, 'POST', `/history/v1/events/${oldest}/stick`, { user: admin });
      await indexNewEvents(t.app.db, CONTEXT_FTS); // (sticking logs an event)
      assert.equal((await metaPlan('_sticky')).metadataSearch?.matches, 0, 'a key, still');
      assert.ok((await answer('1', 'metadata_search')).total > 0);
      await callRoute(t.app, 'POST', `/history/v1/events/${oldest}/unstick`, { user: admin });
      assert.deepEqual(await answer('quokka', 'metadata_search'), await metaTruth('quokka'));
    });

    test('the serving process brings both indexes of a log written before them up to date', async () => {
      const newest = await newestEventId(t.app.db);
      const pending = [SEARCH_FTS.pending, CONTEXT_FTS.pending];
      // As migrations 0023 to 0025 leave a big log: nothing indexed, no event new.
      if (t.app.dialect === 'sqlite')
        for (const index of FTS_INDEXES) await sql`delete from ${sql.table(index.table)}`.execute(t.app.db);
      else {
        // As migration 0028 leaves one: the values table empty, the old index of the contexts' JSON.
        // And as migration 0030 leaves one: the index of the texts' rests to be built.
        for (const name of [
          'history_events_search_trgm',
          'history_events_search_rest_trgm',
          'history_context_values_trgm',
        ])
          await sql`drop index ${sql.id(name)}`.execute(t.app.db);
        pending.push(SEARCH_REST_PENDING);
        await sql`create index history_event_contexts_trgm on history_event_contexts using gin (context collate "C" public.gin_trgm_ops)`.execute(
          t.app.db,
        );
        await sql`delete from history_context_values`.execute(t.app.db);
        pending.push(CONTEXT_VALUES_PENDING);
      }
      await t.app.db
        .updateTable('history_counters')
        .set({ value: newest + 1 })
        .where('name', 'in', [...pending, SEARCH_FTS.tailFrom, CONTEXT_FTS.tailFrom])
        .execute();
      for (const search of META_WORDS)
        assert.deepEqual(await answer(search, 'metadata_search'), await metaTruth(search), `meanwhile ${search}`);
      assert.equal((await metaPlan('contact')).metadataValues, undefined, 'the contexts tested meanwhile');
      if (t.app.dialect === 'postgres')
        assert.equal((await searchPlan('updated')).searchHeads, undefined, 'the whole texts tested meanwhile');
      const catchUp = startSearchIndexing(t.app);
      try {
        for (let waited = 0; ; waited += 50) {
          const rows = await t.app.db
            .selectFrom('history_counters')
            .select('value')
            .where('name', 'in', pending)
            .execute();
          if (rows.every((r) => Number(r.value) === 0)) break;
          assert.ok(waited < 20_000, 'caught up within 20 s');
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      } finally {
        await catchUp.stop();
      }
      if (t.app.dialect === 'postgres') {
        const { rows } = await sql<{
          name: string;
        }>`select indexname as name from pg_indexes where schemaname = current_schema() and indexname like 'history%_trgm' order by 1`.execute(
          t.app.db,
        );
        assert.deepEqual(
          rows.map((r) => r.name),
          ['history_context_values_trgm', 'history_events_search_rest_trgm', 'history_events_search_trgm'],
        );
        assert.ok(
          (await searchPlan('updated')).searchHeads?.get('updated')?.all.size,
          'the heads known once it is built',
        );
        assert.equal((await metaPlan('contact')).metadataValues?.alone, true);
      } else {
        assert.ok(await usesIndex('contact'));
        assert.ok((await metaPlan('contact')).metadataSearch);
      }
      for (const search of WORDS) {
        assert.deepEqual(await answer(search), await truth(search), search);
        assert.deepEqual(await answer(search, 'metadata_search'), await metaTruth(search), `metadata ${search}`);
      }
    });

    test('a word longer than the index looks for is found by its start and tested whole, with the exact total', async () => {
      const stem = 'Lorem'.repeat(2 * FTS_WORD_MAX);
      for (const title of [`${stem} Alpha`, `${stem} Beta`, `${stem} Beta`])
        await t.app.activity.log(
          { logger: 'SimplePostLogger', messageKey: 'post_updated', context: { post_type: 'page', post_title: title } },
          { user: null, ip: '' },
        );
      const query = ftsQuery([`${stem} beta`.toLowerCase()])!;
      // The phrase (quotes aside) holds FTS_WORD_MAX characters, however long the word.
      assert.equal([...query].length, FTS_WORD_MAX + 2);
      for (const search of [`${stem}Beta`, `${stem} beta`, `${stem} Gamma`, `${stem} alpha`])
        assert.deepEqual(await answer(search), await truth(search), search.slice(-12));
      const res = await callRoute(t.app, 'GET', '/history/v1/events', {
        query: { search: `${stem} Beta`, ungrouped: true },
        user: admin,
      });
      assert.equal(res.headers['x-wp-total'], '2');
    });

    test('SQLite: new events are indexed behind the writes, by the serving process or a read, never twice', {
      skip: target.name !== 'sqlite' && 'PostgreSQL keeps its indexes itself',
    }, async () => {
      const db = t.app.db;
      for (const index of FTS_INDEXES) await indexNewEvents(db, index);
      // Another process's bulk write, too many for a read to index: the reads test the rows.
      const columns = sql.raw(EVENT_COLUMNS.join(', '));
      const first = (await newestEventId(db)) + 1;
      await sql`insert into history_events (${columns}) select ${columns} from history_events order by id limit 2500`.execute(
        db,
      );
      await sql`insert into history_event_contexts (event_id, context)
        select e.id, x.context from history_events e join history_event_contexts x on x.event_id = e.id - ${first - 1}
        where e.id >= ${first}`.execute(db);
      assert.equal(await newEvents(db, SEARCH_FTS), 2500);
      for (const search of WORDS.slice(0, 3)) {
        assert.deepEqual(await answer(search), await truth(search), search);
        assert.deepEqual(await answer(search, 'metadata_search'), await metaTruth(search), `metadata ${search}`);
      }
      assert.equal(await usesIndex('contact'), false, 'rows tested while 2,500 events are new');
      assert.equal(await newEvents(db, CONTEXT_FTS), 2500, 'left to the serving process');
      const serving = startSearchIndexing(t.app);
      try {
        for (let waited = 0; (await newEvents(db, SEARCH_FTS)) + (await newEvents(db, CONTEXT_FTS)) > 0; waited += 20) {
          assert.ok(waited < 10_000, 'indexed within 10 s');
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        // An append is indexed a moment after it is committed.
        await t.app.activity.log(
          {
            logger: 'SimplePostLogger',
            messageKey: 'post_updated',
            context: { post_type: 'page', post_title: 'Numbat' },
          },
          { user: null, ip: '' },
        );
        for (let waited = 0; (await countFtsMatches(db, '"numbat"')) === 0; waited += 20) {
          assert.ok(waited < 5000, 'an append indexed within 5 s');
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      } finally {
        await serving.stop();
      }
      assert.ok(await usesIndex('contact'));
      for (const search of WORDS.slice(0, 3)) assert.deepEqual(await answer(search), await truth(search), search);

      // A new event's context changed before it is indexed (stuck) is indexed once: deleted, it
      // leaves nothing behind (an entry indexed twice would outlive the delete).
      await t.app.activity.log(
        { logger: 'SimplePostLogger', messageKey: 'post_updated', context: { post_type: 'page', post_title: 'Bilby' } },
        { user: null, ip: '' },
      );
      const bilby = await newestEventId(db);
      await callRoute(t.app, 'POST', `/history/v1/events/${bilby}/stick`, { user: admin });
      for (const index of FTS_INDEXES) await indexNewEvents(db, index);
      await callRoute(t.app, 'POST', `/history/v1/events/${bilby}/unstick`, { user: admin });
      assert.equal(await countFtsMatches(db, '"bilby"', CONTEXT_FTS), 1);
      await db.deleteFrom('history_event_contexts').where('event_id', '=', bilby).execute();
      await db.deleteFrom('history_events').where('id', '=', bilby).execute();
      assert.equal(await countFtsMatches(db, '"bilby"', CONTEXT_FTS), 0);
      assert.equal(await countFtsMatches(db, '"bilby"'), 0);

      // An event written among the indexed ids (an import keeping its source's id) is indexed at once.
      const row = await db.selectFrom('history_events').selectAll().where('id', '=', first).executeTakeFirstOrThrow();
      const context = await db
        .selectFrom('history_event_contexts')
        .select('context')
        .where('event_id', '=', first)
        .executeTakeFirstOrThrow();
      await db.deleteFrom('history_event_contexts').where('event_id', '=', first).execute();
      await db.deleteFrom('history_events').where('id', '=', first).execute();
      const marker = 'quoll-import';
      await db
        .insertInto('history_events')
        .values({ ...row, search_text: `${row.search_text} ${marker}` })
        .execute();
      await db
        .insertInto('history_event_contexts')
        .values({ event_id: first, context: JSON.stringify({ ...JSON.parse(context.context), source: marker }) })
        .execute();
      assert.equal(await countFtsMatches(db, `"${marker}"`), 1);
      assert.equal(await countFtsMatches(db, `"${marker}"`, CONTEXT_FTS), 1);
    });

    test('SQLite: a log indexed by an older version is caught up, answering from the rows meanwhile', {
      skip: target.name !== 'sqlite' && 'PostgreSQL builds its index concurrently',
    }, async () => {
      const newest = await newestEventId(t.app.db);
      // As migrations 0023 to 0025 leave a big log: nothing indexed below the ids written since.
      for (const index of FTS_INDEXES) {
        await sql`delete from ${sql.table(index.table)}`.execute(t.app.db);
        await t.app.db
          .updateTable('history_counters')
          .set({ value: newest + 1 })
          .where('name', 'in', [index.pending, index.tailFrom])
          .execute();
      }
      assert.equal(await usesIndex('contact'), false, 'not used while incomplete');
      assert.equal((await metaPlan('contact')).metadataSearch, undefined, 'not used while incomplete');
      let pending = newest + 1;
      for (let step = 0; pending > 0; step++) {
        if (step % 2 === 0)
          for (const search of WORDS) {
            assert.deepEqual(await answer(search), await truth(search), `${search}, ${pending} pending`);
            assert.deepEqual(await answer(search, 'metadata_search'), await metaTruth(search), `metadata ${search}`);
          }
        pending = await catchUpFtsIndex(t.app.db, SEARCH_FTS, 700);
        assert.equal(await catchUpFtsIndex(t.app.db, CONTEXT_FTS, 700), pending, 'the same ids to go');
      }
      for (const search of WORDS) {
        assert.ok(await usesIndex(search), search);
        assert.ok((await metaPlan(search)).metadataSearch, search);
        assert.deepEqual(await answer(search), await truth(search), search);
        assert.deepEqual(await answer(search, 'metadata_search'), await metaTruth(search), `metadata ${search}`);
      }
    });

    test('SQLite: a purge starts the index over instead of deleting entry by entry; answers stay exact', {
      skip: target.name !== 'sqlite' && 'PostgreSQL keeps its index itself',
    }, async () => {
      const cutoff = (
        await t.app.db
          .selectFrom('history_events')
          .select('date')
          .orderBy('date')
          .offset(1500)
          .limit(1)
          .executeTakeFirstOrThrow()
      ).date;
      await purgeEvents(t.app, { before: cutoff });
      assert.equal(await countFtsMatches(t.app.db, '"contact"'), 0, 'emptied');
      assert.equal(await countFtsMatches(t.app.db, '"contact"', CONTEXT_FTS), 0, 'emptied');
      for (const search of WORDS) {
        assert.deepEqual(await answer(search), await truth(search), `${search}, after the purge`);
        assert.deepEqual(await answer(search, 'metadata_search'), await metaTruth(search), `metadata ${search}`);
      }
      while ((await catchUpFtsIndex(t.app.db, SEARCH_FTS, 5000)) > 0);
      while ((await catchUpFtsIndex(t.app.db, CONTEXT_FTS, 5000)) > 0);
      for (const search of WORDS) {
        assert.ok(await usesIndex(search), search);
        assert.deepEqual(await answer(search), await truth(search), `${search}, caught up`);
        assert.deepEqual(
          await answer(search, 'metadata_search'),
          await metaTruth(search),
          `metadata ${search}, caught up`,
        );
      }
      // Single removals (an import replacing events) still leave the index through the trigger.
      const one =
        (await truth('contact')).ids[0] ??
        (
          await t.app.db
            .selectFrom('history_events')
            .select('id')
            .where('search_text', 'like', '%contact%')
            .executeTakeFirstOrThrow()
        ).id;
      const before = await countFtsMatches(t.app.db, '"contact"');
      await t.app.db.deleteFrom('history_events').where('id', '=', one).execute();
      assert.equal(await countFtsMatches(t.app.db, '"contact"'), before - 1);
    });
  });
}

describe('migrations 0028 and 0031 on a big PostgreSQL log (postgres)', {
  skip: !PG_URL && 'TEST_DATABASE_URL is not set',
}, () => {
  let t: TestApp;
  let admin: AuthUser;
  before(async () => {
    t = await createTestApp({ name: 'postgres' });
    admin = (await userWithRole(t.app, 'administrator')).user;
    await generateEvents(t.app, { count: 1500, days: 10, deferIndexes: false });
  });
  after(() => t.close());

  /** metadata_search's total and first page, against the stored contexts. */
  const exact = async (search: string) => {
    const { rows } = await sql<{ id: number }>`select e.id from history_events e
      join history_event_contexts x on x.event_id = e.id
      where exists (select 1 from json_each_text(x.context::json) c where lower(c.value) like ${`%${search.toLowerCase()}%`})
      order by e.date desc, e.id desc`.execute(t.app.db);
    // The first page and the second (from the log's columns once they are read, as list.ts serves them).
    for (const page of [1, 2]) {
      const res = await callRoute(t.app, 'GET', '/history/v1/events', {
        query: { metadata_search: search, per_page: 50, page },
        user: admin,
      });
      assert.equal(res.status, 200);
      assert.equal(Number(res.headers['x-wp-total']), rows.length, search);
      assert.equal(Number(res.headers['x-wp-totalpages']), Math.ceil(rows.length / 50), search);
      assert.deepEqual(
        (res.body as { id: number }[]).map((e) => e.id),
        rows.slice((page - 1) * 50, page * 50).map((r) => r.id),
        `${search} page ${page}`,
      );
    }
  };

  test('leaves the table to the serving process, which fills it and swaps the indexes; answers stay exact throughout', async () => {
    const db = t.app.db;
    // An event past the bound up to which the migration fills the table itself (an import's id).
    const columns = sql.raw(EVENT_COLUMNS.join(', '));
    await sql`insert into history_events (id, ${columns}) select 60000, ${columns} from history_events order by id desc limit 1`.execute(
      db,
    );
    await sql`insert into history_event_contexts (event_id, context) values (60000, ${JSON.stringify({ note: 'Numbat-60000' })})`.execute(
      db,
    );
    // Back to the state before migration 0028: its table, functions and triggers gone, the
    // index of the contexts' JSON text in place.
    await sql`drop table history_context_values`.execute(db);
    for (const fn of ['added', 'changed', 'gone', 'cleared'])
      await sql`drop function ${sql.id(`history_context_values_${fn}`)}() cascade`.execute(db);
    await sql`drop function history_context_values_of(text)`.execute(db);
    await sql`create index history_event_contexts_trgm on history_event_contexts using gin (context collate "C" public.gin_trgm_ops)`.execute(
      db,
    );
    await db.deleteFrom('history_counters').where('name', '=', CONTEXT_VALUES_PENDING).execute();
    await historyContextValuesMigration.up(db, 'postgres');
    await historyContextValueWordsMigration.up(db, 'postgres');

    const counter = async (name: string) =>
      Number(
        (await db.selectFrom('history_counters').select('value').where('name', '=', name).executeTakeFirst())?.value,
      );
    assert.equal(await counter(CONTEXT_VALUES_PENDING), 60001);
    assert.equal(await counter(CONTEXT_FTS.pending), 60001, 'the index is left to the serving process');
    const held = async () =>
      Number((await sql<{ n: string }>`select count(*) as n from history_context_values`.execute(db)).rows[0]!.n);
    assert.equal(await held(), 0);
    for (const search of ['numbat', 'contact']) await exact(search);
    // A write before the fill is kept by the triggers.
    await t.app.activity.log(
      { logger: 'SimplePostLogger', messageKey: 'post_updated', context: { post_type: 'page', post_title: 'Numbat' } },
      { user: null, ip: '' },
    );
    assert.equal(await held(), 1);

    const serving = startSearchIndexing(t.app);
    try {
      for (let waited = 0; (await counter(CONTEXT_FTS.pending)) !== 0; waited += 50) {
        assert.ok(waited < 20_000, 'filled and indexed within 20 s');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await serving.stop();
    }
    assert.equal(await counter(CONTEXT_VALUES_PENDING), 0);
    const { rows: indexes } = await sql<{ name: string }>`select indexname as name from pg_indexes
      where schemaname = current_schema() and tablename in ('history_event_contexts', 'history_context_values') and indexname like '%trgm'`.execute(
      db,
    );
    assert.deepEqual(
      indexes.map((r) => r.name),
      ['history_context_values_trgm'],
    );
    const contexts = Number(
      (await sql<{ n: string }>`select count(*) as n from history_event_contexts`.execute(db)).rows[0]!.n,
    );
    assert.ok((await held()) > contexts / 2, 'filled');
    for (const search of ['numbat', 'contact', 'example.com']) await exact(search);
  });

  test('migration 0031 on a small log: the values written again as words, as the server reads words', async () => {
    const db = t.app.db;
    await sql`delete from history_events where id >= 60000`.execute(db);
    // As migration 0028 wrote them: the values as they are.
    await sql`update history_context_values v set context_values = s.v from (select event_id,
      (select string_agg(value, E'\n') from json_each_text(context::json)) as v from history_event_contexts) s
      where s.event_id = v.event_id`.execute(db);
    await historyContextValueWordsMigration.up(db, 'postgres');
    assert.equal(await readCounter(db, CONTEXT_VALUES_PENDING), 0, 'filled');
    const { rows } = await sql<{ n: string }>`select count(*) as n from history_event_contexts x
      full join history_context_values v on v.event_id = x.event_id
      where v.context_values is distinct from history_context_values_of(x.context)`.execute(db);
    assert.equal(Number(rows[0]!.n), 0, 'every row written again');
    const values = [...Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)), 'ä', 'Ä', '😀'].join('');
    const of = async (context: Record<string, string>) =>
      (await sql<{ v: string }>`select history_context_values_of(${JSON.stringify(context)}) as v`.execute(db)).rows[0]!
        .v;
    assert.equal(
      await of({ a: values, b: 'x' }),
      `${valueWordsOf(values)}\nx`,
      'the server writes words as the table does',
    );
    assert.equal(await of({ a: 'Aㄒ.' }), 'aㄒㄒ#Aㄒ.', 'values holding a stand-in letter are kept as written too');
    assert.equal(valueWordsOf('A.b_C'), 'aㄒbㄟc');
    for (const search of ['numbat', 'contact', 'example.com', 'EXAMPLE.COM']) await exact(search);
  });
});

describe('search index on a log too large for the columns (sqlite)', () => {
  let t: TestApp;
  let admin: AuthUser;
  before(async () => {
    t = await createTestApp({ name: 'sqlite' });
    admin = (await userWithRole(t.app, 'administrator')).user;
    // The ids a log of more than MAX_COLUMN_ROWS events has, without writing them all.
    await sql`insert or replace into sqlite_sequence (name, seq) values ('history_events', ${MAX_COLUMN_ROWS})`.execute(
      t.app.db,
    );
    await generateEvents(t.app, { count: FEW_CANDIDATES + 500, days: 5 });
  });
  after(() => t.close());

  test('a word in more events than a page is led by is counted, not gathered; the answers stay exact', async () => {
    const searchFor = (search: string) =>
      eventFilterFromParams(
        { search },
        { loggers: t.app.loggers, scope: ALL, zone: 'UTC', lang: 'en', dialect: 'sqlite' },
      );
    const newest = await newestEventId(t.app.db);
    assert.ok(newest > MAX_COLUMN_ROWS);
    const holding = await t.app.db
      .selectFrom('history_events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('search_text', 'like', '%logger%')
      .executeTakeFirstOrThrow();
    assert.ok(Number(holding.n) > FEW_CANDIDATES);
    // Every search text holds its logger's slug ("SimplePostLogger").
    const plan = await indexPlan(t.app.db, searchFor('logger'), newest);
    assert.equal(plan.searchIndex?.matches, Number(holding.n));
    assert.equal(plan.searchIndex?.ids, undefined, 'no ids gathered');
    const res = await callRoute(t.app, 'GET', '/history/v1/events', {
      query: { search: 'logger', per_page: 10, page: 3, ungrouped: true },
      user: admin,
    });
    assert.equal(res.status, 200);
    assert.equal(Number(res.headers['x-wp-total']), Number(holding.n));
    const page = await t.app.db
      .selectFrom('history_events')
      .select('id')
      .where('search_text', 'like', '%logger%')
      .orderBy('date', 'desc')
      .orderBy('id', 'desc')
      .limit(10)
      .offset(20)
      .execute();
    assert.deepEqual(
      (res.body as { id: number }[]).map((e) => e.id),
      page.map((r) => r.id),
    );
    // A word in few events still names them, for a page to list.
    const rare = await indexPlan(t.app.db, searchFor('contact'), newest);
    assert.ok(rare.searchIndex!.matches > 0 && rare.searchIndex!.matches <= FEW_CANDIDATES);
    assert.equal(rare.searchIndex!.named?.split(',').length, rare.searchIndex!.matches);
  });
});

describe('several ranges of dates on a log the columns do not take (sqlite)', () => {
  let t: TestApp;
  let admin: AuthUser;
  before(async () => {
    t = await createTestApp({ name: 'sqlite' });
    admin = (await userWithRole(t.app, 'administrator')).user;
    await generateEvents(t.app, { count: 3000, days: 3 });
    // The count of events the columns weigh (columns/sync.ts), as on a log past their bound: reads go to SQL.
    await t.app.db
      .updateTable('history_counters')
      .set({ value: MAX_COLUMN_ROWS + 1 })
      .where('name', '=', COUNTER_TOTAL)
      .execute();
  });
  after(() => t.close());

  test('several ranges of dates beside a level, read range by range: totals and pages over HTTP as the rows say', async () => {
    // Yesterday and today (lastdays:1 starts at today's midnight): two ranges apart by a second.
    const dates = ['yesterday', 'lastdays:1'];
    const zone = t.app.options.get('timezone_string');
    // With a level, so that the shortcuts of dates alone (the runs' heads, the counts by hour) do not answer.
    const loglevels = ['info'];
    const filter = eventFilterFromParams(
      { dates, loglevels },
      { loggers: t.app.loggers, scope: ALL, zone, lang: 'en', dialect: 'sqlite' },
    );
    const ranges = dateWindow(filter).ranges;
    assert.equal(ranges?.length, 2, 'two ranges, read one by one');
    const inRanges = await t.app.db
      .selectFrom('history_events')
      .select(['id', 'date', 'occasions_id'])
      .where('level', 'in', loglevels)
      .where((eb) =>
        eb.or(
          ranges!.map((r) =>
            eb.and([...(r.from ? [eb('date', '>=', r.from)] : []), ...(r.to ? [eb('date', '<=', r.to)] : [])]),
          ),
        ),
      )
      .orderBy('date', 'desc')
      .orderBy('id', 'desc')
      .execute();
    assert.ok(inRanges.length > 0);
    for (const [page, perPage] of [
      [1, 7],
      [3, 50],
    ] as const) {
      const flat = await callRoute(t.app, 'GET', '/history/v1/events', {
        query: { dates, loglevels, ungrouped: true, page, per_page: perPage },
        user: admin,
      });
      assert.equal(flat.status, 200);
      assert.equal(Number(flat.headers['x-wp-total']), inRanges.length);
      assert.deepEqual(
        (flat.body as { id: number }[]).map((e) => e.id),
        inRanges.slice((page - 1) * perPage, page * perPage).map((r) => r.id),
        `ungrouped page ${page}`,
      );
      const grouped = await callRoute(t.app, 'GET', '/history/v1/events', {
        query: { dates, loglevels, page, per_page: perPage },
        user: admin,
      });
      assert.equal(grouped.status, 200);
      const want = referenceOverview(inRanges, page, perPage);
      assert.equal(Number(grouped.headers['x-wp-total']), want.total, `grouped total, page ${page}`);
      const shown = (grouped.body as { id: number; subsequent_occasions_count: number }[]).map(
        (e) => [e.id, e.subsequent_occasions_count] as [number, number],
      );
      const byId = (a: [number, number], b: [number, number]) => a[0] - b[0];
      assert.deepEqual(shown.sort(byId), [...want.items].sort(byId), `grouped page ${page}`);
    }
  });
});

describe('search index with its heads table full (sqlite)', () => {
  let t: TestApp;
  let admin: AuthUser;
  before(async () => {
    t = await createTestApp({ name: 'sqlite' });
    admin = (await userWithRole(t.app, 'administrator')).user;
    await generateEvents(t.app, { count: 3000, days: 30, deferIndexes: false });
    // Heads of no event, up to the bound: the templates' events are no longer all the heads'.
    await sql`insert into ${sql.table(HEADS_TABLE)} (head, logger, message_key)
      with recursive n(i) as (select 1 union all select i + 1 from n where i < ${MAX_SEARCH_HEADS})
      select 'none ' || i, 'NoLogger', 'none' from n`.execute(t.app.db);
    await t.app.activity.log(
      { logger: 'SimpleUserLogger', messageKey: 'a message first logged now', context: {} },
      { user: null, ip: '' },
    );
    await indexNewEvents(t.app.db, SEARCH_FTS);
  });
  after(() => t.close());

  test('an event logged since has no head: its text is indexed whole', async () => {
    assert.equal(await countFtsMatches(t.app.db, '"first logged now"'), 1);
  });
  test("search of words templates hold: the templates' events beside the index's matches", async () => {
    await searchOfTemplateWords(t, admin, true);
  });
  test('exclude_search of words templates hold: the same', async () => {
    await excludeOfTemplateWords(t, admin, true);
  });
});
