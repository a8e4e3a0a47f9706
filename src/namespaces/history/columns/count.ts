// A filter's walk over the log's columns (columns/walk.ts), planned from the filter and the
// columns' dictionaries: its rows, or its groups (runs of equal occasions ids among them, date
// desc, id desc), and the newest of them, in one pass over the positions its dates allow. Only
// filters of the columns' values are walked: levels, loggers, messages, users, initiators,
// dates, a cut at an id, the viewer's loggers, and `search`, `exclude_search`, `context_filters`
// and `metadata_search` when the events holding their words or pairs are given (EventSets).
import type { EventFilter } from '../read/query.ts';
import type { MatchRow } from '../read/slices.ts';
import type { IpFilter } from '../model/ip.ts';
import { strictUtcSeconds, unixToUtc } from '../../../site/zone-time.ts';
import { ipv4Code, type ColumnsView, type Dictionary, type LogColumns } from './store.ts';
import type { AddressTable, CountWalked, EventSets, WalkJob, WalkPlan } from './walk.ts';
import type { Walker } from './walk-thread.ts';

export type { EventSets } from './walk.ts';

/** The filter's keys the columns can test (the rest make countFromColumns decline). */
const COUNTED = new Set([
  'scope',
  'dialect',
  'maxId',
  'dateFrom',
  'dateTo',
  'lastdaysFrom',
  'ranges',
  'loglevels',
  'loggers',
  'messages',
  'users',
  'initiators',
  'excludeLoglevels',
  'excludeLoggers',
  'excludeMessages',
  'excludeUsers',
  'excludeInitiators',
  'excludeSearch',
  'search',
  'contextFilters',
  'metadataWords',
  'ip',
]);

export interface ColumnsTotal {
  value: number;
  newest: MatchRow | null;
}

/** Whether the filter tests only what the columns hold (the events of `search`, `exclude_search`, `context_filters` and `metadata_search` given apart). */
export function testsOnlyColumns(f: EventFilter): boolean {
  return Object.entries(f).every(([k, v]) => v === undefined || v === false || COUNTED.has(k));
}

/**
 * What a walk of `f` over the columns' first `length` rows tests; null when it tests something
 * the columns do not hold. `sets`: the events holding the words of `search`, `exclude_search`
 * and `metadata_search` and the pairs of `context_filters` (required for each the filter has);
 * a template holding the search words keeps (or leaves out) its events as well.
 */
export function walkPlan({ cols, length }: ColumnsView, f: EventFilter, sets: EventSets): WalkPlan | null {
  if (!testsOnlyColumns(f)) return null;
  const { included, excluded, context, metadata } = sets;
  if (
    (f.excludeSearch && !excluded) ||
    (f.search && !included) ||
    (f.contextFilters && !context) ||
    (f.metadataWords && !metadata)
  )
    return null;
  const spans = positionSpans(cols, length, f);
  if (!spans) return null;
  const keyOk = keyTable(cols, f);
  const levelOk = valueTable(cols.levelCodes, f.loglevels, f.excludeLoglevels);
  const initiatorOk = valueTable(cols.initiatorCodes, f.initiators, f.excludeInitiators);
  return {
    spans,
    keyOk,
    levelOk,
    initiatorOk,
    testsNothing: [keyOk, levelOk, initiatorOk].every((table) => table.every((ok) => ok === 1)),
    // As SQL reads `words or (logger = ? and message_key in (…))`: a row without a key is kept by its words alone.
    searchTemplate: cols.messagesTable(f.search?.templateMatches),
    maxId: f.maxId,
    sets,
    addr: f.ip && addressTable(cols, f.ip),
    users: f.users,
    notUsers: f.excludeUsers,
  };
}

/**
 * The filter's rows (`mode` rows) or groups among the columns' rows, and the newest of them
 * (null: see walkPlan), walked by `walker`.
 */
export async function countFromColumns(
  view: ColumnsView,
  f: EventFilter,
  mode: 'rows' | 'groups',
  sets: EventSets,
  walker: Walker,
): Promise<ColumnsTotal | null> {
  const plan = walkPlan(view, f, sets);
  if (!plan) return null;
  const job: WalkJob = { kind: 'count', plan, mode };
  const { value, newest } = (await walker(view, job)) as CountWalked;
  return { value, newest: matchRowAt(view.cols, newest) };
}

/** The row at a position of the columns, as a walk of the rows reports it (null: none, -1). */
export function matchRowAt({ ids, dates, occasions, occasionCodes }: LogColumns, position: number): MatchRow | null {
  return position < 0
    ? null
    : {
        id: ids[position]!,
        date: unixToUtc(dates[position]!),
        occasions_id: occasionCodes.values[occasions[position]!]!,
      };
}

/**
 * The positions the filter's dates allow, as [from, below) spans, oldest first; null when a
 * bound has a form the columns do not compare.
 */
function positionSpans(cols: LogColumns, length: number, f: EventFilter): [number, number][] | null {
  const seconds = (d: string | undefined) => (d === undefined ? undefined : strictUtcSeconds(d));
  const bounds = [seconds(f.dateFrom), seconds(f.lastdaysFrom), seconds(f.dateTo)];
  const ranges = (f.ranges ?? []).map(([from, to]) => [seconds(from), to === null ? undefined : seconds(to)]);
  if ([...bounds, ...ranges.flat()].some((s) => s === null)) return null;
  const [from, lastdaysFrom, to] = bounds as (number | undefined)[];
  const start = (s: number | undefined) => (s === undefined ? 0 : cols.firstAtOrAfter(s, length));
  // `date <= to`: below the first position after it (dates are whole seconds).
  const end = (s: number | undefined) => (s === undefined ? length : cols.firstAtOrAfter(s + 1, length));
  const lower = Math.max(start(from), start(lastdaysFrom));
  const upper = end(to);
  const wanted = f.ranges
    ? (ranges as [number, number | undefined][]).map(([a, b]) => [start(a), end(b)] as [number, number])
    : [[0, length] as [number, number]];
  const spans = wanted
    .map(([a, b]) => [Math.max(a, lower), Math.min(b, upper)] as [number, number])
    .filter(([a, b]) => a < b)
    .sort((x, y) => x[0] - y[0]);
  // Overlapping ranges are read once.
  const joined: [number, number][] = [];
  for (const s of spans) {
    const prev = joined.at(-1);
    if (prev && s[0] <= prev[1]) prev[1] = Math.max(prev[1], s[1]);
    else joined.push([...s]);
  }
  return joined.reverse();
}

/** Per (logger, message key) code: whether the filter's logger and message conditions keep it. */
function keyTable(cols: LogColumns, f: EventFilter): Uint8Array {
  const ok = new Uint8Array(cols.keyParts.length);
  const has = (map: Map<string, string[]> | undefined, logger: string, key: string | null) =>
    key !== null && !!map?.get(logger)?.includes(key);
  // As SQL reads `not (logger = ? and message_key in (…))`: unknown, so left out, for a row of
  // that logger without a key.
  const leftOut = (map: Map<string, string[]> | undefined, logger: string, key: string | null) =>
    !!map?.has(logger) && (key === null || map.get(logger)!.includes(key));
  cols.keyParts.forEach(({ logger, key }, code) => {
    const kept =
      (f.scope.all || f.scope.slugs.includes(logger)) &&
      (!f.loggers || f.loggers.includes(logger)) &&
      !f.excludeLoggers?.includes(logger) &&
      (!f.messages || has(f.messages, logger, key)) &&
      !leftOut(f.excludeMessages, logger, key) &&
      !leftOut(f.excludeSearch?.templateMatches, logger, key);
    ok[code] = kept ? 1 : 0;
  });
  return ok;
}

/** Per code of a column: whether the value is kept (in `keep` when given, not in `leave`). */
function valueTable(codes: Dictionary, keep: string[] | undefined, leave: string[] | undefined): Uint8Array {
  return Uint8Array.from(codes.values, (v) => ((!keep || keep.includes(v)) && !leave?.includes(v) ? 1 : 0));
}

/**
 * Which rows' addresses (their codes in the columns) pass the `ip_address` filter, as SQL
 * compares them: an exact address byte for byte; a pattern (`a.b.%.%`, `a.b.c.%`) by LIKE, whose
 * literal parts are digits and dots. A stored IPv4 address `a.b.c.x` passes a pattern when its
 * octets spell the pattern's (no exact address ends in `x`: `a.b.c.x` is a pattern); other
 * addresses are tested as text, once each; none passes when there is none.
 */
function addressTable(cols: LogColumns, ip: IpFilter): AddressTable {
  const test = ip.like
    ? (() => {
        const re = new RegExp(
          `^${ip.pattern
            .split('%')
            .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
            .join('.*')}$`,
          's',
        );
        return (addr: string) => re.test(addr);
      })()
    : (addr: string) => addr === ip.pattern;
  const others = Uint8Array.from(cols.addrCodes.values, (addr) => (test(addr) ? 1 : 0));
  // Stored IPv4 codes passing: a range of them (`a.b.%.%`: every c; `a.b.c.%`: one), or none.
  const [lo, hi] = ipv4Range(ip);
  return { lo, hi, others };
}

/** The codes (ipv4Code) of the stored IPv4 addresses an `ip_address` filter passes, as [lo, hi] (empty: lo > hi). */
function ipv4Range(ip: IpFilter): [number, number] {
  const octets = ip.pattern.split('.');
  if (!ip.like || octets.length !== 4 || octets[3] !== '%') return [1, 0];
  const prefix = (c: string) => ipv4Code(`${octets[0]}.${octets[1]}.${c}.x`);
  if (octets[2] === '%') {
    const first = prefix('0');
    return first === null ? [1, 0] : [first, first + 255];
  }
  const one = prefix(octets[2]!);
  return one === null ? [1, 0] : [one, one];
}
