// The event counts the statistics read instead of the events (history_stats_hourly, migration
// 0009; the daily, per-level, per-user and failed-login counts, 0022, the failed logins' latest
// dates, 0032): every writer of events adds its rows' counts in the same transaction, one upsert
// per key of a whole group and table. Deletions and updates are counted by the migrations'
// triggers.
import { CompiledQuery } from 'kysely';
import type { Insertable } from 'kysely';
import type { HistoryEventsTable } from '../../../db/schema.ts';
import type { DialectName } from '../../../db/index.ts';
import type { Db } from '../model/counters.ts';
import type { PreparedEvent } from '../model/event.ts';
import { isPostgres, pgArray } from './pg-values.ts';
import { ATTEMPTED_LOGIN_KEYS, attemptedKey, FAILED_LOGIN_KEYS, U } from '../stats/summary.ts';

type EventRow = Insertable<HistoryEventsTable>;
type Key = (string | number)[];

interface Rollup {
  table: string;
  columns: string[];
  /** PostgreSQL array types of the columns. */
  types: ('text' | 'int')[];
  /** The keys an event is counted under (each once). */
  keys(event: PreparedEvent): Key[];
  /** PostgreSQL's conflict target, when not the columns. */
  pgConflict?: string;
  /** Whether the table keeps its key's latest date in `last` (LATEST_DATE_KEPT). */
  latest?: boolean;
}

/** A rollup counting each event under at most one key. */
const byRow =
  (key: (row: EventRow) => Key | null) =>
  (event: PreparedEvent): Key[] => {
    const k = key(event.row);
    return k ? [k] : [];
  };

const FAILED_LOGIN_KEY_SET = new Set(FAILED_LOGIN_KEYS);
/** A failed login is counted under each attempted name in its context. */
function attemptedNames({ row, context }: PreparedEvent): Key[] {
  if (row.logger !== U || !FAILED_LOGIN_KEY_SET.has(row.message_key ?? '')) return [];
  const values = JSON.parse(context) as Record<string, string | null>;
  return ATTEMPTED_LOGIN_KEYS.filter((k) => Object.hasOwn(values, k)).map((k) => [
    row.date.slice(0, 10),
    attemptedKey(values[k] ?? null),
  ]);
}

const ROLLUPS: Rollup[] = [
  {
    table: 'history_stats_hourly',
    columns: ['hour', 'logger', 'message_key'],
    types: ['text', 'text', 'text'],
    keys: byRow((r) => [r.date.slice(0, 13), r.logger, r.message_key ?? '']),
  },
  {
    table: 'history_stats_daily',
    columns: ['day', 'logger', 'message_key'],
    types: ['text', 'text', 'text'],
    keys: byRow((r) => [r.date.slice(0, 10), r.logger, r.message_key ?? '']),
  },
  {
    table: 'history_stats_hourly_levels',
    columns: ['hour', 'level'],
    types: ['text', 'text'],
    keys: byRow((r) => [r.date.slice(0, 13), r.level]),
  },
  {
    table: 'history_stats_daily_users',
    columns: ['day', 'user_id', 'logger', 'message_key'],
    types: ['text', 'int', 'text', 'text'],
    keys: byRow((r) =>
      r.user_id === null || r.user_id === undefined
        ? null
        : [r.date.slice(0, 10), r.user_id, r.logger, r.message_key ?? ''],
    ),
  },
  {
    table: 'history_stats_daily_failed_logins',
    columns: ['day', 'attempted'],
    types: ['text', 'text'],
    keys: attemptedNames,
    pgConflict: '(day, (md5(attempted)))',
    latest: true,
  },
];

/**
 * The `last` of a key (`table`'s row) that `added` (a date or column of dates) is added to: null
 * while the row counts events but their latest date is not known (a deletion took the latest:
 * migration 0032), else the later of both.
 */
export const LATEST_DATE_KEPT = (dialect: DialectName, table: string, added: string): string =>
  `case when ${table}.n = 0 then ${added} when ${table}.last is null then null else ${dialect === 'sqlite' ? 'max' : 'greatest'}(${table}.last, ${added}) end`;

/** The tables of counts (bulk loads analyze them afterwards). */
export const STATS_COUNT_TABLES = ROLLUPS.map((r) => r.table);

/** Per table of ROLLUPS: one array per key column, then the counts (and latest dates), in key order. */
export type StatsCounts = unknown[][][];

/** The counts a set of events adds. */
export function statsCounts(events: readonly PreparedEvent[]): StatsCounts {
  return ROLLUPS.map((rollup) => {
    const byKey = new Map<string, { key: Key; n: number; last: string }>();
    for (const event of events) {
      for (const key of rollup.keys(event)) {
        const name = key.join('\u0000');
        const entry = byKey.get(name);
        if (!entry) byKey.set(name, { key, n: 1, last: event.row.date });
        else {
          entry.n++;
          if (rollup.latest && event.row.date > entry.last) entry.last = event.row.date;
        }
      }
    }
    const out: unknown[][] = [...rollup.columns.map(() => []), [], ...(rollup.latest ? [[]] : [])];
    // In key order, so that concurrent writers lock the rows they update in the same order.
    for (const name of [...byKey.keys()].sort()) {
      const { key, n, last } = byKey.get(name)!;
      key.forEach((value, i) => out[i]!.push(value));
      out[rollup.columns.length]!.push(n);
      if (rollup.latest) out[rollup.columns.length + 1]!.push(last);
    }
    return out;
  });
}

/** The columns a rollup's upsert writes: its key, n, and last where kept. */
const written = (r: Rollup) => [...r.columns, 'n', ...(r.latest ? ['last'] : [])];
const upsert = (r: Rollup) => `insert into ${r.table} (${written(r).join(', ')})`;
const onConflict = (r: Rollup, target: string, dialect: DialectName) =>
  `on conflict ${target} do update set n = ${r.table}.n + excluded.n${
    r.latest ? `, last = ${LATEST_DATE_KEPT(dialect, r.table, 'excluded.last')}` : ''
  }`;

/** SQLite: per table of ROLLUPS, the statement that adds one key's count (key columns, n, last where kept). */
export const SQLITE_ADD_COUNTS: string[] = ROLLUPS.map(
  (r) =>
    `${upsert(r)} values (${written(r)
      .map(() => '?')
      .join(', ')}) ${onConflict(r, `(${r.columns.join(', ')})`, 'sqlite')}`,
);

/** Calls `add(table, values)` for each key of `counts` (values as SQLITE_ADD_COUNTS[table] takes them). */
export function forEachCount(counts: StatsCounts, add: (table: number, values: unknown[]) => void): void {
  counts.forEach((arrays, table) => {
    for (let i = 0; i < arrays[0]!.length; i++)
      add(
        table,
        arrays.map((a) => a[i]),
      );
  });
}

/** PostgreSQL: one upsert per table of ROLLUPS, each taking its arrays (key columns, n, last where kept) from parameter $first on. */
export function pgAddCounts(first: number): string[] {
  let at = first;
  return ROLLUPS.map((r) => {
    const params = [...r.types, 'int', ...(r.latest ? ['text'] : [])].map((type) => `$${at++}::${type}[]`);
    return `${upsert(r)} select * from unnest(${params.join(', ')}) ${onConflict(r, r.pgConflict ?? `(${r.columns.join(', ')})`, 'postgres')}`;
  });
}

/** The parameters of pgAddCounts: every table's arrays, in order. */
export function pgCountParams(counts: StatsCounts): string[] {
  return counts.flat().map((values) => pgArray(values));
}

const [PG_FIRST_ADD, ...PG_MORE_ADDS] = pgAddCounts(1);
/** Every table's counts on PostgreSQL in one statement. */
const PG_ADD_COUNTS = `with ${PG_MORE_ADDS.map((text, i) => `more${i} as (${text})`).join(', ')} ${PG_FIRST_ADD}`;

export async function addStatsCounts(db: Db, counts: StatsCounts): Promise<void> {
  if (!counts.some((arrays) => arrays[0]!.length)) return;
  if (isPostgres(db)) {
    await db.executeQuery(CompiledQuery.raw(PG_ADD_COUNTS, pgCountParams(counts)));
    return;
  }
  const adds: [number, unknown[]][] = [];
  forEachCount(counts, (table, values) => adds.push([table, values]));
  for (const [table, values] of adds) await db.executeQuery(CompiledQuery.raw(SQLITE_ADD_COUNTS[table]!, values));
}
