// A filter's total from the log's columns (columns/store.ts): its rows, or its groups (runs of
// equal occasions ids among them, date desc, id desc), and the newest of them, in one pass over
// the positions its dates allow. Only filters of the columns' values are counted here: levels,
// loggers, messages, users, initiators, dates, a cut at an id, the viewer's loggers, and
// `search`, `exclude_search`, `context_filters` and `metadata_search` when the events holding
// their words or pairs are given (EventSets).
import type { EventFilter } from '../read/query.ts';
import type { MatchRow } from '../read/slices.ts';
import type { IpFilter } from '../model/ip.ts';
import { strictUtcSeconds, unixToUtc } from '../../../site/zone-time.ts';
import { idBit, type IdBits } from '../model/id-bits.ts';
import { ipv4Code, LogColumns, type ColumnsView, type Dictionary } from './store.ts';
import type { TextTable } from './texts.ts';

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
 * The events holding every word of `search` and of `exclude_search` (their templates aside), as
 * ids or by their search texts, every pair of `context_filters`, and every word of
 * `metadata_search` in their context's values.
 */
export interface EventSets {
  included?: IdBits | TextTable;
  excluded?: IdBits | TextTable;
  context?: IdBits;
  metadata?: IdBits;
}

/**
 * Which positions pass, a byte each: one array for every walk (a walk ends before the next
 * begins), where one per walk left up to 64 MB of them to the collector under concurrent
 * requests (the server's RSS 237 → 254 MB in the mixed cold workload).
 */
let passing = new Uint8Array(0);

/** Positions whose conditions are tested at a time, newest first, so that a walk told to stop tests no more. */
const CHUNK_POSITIONS = 32_768;

/** The rows, and groups (runs of equal occasions ids), that a walk counted after its visits ended. */
interface CountedRest {
  rows: number;
  groups: number;
}

/** How a walk goes on once `visit` returns false. */
interface WalkOptions {
  /** Count the rows and groups left (a total not known yet) instead of stopping. */
  countRest?: boolean;
  /** Positions tested at a time (tests cross their borders with small ones). */
  chunk?: number;
}

/**
 * Visits the positions of the rows of `f` among the columns' rows, newest first (date desc,
 * id desc), until `visit` returns false; then stops, or with `countRest` counts the rows and
 * groups left (returned; a group goes on from the last row visited), a tight loop where a
 * visit per row cost a call. Null (none visited) when it tests something the columns do not
 * hold. `sets`: the events holding the words of `search`, `exclude_search` and
 * `metadata_search` and the pairs of `context_filters` (required for each the filter has); a
 * template holding the search words keeps (or leaves out) its events as well. The conditions
 * are tested `chunk` positions at a time, newest first: a walk that stops tests no more.
 */
export function visitMatches(
  { cols, length }: ColumnsView,
  f: EventFilter,
  sets: EventSets,
  visit: (position: number) => boolean | void,
  { countRest = false, chunk = CHUNK_POSITIONS }: WalkOptions = {},
): CountedRest | null {
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
  // As SQL reads `words or (logger = ? and message_key in (…))`: a row without a key is kept by its words alone.
  const searchTemplate = cols.messagesTable(f.search?.templateMatches);
  const levelOk = valueTable(cols.levelCodes, f.loglevels, f.excludeLoglevels);
  const initiatorOk = valueTable(cols.initiatorCodes, f.initiators, f.excludeInitiators);
  const users = f.users && new Set(f.users);
  const notUsers = f.excludeUsers && new Set(f.excludeUsers);
  const addrOk = f.ip && addressTest(cols, f.ip);
  if (passing.length < length) passing = new Uint8Array(cols.ids.length);
  const tests: PassTests = {
    cols,
    passes: passing,
    // Tables that keep every value test nothing.
    testsNothing: [keyOk, levelOk, initiatorOk].every((table) => table.every((ok) => ok === 1)),
    keyOk,
    levelOk,
    initiatorOk,
    searchTemplate,
    maxId: f.maxId,
    sets,
    addrOk,
    users,
    notUsers,
  };
  const { passes } = tests;
  const { occasions } = cols;
  const rest: CountedRest = { rows: 0, groups: 0 };
  let visiting = true;
  let last = -1;
  // Spans newest first: the rows of consecutive spans follow each other.
  for (const [from, below] of spans)
    for (let hi = below; hi > from; hi -= chunk) {
      const lo = Math.max(from, hi - chunk);
      markPassing(tests, lo, hi);
      let i = hi - 1;
      for (; visiting && i >= lo; i--)
        if (passes[i]! & 1 && visit(i) === false) {
          if (!countRest) return rest;
          visiting = false;
          last = occasions[i]!;
        }
      for (; i >= lo; i--)
        if (passes[i]! & 1) {
          rest.rows++;
          if (occasions[i] !== last) {
            rest.groups++;
            last = occasions[i]!;
          }
        }
    }
  return rest;
}

/** What markPassing tests, made once per walk. */
interface PassTests {
  cols: LogColumns;
  passes: Uint8Array;
  testsNothing: boolean;
  keyOk: Uint8Array;
  levelOk: Uint8Array;
  initiatorOk: Uint8Array;
  searchTemplate: Uint8Array;
  maxId: number | undefined;
  sets: EventSets;
  addrOk: ((code: number) => boolean) | undefined;
  users: Set<number> | undefined;
  notUsers: Set<number> | undefined;
}

/**
 * Which positions of [lo, hi) pass, `passes` a byte each: a condition at a time, each a tight
 * loop over typed arrays held in locals. One loop testing every condition row by row, its
 * closure's values read from its context, took 1.3–2.7 times as long (a search's groups over
 * 1,000,000 rows: 33–56 → 20–28 ms).
 */
function markPassing(t: PassTests, lo: number, hi: number): void {
  const { passes, keyOk, levelOk, initiatorOk, searchTemplate, maxId, addrOk, users, notUsers } = t;
  const { ids, levels, keys, initiators, addrs, texts } = t.cols;
  const { included, excluded, context, metadata } = t.sets;
  if (t.testsNothing) passes.fill(1, lo, hi);
  else for (let i = lo; i < hi; i++) passes[i] = keyOk[keys[i]!]! & levelOk[levels[i]!]! & initiatorOk[initiators[i]!]!;
  if (maxId !== undefined) for (let i = lo; i < hi; i++) passes[i]! &= ids[i]! <= maxId ? 1 : 0;
  // By text, one table read per row (testing a set of ids gathered from the texts first took
  // three to six times as long over 1,000,000 rows).
  if (excluded && 'byText' in excluded)
    for (let i = lo, byText = excluded.byText; i < hi; i++) passes[i]! &= 1 - byText[texts[i]!]!;
  else if (excluded) for (let i = lo; i < hi; i++) passes[i]! &= 1 - idBit(excluded, ids[i]!);
  if (context) for (let i = lo; i < hi; i++) passes[i]! &= idBit(context, ids[i]!);
  if (metadata) for (let i = lo; i < hi; i++) passes[i]! &= idBit(metadata, ids[i]!);
  if (included && 'byText' in included)
    for (let i = lo, byText = included.byText; i < hi; i++)
      passes[i]! &= byText[texts[i]!]! | searchTemplate[keys[i]!]!;
  else if (included) for (let i = lo; i < hi; i++) passes[i]! &= idBit(included, ids[i]!) | searchTemplate[keys[i]!]!;
  // The rarer tests only on the rows still passing.
  if (addrOk) for (let i = lo; i < hi; i++) if (passes[i] && !addrOk(addrs[i]!)) passes[i] = 0;
  if (users || notUsers)
    for (let i = lo; i < hi; i++) {
      if (!passes[i]) continue;
      const user = t.cols.users[i]!;
      if (users && (user === LogColumns.NO_USER || !users.has(user))) passes[i] = 0;
      else if (notUsers && user !== LogColumns.NO_USER && notUsers.has(user)) passes[i] = 0;
    }
}

/** The filter's rows (`mode` rows) or groups among the columns' rows, and the newest of them (null: see visitMatches). */
export function countFromColumns(
  view: ColumnsView,
  f: EventFilter,
  mode: 'rows' | 'groups',
  sets: EventSets = {},
): ColumnsTotal | null {
  let newest = -1;
  // The newest row visited, the rest counted.
  const rest = visitMatches(
    view,
    f,
    sets,
    (i) => {
      newest = i;
      return false;
    },
    { countRest: true },
  );
  if (!rest) return null;
  const found = newest < 0 ? 0 : 1;
  return { value: found + (mode === 'rows' ? rest.rows : rest.groups), newest: matchRowAt(view.cols, newest) };
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
 * Whether a row's address (its code in the columns) passes the `ip_address` filter, as SQL
 * compares it: an exact address byte for byte; a pattern (`a.b.%.%`, `a.b.c.%`) by LIKE, whose
 * literal parts are digits and dots. A stored IPv4 address `a.b.c.x` passes a pattern when its
 * octets spell the pattern's (no exact address ends in `x`: `a.b.c.x` is a pattern); other
 * addresses are tested as text, once each; none passes when there is none.
 */
function addressTest(cols: LogColumns, ip: IpFilter): (code: number) => boolean {
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
  return (code) => (code >= 0 ? code >= lo && code <= hi : code <= -2 && others[-2 - code] === 1);
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
