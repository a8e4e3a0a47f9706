// SQLite's search index holds each keyed event's head (template, logger, level) as a token of
// its own (index/search-heads.ts, migration 0029): a word's phrase alone no longer finds it in a
// template, its query finds it through the heads' tokens, and searches stay exactly what the
// stored search texts say, whatever the texts hold (tokens' characters, line breaks, no key).
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp, type TestApp } from '../support/db.ts';
import { callRoute, userWithRole } from '../support/http.ts';
import type { AuthUser } from '../../src/auth/types.ts';
import { generateEvents } from '../../src/namespaces/history/bulk/generate.ts';
import { filterFromParams, logEvent } from './support.ts';
import {
  countFtsMatches,
  ftsMatchIds,
  ftsQuery,
  indexNewEvents,
  SEARCH_FTS,
} from '../../src/namespaces/history/index/fts.ts';
import { matchesBesideWholeMessages } from '../../src/namespaces/history/read/whole-messages.ts';
import {
  headToken,
  headTokens,
  HEADS_TABLE,
  MAX_SEARCH_HEADS,
} from '../../src/namespaces/history/index/search-heads.ts';
import { historySearchHeadsMigration } from '../../src/namespaces/history/migrations/0029_history_search_heads.ts';
import { startSearchIndexing } from '../../src/namespaces/history/index/search.ts';
import { newestEventId, readCounter } from '../../src/namespaces/history/model/counters.ts';
import { eventFilterFromParams } from '../../src/namespaces/history/read/query.ts';
import { indexPlan } from '../../src/namespaces/history/read/plan.ts';

describe('search index: heads as tokens (sqlite)', () => {
  let t: TestApp;
  let admin: AuthUser;
  /** A head's token written into a value of an event whose text holds none of the head's words. */
  let forgedToken = '';

  const logOne = (logger: string, messageKey: string, context: Record<string, string>) =>
    logEvent(t.app, logger, messageKey, context);

  before(async () => {
    t = await createTestApp({ name: 'sqlite' });
    admin = (await userWithRole(t.app, 'administrator')).user;
    await generateEvents(t.app, { count: 3000, days: 30, deferIndexes: false });
    const { rows } = await sql<{ id: number; head: string }>`select id, head from ${sql.table(HEADS_TABLE)}
      where head like '%incorrect password%'`.execute(t.app.db);
    assert.ok(rows.length > 0, 'the generated log has a head of failed logins');
    forgedToken = headToken(Number(rows[0]!.id));
    // A template of two lines (an unknown key is its own template), a value holding a head's
    // token, and an event without a key (indexed whole).
    await logOne('PluginX', 'Line one\nsecond line {what}', { what: 'quokka' });
    await logOne('PluginX', 'plain {note}', { note: `quokka ${forgedToken} zz` });
    await logOne('PluginX', '', { message: 'wombat loggedin' });
    // A keyed event without values (its text is its head alone), and one whose stored text is
    // not its template's (as an import may bring): `search` matches it by its template.
    await logOne('PluginX', 'Zebrafish stood still', {});
    await logOne('SimpleUserLogger', 'user_logged_in', {});
    await sql`update history_events set search_text = ${'signed on\nsimpleuserlogger\ninfo'}
      where id = (select max(id) from history_events)`.execute(t.app.db);
    await indexNewEvents(t.app.db, SEARCH_FTS);
  });
  after(() => t.close());

  /** The events whose stored search text holds every word (as `search` matches them, templates aside). */
  const holding = async (words: string[]) => {
    const rows = await t.app.db.selectFrom('history_events').select(['id', 'search_text']).execute();
    return rows.filter((r) => words.every((w) => r.search_text.includes(w))).map((r) => r.id);
  };
  test('the texts hold what the cases below need', async () => {
    assert.equal((await holding(['quokka', forgedToken])).length, 1);
    assert.equal((await holding(['wombat'])).length, 1);
    assert.equal((await holding(['second', 'quokka'])).length, 1);
  });

  /** Words searched for: in templates, values, loggers, levels, heads of a few lines, several or none. */
  const SEARCHED = [
    ['incorrect'],
    ['incorrect', 'anna'],
    ['login', 'hans'],
    ['simpleuserlogger'],
    ['serlog'],
    ['info'],
    ['warning'],
    ['updated', 'page'],
    ['line'],
    ['second', 'quokka'],
    ['pluginx', 'info'],
    ['wombat'],
    ['gedin'],
    ['nowhere-at-all'],
    ['logged'],
    ['pluginx'],
  ];

  const indexCount = async (words: string[]) => countFtsMatches(t.app.db, ftsQuery(words, await headTokens(t.app.db))!);

  test('a template word is found through its heads, not in the indexed texts', async () => {
    const incorrect = await holding(['incorrect']);
    assert.ok(incorrect.length > 50);
    const phraseAlone = await countFtsMatches(t.app.db, ftsQuery(['incorrect'])!);
    assert.equal(phraseAlone, 0, 'the phrase alone finds "incorrect" in no value');
    assert.equal(await indexCount(['incorrect']), incorrect.length);
  });

  test('a keyed event without values is found through its head', async () => {
    assert.equal(await countFtsMatches(t.app.db, ftsQuery(['zebrafish'])!), 0);
    assert.equal(await indexCount(['zebrafish', 'still']), 1);
  });

  test("a template's events are named by the index through their heads, whatever their texts hold", async () => {
    const newest = await newestEventId(t.app.db);
    const filter = eventFilterFromParams(
      { search: 'Logged' },
      { loggers: t.app.loggers, scope: { all: true }, zone: 'UTC', lang: 'en', dialect: 'sqlite' },
    );
    const plan = await indexPlan(t.app.db, filter, newest);
    assert.equal(plan.searchIndex?.exact, true, 'exact with the templates');
    const expected = [...(await holding(['logged'])), newest];
    assert.equal(plan.searchIndex?.matches, expected.length);
    for (const ungrouped of [true, false]) {
      const res = await callRoute(t.app, 'GET', '/history/v1/events', {
        query: { search: 'Logged', per_page: 100, ungrouped },
        user: admin,
      });
      assert.equal(res.status, 200);
      const ids = (res.body as { id: number }[]).map((e) => e.id);
      assert.ok(ids.includes(newest), 'the event of the template, its text aside');
      if (ungrouped) {
        assert.equal(Number(res.headers['x-wp-total']), expected.length);
        assert.equal(ids.length, Math.min(100, expected.length));
        assert.ok(ids.every((id) => expected.includes(id)));
      }
    }
  });

  test('the index names exactly the events whose texts hold the words', async () => {
    for (const words of SEARCHED) assert.equal(await indexCount(words), (await holding(words)).length, words.join(' '));
  });

  test("the matches beside the messages whose every head holds the words, with those messages' events, are the index's matches", async () => {
    // An event of a whole message whose values hold the word too: counted once, as the message's.
    await logOne('PluginX', 'plain {note}', { note: 'plainly pluginx' });
    await indexNewEvents(t.app.db, SEARCH_FTS);
    const newest = await newestEventId(t.app.db);
    const heads = await headTokens(t.app.db);
    const idsOf = (list: string) => (list ? list.split(',').map(Number) : []);
    const { rows: unkeyed } = await sql<{ id: number }>`select id from history_events
      where logger = 'PluginX' and message_key is null`.execute(t.app.db);
    assert.equal(unkeyed.length, 1, 'an event of PluginX without a key');
    let split = 0;
    for (const words of SEARCHED) {
      const search = filterFromParams(t.app, { search: words.join(' ') }).search!;
      const templates = search.templateMatches.size ? heads.ofMessages(search.templateMatches) : undefined;
      const expected = idsOf((await ftsMatchIds(t.app.db, ftsQuery(search.words, heads, templates)!, SEARCH_FTS))!.ids);
      const beside = await matchesBesideWholeMessages(t.app.db, search, heads, newest, 0);
      if (!beside) continue;
      split++;
      const ofWhole = await t.app.db
        .selectFrom('history_events')
        .select('id')
        .where((eb) =>
          eb.or(
            [...beside.wholeMessages].map(([logger, keys]) =>
              eb.and([eb('logger', '=', logger), eb('message_key', 'in', keys)]),
            ),
          ),
        )
        .execute();
      const others = idsOf(beside.ids);
      const what = words.join(' ');
      assert.ok(ofWhole.length > 0, what);
      assert.ok(
        others.every((id) => !ofWhole.some((e) => e.id === id)),
        `${what}: the others are of no whole message`,
      );
      assert.deepEqual(
        [...others, ...ofWhole.map((e) => e.id)].sort((a, b) => a - b),
        expected.sort((a, b) => a - b),
        what,
      );
      assert.equal(beside.matches, expected.length, what);
      if (words[0] === 'pluginx') {
        assert.ok(others.includes(unkeyed[0]!.id), `${what}: the event without a key`);
        assert.ok(!others.includes(newest) && ofWhole.some((e) => e.id === newest), `${what}: its values aside`);
      }
    }
    assert.ok(split >= 5, `${split} searches had whole messages`);
  });

  test('over HTTP: totals and pages as the stored texts say, tokens in values and words holding their mark included', async () => {
    for (const search of [
      'Incorrect password',
      'quokka',
      `${forgedToken}`,
      'second line',
      'wombat',
      'Failed username',
    ]) {
      const res = await callRoute(t.app, 'GET', '/history/v1/events', {
        query: { search, per_page: 50, ungrouped: true },
        user: admin,
      });
      assert.equal(res.status, 200);
      const words = search.toLowerCase().split(' ');
      const expected = await holding(words);
      assert.equal(Number(res.headers['x-wp-total']), expected.length, search);
      const ids = (res.body as { id: number }[]).map((e) => e.id);
      assert.ok(
        ids.every((id) => expected.includes(id)),
        search,
      );
    }
    // The forged token is only a value: the event holding it is not one of the head's.
    const quokka = await holding(['quokka', 'incorrect']);
    assert.equal(quokka.length, 0);
  });

  test('rows written among the indexed ids (an import keeping its ids) are indexed by the triggers, with their heads', async () => {
    const { rows } = await sql<{ id: number }>`select id from history_events
      where search_text like '%incorrect password%' order by id limit 2`.execute(t.app.db);
    const [known, changed] = rows.map((r) => Number(r.id));
    await sql`create temp table moved as select * from history_events where id in (${known}, ${changed})`.execute(
      t.app.db,
    );
    // One keeps its head, the other gets a head no event had.
    await sql`update moved set search_text = ${'brandnew heading\npluginx\ninfo\nquokka'}, message_key = 'brandnew'
      where id = ${changed}`.execute(t.app.db);
    await sql`delete from history_events where id in (${known}, ${changed})`.execute(t.app.db);
    // As the writers insert (`or rollback`), whose conflict clause would override one in a trigger.
    await sql`insert or rollback into history_events select * from moved`.execute(t.app.db);
    await sql`drop table moved`.execute(t.app.db);
    for (const words of [['incorrect'], ['brandnew'], ['heading', 'quokka']])
      assert.equal(await indexCount(words), (await holding(words)).length, words.join(' '));
    assert.equal(await countFtsMatches(t.app.db, ftsQuery(['brandnew'])!), 0, 'the new head is a token');
  });

  test('migration 0029 empties the index of an older version and the serving process fills it again', async () => {
    await sql`delete from ${sql.table(HEADS_TABLE)}`.execute(t.app.db);
    await t.app.db.transaction().execute((tx) => historySearchHeadsMigration.up(tx, 'sqlite'));
    const newest = await readCounter(t.app.db, SEARCH_FTS.tailFrom);
    // A log this small is filled by the migration itself.
    assert.equal(await readCounter(t.app.db, SEARCH_FTS.pending), 0);
    assert.ok(newest > 3000);
    assert.equal(await indexCount(['incorrect']), (await holding(['incorrect'])).length);
    // A bigger one is left to the serving process, newest first.
    await sql`insert into ${sql.table(SEARCH_FTS.table)} (${sql.table(SEARCH_FTS.table)}) values ('delete-all')`.execute(
      t.app.db,
    );
    await sql`update history_counters set value = ${newest} where name = ${SEARCH_FTS.pending}`.execute(t.app.db);
    const indexing = startSearchIndexing(t.app);
    try {
      for (let i = 0; i < 200 && (await readCounter(t.app.db, SEARCH_FTS.pending)) !== 0; i++)
        await new Promise((r) => setTimeout(r, 50));
    } finally {
      await indexing.stop();
    }
    assert.equal(await readCounter(t.app.db, SEARCH_FTS.pending), 0);
    for (const words of [['incorrect'], ['quokka'], ['updated', 'page']])
      assert.equal(await indexCount(words), (await holding(words)).length, words.join(' '));
  });
});

test('a full table of heads: no message is whole (events logged since may have no head)', async () => {
  const t = await createTestApp({ name: 'sqlite' });
  try {
    for (const name of ['anna', 'ben']) await logEvent(t.app, 'SimpleUserLogger', 'user_login_failed', { login: name });
    await indexNewEvents(t.app.db, SEARCH_FTS);
    const search = filterFromParams(t.app, { search: 'failed' }).search!;
    const newest = await newestEventId(t.app.db);
    const split = await matchesBesideWholeMessages(t.app.db, search, await headTokens(t.app.db), newest, 0);
    assert.equal(split?.matches, 2, 'whole while the table has room');
    await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${MAX_SEARCH_HEADS})
      insert into ${sql.table(HEADS_TABLE)} (head, logger, message_key) select 'filler ' || i, 'Filler', 'filler' from n`.execute(
      t.app.db,
    );
    assert.equal(await matchesBesideWholeMessages(t.app.db, search, await headTokens(t.app.db), newest, 0), undefined);
  } finally {
    await t.close();
  }
});
