import { sql } from 'kysely';
import type { SiteMigration } from '../../../db/migration.ts';
import { ATTEMPTED, createSqliteFailedLoginTriggers, FAILED, PAIRS } from './0022_history_stats_rollups.ts';
import { LATEST_DATE_KEPT } from '../write/stats-counts.ts';

// The failed logins' daily counts (0022) keep each attempted name's latest date of the day in
// `last`, so that stats/users reads a name's latest attempt with its count: it read the events of
// each whole day on which one of the listed names was last seen (a year: about 25 days of 1,000
// failed logins, 170–350 ms on PostgreSQL). Writers keep the later date (write/stats-counts.ts).
// A deletion cannot know the date before the deleted one: where it took a name's latest date
// and the day still counts the name, `last` becomes null, "not known", and stats/users reads
// that day's events as before. A purge takes whole days, whose rows go to zero.
const T = 'history_stats_daily_failed_logins';

export const historyFailedLoginLatestMigration: SiteMigration = {
  name: '0032_history_failed_login_latest',
  async up(db, dialect) {
    await sql.raw(`alter table ${T} add column last varchar(19)`).execute(db);
    const latest = `select substr(e.date, 1, 10) as day, coalesce('s' || c.value, 'n') as attempted, max(e.date) as last
      from history_events as e join history_event_contexts as x on x.event_id = e.id cross join ${PAIRS(dialect)} as c
      where ${FAILED('e.')} and c.key in ('login', 'failed_username') group by 1, 2`;
    const sameKey = (h: string) =>
      `${h}.day = d.day and ${h}.attempted = d.attempted${dialect === 'postgres' ? ` and md5(${h}.attempted) = md5(d.attempted)` : ''}`;
    await sql
      .raw(`update ${T} as h set last = d.last from (${latest}) as d where ${sameKey('h')} and h.n > 0`)
      .execute(db);

    const deleted = (row: string) =>
      `(select count(*) from (${ATTEMPTED(dialect, `${row}id`)}) as a where a.attempted = ${T}.attempted)`;
    const remove = (row: string) => `update ${T} set n = n - ${deleted(row)},
      last = case when n = ${deleted(row)} or last <= ${row}date then null else last end
      where ${FAILED(row)} and day = substr(${row}date, 1, 10) and attempted in (select attempted from (${ATTEMPTED(dialect, `${row}id`)}) as a)`;
    const conflict = dialect === 'postgres' ? '(day, (md5(attempted)))' : '(day, attempted)';
    const add = (row: string) => `insert into ${T} (day, attempted, n, last)
      select substr(${row}date, 1, 10), a.attempted, count(*), ${row}date from (${ATTEMPTED(dialect, `${row}id`)}) as a where ${FAILED(row)} group by 1, 2
      on conflict ${conflict} do update set n = ${T}.n + excluded.n, last = ${LATEST_DATE_KEPT(dialect, T, 'excluded.last')}`;

    if (dialect === 'sqlite') {
      await sql.raw(`drop trigger if exists ${T}_delete`).execute(db);
      await sql.raw(`drop trigger if exists ${T}_update`).execute(db);
      return createSqliteFailedLoginTriggers(db, remove, add);
    }
    // The triggers of 0022 call these functions by name.
    await sql
      .raw(`create or replace function ${T}_removed() returns trigger language plpgsql as $$
      begin
        update ${T} as h set n = h.n - d.n, last = case when h.n = d.n or h.last <= d.last then null else h.last end
        from (select substr(o.date, 1, 10) as day, a.attempted, count(*) as n, max(o.date) as last
          from history_stats_failed_old as o cross join lateral (${ATTEMPTED(dialect, 'o.id')}) as a
          where ${FAILED('o.')} group by 1, 2) as d
        where ${sameKey('h')};
        return null;
      end $$`)
      .execute(db);
    await sql
      .raw(
        `create or replace function ${T}_moved() returns trigger language plpgsql as $$ begin ${remove('old.')}; ${add('new.')}; return null; end $$`,
      )
      .execute(db);
  },
};
