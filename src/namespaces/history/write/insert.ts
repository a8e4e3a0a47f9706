// Inserting prepared events many at once: multi-row statements for SQLite, arrays for PostgreSQL, and
// the statistics' counts (stats-counts.ts) that every writer adds in the same transaction.
import type { Insertable } from 'kysely';
import { CompiledQuery } from 'kysely';
import type { HistoryEventsTable } from '../../../db/schema.ts';
import type { Db } from '../model/counters.ts';
import type { PreparedEvent } from '../model/event.ts';
import { isPostgres, pgArray } from './pg-values.ts';
import { addStatsCounts, statsCounts } from './stats-counts.ts';

/** The columns of an events row, in the order of the INSERT statements below. */
export const EVENT_COLUMNS = [
  'date',
  'logger',
  'level',
  'message',
  'message_key',
  'occasions_id',
  'initiator',
  'user_id',
  'remote_addr',
  'sticky',
  'backfilled',
  'run_head',
  'run_size',
  'search_text',
  'meta_text',
] as const;
/** PostgreSQL array types of EVENT_COLUMNS (text is assigned to the varchar columns). */
const EVENT_COLUMN_TYPES: Record<(typeof EVENT_COLUMNS)[number], 'text' | 'int'> = {
  date: 'text',
  logger: 'text',
  level: 'text',
  message: 'text',
  message_key: 'text',
  occasions_id: 'text',
  initiator: 'text',
  user_id: 'int',
  remote_addr: 'text',
  sticky: 'int',
  backfilled: 'int',
  run_head: 'int',
  run_size: 'int',
  search_text: 'text',
  meta_text: 'text',
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
  return `insert or rollback into ${table} (${columns.join(', ')}) values ${Array(rows)
    .fill(`(${columns.map(() => '?').join(',')})`)
    .join(',')}`;
}

function sqliteInsert(kind: 'events' | 'contexts', rows: number): string {
  const key = `${kind}:${rows}`;
  let text = sqliteStatements.get(key);
  if (!text) {
    text =
      kind === 'events'
        ? `${sqliteMultiInsert('history_events', EVENT_COLUMNS, rows)} returning id`
        : sqliteMultiInsert('history_event_contexts', CONTEXT_COLUMNS, rows);
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

/** The table's defaults of the columns a row may leave out (a new row heads a run of one). */
const COLUMN_DEFAULTS: Partial<Record<(typeof EVENT_COLUMNS)[number], number>> = {
  sticky: 0,
  backfilled: 0,
  run_head: 1,
  run_size: 1,
};

/** A row's value for the column, as the INSERT stores it (left out → the column's default or null). */
export function columnValue(row: Insertable<HistoryEventsTable>, column: (typeof EVENT_COLUMNS)[number]): unknown {
  return row[column] ?? COLUMN_DEFAULTS[column] ?? null;
}

/** Inserts prepared events with batched multi-row INSERTs, and counts them; returns their ids in order. */
export async function insertEvents(db: Db, events: PreparedEvent[]): Promise<number[]> {
  const ids = isPostgres(db) ? await insertRowsPg(db, events) : await insertRowsSqlite(db, events);
  await addStatsCounts(db, statsCounts(events));
  return ids;
}

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
