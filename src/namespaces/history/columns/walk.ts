// The walks over the log's columns (columns/store.ts): which rows pass a filter's tests, newest
// first, and a page of them or their total. Plain data in, plain data out (the tests are made
// from the filter by columns/count.ts walkPlan), so that a walk runs here or in a thread of its
// own (columns/walk-thread.ts) over the same shared arrays. Imports nothing that thread does
// not need.
import { idBit, type IdBits } from '../model/id-bits.ts';
import type { TextTable } from './texts.ts';

/** The columns a walk reads (LogColumns' arrays, shared with the thread that walks). */
export interface ColumnArrays {
  ids: Int32Array;
  dates: Float64Array;
  occasions: Int32Array;
  levels: Uint8Array;
  keys: Uint16Array;
  initiators: Uint8Array;
  users: Int32Array;
  addrs: Int32Array;
  texts: Uint16Array;
}

/** A row without a user (LogColumns.NO_USER). */
export const NO_USER = -1;

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

/** Which stored addresses pass `ip_address` (count.ts addressTable): IPv4 codes in [lo, hi], others by their code. */
export interface AddressTable {
  lo: number;
  hi: number;
  others: Uint8Array;
}

/** What a walk tests, made once per walk from the filter and the columns' dictionaries. */
export interface WalkPlan {
  /** The positions the filter's dates allow, [from, below) spans, newest first. */
  spans: [number, number][];
  /** Per code: whether the filter keeps its (logger, message key), level, initiator. */
  keyOk: Uint8Array;
  levelOk: Uint8Array;
  initiatorOk: Uint8Array;
  /** Tables that keep every value test nothing. */
  testsNothing: boolean;
  /** Per key code: whether a template holds the search words (its events are kept by it). */
  searchTemplate: Uint8Array;
  maxId?: number;
  sets: EventSets;
  addr?: AddressTable;
  users?: number[];
  notUsers?: number[];
}

/** Positions whose conditions are tested at a time, newest first, so that a walk told to stop tests no more. */
const CHUNK_POSITIONS = 32_768;

/** The rows, and groups (runs of equal occasions ids), that a walk counted after its visits ended. */
interface CountedRest {
  rows: number;
  groups: number;
}

/**
 * Visits the positions of the plan's rows, newest first (date desc, id desc), until `visit`
 * returns false; then stops, or with `countRest` counts the rows and groups left (returned; a
 * group goes on from the last row visited), a tight loop where a visit per row cost a call. The
 * conditions are tested `chunk` positions at a time, newest first: a walk that stops tests no
 * more.
 */
function visitMatches(
  cols: ColumnArrays,
  plan: WalkPlan,
  visit: (position: number) => boolean | void,
  countRest: boolean,
  chunk = CHUNK_POSITIONS,
): CountedRest {
  const largest = plan.spans.reduce((n, [from, below]) => Math.max(n, below - from), 0);
  // Which positions of a chunk pass, a byte each.
  const passes = new Uint8Array(Math.min(chunk, largest));
  const users = plan.users && new Set(plan.users);
  const notUsers = plan.notUsers && new Set(plan.notUsers);
  const { occasions } = cols;
  const rest: CountedRest = { rows: 0, groups: 0 };
  let visiting = true;
  let last = -1;
  // Spans newest first: the rows of consecutive spans follow each other.
  for (const [from, below] of plan.spans)
    for (let hi = below; hi > from; hi -= chunk) {
      const lo = Math.max(from, hi - chunk);
      markPassing(cols, plan, passes, users, notUsers, lo, hi);
      let i = hi - 1;
      for (; visiting && i >= lo; i--)
        if (passes[i - lo]! & 1 && visit(i) === false) {
          if (!countRest) return rest;
          visiting = false;
          last = occasions[i]!;
        }
      for (; i >= lo; i--)
        if (passes[i - lo]! & 1) {
          rest.rows++;
          if (occasions[i] !== last) {
            rest.groups++;
            last = occasions[i]!;
          }
        }
    }
  return rest;
}

/**
 * Which positions of [lo, hi) pass, `passes` a byte each from its start: a condition at a time,
 * each a tight loop over typed arrays held in locals. One loop testing every condition row by
 * row, its closure's values read from its context, took 1.3–2.7 times as long (a search's
 * groups over 1,000,000 rows: 33–56 → 20–28 ms).
 */
function markPassing(
  cols: ColumnArrays,
  plan: WalkPlan,
  passes: Uint8Array,
  users: Set<number> | undefined,
  notUsers: Set<number> | undefined,
  lo: number,
  hi: number,
): void {
  const { keyOk, levelOk, initiatorOk, searchTemplate, maxId, addr } = plan;
  const { ids, levels, keys, initiators, addrs, texts } = cols;
  const { included, excluded, context, metadata } = plan.sets;
  const n = hi - lo;
  if (plan.testsNothing) passes.fill(1, 0, n);
  else
    for (let k = 0, i = lo; k < n; k++, i++)
      passes[k] = keyOk[keys[i]!]! & levelOk[levels[i]!]! & initiatorOk[initiators[i]!]!;
  if (maxId !== undefined) for (let k = 0, i = lo; k < n; k++, i++) passes[k]! &= ids[i]! <= maxId ? 1 : 0;
  // By text, one table read per row (testing a set of ids gathered from the texts first took
  // three to six times as long over 1,000,000 rows).
  if (excluded && 'byText' in excluded)
    for (let k = 0, i = lo, byText = excluded.byText; k < n; k++, i++) passes[k]! &= 1 - byText[texts[i]!]!;
  else if (excluded) for (let k = 0, i = lo; k < n; k++, i++) passes[k]! &= 1 - idBit(excluded, ids[i]!);
  if (context) for (let k = 0, i = lo; k < n; k++, i++) passes[k]! &= idBit(context, ids[i]!);
  if (metadata) for (let k = 0, i = lo; k < n; k++, i++) passes[k]! &= idBit(metadata, ids[i]!);
  if (included && 'byText' in included)
    for (let k = 0, i = lo, byText = included.byText; k < n; k++, i++)
      passes[k]! &= byText[texts[i]!]! | searchTemplate[keys[i]!]!;
  else if (included)
    for (let k = 0, i = lo; k < n; k++, i++) passes[k]! &= idBit(included, ids[i]!) | searchTemplate[keys[i]!]!;
  // The rarer tests only on the rows still passing.
  if (addr)
    for (let k = 0, i = lo; k < n; k++, i++) {
      const code = addrs[i]!;
      if (passes[k] && !(code >= 0 ? code >= addr.lo && code <= addr.hi : code <= -2 && addr.others[-2 - code] === 1))
        passes[k] = 0;
    }
  if (users || notUsers)
    for (let k = 0, i = lo; k < n; k++, i++) {
      if (!passes[k]) continue;
      const user = cols.users[i]!;
      if (users && (user === NO_USER || !users.has(user))) passes[k] = 0;
      else if (notUsers && user !== NO_USER && notUsers.has(user)) passes[k] = 0;
    }
}

/** A page of the rows (grouped: groups), `offset … offset + limit`, newest first. */
export interface PageWanted {
  grouped: boolean;
  offset: number;
  limit: number;
  /** The filter's total, when known: nothing past the page is counted. */
  knownTotal?: number;
}

/** A group as the walk meets it: its first row's date (seconds), highest id and size. */
export interface WalkedGroup {
  first: { date: number };
  maxId: number;
  size: number;
}

/** What a walk is asked: the total (rows or groups) and newest row, or a page. */
export type WalkJob =
  | { kind: 'count'; plan: WalkPlan; mode: 'rows' | 'groups' }
  | { kind: 'page'; plan: WalkPlan; wanted: PageWanted; chunk?: number };

/** A count's answer: the total, and the position of the newest row (−1: none). */
export interface CountWalked {
  value: number;
  newest: number;
}

/**
 * A page's answer: ungrouped, its rows' ids; grouped, the groups from the tie that holds its
 * first one on (`kept`, the first of them the `from`-th of the walk), to be put in the
 * reference's order (read/heads.ts inReferenceOrder); the total, and the newest row's position.
 */
export interface PageWalked {
  ids: number[];
  kept: WalkedGroup[];
  from: number;
  total: number;
  newest: number;
}

/** Runs a walk over the columns. */
export function walk(cols: ColumnArrays, job: WalkJob): CountWalked | PageWalked {
  return job.kind === 'count' ? countWalk(cols, job.plan, job.mode) : pageWalk(cols, job.plan, job.wanted, job.chunk);
}

/** The rows (or groups) of the plan, and the newest of them: the newest visited, the rest counted. */
function countWalk(cols: ColumnArrays, plan: WalkPlan, mode: 'rows' | 'groups'): CountWalked {
  let newest = -1;
  const rest = visitMatches(
    cols,
    plan,
    (i) => {
      newest = i;
      return false;
    },
    true,
  );
  const found = newest < 0 ? 0 : 1;
  return { value: found + (mode === 'rows' ? rest.rows : rest.groups), newest };
}

/**
 * Rows `offset … offset + limit` of the plan's (grouped: groups), newest first, and the total.
 * A grouped page keeps the groups from the tie (of equal first dates) that holds its first
 * group on, until one starts past it at another date, as read/paging.ts walkGroups does:
 * sorting moves groups within a tie only.
 */
function pageWalk(
  cols: ColumnArrays,
  plan: WalkPlan,
  { grouped, offset, limit, knownTotal }: PageWanted,
  chunk?: number,
): PageWalked {
  const { ids, dates, occasions } = cols;
  const wanted = offset + limit;
  const page: number[] = [];
  let rows = 0;
  let groups = 0;
  let last = -1;
  let kept: WalkedGroup[] = [];
  let from = 0; // walk index of kept[0]
  let current: WalkedGroup | null = null;
  let newest = -1;
  const rest = visitMatches(
    cols,
    plan,
    (i) => {
      if (rows++ === 0) newest = i;
      if (!grouped) {
        if (rows > offset) page.push(ids[i]!);
        return rows < wanted;
      }
      if (occasions[i] !== last) {
        const walk = groups++;
        last = occasions[i]!;
        // Past the page and its tie: the walk has the page.
        if (walk >= wanted && dates[i] !== kept[wanted - 1 - from]!.first.date) return false;
        if (walk < offset && current && dates[i] !== current.first.date) {
          kept = [];
          from = walk;
        }
        current = { first: { date: dates[i]! }, maxId: ids[i]!, size: 0 };
        kept.push(current);
      }
      current!.size++;
      if (ids[i]! > current!.maxId) current!.maxId = ids[i]!;
    },
    knownTotal === undefined,
    chunk,
  );
  const total = knownTotal ?? (grouped ? groups + rest.groups : rows + rest.rows);
  return { ids: page, kept, from, total, newest };
}
