// Building events: turning a log entry into an events row and its context (occasions id,
// acting user, initiator, anonymised IP, search texts), ready to insert (write/insert.ts).
import crypto from 'node:crypto';
import type { Insertable } from 'kysely';
import type { HistoryEventsTable } from '../../../db/schema.ts';
import { setOwn } from '../../../util.ts';
import type { ActivityEntry, ActivityOrigin, Initiator, LogLevel } from '../../../site/activity.ts';
import { utcFormatter } from '../../../site/time.ts';
import { placeholdersOf, type LoggerCatalogue } from '../../../site/loggers.ts';
import { anonymizeIp, proxyAddressContext } from './ip.ts';
import { phpJsonEncode } from './php-json.ts';
import { isStrictUtcDate } from '../../../site/zone-time.ts';
import { contextJson, contextText, storableText } from './context.ts';

export const LOG_LEVELS: LogLevel[] = ['emergency', 'alert', 'critical', 'error', 'warning', 'notice', 'info', 'debug'];
export const INITIATORS: Initiator[] = ['cms_user', 'web_user', 'cms', 'cms_cli', 'other'];

export interface PreparedEvent {
  row: Insertable<HistoryEventsTable>;
  /** The stored context (history_event_contexts.context, see contextJson). */
  context: string;
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
export function occasionsIdOf(
  logger: string,
  level: string,
  template: string,
  context: Record<string, unknown>,
  messageKey: string | null,
): string {
  if (context._occasionsID !== undefined) {
    return md5(phpJsonEncode({ _occasionsID: context._occasionsID, _loggerSlug: logger }));
  }
  const data: Record<string, unknown> = { logger, level, message: template };
  for (const [key, value] of Object.entries(context)) if (!Object.hasOwn(data, key)) setOwn(data, key, value);
  if (messageKey !== null && !('_message_key' in data)) data._message_key = messageKey;
  const compute = () => md5(phpJsonEncode(data));
  // Repeated events have the same data (a custom entry's message text is not part of it): with
  // only strings, JSON.stringify is as exact a key as PHP's encoding and much cheaper to make.
  return Object.values(data).every((v) => typeof v === 'string')
    ? occasionsCache(JSON.stringify(data), compute)
    : compute();
}

function md5(text: string): string {
  return crypto.hash('md5', text, 'hex');
}

function isRestOrigin(origin: ActivityOrigin): boolean {
  if (origin.rest !== undefined) return origin.rest;
  return typeof (origin as { restUrl?: unknown }).restUrl === 'function';
}

/** Turns one log call into the rows to insert. Throws on an unusable level. */
export function prepareEvent(
  loggers: LoggerCatalogue,
  entry: ActivityEntry,
  origin: ActivityOrigin,
  now: string = formatUtcMs(Date.now()),
): PreparedEvent {
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
  if (typeof source._initiator === 'string' && (INITIATORS as string[]).includes(source._initiator))
    initiator ??= source._initiator as Initiator;
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
export function searchTextOf(
  loggers: LoggerCatalogue,
  template: string,
  logger: string,
  level: string,
  context: Map<string, string | null>,
): string {
  const { placeholders } = loggers;
  const own = placeholderCache(template, () => new Set(placeholdersOf(template)));
  const parts = [template, logger, level];
  for (const [k, v] of context) if (v !== null && (placeholders.has(k) || own.has(k))) parts.push(v);
  return storableText(parts.join('\n').toLowerCase());
}
