// PostgreSQL: a search of several words seldom found together is read through the few events
// holding them all (read/search-candidates.ts), and answers exactly as the rows say.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, PG_URL, type TestApp } from '../support/db.ts';
import { callRoute, userWithRole } from '../support/http.ts';
import type { AuthUser } from '../../src/auth/types.ts';
import { eventFilterFromParams } from '../../src/namespaces/history/read/query.ts';
import { indexPlan } from '../../src/namespaces/history/read/plan.ts';
import { filterCondition } from '../../src/namespaces/history/read/conditions.ts';
import { newestEventId } from '../../src/namespaces/history/model/counters.ts';

const ALL = { all: true, slugs: [] };

describe('search candidates (postgres)', { skip: !PG_URL && 'TEST_DATABASE_URL is not set' }, () => {
  let t: TestApp;
  let admin: AuthUser;
  before(async () => {
    t = await createTestApp({ name: 'postgres' });
    admin = (await userWithRole(t.app, 'administrator')).user;
    const entry = (message: string) =>
      t.app.activity.log(
        { logger: 'CustomEntryLogger', messageKey: 'custom_entry_added', context: { message } },
        { user: null, ip: '' },
      );
    // "zebra" and "quokka" are each in more than a hundred events, together in three.
    for (let i = 0; i < 120; i++) {
      await entry(`zebra crossing ${i}`);
      if (i % 40 === 0) await entry(`Zebra meets QUOKKA ${i}`);
      await entry(`quokka selfie ${i}`);
    }
  });
  after(() => t.close());

  const filter = (search: string) =>
    eventFilterFromParams(
      { search },
      { loggers: t.app.loggers, scope: ALL, zone: 'UTC', lang: 'en', dialect: t.app.dialect },
    );
  const plan = async (search: string) => indexPlan(t.app.db, filter(search), await newestEventId(t.app.db));
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
    const ids = await holding('zebra', 'quokka');
    assert.equal(ids.length, 3);
    const found = await plan('zebra quokka');
    assert.deepEqual(
      found.searchCandidates?.ids,
      [...ids].sort((a, b) => a - b),
    );
    const read = t.app.db
      .selectFrom('history_events')
      .select('id')
      .where(filterCondition(filter('zebra quokka'), found)!);
    assert.match(read.compile().sql, /unnest\(/, 'the rows are read through the candidates');
    for (const [page, perPage] of [
      [1, 2],
      [2, 2],
      [1, 10],
    ] as const) {
      const res = await callRoute(t.app, 'GET', '/history/v1/events', {
        query: { search: 'zebra QUOKKA', page, per_page: perPage },
        user: admin,
      });
      assert.equal(res.status, 200);
      assert.equal(res.headers['x-wp-total'], '3');
      const shown = (res.body as { id: number }[]).map((e) => e.id);
      assert.deepEqual(shown, ids.slice((page - 1) * perPage, page * perPage));
    }
  });

  test('events logged after the candidates were gathered are found too', async () => {
    const before = await plan('zebra quokka');
    const newer = await t.app.activity.log(
      { logger: 'CustomEntryLogger', messageKey: 'custom_entry_added', context: { message: 'quokka rides zebra' } },
      { user: null, ip: '' },
    );
    assert.ok(!before.searchCandidates!.ids.includes(newer));
    const res = await callRoute(t.app, 'GET', '/history/v1/events', {
      query: { search: 'zebra quokka', per_page: 10 },
      user: admin,
    });
    assert.equal(res.headers['x-wp-total'], '4');
    assert.equal((res.body as { id: number }[])[0]!.id, newer);
  });

  test('words common together, one word, or a word the index cannot serve: read as before', async () => {
    assert.equal((await plan('zebra crossing')).searchCandidates, undefined, 'together in most of the newest');
    assert.equal((await plan('zebra')).searchCandidates, undefined, 'one word');
    assert.equal((await plan('zebra qu')).searchCandidates, undefined, 'a word of two letters');
    const res = await callRoute(t.app, 'GET', '/history/v1/events', {
      query: { search: 'zebra qu', per_page: 100 },
      user: admin,
    });
    assert.equal(Number(res.headers['x-wp-total']), (await holding('zebra', 'qu')).length);
  });
});
