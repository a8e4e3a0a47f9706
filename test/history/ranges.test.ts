// Numbers and dates of the history filters at and beyond their ranges: what a text date of the
// log can name (years 1000 to 9999), what lastdays may reach back, what an id column holds.
// In range answers, out of range is 400 rest_invalid_param naming the parameter — never a 500.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/server/http.ts';
import { eventFilterFromParams } from '../../src/namespaces/history/read/query.ts';
import { FIRST_UNIX, LAST_UNIX, MAX_LASTDAYS, monthRangeUtc, parseDateBound } from '../../src/site/zone-time.ts';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { userWithRole } from '../support/http.ts';
import { LOGGER_CATALOGUE } from '../../src/modules.ts';

test('parseDateBound: timestamps and dates of four-digit years only, 0 meaning no bound', () => {
  assert.equal(parseDateBound('UTC', String(LAST_UNIX), true), LAST_UNIX);
  assert.equal(parseDateBound('UTC', String(FIRST_UNIX), false), FIRST_UNIX);
  assert.equal(parseDateBound('UTC', '0', false), 0);
  assert.equal(parseDateBound('UTC', '-1', false), -1);
  for (const text of [
    String(LAST_UNIX + 1),
    String(FIRST_UNIX - 1),
    '99999999999999999999',
    '10000000000000000',
    '-99999999999999',
    '1'.repeat(400),
  ]) {
    assert.equal(parseDateBound('UTC', text, false), null, text);
  }
  assert.equal(parseDateBound('UTC', '9999-12-31', true), LAST_UNIX);
  // The last day of 9999 ends in 10000 UTC west of Greenwich: not a date the log can compare.
  assert.equal(parseDateBound('America/Los_Angeles', '9999-12-31', true), null);
  assert.equal(parseDateBound('UTC', '1000-01-01', false), FIRST_UNIX);
});

test('monthRangeUtc: months whose first and last second are four-digit years', () => {
  assert.deepEqual(monthRangeUtc('UTC', '9999-12'), ['9999-12-01 00:00:00', '9999-12-31 23:59:59']);
  assert.equal(monthRangeUtc('America/Los_Angeles', '9999-12'), null);
  assert.equal(monthRangeUtc('Europe/Berlin', '1000-01'), null);
  assert.deepEqual(monthRangeUtc('UTC', '1000-01'), ['1000-01-01 00:00:00', '1000-01-31 23:59:59']);
});

test('eventFilterFromParams: lastdays up to MAX_LASTDAYS reach back to the year 10xx, 0 is none (beyond, the arguments refuse: over HTTP below)', () => {
  const opts = {
    loggers: LOGGER_CATALOGUE,
    scope: { all: true, slugs: [] },
    zone: 'Europe/Berlin',
    lang: 'en' as const,
    now: new Date('2026-03-01T12:00:00Z'),
  };
  assert.equal(eventFilterFromParams({ lastdays: 0 }, opts).lastdaysFrom, undefined);
  assert.match(eventFilterFromParams({ lastdays: MAX_LASTDAYS }, opts).lastdaysFrom!, /^10\d\d-/);
  assert.match(eventFilterFromParams({ dates: [`lastdays:${MAX_LASTDAYS}`] }, opts).ranges![0]![0], /^10\d\d-/);
});

for (const target of dbTargets()) {
  describe(`history filters out of range, over HTTP (${target.name})`, () => {
    let t: TestApp;
    let server: FastifyInstance;
    let subscriber: string;
    let admin: string;
    before(async () => {
      t = await createTestApp(target);
      server = await buildServer(t.app);
      subscriber = (await userWithRole(t.app, 'subscriber')).authorization;
      admin = (await userWithRole(t.app, 'administrator')).authorization;
    });
    after(async () => {
      await server.close();
      await t.close();
    });

    const get = (path: string, authorization = subscriber) =>
      server.inject({ url: `/en/cms-json/history/v1/${path}`, headers: { authorization } });

    async function refused(path: string, param: string, authorization = subscriber): Promise<void> {
      const res = await get(path, authorization);
      assert.equal(res.statusCode, 400, `${path}: ${res.body.slice(0, 300)}`);
      const body = res.json();
      assert.equal(body.code, 'rest_invalid_param', path);
      assert.ok(param in body.data.params, `${path} names ${param}: ${res.body.slice(0, 300)}`);
    }

    test('events and has-updates: the dates, day counts and ids of issue 25 are 400, their edges answer', async () => {
      for (const endpoint of ['events?', 'events/has-updates?since_id=0&']) {
        await refused(`${endpoint}lastdays=999999999`, 'lastdays');
        await refused(`${endpoint}lastdays=-1`, 'lastdays');
        for (const value of ['99999999999999999999', '10000000000000000', '-99999999999999', String(LAST_UNIX + 1)]) {
          await refused(`${endpoint}date_from=${value}`, 'date_from');
          await refused(`${endpoint}date_to=${value}`, 'date_to');
        }
        await refused(`${endpoint}dates[]=lastdays:99999999999999999999`, 'dates');
        await refused(`${endpoint}dates[]=lastdays:${MAX_LASTDAYS + 1}`, 'dates');
        await refused(`${endpoint}months[]=0999-12`, 'months');
        await refused(`${endpoint}include[]=2147483648`, 'include');
        await refused(`${endpoint}users[]=-2147483648`, 'users');
        await refused(`${endpoint}max_id_first_page=2147483648`, 'max_id_first_page');
        await refused(`${endpoint}page=2147483648`, 'page');
        for (const ok of [
          `lastdays=${MAX_LASTDAYS}`,
          `date_to=${LAST_UNIX}`,
          'date_from=-1',
          `dates[]=lastdays:${MAX_LASTDAYS}`,
          'months[]=9999-12',
          'include[]=2147483647',
          'page=2147483647',
        ]) {
          const res = await get(`${endpoint}${ok}`);
          assert.equal(res.statusCode, 200, `${endpoint}${ok}: ${res.body.slice(0, 300)}`);
        }
      }
      await refused('events/has-updates?since_id=2147483648', 'since_id');
      await refused('events?since_id=99999999999999999999', 'since_id');
    });

    test('single events and cards: ids beyond the id column are 400', async () => {
      await refused('events/2147483648', 'id');
      await refused('events/99999999999999999999', 'id');
      assert.equal((await get('events/2147483647')).statusCode, 404);
      await refused('users/2147483648/card', 'id', admin);
    });

    test('stats: timestamps of four-digit years only, 0 for the default', async () => {
      await refused('stats/summary?date_from=999999999999', 'date_from', admin);
      await refused('stats/peak-days?date_to=-99999999999999', 'date_to', admin);
      for (const ok of ['date_from=0', `date_to=${LAST_UNIX}`, `date_from=${FIRST_UNIX}`]) {
        const res = await get(`stats/summary?${ok}`, admin);
        assert.equal(res.statusCode, 200, `${ok}: ${res.body.slice(0, 300)}`);
      }
    });
  });
}
