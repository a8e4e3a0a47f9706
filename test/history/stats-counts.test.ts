// The event counts behind the statistics (migrations 0009, 0010, 0022: per hour, day, level and
// user; 0032: the failed logins' latest dates): added by every writer of events (activity log,
// generators), taken off by triggers on deletion and purge, and the ranges cut into whole days
// and hours (from the counts) and partial hours (from the events); every count over random
// ranges agrees with counting the events.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { callRoute, userWithRole } from '../support/http.ts';
import {
  countInRange,
  countsByMessage,
  coverRange,
  type CountQuery,
} from '../../src/namespaces/history/stats/range.ts';
import { purgeEvents } from '../../src/namespaces/history/write/maintenance.ts';
import { statsUsers } from '../../src/namespaces/history/stats/details.ts';
import { statsActivityOverview, statsPeakDays, statsPeakTimes } from '../../src/namespaces/history/stats/times.ts';
import { utcToZone } from '../../src/site/time.ts';
import { generateEvents } from '../../src/namespaces/history/bulk/generate.ts';
import { contextPairs } from '../../src/namespaces/history/model/context.ts';
import { historyFailedLoginLatestMigration } from '../../src/namespaces/history/migrations/0032_history_failed_login_latest.ts';
import { unixToUtc, utcToUnix } from '../../src/site/zone-time.ts';

const origin = { user: null, ip: '', initiator: 'cms' as const };

test('ranges split into whole days, whole hours and partial edges', () => {
  assert.deepEqual(coverRange({ fromUtc: '2025-01-01 00:00:00', toUtc: '2025-01-02 23:59:59' }), {
    days: ['2025-01-01', '2025-01-02'],
    hours: [],
    seconds: [],
  });
  assert.deepEqual(coverRange({ fromUtc: '2025-01-01 10:30:00', toUtc: '2025-01-01 12:15:00' }), {
    days: null,
    hours: [['2025-01-01 11', '2025-01-01 11']],
    seconds: [
      ['2025-01-01 10:30:00', '2025-01-01 10:59:59'],
      ['2025-01-01 12:00:00', '2025-01-01 12:15:00'],
    ],
  });
  assert.deepEqual(coverRange({ fromUtc: '2025-01-01 10:30:00', toUtc: '2025-01-01 11:15:00' }), {
    days: null,
    hours: [],
    seconds: [['2025-01-01 10:30:00', '2025-01-01 11:15:00']],
  });
  assert.deepEqual(coverRange({ fromUtc: '2024-12-31 23:00:01', toUtc: '2025-01-01 01:00:00' }), {
    days: null,
    hours: [['2025-01-01 00', '2025-01-01 00']],
    seconds: [
      ['2024-12-31 23:00:01', '2024-12-31 23:59:59'],
      ['2025-01-01 01:00:00', '2025-01-01 01:00:00'],
    ],
  });
  assert.deepEqual(coverRange({ fromUtc: '2024-12-31 22:30:00', toUtc: '2025-01-03 02:00:00' }), {
    days: ['2025-01-01', '2025-01-02'],
    hours: [
      ['2024-12-31 23', '2024-12-31 23'],
      ['2025-01-03 00', '2025-01-03 01'],
    ],
    seconds: [
      ['2024-12-31 22:30:00', '2024-12-31 22:59:59'],
      ['2025-01-03 02:00:00', '2025-01-03 02:00:00'],
    ],
  });
  assert.deepEqual(coverRange({ fromUtc: '2025-01-02 00:00:00', toUtc: '2025-01-01 00:00:00' }), {
    days: null,
    hours: [],
    seconds: [],
  });
});

/**
 * Each table of counts and the same counts computed from the events; `latest`: the table keeps
 * each key's latest date in `last`.
 */
const TABLES: { table: string; columns: string; events: string; where: string; latest?: boolean }[] = [
  {
    table: 'history_stats_hourly',
    columns: 'hour, logger, message_key',
    events: "substr(date, 1, 13), logger, coalesce(message_key, '')",
    where: '',
  },
  {
    table: 'history_stats_daily',
    columns: 'day, logger, message_key',
    events: "substr(date, 1, 10), logger, coalesce(message_key, '')",
    where: '',
  },
  { table: 'history_stats_hourly_levels', columns: 'hour, level', events: 'substr(date, 1, 13), level', where: '' },
  {
    table: 'history_stats_daily_users',
    columns: 'day, user_id, logger, message_key',
    events: "substr(date, 1, 10), user_id, logger, coalesce(message_key, '')",
    where: 'where user_id is not null',
  },
  {
    table: 'history_stats_daily_failed_logins',
    columns: 'day, attempted',
    events: "substr(date, 1, 10), coalesce('s' || c.value, 'n')",
    where: `e join history_event_contexts x on x.event_id = e.id cross join PAIRS as c
      where e.logger = 'SimpleUserLogger' and e.message_key in ('user_login_failed', 'user_unknown_login_failed') and c.key in ('login', 'failed_username')`,
    latest: true,
  },
];

/** What the statistics count, each from its tables. */
const QUERIES: CountQuery[] = [
  { by: ['logger', 'message_key'], daily: 'history_stats_daily', hourly: 'history_stats_hourly' },
  { by: ['hour'], daily: null, hourly: 'history_stats_hourly_levels' },
  { by: ['level'], daily: null, hourly: 'history_stats_hourly_levels' },
  { by: ['user_id'], daily: 'history_stats_daily_users', hourly: null, withUser: true },
  {
    by: ['user_id'],
    daily: 'history_stats_daily_users',
    hourly: null,
    withUser: true,
    only: { logger: ['SimpleUserLogger'], message_key: ['user_logged_in', 'user_unknown_logged_in'] },
  },
];
const EVENT_EXPRESSIONS: Record<string, string> = {
  logger: 'logger',
  message_key: "coalesce(message_key, '')",
  level: 'level',
  user_id: 'user_id',
  hour: 'substr(date, 1, 13)',
};

for (const target of dbTargets()) {
  describe(`event counts (${target.name})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(target);
    });
    after(() => t.close());

    /** The counts straight from the events, as the statistics counted before migration 0009. */
    async function direct(fromUtc: string, toUtc: string): Promise<Map<string, number>> {
      const rows = await t.app.db
        .selectFrom('history_events')
        .select(['logger', 'message_key', sql<number>`count(*)`.as('n')])
        .where('date', '>=', fromUtc)
        .where('date', '<=', toUtc)
        .groupBy(['logger', 'message_key'])
        .execute();
      return new Map(rows.map((r) => [`${r.logger}:${r.message_key ?? ''}`, Number(r.n)]));
    }

    /**
     * Every stored count (and latest date) is the events'. A latest date may be unknown (null)
     * only with `unknownLatest`: after deletions or updates, never after inserts.
     */
    async function storedMatchesEvents({ unknownLatest = false } = {}): Promise<void> {
      for (const { table, columns, events, where, latest } of TABLES) {
        const last = latest ? ', last' : '';
        const stored = await sql
          .raw<Record<string, unknown>>(`select ${columns}, n${last} from ${table} where n <> 0 order by ${columns}`)
          .execute(t.app.db);
        const pairs = t.app.dialect === 'postgres' ? 'json_each_text(x.context::json)' : 'json_each(x.context)';
        const fromEvents = await sql
          .raw<Record<string, unknown>>(
            `select ${events}, count(*) as n${latest ? ', max(e.date) as last' : ''} from history_events ${where.replace('PAIRS', pairs)} group by ${columns
              .split(', ')
              .map((_, i) => i + 1)
              .join(', ')} order by ${columns
              .split(', ')
              .map((_, i) => i + 1)
              .join(', ')}`,
          )
          .execute(t.app.db);
        const values = (rows: Record<string, unknown>[]) => rows.map((r) => Object.values(r).map(String));
        let unknown = 0;
        // An unknown latest date stands for the events' own, counted.
        const known = stored.rows.map((r, i) => {
          if (!latest || r.last !== null) return r;
          unknown++;
          return { ...r, last: fromEvents.rows[i]?.last };
        });
        assert.deepEqual(values(known), values(fromEvents.rows), table);
        if (!unknownLatest) assert.equal(unknown, 0, `${table}: latest dates unknown`);
      }
    }

    /** Every count of QUERIES over the range, from the tables and straight from the events. */
    async function rangeMatchesEvents(fromUtc: string, toUtc: string): Promise<void> {
      for (const q of QUERIES) {
        const conditions = [`date between '${fromUtc}' and '${toUtc}'`];
        if (q.withUser) conditions.push('user_id is not null');
        for (const [column, values] of Object.entries(q.only ?? {}))
          conditions.push(`${EVENT_EXPRESSIONS[column]} in (${values!.map((v) => `'${v}'`).join(', ')})`);
        const rows = await sql
          .raw<
            Record<string, unknown>
          >(`select ${q.by.map((c) => EVENT_EXPRESSIONS[c]).join(', ')}, count(*) as n from history_events
          where ${conditions.join(' and ')} group by ${q.by.map((_, i) => i + 1).join(', ')}`)
          .execute(t.app.db);
        const expected = new Map(
          rows.rows.map((r) => {
            const v = Object.values(r);
            return [v.slice(0, -1).map(String).join('|'), Number(v.at(-1))];
          }),
        );
        const got = new Map(
          [...(await countInRange(t.app, { fromUtc, toUtc }, q)).values()].map(({ key, n }) => [
            key.map(String).join('|'),
            n,
          ]),
        );
        assert.deepEqual(got, expected, `${q.by.join(',')} ${fromUtc} … ${toUtc}`);
      }
    }

    /** Random ranges within [first, last] (Unix seconds), their ends anywhere in a second. */
    async function randomRangesMatch(first: number, last: number, count: number, seed: number): Promise<void> {
      let state = seed;
      const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
      for (let i = 0; i < count; i++) {
        const a = first + Math.floor(next() * (last - first));
        const b = first + Math.floor(next() * (last - first));
        await rangeMatchesEvents(unixToUtc(Math.min(a, b)), unixToUtc(Math.max(a, b)));
      }
    }

    test('counts follow inserts (in order, back-dated, grouped) and deletions; every range agrees with the events', async () => {
      const base = utcToUnix('2025-03-01 00:00:00');
      const writes: Promise<number>[] = [];
      for (let i = 0; i < 60; i++) {
        const date = unixToUtc(base + i * 1000 + (i % 7) * 13);
        const entry =
          i % 3 === 0
            ? { logger: 'SimpleUserLogger', messageKey: 'user_logged_in', date }
            : i % 3 === 1
              ? { logger: 'SimplePostLogger', messageKey: 'post_updated', date, context: { post_title: `p${i}` } }
              : { logger: 'CustomLoggerWithoutKey', messageKey: '', date };
        writes.push(t.app.activity.log(entry, origin));
      }
      await Promise.all(writes); // one group: a multi-row insert
      await t.app.activity.log(
        { logger: 'SimplePostLogger', messageKey: 'post_created', date: '2025-03-01 00:20:00' },
        origin,
      ); // back-dated
      await storedMatchesEvents();

      const ranges: [string, string][] = [
        ['2025-03-01 00:00:00', '2025-03-01 23:59:59'],
        ['2025-03-01 00:20:00', '2025-03-01 10:59:59'],
        ['2025-03-01 01:30:00', '2025-03-01 05:10:00'],
        ['2025-03-01 02:10:00', '2025-03-01 02:50:00'],
        ['2025-02-28 23:59:59', '2025-03-01 16:00:00'],
      ];
      for (const [fromUtc, toUtc] of ranges) {
        const r = { from: utcToUnix(fromUtc), to: utcToUnix(toUtc), fromUtc, toUtc };
        assert.deepEqual(await countsByMessage(t.app, r), await direct(fromUtc, toUtc), `${fromUtc} … ${toUtc}`);
      }

      await t.app.db.deleteFrom('history_events').where('date', '<', '2025-03-01 03:00:00').execute();
      await storedMatchesEvents();
      const r = { from: 0, to: 0, fromUtc: '2025-03-01 00:00:00', toUtc: '2025-03-01 23:59:59' };
      assert.deepEqual(await countsByMessage(t.app, r), await direct(r.fromUtc, r.toUtc));
      await t.app.db.deleteFrom('history_events').execute();
      await storedMatchesEvents();
    });

    test('the generators count what they write: query builder, bulk, bulk with indexes built afterwards', async () => {
      const now = new Date('2025-06-01T12:00:00Z');
      await generateEvents(t.app, { count: 400, days: 2, now, seed: 3, bulk: false });
      await storedMatchesEvents();
      await generateEvents(t.app, { count: 400, days: 2, now, seed: 4, deferIndexes: false, batchSize: 150 });
      await storedMatchesEvents();
      await generateEvents(t.app, { count: 400, days: 3, now, seed: 5, deferIndexes: true, batchSize: 150 });
      await storedMatchesEvents();
      const stored = await t.app.db
        .selectFrom('history_stats_hourly')
        .select(sql<number>`sum(n)`.as('n'))
        .executeTakeFirstOrThrow();
      assert.equal(Number(stored.n), 1200);
      const end = utcToUnix('2025-06-01 12:00:00');
      await randomRangesMatch(end - 4 * 86400, end + 3600, 25, 7);
      await rangeMatchesEvents('2025-05-29 00:00:00', '2025-06-01 23:59:59');
    });

    /** stats/users' details as they were counted from the events alone. */
    async function usersFromEvents(fromUtc: string, toUtc: string, limit: number) {
      const pairs = contextPairs(t.app.dialect, 'x.context');
      const failed = await sql<{ last: string; attempted: string | null; n: number }>`
        select max(e.date) as last, c.value as attempted, count(*) as n from history_events e join history_event_contexts x on x.event_id = e.id cross join ${pairs} as c
        where e.date >= ${fromUtc} and e.date <= ${toUtc} and e.logger = 'SimpleUserLogger' and e.message_key in ('user_login_failed', 'user_unknown_login_failed')
          and c.key in ('login', 'failed_username') group by c.value order by n desc, c.value asc limit ${limit}`.execute(
        t.app.db,
      );
      const perUser = async (keys: string[]) =>
        (
          await sql<{ user_id: number; last: string; n: number }>`
        select user_id, max(date) as last, count(*) as n from history_events where date >= ${fromUtc} and date <= ${toUtc} and logger = 'SimpleUserLogger'
          and message_key in (${sql.join(keys)}) and user_id is not null group by user_id order by n desc, user_id asc limit ${limit}`.execute(
            t.app.db,
          )
        ).rows.map((r) => ({ date: r.last, user_id: String(r.user_id), n: String(r.n) }));
      return {
        failed: failed.rows.map((f) => ({
          date: f.last,
          attempted_username: f.attempted ?? '',
          failed_count: String(f.n),
        })),
        logins: await perUser(['user_logged_in', 'user_unknown_logged_in']),
        updates: await perUser(['user_updated_profile']),
      };
    }

    test('stats/users details and the time charts over random ranges agree with the events (site zone with a DST change)', async () => {
      const zone = t.app.options.get('timezone_string');
      await t.app.options.set('timezone_string', 'Europe/Berlin');
      // Around the change of 30 March 2025 (01:00 UTC).
      await generateEvents(t.app, { count: 1500, days: 4, now: new Date('2025-04-01T06:00:00Z'), seed: 11 });
      const admin = (await userWithRole(t.app, 'administrator')).user;
      const first = utcToUnix('2025-03-28 00:00:00');
      const last = utcToUnix('2025-04-01 06:00:00');
      let state = 5;
      const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
      for (let i = 0; i < 12; i++) {
        const a = first + Math.floor(next() * (last - first));
        const b = i === 0 ? last : first + Math.floor(next() * (last - first));
        const [from, to] = [Math.min(a, b), Math.max(a, b)];
        const [fromUtc, toUtc] = [unixToUtc(from), unixToUtc(to)];
        const limit = 1 + (i % 5) * 3;
        const got = (await statsUsers(t.app, { date_from: from, date_to: to, include_details: true, limit } as never))
          .details as Record<string, Record<string, string>[]>;
        const want = await usersFromEvents(fromUtc, toUtc, limit);
        // Over HTTP too: the failed logins' latest dates read day by day, as the route answers them.
        const res = await callRoute(t.app, 'GET', '/history/v1/stats/users', {
          query: { date_from: from, date_to: to, include_details: true, limit },
          user: admin,
        });
        assert.equal(res.status, 200);
        assert.deepEqual(
          (res.body as { details: { failed_logins: unknown } }).details.failed_logins,
          want.failed,
          `GET stats/users failed ${fromUtc} … ${toUtc}`,
        );
        assert.deepEqual(got.failed_logins, want.failed, `failed ${fromUtc} … ${toUtc}`);
        assert.deepEqual(
          got.successful_logins!.map((u) => ({ date: u.date, user_id: u.user_id, n: u.login_count })),
          want.logins,
          `logins ${fromUtc} … ${toUtc}`,
        );
        assert.deepEqual(
          got.profile_updates!.map((u) => ({ date: u.date, user_id: u.user_id, n: u.update_count })),
          want.updates,
          `updates ${fromUtc} … ${toUtc}`,
        );

        // Each event in its local hour, weekday and day, converted one by one.
        const dates = await t.app.db
          .selectFrom('history_events')
          .select('date')
          .where('date', '>=', fromUtc)
          .where('date', '<=', toUtc)
          .execute();
        const hours = new Map<string, number>();
        const weekdays = new Map<string, number>();
        const days = new Map<string, number>();
        const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
        for (const { date } of dates) {
          const local = utcToZone(`${date.slice(0, 13)}:00:00`, 'Europe/Berlin');
          bump(hours, String(Number(local.slice(11, 13))));
          bump(weekdays, String(new Date(`${local.slice(0, 10)}T00:00:00Z`).getUTCDay()));
          bump(days, local.slice(0, 10));
        }
        const params = { date_from: from, date_to: to, include_details: false, limit: 5 } as never;
        const times = (await statsPeakTimes(t.app, params)).peak_times;
        assert.deepEqual(
          new Map(times.map((p) => [p.hour, Number(p.count)])),
          hours,
          `peak times ${fromUtc} … ${toUtc}`,
        );
        const peakDays = (await statsPeakDays(t.app, params, 'en')).peak_days;
        assert.deepEqual(
          new Map(peakDays.map((p) => [p.day, Number(p.count)])),
          weekdays,
          `peak days ${fromUtc} … ${toUtc}`,
        );
        const overview = (await statsActivityOverview(t.app, params)).activity_by_date.filter(
          (d) => Number(d.count) > 0,
        );
        assert.deepEqual(
          new Map(overview.map((d) => [d.date, Number(d.count)])),
          days,
          `overview ${fromUtc} … ${toUtc}`,
        );
      }
      await t.app.options.set('timezone_string', zone);
    });

    const FAILED_LOGINS = 'history_stats_daily_failed_logins';

    /** stats/users' failed logins over HTTP, as an administrator. */
    async function failedLoginsOverHttp(fromUtc: string, toUtc: string, limit: number) {
      const res = await callRoute(t.app, 'GET', '/history/v1/stats/users', {
        query: { date_from: utcToUnix(fromUtc), date_to: utcToUnix(toUtc), include_details: true, limit },
        user: (await userWithRole(t.app, 'administrator')).user,
      });
      assert.equal(res.status, 200);
      return (res.body as { details: { failed_logins: { date: string; attempted_username: string }[] } }).details
        .failed_logins;
    }

    test("deleting a day's latest failed login of a name leaves its latest date unknown; stats/users reads that day", async () => {
      // A name failing at least twice on one day, and the event of its latest attempt.
      const row = await t.app.db
        .selectFrom(FAILED_LOGINS)
        .select(['day', 'attempted', 'n', 'last'])
        .where('n', '>=', 2)
        .where('attempted', 'like', 's%')
        .orderBy('day')
        .orderBy('attempted')
        .executeTakeFirstOrThrow();
      assert.ok(row.last, 'every latest date known after inserts');
      const name = row.attempted.slice(1);
      const pairs = contextPairs(t.app.dialect, 'x.context');
      const { rows: latest } = await sql<{ id: number }>`select e.id from history_events e
        join history_event_contexts x on x.event_id = e.id cross join ${pairs} as c
        where e.date = ${row.last} and e.message_key in ('user_login_failed', 'user_unknown_login_failed')
          and c.key in ('login', 'failed_username') and c.value = ${name}`.execute(t.app.db);
      assert.ok(latest.length > 0);
      await t.app.db.deleteFrom('history_events').where('id', '=', latest[0]!.id).execute();

      const after = await t.app.db
        .selectFrom(FAILED_LOGINS)
        .select(['n', 'last'])
        .where('day', '=', row.day)
        .where('attempted', '=', row.attempted)
        .executeTakeFirstOrThrow();
      assert.deepEqual(after, { n: row.n - 1, last: null });
      await storedMatchesEvents({ unknownLatest: true });
      // The whole day: its count, and the latest date its events say.
      const [fromUtc, toUtc] = [`${row.day} 00:00:00`, `${row.day} 23:59:59`];
      const want = (await usersFromEvents(fromUtc, toUtc, 100)).failed;
      assert.ok(want.some((f) => f.attempted_username === name && f.date <= row.last!));
      assert.deepEqual(await failedLoginsOverHttp(fromUtc, toUtc, 100), want);

      // Another failed login of the name that day: the latest stays unknown (the one not known
      // may be later), and the route reads the day with it.
      await t.app.activity.log(
        {
          logger: 'SimpleUserLogger',
          messageKey: 'user_login_failed',
          date: `${row.day} 23:59:58`,
          context: { login: name },
        },
        origin,
      );
      await storedMatchesEvents({ unknownLatest: true });
      assert.deepEqual(
        await failedLoginsOverHttp(fromUtc, toUtc, 100),
        (await usersFromEvents(fromUtc, toUtc, 100)).failed,
      );
    });

    test('migration 0032 fills the latest dates of a log written before it; writers keep them after it', async () => {
      // A name's latest failed login deleted first: the migration fills what the events say then.
      const pairs = contextPairs(t.app.dialect, 'x.context');
      const [someone] = (
        await sql<{ value: string }>`select c.value from history_event_contexts x cross join ${pairs} as c
          where c.key = 'login' limit 1`.execute(t.app.db)
      ).rows;
      const removed = (
        await sql<{ id: number }>`select e.id from history_events e join history_event_contexts x on x.event_id = e.id
          cross join ${pairs} as c where e.message_key = 'user_login_failed' and c.key = 'login' and c.value = ${someone!.value}
          order by e.date desc limit 1`.execute(t.app.db)
      ).rows[0]!;
      await t.app.db.deleteFrom('history_events').where('id', '=', removed.id).execute();
      // As the version before it left the table: no column of latest dates (SQLite's triggers read it).
      if (t.app.dialect === 'sqlite')
        for (const trigger of ['delete', 'update'])
          await sql.raw(`drop trigger ${FAILED_LOGINS}_${trigger}`).execute(t.app.db);
      await sql.raw(`alter table ${FAILED_LOGINS} drop column last`).execute(t.app.db);
      await historyFailedLoginLatestMigration.up(t.app.db, t.app.dialect);
      await storedMatchesEvents();

      await t.app.activity.log(
        {
          logger: 'SimpleUserLogger',
          messageKey: 'user_login_failed',
          date: '2025-03-29 23:59:59',
          context: { login: 'late' },
        },
        origin,
      );
      await storedMatchesEvents();
    });

    test('updates, purges and clearing keep every count exact', async () => {
      const end = utcToUnix('2025-06-01 12:00:00');
      const some = await t.app.db.selectFrom('history_events').select('id').orderBy('id').limit(5).execute();
      for (const [i, { id }] of some.entries()) {
        await t.app.db
          .updateTable('history_events')
          .set({
            date: unixToUtc(end - i * 7000),
            level: 'critical',
            user_id: i % 2 ? null : 4242,
            message_key: i === 3 ? null : 'moved',
          })
          .where('id', '=', id)
          .execute();
      }
      await storedMatchesEvents({ unknownLatest: true });
      await randomRangesMatch(end - 4 * 86400, end + 3600, 10, 8);
      assert.ok((await purgeEvents(t.app, { before: unixToUtc(end - 86400 - 1234) })) > 0);
      await storedMatchesEvents({ unknownLatest: true });
      await randomRangesMatch(end - 4 * 86400, end + 3600, 10, 9);
      await t.app.activity.log(
        { logger: 'SimplePostLogger', messageKey: 'post_created', context: { _generated: '1' } },
        origin,
      );
      assert.ok((await purgeEvents(t.app, { generated: true })) > 0);
      await storedMatchesEvents({ unknownLatest: true });
      await purgeEvents(t.app, {});
      await storedMatchesEvents({ unknownLatest: true });
      for (const { table } of TABLES) {
        const left = await sql.raw<{ n: number }>(`select coalesce(sum(n), 0) as n from ${table}`).execute(t.app.db);
        assert.equal(Number(left.rows[0]!.n), 0, table);
      }
    });
  });
}
