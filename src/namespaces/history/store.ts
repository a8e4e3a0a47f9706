// Writing events: turning a log entry into an events row plus context rows (occasions id,
// acting user, initiator, anonymised IP, search texts), and inserting many of them at once.
import crypto from 'node:crypto';
import type { Insertable, Kysely, Transaction } from 'kysely';
import { sql } from 'kysely';
import type { Database, HistoryEventsTable } from '../../db/schema.ts';
import type { ActivityEntry, ActivityOrigin, Initiator, LogLevel } from '../../site/activity.ts';
import { utcNow } from '../../site/time.ts';
import { cataloguePlaceholders, findLogger, placeholdersOf } from './catalogue.ts';
import { anonymizeIp, proxyAddressContext } from './ip.ts';
import { phpJsonEncode } from './php-json.ts';
import { isStrictUtcDate } from './site-time.ts';

export const LOG_LEVELS: LogLevel[] = ['emergency', 'alert', 'critical', 'error', 'warning', 'notice', 'info', 'debug'];
export const INITIATORS: Initiator[] = ['cms_user', 'web_user', 'cms', 'cms_cli', 'other'];

export interface PreparedEvent {
  row: Insertable<HistoryEventsTable>;
  /** Context rows in insertion order; later keys win on read. */
  context: [string, string | null][];
}

/** Context values are stored as text: strings as is, other values JSON-encoded. */
export function contextText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? '1' : '0';
  return JSON.stringify(value);
}

/** occasionsID (reference §3.1): md5 of the PHP JSON of the row without date plus the caller's context. */
export function occasionsIdOf(logger: string, level: string, template: string, context: Record<string, unknown>, messageKey: string | null): string {
  if (context._occasionsID !== undefined) {
    return md5(phpJsonEncode({ _occasionsID: context._occasionsID, _loggerSlug: logger }));
  }
  const data: Record<string, unknown> = { logger, level, message: template };
  for (const [key, value] of Object.entries(context)) if (!(key in data)) data[key] = value;
  if (messageKey !== null && !('_message_key' in data)) data._message_key = messageKey;
  return md5(phpJsonEncode(data));
}

function md5(text: string): string {
  return crypto.createHash('md5').update(text, 'utf8').digest('hex');
}

function isRestOrigin(origin: ActivityOrigin): boolean {
  if (origin.rest !== undefined) return origin.rest;
  return typeof (origin as { restUrl?: unknown }).restUrl === 'function';
}

/** Turns one log call into the rows to insert. Throws on an unusable level. */
export function prepareEvent(entry: ActivityEntry, origin: ActivityOrigin, now: string = utcNow()): PreparedEvent {
  const level = (entry.level ?? 'info').toLowerCase() as LogLevel;
  if (!LOG_LEVELS.includes(level)) throw new Error(`unknown log level ${entry.level}`);
  const def = findLogger(entry.logger);
  const messageKey = entry.messageKey || null;
  // An unknown logger or key is still recorded: its template is the key itself (rendered raw).
  const template = (messageKey && def?.messages[messageKey]?.en) ?? messageKey ?? '';
  const given: Record<string, unknown> = { ...(entry.context ?? {}) };

  let date = entry.date ?? now;
  if (typeof given._date === 'string' && isStrictUtcDate(given._date)) date = given._date;
  delete given._date;
  let initiator: Initiator | undefined = origin.initiator;
  if (typeof given._initiator === 'string' && (INITIATORS as string[]).includes(given._initiator)) initiator ??= given._initiator as Initiator;
  delete given._initiator;

  const occasionsId = occasionsIdOf(entry.logger, level, template, given, messageKey);
  delete given._occasionsID;

  const context: [string, string | null][] = Object.entries(given).map(([k, v]) => [k, contextText(v)]);
  if (messageKey !== null) context.push(['_message_key', messageKey]);
  const user = origin.user;
  if (user) {
    context.push(['_user_id', String(user.id)], ['_user_login', user.login], ['_user_email', user.email], ['_user_role', user.role]);
  }
  if (isRestOrigin(origin)) context.push(['_rest_api_request', '1']);
  const remoteAddr = origin.ip ? anonymizeIp(origin.ip) : '';
  if (remoteAddr) context.push(['_server_remote_addr', remoteAddr]);
  const headers = (origin as { headers?: Record<string, string | string[] | undefined> }).headers;
  if (headers) {
    for (const [k, v] of Object.entries(proxyAddressContext(headers))) context.push([k, v]);
    const referer = headers.referer;
    if (typeof referer === 'string' && referer) context.push(['_server_http_referer', referer]);
  }
  initiator ??= user ? 'cms_user' : origin.ip ? 'web_user' : 'other';

  const map = new Map(context);
  const userId = map.get('_user_id');
  const placeholders = cataloguePlaceholders();
  const own = new Set(placeholdersOf(template));
  const searchParts = [template, entry.logger, level];
  for (const [k, v] of map) if (v !== null && (placeholders.has(k) || own.has(k))) searchParts.push(v);

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
      search_text: searchParts.join('\n').toLowerCase(),
      meta_text: '',
    },
    context,
  };
}

type Db = Kysely<Database> | Transaction<Database>;

const EVENT_BATCH = 500;
const CONTEXT_BATCH = 3000;

/** Inserts prepared events with batched multi-row INSERTs; returns their ids in order. */
export async function insertEvents(db: Db, events: PreparedEvent[]): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < events.length; i += EVENT_BATCH) {
    const chunk = events.slice(i, i + EVENT_BATCH);
    const rows = await db.insertInto('history_events').values(chunk.map((e) => e.row)).returning('id').execute();
    ids.push(...rows.map((r) => Number(r.id)));
  }
  const contextRows: { event_id: number; seq: number; key: string; value: string | null }[] = [];
  events.forEach((e, n) => {
    e.context.forEach(([key, value], seq) => contextRows.push({ event_id: ids[n], seq, key, value }));
  });
  for (let i = 0; i < contextRows.length; i += CONTEXT_BATCH) {
    await db.insertInto('history_contexts').values(contextRows.slice(i, i + CONTEXT_BATCH)).execute();
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
