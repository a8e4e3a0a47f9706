import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../../../db/index.ts';
import type { SiteMigration } from '../../../db/migration.ts';

// More pre-aggregated counts beside history_stats_hourly (0009), so that every statistic over a
// long range reads a few thousand rows instead of hundreds of thousands:
// - history_stats_daily: events per UTC day, logger and message key (a year of 1,000,000
//   events: 165,000 hourly rows, 9,500 daily ones). A range reads its whole UTC days here, the
//   whole hours at its ends from the hourly counts, the partial hours from the events.
// - history_stats_hourly_levels: events per UTC hour and level; per hour they are the time
//   charts (peak days and times, activity per day in the site's zone), per level the
//   console's levels chart.
// - history_stats_daily_users: events per UTC day, user, logger and message key (events
//   without a user are not counted): stats/users' logins and profile updates per user and the
//   console's most active users; the partial days at a range's ends are counted from the events.
// - history_stats_daily_failed_logins: failed logins per UTC day and attempted user name (the
//   context's `login` or `failed_username`, as `s<name>`, or `n` for a null value): stats/users'
//   failed logins, which parsed the context of every failed login of the range (a third of a
//   generated log). PostgreSQL keys it by the name's md5, since a B-tree entry is limited to
//   about 2.7 kB and a name is as long as its sender made it.
// Writers add their rows' counts in the same transaction (write/stats-counts.ts); deletions and
// updates are counted by triggers, as 0009's are (the failed logins' read the deleted event's
// context, so contexts are deleted after their events). The migration counts the existing events.
interface Rollup {
  table: string;
  period: 'day' | 'hour';
  keys: string[];
}
const ROLLUPS: Rollup[] = [
  { table: 'history_stats_daily', period: 'day', keys: ['logger', 'message_key'] },
  { table: 'history_stats_hourly_levels', period: 'hour', keys: ['level'] },
  { table: 'history_stats_daily_users', period: 'day', keys: ['user_id', 'logger', 'message_key'] },
];
const COLUMN_TYPES: Record<string, 'integer' | `varchar(${number})`> = {
  day: 'varchar(10)',
  hour: 'varchar(13)',
  logger: 'varchar(64)',
  message_key: 'varchar(100)',
  level: 'varchar(20)',
  user_id: 'integer',
};

/** Only events with a user are counted per user. */
function counted(r: Rollup, row: string): string {
  return r.keys.includes('user_id') ? `${row}user_id is not null` : 'true';
}

/** The SQL expression of a rollup column over an events row (`old.`/`new.`/a table alias prefix). */
function columnOf(column: string, row: string): string {
  if (column === 'day') return `substr(${row}date, 1, 10)`;
  if (column === 'hour') return `substr(${row}date, 1, 13)`;
  if (column === 'message_key') return `coalesce(${row}message_key, '')`;
  return `${row}${column}`;
}

export const FAILED = (row: string) =>
  `${row}logger = 'SimpleUserLogger' and ${row}message_key in ('user_login_failed', 'user_unknown_login_failed')`;
/** The attempted names of the event `id` (an expression): (attempted) rows. */
export const PAIRS = (dialect: DialectName) =>
  dialect === 'postgres' ? 'json_each_text(x.context::json)' : 'json_each(x.context)';
export const ATTEMPTED = (dialect: DialectName, id: string) => `select coalesce('s' || c.value, 'n') as attempted
  from history_event_contexts as x cross join ${PAIRS(dialect)} as c
  where x.event_id = ${id} and c.key in ('login', 'failed_username')`;

/**
 * SQLite: the triggers that take a deleted failed login off its counts and move an updated one,
 * by the statements `remove` and `add` make of the row (`old.`, `new.`).
 */
export async function createSqliteFailedLoginTriggers(
  db: Kysely<any>,
  remove: (row: string) => string,
  add: (row: string) => string,
): Promise<void> {
  const T = 'history_stats_daily_failed_logins';
  await sql
    .raw(
      `create trigger ${T}_delete after delete on history_events when ${FAILED('old.')} begin ${remove('old.')}; end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger ${T}_update after update of date, logger, message_key on history_events begin ${remove('old.')}; ${add('new.')}; end`,
    )
    .execute(db);
}

async function failedLoginCounts(db: Kysely<any>, dialect: DialectName): Promise<void> {
  const T = 'history_stats_daily_failed_logins';
  let table = db.schema
    .createTable(T)
    .addColumn('day', 'varchar(10)', (c) => c.notNull())
    .addColumn('attempted', 'text', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull());
  if (dialect === 'sqlite')
    table = table.addPrimaryKeyConstraint(`${T}_pk`, ['day', 'attempted'] as never[]).modifyEnd(sql`without rowid`);
  await table.execute();
  if (dialect === 'postgres') await sql.raw(`create unique index ${T}_key on ${T} (day, md5(attempted))`).execute(db);
  const conflict = dialect === 'postgres' ? '(day, (md5(attempted)))' : '(day, attempted)';
  await sql
    .raw(`insert into ${T} (day, attempted, n)
    select substr(e.date, 1, 10), coalesce('s' || c.value, 'n'), count(*)
    from history_events as e join history_event_contexts as x on x.event_id = e.id cross join ${PAIRS(dialect)} as c
    where ${FAILED('e.')} and c.key in ('login', 'failed_username') group by 1, 2`)
    .execute(db);
  const add = (row: string) => `insert into ${T} (day, attempted, n)
    select substr(${row}date, 1, 10), a.attempted, count(*) from (${ATTEMPTED(dialect, `${row}id`)}) as a where ${FAILED(row)} group by 1, 2
    on conflict ${conflict} do update set n = ${T}.n + excluded.n`;
  // (Without UPDATE … FROM, which SQLite before 3.33 does not know inside triggers.)
  const remove = (
    row: string,
  ) => `update ${T} set n = n - (select count(*) from (${ATTEMPTED(dialect, `${row}id`)}) as a where a.attempted = ${T}.attempted)
    where ${FAILED(row)} and day = substr(${row}date, 1, 10) and attempted in (select attempted from (${ATTEMPTED(dialect, `${row}id`)}) as a)`;
  if (dialect === 'sqlite') return createSqliteFailedLoginTriggers(db, remove, add);
  await sql
    .raw(`create function ${T}_removed() returns trigger language plpgsql as $$
    begin
      update ${T} as h set n = h.n - d.n
      from (select substr(o.date, 1, 10) as day, a.attempted, count(*) as n from history_stats_failed_old as o cross join lateral (${ATTEMPTED(dialect, 'o.id')}) as a
        where ${FAILED('o.')} group by 1, 2) as d
      where h.day = d.day and md5(h.attempted) = md5(d.attempted) and h.attempted = d.attempted;
      return null;
    end $$`)
    .execute(db);
  await sql
    .raw(
      `create function ${T}_moved() returns trigger language plpgsql as $$ begin ${remove('old.')}; ${add('new.')}; return null; end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create function ${T}_cleared() returns trigger language plpgsql as $$ begin delete from ${T}; return null; end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger ${T}_delete after delete on history_events referencing old table as history_stats_failed_old for each statement execute function ${T}_removed()`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger ${T}_update after update of date, logger, message_key on history_events for each row execute function ${T}_moved()`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger ${T}_truncate after truncate on history_events for each statement execute function ${T}_cleared()`,
    )
    .execute(db);
}

export const historyStatsRollupsMigration: SiteMigration = {
  name: '0022_history_stats_rollups',
  async up(db, dialect) {
    await failedLoginCounts(db, dialect);
    for (const r of ROLLUPS) {
      const columns = [r.period, ...r.keys];
      let table = db.schema.createTable(r.table);
      for (const c of columns) table = table.addColumn(c, COLUMN_TYPES[c]!, (col) => col.notNull());
      table = table
        .addColumn('n', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint(`${r.table}_pk`, columns as never[]);
      if (dialect === 'sqlite') table = table.modifyEnd(sql`without rowid`);
      await table.execute();
      await sql
        .raw(`insert into ${r.table} (${columns.join(', ')}, n)
        select ${columns.map((c) => columnOf(c, '')).join(', ')}, count(*) from history_events where ${counted(r, '')}
        group by ${columns.map((_, i) => i + 1).join(', ')}`)
        .execute(db);
    }

    const match = (r: Rollup, row: string) =>
      [r.period, ...r.keys].map((c) => `${c} = ${columnOf(c, row)}`).join(' and ');
    const removeRow = (r: Rollup, row: string) => `update ${r.table} set n = n - 1 where ${match(r, row)}`;
    // (SQLite parses INSERT … SELECT … ON CONFLICT only with a WHERE clause.)
    const addRow = (r: Rollup, row: string) => {
      const columns = [r.period, ...r.keys];
      return `insert into ${r.table} (${columns.join(', ')}, n) select ${columns.map((c) => columnOf(c, row)).join(', ')}, 1 where ${counted(r, row)}
        on conflict (${columns.join(', ')}) do update set n = ${r.table}.n + 1`;
    };
    const moved = 'date, logger, message_key, level, user_id';

    if (dialect === 'sqlite') {
      const removeOld = ROLLUPS.map((r) => removeRow(r, 'old.')).join('; ');
      const addNew = ROLLUPS.map((r) => addRow(r, 'new.')).join('; ');
      await sql
        .raw(`create trigger history_stats_rollups_delete after delete on history_events begin ${removeOld}; end`)
        .execute(db);
      await sql
        .raw(
          `create trigger history_stats_rollups_update after update of ${moved} on history_events begin ${removeOld}; ${addNew}; end`,
        )
        .execute(db);
      return;
    }

    // PostgreSQL: deletions once per statement from its transition table, as 0009's.
    const removeAll = ROLLUPS.map((r) => {
      const columns = [r.period, ...r.keys];
      return `update ${r.table} as h set n = h.n - d.n
        from (select ${columns.map((c) => `${columnOf(c, '')} as ${c}`).join(', ')}, count(*) as n from history_stats_rollups_old group by ${columns.map((_, i) => i + 1).join(', ')}) as d
        where ${columns.map((c) => `h.${c} = d.${c}`).join(' and ')}`;
    }).join(';\n');
    await sql
      .raw(`create function history_stats_rollups_removed() returns trigger language plpgsql as $$
      begin ${removeAll}; return null; end $$`)
      .execute(db);
    await sql
      .raw(`create function history_stats_rollups_moved() returns trigger language plpgsql as $$
      begin ${ROLLUPS.map((r) => removeRow(r, 'old.')).join(';\n')}; ${ROLLUPS.map((r) => addRow(r, 'new.')).join(';\n')}; return null; end $$`)
      .execute(db);
    await sql
      .raw(`create function history_stats_rollups_cleared() returns trigger language plpgsql as $$
      begin ${ROLLUPS.map((r) => `delete from ${r.table}`).join('; ')}; return null; end $$`)
      .execute(db);
    await sql
      .raw(
        `create trigger history_stats_rollups_delete after delete on history_events referencing old table as history_stats_rollups_old for each statement execute function history_stats_rollups_removed()`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger history_stats_rollups_update after update of ${moved} on history_events for each row execute function history_stats_rollups_moved()`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger history_stats_rollups_truncate after truncate on history_events for each statement execute function history_stats_rollups_cleared()`,
      )
      .execute(db);
  },
};
