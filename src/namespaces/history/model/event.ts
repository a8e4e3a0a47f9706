// Storing events: turning a log entry into an events row and its context (occasions id,
// acting user, initiator, anonymised IP, search texts), inserting many of them at once, and
// reading contexts back.
import crypto from 'node:crypto';
import type { Insertable, Kysely, Transaction } from 'kysely';
import { CompiledQuery, PostgresAdapter, sql, type RawBuilder } from 'kysely';
import type { DialectName } from '../../../db/index.ts';
import type { Database, HistoryEventsTable } from '../../../db/schema.ts';
import { setOwn } from '../../../util.ts';
import type { ActivityEntry, ActivityOrigin, Initiator, LogLevel } from '../../../site/activity.ts';
import { utcFormatter } from '../../../site/time.ts';
import { placeholdersOf, type LoggerCatalogue } from '../../../site/loggers.ts';
import { anonymizeIp, proxyAddressContext } from './ip.ts';
import { phpJsonEncode } from './php-json.ts';
import { isStrictUtcDate } from '../../../site/zone-time.ts';

export const LOG_LEVELS: LogLevel[] = ['emergency', 'alert', 'critical', 'error', 'warning', 'notice', 'info', 'debug'];
export const INITIATORS: Initiator[] = ['cms_user', 'web_user', 'cms', 'cms_cli', 'other'];

export interface PreparedEvent {
  row: Insertable<HistoryEventsTable>;
  /** The stored context (history_event_contexts.context, see contextJson). */
  context: string;
}

/**
 * The stored context (history_event_contexts.context): a JSON object with each key once, where it
 * first appeared, with its last value. (Integer-like keys come first, as in every JavaScript
 * object: the order the context is read back in anyway.)
 */
export function contextJson(context: Map<string, string | null>): string {
  // The object Object.fromEntries would build, without its intermediate entries (half the time).
  const object: Record<string, unknown> = {};
  for (const [key, value] of context) setOwn(object, key, value);
  return JSON.stringify(object);
}

/** The stored context read back. */
export function contextMap(json: string): Map<string, string | null> {
  return new Map(Object.entries(JSON.parse(json) as Record<string, string | null>));
}

/** The contexts of these events, by event id (one query). */
export async function loadContexts(db: Db, ids: number[]): Promise<Map<number, Map<string, string | null>>> {
  const rows = ids.length ? await db.selectFrom('history_event_contexts').select(['event_id', 'context']).where('event_id', 'in', ids).execute() : [];
  return new Map(rows.map((r) => [r.event_id, contextMap(r.context)]));
}

/**
 * The stored context in the column (e.g. `x.context` of history_event_contexts as x) as a table
 * of (key, value) rows, to join or to test with `exists`: SQLite's json_each, PostgreSQL's
 * json_each_text.
 */
export function contextPairs(dialect: DialectName, column: string): RawBuilder<{ key: string; value: string | null }> {
  return dialect === 'postgres' ? sql`json_each_text(${sql.ref(column)}::json)` : sql`json_each(${sql.ref(column)})`;
}

/**
 * Text both databases store as given: NUL (which PostgreSQL refuses in text, failing the whole
 * group) and unpaired surrogates (which UTF-8 cannot hold) become U+FFFD. Context keys and values
 * too: escaped in the context's JSON they would be stored, but PostgreSQL's JSON functions
 * (context_filters, metadata_search) refuse to turn `\u0000` or a lone surrogate back into text.
 */
export function storableText(text: string): string {
  return (text.includes('\0') ? text.replaceAll('\0', '\ufffd') : text).toWellFormed();
}

/** Context values are stored as text: strings as given (see storableText), other values JSON-encoded. */
export function contextText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return storableText(value);
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? '1' : '0';
  return JSON.stringify(value);
}

// Small caches of pure results the write path computes per event from few distinct inputs
// (occasions JSON of repeated events, templates, client addresses): bounded, cleared when full.
const CACHE_LIMIT = 1000;
function boundedCache<T>(): (key: string, compute: () => T) => T {
  const cache = new Map<string, T>();
  return (key, compute) => {
    let value = cache.get(key);
    if (value === undefined) {
      value = compute();
      if (cache.size >= CACHE_LIMIT) cache.clear();
      cache.set(key, value);
    }
    return value;
  };
}

const occasionsCache = boundedCache<string>();
const placeholderCache = boundedCache<Set<string>>();
const addressCache = boundedCache<string>();
/** The current UTC date text (the date part formatted once a day). */
const formatUtcMs = utcFormatter();

/** occasionsID (reference §3.1): md5 of the PHP JSON of the row without date plus the caller's context. */
export function occasionsIdOf(logger: string, level: string, template: string, context: Record<string, unknown>, messageKey: string | null): string {
  if (context._occasionsID !== undefined) {
    return md5(phpJsonEncode({ _occasionsID: context._occasionsID, _loggerSlug: logger }));
  }
  const data: Record<string, unknown> = { logger, level, message: template };
  for (const [key, value] of Object.entries(context)) if (!Object.hasOwn(data, key)) setOwn(data, key, value);
  if (messageKey !== null && !('_message_key' in data)) data._message_key = messageKey;
  const compute = () => md5(phpJsonEncode(data));
  // Repeated events have the same data (a custom entry's message text is not part of it): with
  // only strings, JSON.stringify is as exact a key as PHP's encoding and much cheaper to make.
  return Object.values(data).every((v) => typeof v === 'string') ? occasionsCache(JSON.stringify(data), compute) : compute();
}

function md5(text: string): string {
  return crypto.hash('md5', text, 'hex');
}

function isRestOrigin(origin: ActivityOrigin): boolean {
  if (origin.rest !== undefined) return origin.rest;
  return typeof (origin as { restUrl?: unknown }).restUrl === 'function';
}

/** Turns one log call into the rows to insert. Throws on an unusable level. */
export function prepareEvent(loggers: LoggerCatalogue, entry: ActivityEntry, origin: ActivityOrigin, now: string = formatUtcMs(Date.now())): PreparedEvent {
  const level = (entry.level ?? 'info').toLowerCase() as LogLevel;
  if (!LOG_LEVELS.includes(level)) throw new Error(`unknown log level ${entry.level}`);
  const def = loggers.find(entry.logger);
  const messageKey = entry.messageKey || null;
  // An unknown logger or key is still recorded: its template is the key itself (rendered raw).
  const template = (messageKey && def?.messages[messageKey]?.en) ?? messageKey ?? '';
  const source = entry.context ?? {};

  let date = entry.date ?? now;
  if (typeof source._date === 'string' && isStrictUtcDate(source._date)) date = source._date;
  let initiator: Initiator | undefined = origin.initiator;
  if (typeof source._initiator === 'string' && (INITIATORS as string[]).includes(source._initiator)) initiator ??= source._initiator as Initiator;
  // The caller's context without the keys that only steer the write (copied, not deleted from:
  // deleting turns an object into a slow dictionary).
  const given: Record<string, unknown> = {};
  for (const key of Object.keys(source)) if (key !== '_date' && key !== '_initiator') setOwn(given, key, source[key]);

  const occasionsId = occasionsIdOf(entry.logger, level, template, given, messageKey);

  // A key set twice keeps its first place and its last value.
  const map = new Map<string, string | null>();
  for (const key of Object.keys(given)) if (key !== '_occasionsID') map.set(storableText(key), contextText(given[key]));
  if (messageKey !== null) map.set('_message_key', messageKey);
  const user = origin.user;
  if (user) {
    map.set('_user_id', String(user.id)).set('_user_login', user.login).set('_user_email', user.email);
  }
  if (isRestOrigin(origin)) map.set('_rest_api_request', 'true');
  const ip = origin.ip;
  const remoteAddr = ip ? addressCache(ip, () => anonymizeIp(ip)) : '';
  if (remoteAddr) map.set('_server_remote_addr', remoteAddr);
  const headers = (origin as { headers?: Record<string, string | string[] | undefined> }).headers;
  if (headers) {
    for (const [k, v] of Object.entries(proxyAddressContext(headers))) map.set(k, v);
    const referer = headers.referer;
    if (typeof referer === 'string' && referer) map.set('_server_http_referer', referer);
  }
  initiator ??= user ? 'cms_user' : origin.ip ? 'web_user' : 'other';

  const userId = map.get('_user_id');

  return {
    row: {
      date,
      logger: entry.logger,
      level,
      message: template,
      message_key: messageKey,
      occasions_id: occasionsId,
      initiator,
      user_id: userId !== undefined && userId !== null && /^\d+$/.test(userId) ? Number(userId) : null,
      remote_addr: map.get('_server_remote_addr') || null,
      sticky: map.has('_sticky') ? 1 : 0,
      backfilled: map.has('_backfilled_event') ? 1 : 0,
      search_text: searchTextOf(loggers, template, entry.logger, level, map),
      meta_text: '',
    },
    context: contextJson(map),
  };
}

/** What `search` scans: the lower-cased template, logger, level and the context's placeholder values. */
export function searchTextOf(loggers: LoggerCatalogue, template: string, logger: string, level: string, context: Map<string, string | null>): string {
  const { placeholders } = loggers;
  const own = placeholderCache(template, () => new Set(placeholdersOf(template)));
  const parts = [template, logger, level];
  for (const [k, v] of context) if (v !== null && (placeholders.has(k) || own.has(k))) parts.push(v);
  return storableText(parts.join('\n').toLowerCase());
}

type Db = Kysely<Database> | Transaction<Database>;

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

export async function addToCounter(db: Db, name: string, delta: number): Promise<void> {
  await db
    .insertInto('history_counters')
    .values({ name, value: delta })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value: sql<number>`history_counters.value + ${delta}` }))
    .execute();
}

export async function readCounter(db: Db, name: string): Promise<number> {
  const row = await db.selectFrom('history_counters').select('value').where('name', '=', name).executeTakeFirst();
  return row ? Number(row.value) : 0;
}

export const COUNTER_TOTAL = 'total_logged_events';
/** Changes of the log other than inserts (stick, unstick, rebuilds): part of the cache version. */
export const COUNTER_CHANGES = 'log_changes';
export const COUNTER_CONSECUTIVE_FAILED_LOGINS = 'consecutive_failed_logins';
export const COUNTER_SUPPRESSED_FAILED_LOGINS = 'failed_login_suppressed_count';
