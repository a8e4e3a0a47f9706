// First grouped totals counted from the runs maintained on write (read/run-counts.ts) instead of
// reading every matching row in order, for the filters whose rows the runs describe: a slice of
// dates, or the log without a few rows that an index names.
import { sql, type RawBuilder } from 'kysely';
import type { AppServices } from '../../../site/services.ts';
import type { EventFilter } from './query.ts';
import type { TotalShortcut } from './caches.ts';
import type { DateRange } from './heads.ts';
import { groupsInDateRanges, groupsWithout } from './run-counts.ts';
import { dateRanges } from './date-ranges.ts';
import { filterCondition, indexMatches, type QueryPlan, type SearchMatches } from './conditions.ts';
import { countUpTo } from './slices.ts';
import { SEARCH_FTS } from '../index/fts.ts';

/**
 * Rows left out per event of the log up to which groups are counted around them: two look-ups
 * per removed row cost about what reading ten rows in order does (43,000 of 1,000,000 events:
 * 0.56 s, against 1.2 s reading the other rows).
 */
const AROUND_REMOVED_SHARE = 1 / 16;

/**
 * A faster count of a grouped filter's first total than reading its rows, when there is one:
 * dates alone, from the run heads in their ranges (both databases); on SQLite, where looking up
 * a row's neighbours costs little, the log without the few rows an `exclude_search` alone or a
 * filter of levels, loggers, initiators, users or messages alone leaves out. `logSize`: the
 * log's events, near enough (its newest id).
 */
export function groupTotalShortcut(
  app: AppServices,
  filter: EventFilter,
  plan: QueryPlan,
  logSize: number,
): TotalShortcut | undefined {
  const ranges = onlyDateRanges(filter);
  if (ranges) {
    return async () => {
      const { groups, maxId } = await groupsInDateRanges(app.readDb, ranges);
      return { value: groups, maxId };
    };
  }
  if (app.dialect !== 'sqlite') return undefined;
  const excluded = plan.excludeIndex;
  const removed = excluded ? rowsExcludedBySearch(filter, excluded) : rowsOutside(filter);
  if (!removed) return undefined;
  const most = Math.floor(logSize * AROUND_REMOVED_SHARE);
  if (excluded && excluded.matches > most) return undefined;
  return async () => {
    // The index counted its matches; the other rows left out are counted here, up to `most`.
    if ((!excluded || excluded.templated) && (await countUpTo(app, removed, most + 1)) > most) return null;
    const { groups, maxId } = await groupsWithout(app.readDb, removed);
    return { value: groups, maxId };
  };
}

/**
 * SQL selecting the ids of the rows an `exclude_search` alone leaves out: those the search index
 * names, and the events of the message templates holding the words (`templated`).
 */
function rowsExcludedBySearch(filter: EventFilter, matches: SearchMatches): RawBuilder<unknown> {
  const named = indexMatches(SEARCH_FTS, matches);
  if (!matches.templated) return named;
  const templates = filterCondition({ scope: { all: true }, messages: filter.excludeSearch!.templateMatches })!;
  return sql`${named} union all select id from history_events where ${templates}`;
}

/** The filter's keys that say nothing about which rows match. */
const NOT_CONDITIONS = new Set(['scope', 'dialect']);

/** The filter's keys that are set and say which rows match (the scope aside). */
function keysSet(f: EventFilter): string[] {
  return Object.entries(f)
    .filter(([k, v]) => !NOT_CONDITIONS.has(k) && v !== undefined && v !== false)
    .map(([k]) => k);
}

/** The filter's conditions: its keys set, and the scope when the viewer may not read every logger. */
function conditionsOf(f: EventFilter): string[] {
  return f.scope.all ? keysSet(f) : ['scope'];
}

const DATE_CONDITIONS = new Set(['dateFrom', 'dateTo', 'lastdaysFrom', 'ranges']);

/**
 * When the filter asks for dates only: the ranges its rows lie in, disjoint and newest first
 * (the intersection of its bounds with the union of its `ranges`).
 */
export function onlyDateRanges(f: EventFilter): DateRange[] | null {
  const conditions = conditionsOf(f);
  if (!conditions.length || !conditions.every((c) => DATE_CONDITIONS.has(c))) return null;
  return dateRanges(f);
}

/** When the filter asks for one range of dates and nothing else: that range. */
export function oneDateRange(f: EventFilter): DateRange | undefined {
  const ranges = onlyDateRanges(f);
  return ranges?.length === 1 ? ranges[0] : undefined;
}

/** Lists of values to keep, and the column they are of. */
const KEPT_COLUMN = { loglevels: 'level', loggers: 'logger', initiators: 'initiator' } as const;
/** Lists of values to leave out, and the column they are of. */
const LEFT_OUT_COLUMN = {
  excludeLoglevels: 'level',
  excludeLoggers: 'logger',
  excludeInitiators: 'initiator',
  excludeUsers: 'user_id',
} as const;
const SET_CONDITIONS = new Set<string>([
  ...Object.keys(KEPT_COLUMN),
  ...Object.keys(LEFT_OUT_COLUMN),
  'excludeMessages',
]);

/**
 * When the filter asks only which levels, loggers or initiators to keep and which levels,
 * loggers, initiators, users or messages to leave out: SQL selecting the ids of the rows it
 * leaves out, each part read through its column's index. A list of values to keep leaves out
 * the column's other values in the log, found in the same statement (each the next value up
 * in the index), so that a value first logged meanwhile is not missed.
 */
export function rowsOutside(f: EventFilter): RawBuilder<unknown> | null {
  const conditions = conditionsOf(f);
  if (!conditions.length || !conditions.every((c) => SET_CONDITIONS.has(c))) return null;
  const inList = (values: readonly (string | number)[]) => sql.join(values.map((v) => sql`${v}`));
  const parts: RawBuilder<unknown>[] = [];
  for (const c of conditions) {
    if (c in KEPT_COLUMN) {
      const kept = f[c as keyof typeof KEPT_COLUMN]!;
      if (!kept.length) return null;
      const column = sql.ref(KEPT_COLUMN[c as keyof typeof KEPT_COLUMN]);
      const others = sql`with recursive v(x) as (
          select min(${column}) from history_events
          union all select (select min(${column}) from history_events where ${column} > v.x) from v where v.x is not null
        ) select x from v where x is not null and x not in (${inList(kept)})`;
      parts.push(sql`select id from history_events where ${column} in (${others})`);
    } else if (c in LEFT_OUT_COLUMN) {
      const leftOut = f[c as keyof typeof LEFT_OUT_COLUMN]!;
      if (!leftOut.length) return null;
      const column = sql.ref(LEFT_OUT_COLUMN[c as keyof typeof LEFT_OUT_COLUMN]);
      parts.push(sql`select id from history_events where ${column} in (${inList(leftOut)})`);
    } else {
      for (const [logger, keys] of f.excludeMessages!) {
        if (!keys.length) return null;
        parts.push(sql`select id from history_events where logger = ${logger} and message_key in (${inList(keys)})`);
      }
    }
  }
  // A row that two parts leave out is named twice: `id in (…)` takes it once (and countUpTo
  // may count it twice, which only errs towards reading the rows).
  return sql.join(parts, sql` union all `);
}

/**
 * The filter's conditions that FILTERS_IN_ORDER_INDEX holds the columns of (migration 0026):
 * with only these, its groups can be counted from that index in the log's order.
 */
const IN_ORDER_CONDITIONS = new Set([...DATE_CONDITIONS, ...SET_CONDITIONS, 'messages', 'users', 'ip', 'maxId']);

/**
 * Matching rows from which SQLite counts a filter's groups by reading FILTERS_IN_ORDER_INDEX
 * in the log's order rather than through the filter column's index and a sort (read/paging.ts
 * countRunsInWorker): the filter tests only columns that index holds and its rows are a fifth
 * of the log or more. Undefined: the filter tests other things (words, context values), or
 * PostgreSQL, which chooses by its statistics.
 */
export function inOrderCountFrom(
  app: AppServices,
  filter: EventFilter,
  plan: QueryPlan,
  logSize: number,
): number | undefined {
  if (app.dialect !== 'sqlite' || Object.values(plan).some((v) => v !== undefined && v !== false)) return undefined;
  // The scope is a condition on the logger, which the index holds too.
  if (!keysSet(filter).every((c) => IN_ORDER_CONDITIONS.has(c))) return undefined;
  return Math.max(1, Math.floor(logSize / 5));
}
