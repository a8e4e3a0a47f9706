// The filters of GET /events (reference §4.2): request parameters are normalised into an
// EventFilter, which becomes one SQL condition (read/conditions.ts). GET /events, has-updates,
// the cards, the search-options counters and the stats share it.
import type { Lang } from '../../../rest/types.ts';
import type { DialectName } from '../../../db/index.ts';
import { MAX_ALTERNATIVES } from '../../../db/limits.ts';
import type { LoggerCatalogue, LoggerScope } from '../../../site/loggers.ts';
import { ipFilterCondition, type IpFilter } from '../model/ip.ts';
import {
  addDays,
  endOfDayUtc,
  MAX_LASTDAYS,
  monthRangeUtc,
  parseDateBound,
  startOfDayUtc,
  todayIn,
  unixToUtc,
  type Ymd,
} from '../../../site/zone-time.ts';

export interface EventFilter {
  scope: LoggerScope;
  include?: number[];
  maxId?: number;
  sinceId?: number;
  sinceDate?: string;
  dateFrom?: string;
  dateTo?: string;
  /** OR of [from, to] UTC ranges (`to` null = open). From `dates`, or `months`. */
  ranges?: [string, string | null][];
  /** From `lastdays` when `dates` is absent. */
  lastdaysFrom?: string;
  loglevels?: string[];
  loggers?: string[];
  messages?: Map<string, string[]>;
  users?: number[];
  initiators?: string[];
  ip?: IpFilter;
  contextFilters?: [string, string][];
  metadataWords?: string[];
  /** The database the condition is for (context tests, long search words and the context index differ per dialect); not a filter. */
  dialect?: DialectName;
  search?: SearchTerms;
  onlySticky?: boolean;
  excludeSearch?: SearchTerms;
  excludeLoglevels?: string[];
  excludeLoggers?: string[];
  excludeMessages?: Map<string, string[]>;
  excludeUsers?: number[];
  excludeInitiators?: string[];
}

/** Whether the filter narrows the set beyond "everything this user may read". */
export function isUnfiltered(f: EventFilter): boolean {
  return (
    f.scope.all &&
    Object.entries(f).every(([k, v]) => k === 'scope' || k === 'dialect' || v === undefined || v === false)
  );
}

export interface SearchTerms {
  words: string[];
  /** (logger, message keys) whose template contains every word. */
  templateMatches: Map<string, string[]>;
}

/** Words of a search text: split on whitespace and commas, at most 10. */
export function searchWords(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((w) => w.trim())
    .filter(Boolean)
    .slice(0, 10);
}

/**
 * `LoggerSlug:key` items (each may hold several comma-separated pairs) grouped per logger; or
 * why they cannot be (the argument's check, args/checks.ts).
 */
export function parseMessagePairs(items: unknown[], name: string): Map<string, string[]> | string {
  const byLogger = new Map<string, string[]>();
  let pairs = 0;
  for (const item of items) {
    for (const pair of String(item)
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      if (++pairs > MAX_ALTERNATIVES) return `${name} may name at most ${MAX_ALTERNATIVES} messages.`;
      const at = pair.indexOf(':');
      if (at <= 0 || at === pair.length - 1) return `${name} items must have the form LoggerSlug:message_key.`;
      const logger = pair.slice(0, at);
      const list = byLogger.get(logger) ?? [];
      list.push(pair.slice(at + 1));
      byLogger.set(logger, list);
    }
  }
  return byLogger;
}

function searchTerms(loggers: LoggerCatalogue, text: string, scope: LoggerScope, lang: Lang): SearchTerms | undefined {
  const words = searchWords(text).map((w) => w.toLowerCase());
  if (!words.length) return undefined;
  const templateMatches = new Map<string, string[]>();
  for (const def of loggers.sorted) {
    if (!scope.all && !scope.slugs.includes(def.slug)) continue;
    for (const [key, text] of Object.entries(def.messages)) {
      const candidates = [text[lang].toLowerCase(), text.en.toLowerCase()];
      if (candidates.some((tpl) => words.every((w) => tpl.includes(w)))) {
        templateMatches.set(def.slug, [...(templateMatches.get(def.slug) ?? []), key]);
      }
    }
  }
  return { words, templateMatches };
}

/** A list argument without empty items; undefined when none is left. */
function nonEmpty<T>(
  values: readonly T[] | null | undefined,
  keep: (v: T) => boolean = (v) => v !== '',
): T[] | undefined {
  const kept = values?.filter(keep);
  return kept?.length ? kept : undefined;
}

/** A string (comma-separated) or array of initiators. */
function initiatorList(value: string | string[] | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return nonEmpty((Array.isArray(value) ? value : [value]).flatMap((v) => v.split(',').map((s) => s.trim())));
}

/** The users of a list parameter (`users`) and its single form (`user`) together. */
function userList(many: number[] | undefined, one: number | undefined): number[] | undefined {
  return nonEmpty([...(many ?? []), ...(one !== undefined ? [one] : [])], () => true);
}

export const dateBoundMessage = (name: string) =>
  `${name} must be a Unix timestamp, a date (YYYY-MM-DD) or a date and time (YYYY-MM-DD HH:MM:SS), from the year 1000 to 9999.`;
export const MONTHS_ITEMS = 'months items must have the form YYYY-MM (years 1000 to 9999).';
export const DATES_ITEMS = `dates items must be month:YYYY-MM (years 1000 to 9999), lastdays:N (N from 1 to ${MAX_LASTDAYS}), yesterday or allDates.`;
export const LASTDAYS_RANGE = `lastdays must be 0 (no limit) or a number of days from 1 to ${MAX_LASTDAYS}.`;

/** `lastdays`: the start of the day N − 1 days ago (N = 1 is today), as UTC text. */
function lastdaysFrom(zone: string, today: Ymd, days: number): string {
  return startOfDayUtc(zone, addDays(today, -(days - 1)));
}

export interface FilterOptions {
  /** The logger catalogue (search matches its templates). */
  loggers: LoggerCatalogue;
  scope: LoggerScope;
  zone: string;
  lang: Lang;
  /** has-updates ignores sticky and exclude_* parameters. */
  ignoreExcludes?: boolean;
  now?: Date;
  dialect?: DialectName;
}

/**
 * The filter arguments of GET /events as the route hands them over: validated, sanitised and typed
 * by its declared args (EVENT_LIST_ARGS, whose ParamsOf is a superset of this).
 */
export type EventFilterParams = {
  include?: number[] | null;
  max_id_first_page?: number;
  since_id?: number;
  since_date?: string;
  date_from?: string;
  date_to?: string;
  dates?: string[];
  lastdays?: number;
  months?: string[];
  loglevels?: string[];
  loggers?: string[];
  messages?: string[];
  users?: number[];
  user?: number;
  initiator?: string | string[];
  ip_address?: string;
  context_filters?: Record<string, unknown>;
  metadata_search?: string;
  search?: string;
  only_sticky?: boolean;
  exclude_search?: string;
  exclude_loglevels?: string[];
  exclude_loggers?: string[];
  exclude_messages?: string[];
  exclude_users?: number[];
  exclude_user?: number;
  exclude_initiator?: string | string[];
};

/** Request parameters → EventFilter. Throws 400 rest_invalid_param for values the schema let through. */
export function eventFilterFromParams(p: EventFilterParams, opts: FilterOptions): EventFilter {
  const { scope, zone, lang } = opts;
  const f: EventFilter = { scope, dialect: opts.dialect };
  f.include = nonEmpty(p.include, (id) => id !== 0);
  f.maxId = p.max_id_first_page;
  f.sinceId = p.since_id;
  if (p.since_date) f.sinceDate = p.since_date;

  for (const [name, end] of [
    ['date_from', false],
    ['date_to', true],
  ] as const) {
    const raw = p[name];
    if (!raw || raw === '0') continue;
    const ts = parseDateBound(zone, raw, end)!;
    if (ts === 0) continue;
    if (end) f.dateTo = unixToUtc(ts);
    else f.dateFrom = unixToUtc(ts);
  }

  const today = todayIn(zone, opts.now);
  const dates = nonEmpty(p.dates);
  if (dates) {
    const ranges: [string, string | null][] = [];
    let lastdays = 0;
    let all = false;
    for (const item of dates) {
      if (item === 'allDates') all = true;
      else if (item === 'yesterday') {
        const y = addDays(today, -1);
        ranges.push([startOfDayUtc(zone, y), endOfDayUtc(zone, y)]);
      } else if (item.startsWith('month:')) {
        ranges.push(monthRangeUtc(zone, item.slice(6))!);
      } else {
        // lastdays:N, the only other item the argument lets through (validDates)
        lastdays = Math.max(lastdays, Number(item.slice(9)));
      }
    }
    if (lastdays) ranges.push([lastdaysFrom(zone, today, lastdays), null]);
    if (!all && ranges.length) f.ranges = ranges;
  } else {
    const lastdays = p.lastdays;
    if (lastdays) f.lastdaysFrom = lastdaysFrom(zone, today, lastdays);
    const months = nonEmpty(p.months);
    if (months) f.ranges = months.map((m) => monthRangeUtc(zone, m)!);
  }

  f.loglevels = nonEmpty(p.loglevels)?.map((s) => s.toLowerCase());
  f.loggers = nonEmpty(p.loggers);
  if (p.messages?.length) f.messages = parseMessagePairs(p.messages, 'messages') as Map<string, string[]>;
  f.users = userList(p.users, p.user);
  f.initiators = initiatorList(p.initiator);
  if (p.ip_address) f.ip = ipFilterCondition(p.ip_address);
  // Values are strings by the schema; a number in a JSON body is read as its text.
  const pairs = Object.entries(p.context_filters ?? {}).map(([k, v]) => [k, String(v)] as [string, string]);
  if (pairs.length) f.contextFilters = pairs;
  f.metadataWords = nonEmpty(searchWords(p.metadata_search ?? ''));
  if (p.search !== undefined) f.search = searchTerms(opts.loggers, p.search, scope, lang);
  if (opts.ignoreExcludes) return f;

  f.onlySticky = p.only_sticky === true;
  if (p.exclude_search !== undefined) f.excludeSearch = searchTerms(opts.loggers, p.exclude_search, scope, lang);
  f.excludeLoglevels = nonEmpty(p.exclude_loglevels)?.map((s) => s.toLowerCase());
  f.excludeLoggers = nonEmpty(p.exclude_loggers);
  if (p.exclude_messages?.length)
    f.excludeMessages = parseMessagePairs(p.exclude_messages, 'exclude_messages') as Map<string, string[]>;
  f.excludeUsers = userList(p.exclude_users, p.exclude_user);
  f.excludeInitiators = initiatorList(p.exclude_initiator);
  return f;
}
