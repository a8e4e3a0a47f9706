// PostgreSQL: a search of several words seldom found together is read through the few events
// holding them all (read/search-candidates.ts), and answers exactly as the rows say.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, PG_URL, type TestApp } from '../support/db.ts';
import { callRoute, userWithRole } from '../support/http.ts';
import type { AuthUser } from '../../src/auth/types.ts';
import { filterFromParams } from './support.ts';
import { indexPlan } from '../../src/namespaces/history/read/plan.ts';
import { filterCondition } from '../../src/namespaces/history/read/conditions.ts';
import { sql } from 'kysely';
import { generateEvents } from '../../src/namespaces/history/bulk/generate.ts';
import { purgeEvents } from '../../src/namespaces/history/write/maintenance.ts';
import { newestEventId } from '../../src/namespaces/history/model/counters.ts';

describe('search candidates (postgres)', { skip: !PG_URL && 'TEST_DATABASE_URL is not set' }, () => {
  let t: TestApp;
  let admin: AuthUser;
  before(async () => {
    t = await createTestApp({ name: 'postgres' });
    admin = (await userWithRole(t.app, 'administrator')).user;
    // "updated" and "failed" are each in many generated events, together in none: PostgreSQL,
    // multiplying their shares, expects a match every few hundred rows and would walk by date.
    await generateEvents(t.app, { count: 20_000, days: 30 });
    for (const day of [1, 2, 3])
      await t.app.activity.log(
        {
          logger: 'CustomEntryLogger',
          messageKey: 'custom_entry_added',
          context: { message: `Updated: FAILED on day ${day}` },
          date: `2025-01-0${day} 12:00:00`,
        },
        { user: null, ip: '' },
      );
    await sql`analyze history_events`.execute(t.app.db);
  });
  after(() => t.close());

  const filter = (params: Record<string, unknown>) => filterFromParams(t.app, params);
  const plan = async (search: string, wanted?: number) =>
    indexPlan(t.app.db, filter({ search }), await newestEventId(t.app.db), { wanted });
  const holding = async (...words: string[]) =>
    (
      await t.app.db
        .selectFrom('history_events')
        .select(['id', 'search_text'])
        .orderBy('date', 'desc')
        .orderBy('id', 'desc')
        .execute()
    )
      .filter((r) => words.every((w) => r.search_text.includes(w)))
      .map((r) => r.id);

  test('two words seldom together: their events, found through the trigram index', async () => {
    const ids = await holding('updated', 'failed');
    assert.equal(ids.length, 3);
    const found = await plan('updated failed');
    assert.deepEqual(
      found.searchCandidates?.ids,
      [...ids].sort((a, b) => a - b),
    );
    const read = t.app.db
      .selectFrom('history_events')
      .select('id')
      .where(filterCondition(filter({ search: 'updated failed' }), found)!);
    assert.match(read.compile().sql, /unnest\(/, 'the rows are read through the candidates');
    for (const [page, perPage] of [
      [1, 2],
      [2, 2],
      [1, 10],
    ] as const) {
      const res = await callRoute(t.app, 'GET', '/history/v1/events', {
        query: { search: 'updated FAILED', page, per_page: perPage },
        user: admin,
      });
      assert.equal(res.status, 200);
      assert.equal(res.headers['x-wp-total'], '3');
      const shown = (res.body as { id: number }[]).map((e) => e.id);
      assert.deepEqual(shown, ids.slice((page - 1) * perPage, page * perPage));
    }
  });

  test('exclude_search: words only old events hold still exclude them, words none holds exclude nothing', async () => {
    const excluding = async (exclude_search: string) =>
      indexPlan(t.app.db, filter({ exclude_search }), await newestEventId(t.app.db));
    assert.equal((await excluding('updated failed')).excludesNothing, false, 'held by three events of 2025');
    assert.equal((await excluding('failed')).excludesNothing, false, 'held by many of the newest');
    assert.equal((await excluding('xyzzy failed')).excludesNothing, true);
    const listed = await callRoute(t.app, 'GET', '/history/v1/events', {
      query: { exclude_search: 'updated failed', ungrouped: true, per_page: 5 },
      user: admin,
    });
    assert.equal(listed.status, 200);
    const events = (await t.app.db.selectFrom('history_events').select('id').execute()).length;
    assert.equal(Number(listed.headers['x-wp-total']), events - (await holding('updated', 'failed')).length);
  });

  test('events logged after the candidates were gathered are found too', async () => {
    const before = await plan('updated failed');
    const newer = await t.app.activity.log(
      { logger: 'CustomEntryLogger', messageKey: 'custom_entry_added', context: { message: 'failed: updated' } },
      { user: null, ip: '' },
    );
    assert.ok(!before.searchCandidates!.ids.includes(newer));
    const res = await callRoute(t.app, 'GET', '/history/v1/events', {
      query: { search: 'updated failed', per_page: 10 },
      user: admin,
    });
    assert.equal(res.headers['x-wp-total'], '4');
    assert.equal((res.body as { id: number }[])[0]!.id, newer);
  });

  test('a purge has them found anew', async () => {
    assert.equal((await plan('updated failed')).searchCandidates?.ids.length, 3);
    assert.equal(await purgeEvents(t.app, { before: '2025-06-01 00:00:00' }), 3);
    const left = await holding('updated', 'failed');
    assert.equal(left.length, 1);
    // One of the newest 10,000 events holds them: the walk to a page's 2nd row reads about 20,000
    // rows, less than gathering them costs; to the 5th, about 50,000, more.
    assert.equal((await plan('updated failed', 2)).searchCandidates, undefined, 'a short walk by date');
    assert.deepEqual((await plan('updated failed')).searchCandidates?.ids, left);
    assert.deepEqual((await plan('updated failed', 5)).searchCandidates?.ids, left, 'a longer one');
    // Once gathered, they lead a short page too.
    assert.deepEqual((await plan('updated failed', 2)).searchCandidates?.ids, left, 'gathered before');
  });

  test('words common together, one word, words PostgreSQL finds itself or a word the index cannot serve: read as before', async () => {
    assert.equal((await plan('info simpleuserlogger')).searchCandidates, undefined, 'together in many of the newest');
    assert.equal((await plan('failed')).searchCandidates, undefined, 'one word');
    assert.equal((await plan('failed xyzzy')).searchCandidates, undefined, 'PostgreSQL goes through its index itself');
    assert.equal((await plan('failed se')).searchCandidates, undefined, 'a word of two letters');
    const res = await callRoute(t.app, 'GET', '/history/v1/events', {
      query: { search: 'failed se', per_page: 100 },
      user: admin,
    });
    assert.equal(Number(res.headers['x-wp-total']), (await holding('failed', 'se')).length);
  });
});
