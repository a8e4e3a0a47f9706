// PostgreSQL: the search texts' heads are rows of their own, kept by triggers, and a trigram
// index holds what follows them (index/pg-search-heads.ts, migration 0030). A word is found in
// the rests or through the messages whose heads hold it (the log's columns name their events);
// searches stay exactly what the stored texts say, whatever the texts hold (a template of two
// lines, no key, several heads of one message, a text changed after it was logged).
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp, PG_URL, type TestApp } from '../support/db.ts';
import { callRoute, userWithRole } from '../support/http.ts';
import type { AuthUser } from '../../src/auth/types.ts';
import { generateEvents } from '../../src/namespaces/history/bulk/generate.ts';
import type { EventFilter } from '../../src/namespaces/history/read/query.ts';
import { filterFromParams, logEvent } from './support.ts';
import { indexPlan } from '../../src/namespaces/history/read/plan.ts';
import { MAX_COLUMN_ROWS } from '../../src/namespaces/history/columns/bound.ts';
import { newestEventId, readCounter } from '../../src/namespaces/history/model/counters.ts';
import { HEADS_TABLE } from '../../src/namespaces/history/index/search-heads.ts';
import { MAX_PG_SEARCH_HEADS, SEARCH_REST_PENDING } from '../../src/namespaces/history/index/pg-search-heads.ts';
import { historyPgSearchHeadsMigration } from '../../src/namespaces/history/migrations/0030_history_pg_search_heads.ts';

describe('search heads (postgres)', { skip: !PG_URL && 'TEST_DATABASE_URL is not set' }, () => {
  let t: TestApp;
  let admin: AuthUser;
  let changed = 0;

  const logOne = (logger: string, messageKey: string, context: Record<string, string>) =>
    logEvent(t.app, logger, messageKey, context);

  before(async () => {
    t = await createTestApp({ name: 'postgres' });
    admin = (await userWithRole(t.app, 'administrator')).user;
    // COPY, as a bulk load writes: the heads come from the statement's trigger.
    await generateEvents(t.app, { count: 3000, days: 30 });
    // A template of two lines (its level then follows the head), an event without a key, a
    // keyed event without values, and a text changed after it was logged (a second head of
    // its message, at another level).
    await logOne('PluginX', 'Line one\nsecond line {what}', { what: 'quokka' });
    await logOne('PluginX', '', { message: 'wombat loggedin' });
    await logOne('PluginX', 'Zebrafish stood still', {});
    // Its message's head holds `info` (its level), its value `updated`.
    await logOne('PluginX', 'Noted {what}', { what: 'Updated plans' });
    await logOne('SimpleUserLogger', 'user_logged_in', {});
    changed = await newestEventId(t.app.db);
    await sql`update history_events set search_text = ${'signed on\nsimpleuserlogger\nwarning'}
      where id = ${changed}`.execute(t.app.db);
    await sql`analyze history_events`.execute(t.app.db);
  });
  after(() => t.close());

  const filterOf = (params: Record<string, unknown>) => filterFromParams(t.app, params);
  /** The events `search` keeps, as the stored texts and the templates say, newest first. */
  const truth = async (params: { search?: string; exclude_search?: string; loglevels?: string[] }) => {
    const f = filterOf(params);
    const rows = await t.app.db
      .selectFrom('history_events')
      .select(['id', 'search_text', 'logger', 'message_key', 'level'])
      .orderBy('date', 'desc')
      .orderBy('id', 'desc')
      .execute();
    const keeps = (terms: EventFilter['search'], r: (typeof rows)[number]) =>
      !!terms &&
      (terms.words.every((w) => r.search_text.includes(w)) ||
        (r.message_key !== null && !!terms.templateMatches.get(r.logger)?.includes(r.message_key)));
    return rows
      .filter((r) => (!f.search || keeps(f.search, r)) && !keeps(f.excludeSearch, r))
      .filter((r) => !f.loglevels || f.loglevels.includes(r.level))
      .map((r) => r.id);
  };
  const WORDS = [
    'updated',
    'Incorrect password',
    'logged',
    'info',
    'quokka',
    'second line',
    'line info',
    'wombat',
    'zebrafish still',
    'warning',
    'signed',
    'userlogger',
    'updated failed',
    'onboarding updated',
    'info updated',
    'pro edited',
    'edited installed tra',
    'logged in',
    'nowhere-at-all',
  ];

  test('the heads are those of the stored texts, added by every write', async () => {
    const { rows } = await sql<{ missing: number; extra: number }>`select
      (select count(*) from (select distinct logger, message_key, history_search_head(search_text, message_key) as head
        from history_events where message_key is not null except select logger, message_key, head from ${sql.table(HEADS_TABLE)}) m) as missing,
      (select count(*) from ${sql.table(HEADS_TABLE)} h where not exists (select 1 from history_events e
        where e.logger = h.logger and e.message_key = h.message_key and history_search_head(e.search_text, e.message_key) = h.head)) as extra`.execute(
      t.app.db,
    );
    assert.deepEqual({ missing: Number(rows[0]!.missing), extra: Number(rows[0]!.extra) }, { missing: 0, extra: 0 });
    const { rows: parts } = await sql<{ n: number }>`select count(*) as n from history_events
      where message_key is not null and history_search_head(search_text, message_key) || case when history_search_head(search_text, message_key) = search_text then '' else E'\n' || history_search_rest(search_text, message_key) end <> search_text
        or (message_key is null and (history_search_head(search_text, message_key) <> '' or history_search_rest(search_text, message_key) <> search_text))`.execute(
      t.app.db,
    );
    assert.equal(Number(parts[0]!.n), 0, 'head, line break and rest make the text');
  });

  test('the cases below hold events whose message holds one word and a value the other', async () => {
    const plan = await indexPlan(t.app.db, filterOf({ search: 'info updated' }), await newestEventId(t.app.db));
    assert.ok(plan.searchHeads?.get('info')?.all.get('PluginX')?.includes('Noted {what}'));
    assert.ok(!plan.searchHeads?.get('updated')?.all.get('PluginX')?.includes('Noted {what}'));
    const { id } = await t.app.db
      .selectFrom('history_events')
      .select('id')
      .where('message_key', '=', 'Noted {what}')
      .executeTakeFirstOrThrow();
    assert.ok((await truth({ search: 'info updated' })).includes(id));
  });

  test('the plan knows the messages whose heads hold each word', async () => {
    const plan = await indexPlan(t.app.db, filterOf({ search: 'warning signed' }), await newestEventId(t.app.db));
    const warning = plan.searchHeads?.get('warning');
    assert.ok(warning, 'known');
    assert.deepEqual(warning.some.get('SimpleUserLogger'), ['user_logged_in'], 'one of its two heads holds it');
    assert.ok(!warning.all.get('SimpleUserLogger')?.includes('user_logged_in'));
    assert.deepEqual(plan.searchHeads?.get('signed')?.some.get('SimpleUserLogger'), ['user_logged_in']);
    const updated = await indexPlan(t.app.db, filterOf({ search: 'updated' }), await newestEventId(t.app.db));
    assert.ok(updated.searchHeads?.get('updated')?.all.get('SimplePostLogger')?.includes('post_updated'));
    const short = await indexPlan(t.app.db, filterOf({ search: 'in' }), await newestEventId(t.app.db));
    assert.equal(short.searchHeads, undefined, 'a word the trigram indexes do not serve is tested on the texts');
    const large = await indexPlan(t.app.db, filterOf({ search: 'updated' }), MAX_COLUMN_ROWS + 1);
    assert.equal(large.searchHeads, undefined, 'not read for a log the columns do not hold');
  });

  test('over HTTP (the log columns): totals and pages as the stored texts say', async () => {
    const cases = [
      ...WORDS.map((search) => ({ search })),
      ...['updated', 'ser', 'warning', 'info quokka', 'pro edited', 'username logged', 'info updated'].map(
        (exclude_search) => ({
          exclude_search,
        }),
      ),
      { search: 'updated', loglevels: ['info'] },
      { search: 'logged', exclude_search: 'signed' },
    ];
    for (const params of cases) {
      const expected = await truth(params);
      for (const [page, per_page] of [
        [1, 10],
        [3, 7],
      ] as const) {
        const res = await callRoute(t.app, 'GET', '/history/v1/events', {
          query: { ...params, ungrouped: true, page, per_page },
          user: admin,
        });
        const label = `${JSON.stringify(params)} page ${page}`;
        assert.equal(res.status, 200, label);
        assert.equal(Number(res.headers['x-wp-total']), expected.length, label);
        assert.deepEqual(
          (res.body as { id: number }[]).map((e) => e.id),
          expected.slice((page - 1) * per_page, page * per_page),
          label,
        );
      }
    }
  });

  test('beyond MAX_PG_SEARCH_HEADS heads the whole texts are tested, answers unchanged', async () => {
    const params = { search: 'info updated', ungrouped: true, per_page: 100 };
    const plan = async () => (await indexPlan(t.app.db, filterOf(params), await newestEventId(t.app.db))).searchHeads;
    assert.ok(await plan());
    await sql`insert into ${sql.table(HEADS_TABLE)} (logger, message_key, head)
      select 'FreeText', 'm' || n, 'm' || n || E'\nfreetext\ninfo' from generate_series(1, ${MAX_PG_SEARCH_HEADS}) as n`.execute(
      t.app.db,
    );
    try {
      assert.equal(await plan(), undefined);
      const res = await callRoute(t.app, 'GET', '/history/v1/events', { query: params, user: admin });
      const expected = await truth({ search: 'info updated' });
      assert.equal(Number(res.headers['x-wp-total']), expected.length);
      assert.deepEqual(
        (res.body as { id: number }[]).map((e) => e.id),
        expected.slice(0, 100),
      );
    } finally {
      await sql`delete from ${sql.table(HEADS_TABLE)} where logger = 'FreeText'`.execute(t.app.db);
    }
    assert.ok(await plan());
  });

  test('migration 0030 over a log written before it: heads read, the index built, searches as before', async () => {
    await sql`drop trigger history_search_heads_insert on history_events`.execute(t.app.db);
    await sql`drop trigger history_search_heads_update on history_events`.execute(t.app.db);
    await sql`drop index history_events_search_rest_trgm`.execute(t.app.db);
    await sql`drop table ${sql.table(HEADS_TABLE)}`.execute(t.app.db);
    await t.app.db.deleteFrom('history_counters').where('name', '=', SEARCH_REST_PENDING).execute();
    await historyPgSearchHeadsMigration.up(t.app.db, 'postgres');
    assert.equal(await readCounter(t.app.db, SEARCH_REST_PENDING), 0, 'a small log: built at once');
    const { rows } = await sql<{ n: number }>`select count(*) as n from pg_indexes
      where schemaname = current_schema() and indexname = 'history_events_search_rest_trgm'`.execute(t.app.db);
    assert.equal(Number(rows[0]!.n), 1);
    const res = await callRoute(t.app, 'GET', '/history/v1/events', {
      query: { search: 'warning', ungrouped: true, per_page: 100 },
      user: admin,
    });
    assert.deepEqual(
      (res.body as { id: number }[]).map((e) => e.id),
      (await truth({ search: 'warning' })).slice(0, 100),
    );
    assert.ok((await truth({ search: 'warning' })).includes(changed));
  });
});
