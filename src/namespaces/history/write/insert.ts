// Inserting prepared events many at once: multi-row statements for SQLite, arrays for PostgreSQL, and
// the hourly counts per logger and message key that every writer adds in the same transaction.
import type { Insertable } from 'kysely';
import { CompiledQuery, PostgresAdapter } from 'kysely';
import type { HistoryEventsTable } from '../../../db/schema.ts';
import type { Db } from '../model/counters.ts';
import type { PreparedEvent } from '../model/event.ts';

/** The columns of an events row, in the order of the INSERT statements below. */
export const EVENT_COLUMNS = [
  'date', 'logger', 'level', 'message', 'message_key', 'occasions_id', 'initiator', 'user_id', 'remote_addr',
  'sticky', 'backfilled', 'run_head', 'run_size', 'search_text', 'meta_text',
] as const;
/** PostgreSQL array types of EVENT_COLUMNS (text is assigned to the varchar columns). */
const EVENT_COLUMN_TYPES: Record<(typeof EVENT_COLUMNS)[number], 'text' | 'int'> = {
  date: 'text', logger: 'text', level: 'text', message: 'text', message_key: 'text', occasions_id: 'text', initiator: 'text',
  user_id: 'int', remote_addr: 'text', sticky: 'int', backfilled: 'int', run_head: 'int', run_size: 'int', search_text: 'text', meta_text: 'text',
};

// SQLite: multi-row INSERTs of a few fixed sizes, so that the statements stay short enough for
// the connection's statement cache and are prepared once instead of per write, built as SQL
// text directly (the query builder cost as much as SQLite's own work). `or rollback`: inside a
// transaction, a multi-row INSERT that could fail half-way keeps a statement journal to undo
// just itself, which cost about a fifth of writing an event; our writers roll the whole
// transaction back on any error anyway.
const SQLITE_SIZES = [32, 16, 8, 7, 6, 5, 4, 3, 2, 1];
const sqliteStatements = new Map<string, string>();

/** The columns of a history_event_contexts row, in the order of the INSERT statements. */
export const CONTEXT_COLUMNS = ['event_id', 'context'] as const;

/** SQLite: `insert or rollback` of `rows` rows into the table's columns, one `?` per value. */
export function sqliteMultiInsert(table: string, columns: readonly string[], rows: number): string {
  return `insert or rollback into ${table} (${columns.join(', ')}) values ${Array(rows).fill(`(${columns.map(() => '?').join(',')})`).join(',')}`;
}

function sqliteInsert(kind: 'events' | 'contexts', rows: number): string {
  const key = `${kind}:${rows}`;
  let text = sqliteStatements.get(key);
  if (!text) {
    text = kind === 'events' ? `${sqliteMultiInsert('history_events', EVENT_COLUMNS, rows)} returning id` : sqliteMultiInsert('history_event_contexts', CONTEXT_COLUMNS, rows);
    sqliteStatements.set(key, text);
  }
  return text;
}

/** Splits n rows into chunks of the given sizes (largest first): 25 → 16, 8, 1. */
function chunkSizes(n: number, sizes: number[]): number[] {
  const chunks: number[] = [];
  while (n > 0) {
    const size = sizes.find((s) => s <= n)!;
    chunks.push(size);
    n -= size;
  }
  return chunks;
}

// PostgreSQL: one statement per table whatever the number of rows, with one array per column.
/** Events as one array per column ($1 … $n, in EVENT_COLUMNS order); their ids in insertion order. */
export const PG_INSERT_EVENTS = `insert into history_events (${EVENT_COLUMNS.join(', ')}) select * from unnest(${EVENT_COLUMNS.map((c, i) => `$${i + 1}::${EVENT_COLUMN_TYPES[c]}[]`).join(', ')}) returning id`;
const PG_INSERT_CONTEXTS = `insert into history_event_contexts (event_id, context)
  select i.id, c.context from unnest($1::int[]) with ordinality as i(id, n) join ${pgContextRows(2)} on c.n = i.n`;
const PG_ROWS = 5000;

export function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** The table's defaults of the columns a row may leave out (a new row heads a run of one). */
const COLUMN_DEFAULTS: Partial<Record<(typeof EVENT_COLUMNS)[number], number>> = { sticky: 0, backfilled: 0, run_head: 1, run_size: 1 };

/** A row's value for the column, as the INSERT stores it (left out → the column's default or null). */
export function columnValue(row: Insertable<HistoryEventsTable>, column: (typeof EVENT_COLUMNS)[number]): unknown {
  return row[column] ?? COLUMN_DEFAULTS[column] ?? null;
}

// Events per UTC hour, logger and message key (history_stats_hourly): every writer of events
// adds its rows' counts in the same transaction, one upsert per key of a whole group.
export interface HourlyCounts {
  hours: string[];
  loggers: string[];
  keys: string[];
  counts: number[];
}

/** The counts a set of events adds, as one array per column, in key order. */
export function hourlyCounts(events: PreparedEvent[]): HourlyCounts {
  const byKey = new Map<string, number>();
  for (const { row } of events) {
    const key = `${row.date.slice(0, 13)}\u0000${row.logger}\u0000${row.message_key ?? ''}`;
    byKey.set(key, (byKey.get(key) ?? 0) + 1);
  }
  const out: HourlyCounts = { hours: [], loggers: [], keys: [], counts: [] };
  // In key order, so that concurrent writers lock the rows they update in the same order.
  for (const key of [...byKey.keys()].sort()) {
    const [hour, logger, messageKey] = key.split('\u0000');
    out.hours.push(hour!);
    out.loggers.push(logger!);
    out.keys.push(messageKey!);
    out.counts.push(byKey.get(key)!);
  }
  return out;
}

const ADD_HOURLY = 'insert into history_stats_hourly (hour, logger, message_key, n)';
const ADD_HOURLY_CONFLICT = 'on conflict (hour, logger, message_key) do update set n = history_stats_hourly.n + excluded.n';
/** One key's count (hour, logger, message key, n) on SQLite. */
export const SQLITE_ADD_HOURLY = `${ADD_HOURLY} values (?, ?, ?, ?) ${ADD_HOURLY_CONFLICT}`;
/** Every key's count on PostgreSQL, from four arrays starting at parameter $first. */
export function pgAddHourly(first: number): string {
  return `${ADD_HOURLY} select * from unnest($${first}::text[], $${first + 1}::text[], $${first + 2}::text[], $${first + 3}::int[]) ${ADD_HOURLY_CONFLICT}`;
}
const PG_ADD_HOURLY = pgAddHourly(1);

export async function addHourlyCounts(db: Db, c: HourlyCounts): Promise<void> {
  if (!c.counts.length) return;
  if (isPostgres(db)) {
    await db.executeQuery(CompiledQuery.raw(PG_ADD_HOURLY, [pgArray(c.hours), pgArray(c.loggers), pgArray(c.keys), pgArray(c.counts)]));
    return;
  }
  for (let i = 0; i < c.counts.length; i++) await db.executeQuery(CompiledQuery.raw(SQLITE_ADD_HOURLY, [c.hours[i], c.loggers[i], c.keys[i], c.counts[i]]));
}

/** Inserts prepared events with batched multi-row INSERTs, and counts them; returns their ids in order. */
export async function insertEvents(db: Db, events: PreparedEvent[]): Promise<number[]> {
  const ids = isPostgres(db) ? await insertRowsPg(db, events) : await insertRowsSqlite(db, events);
  await addHourlyCounts(db, hourlyCounts(events));
  return ids;
}

/**
 * A PostgreSQL array literal of text or integer values, as pg writes an array parameter (every
 * element quoted, NULL for null) but without its per-element conversions, which cost about as
 * much as preparing the events on the append path.
 */
export function pgArray(values: readonly unknown[]): string {
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (i > 0) out += ',';
    if (value === null || value === undefined) {
      out += 'NULL';
      continue;
    }
    const text = String(value);
    // Testing first: a global replace costs even when nothing matches (most elements).
    out += HAS_ARRAY_SPECIAL.test(text) ? `"${text.replace(ARRAY_SPECIALS, '\\$&')}"` : `"${text}"`;
  }
  return out + '}';
}
const HAS_ARRAY_SPECIAL = /["\\]/;
const ARRAY_SPECIALS = /["\\]/g;

/**
 * The events' stored contexts as one parameter: a JSON array of them. Each is JSON text already,
 * so joining them needs no escaping (in an array literal every quote of every context is escaped:
 * about 3 µs and 2–3 KB of garbage per event on the append path).
 */
export function pgContexts(events: readonly PreparedEvent[]): string {
  return `[${events.map((e) => e.context).join(',')}]`;
}

/**
 * The contexts of parameter $n (pgContexts) as a derived table `c(context, n)`, n counting from 1:
 * each element's exact text (the json type keeps its input as given).
 */
export function pgContextRows(n: number): string {
  return `(select value::text as context, n from json_array_elements($${n}::json) with ordinality as e(value, n)) as c`;
}

/** The events as one array literal per column of EVENT_COLUMNS: the parameters of PG_INSERT_EVENTS. */
export function pgEventColumns(events: readonly PreparedEvent[]): string[] {
  return EVENT_COLUMNS.map((c) => pgArray(events.map((e) => columnValue(e.row, c))));
}

async function insertRowsPg(db: Db, events: PreparedEvent[]): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < events.length; i += PG_ROWS) {
    const chunk = events.slice(i, i + PG_ROWS);
    const { rows } = await db.executeQuery<{ id: number }>(CompiledQuery.raw(PG_INSERT_EVENTS, pgEventColumns(chunk)));
    // Ids come from the sequence in insertion order.
    const chunkIds = rows.map((r) => Number(r.id)).sort((x, y) => x - y);
    await db.executeQuery(CompiledQuery.raw(PG_INSERT_CONTEXTS, [pgArray(chunkIds), pgContexts(chunk)]));
    ids.push(...chunkIds);
  }
  return ids;
}

async function insertRowsSqlite(db: Db, events: PreparedEvent[]): Promise<number[]> {
  const ids: number[] = [];
  let at = 0;
  for (const size of chunkSizes(events.length, SQLITE_SIZES)) {
    const params: unknown[] = [];
    for (let k = at; k < at + size; k++) for (const c of EVENT_COLUMNS) params.push(columnValue(events[k]!.row, c));
    const { rows } = await db.executeQuery<{ id: number }>(CompiledQuery.raw(sqliteInsert('events', size), params));
    // Ids are assigned in insertion order.
    const chunkIds = rows.map((r) => Number(r.id)).sort((x, y) => x - y);
    const contexts: unknown[] = [];
    for (let k = 0; k < size; k++) contexts.push(chunkIds[k], events[at + k]!.context);
    await db.executeQuery(CompiledQuery.raw(sqliteInsert('contexts', size), contexts));
    ids.push(...chunkIds);
    at += size;
  }
  return ids;
}
