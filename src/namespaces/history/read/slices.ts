// Reads of the log that test row after row go in slices on SQLite.
//
// better-sqlite3 runs every statement on the server's only thread: while one reads, no other
// request is answered. Most reads of the log are short (an index leads to their rows, or the
// first rows read by date match), but a filter no index serves reads until it has its rows: a
// search for a word found nowhere tested all of 1,000,000 events in one statement, 0.4–0.5 s
// during which every other request waited, and its total scanned the table for 0.25 s more.
// Such reads are cut into slices here, and the event loop runs between them:
// - matching rows newest first (a page's walk, a grouped count's chunks), when SQLite walks the
//   date index for them: in slices of that index, each ending at the position of its last row
//   (found through the index alone);
// - counts, when SQLite reads every row of the table for them, or tests every entry of an index
//   with a sub-query: in ranges of ids, which SQLite reads from the table itself.
//   (A plain scan of a covering index is left alone: 0.1 s per 1,000,000 rows, five times that
//   through the table.)
// A condition may cost 0.3 µs a row (a LIKE) or 5 µs (parsing each stored context), so a slice's
// size follows the time the one before took, aiming at `ms` per slice (fixed sizes of 16,000
// rows or 50,000 ids held the thread for 0.1–0.3 s with a context condition).
// Whether SQLite walks or scans is read from its query plan, once per statement text. A read
// that searches another index is left alone: the index bounds it. PostgreSQL runs a statement
// on its own connection and holds nobody: one statement each.
import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  CompiledQuery,
  expressionBuilder,
  sql,
  type Compilable,
  type Expression,
  type RawBuilder,
  type SqlBool,
} from 'kysely';
import type { AppServices } from '../../../site/services.ts';
import type { Database } from '../../../db/schema.ts';
import { pos } from '../model/runs.ts';
import { newestEventId } from '../model/counters.ts';
import type { DateRange } from './heads.ts';
import { FILTERS_IN_ORDER_INDEX } from '../migrations/0026_history_filters_in_order.ts';

/** Slice sizes: rows of the date index for walks, ids for counts. */
export interface Slices {
  /** The first slice of a walk (most walks end in it). */
  walkFirst: number;
  walkMost: number;
  countFirst: number;
  countMost: number;
  /** The time a slice aims at. */
  ms: number;
}

export const SLICES: Slices = { walkFirst: 1000, walkMost: 100_000, countFirst: 10_000, countMost: 200_000, ms: 10 };

/**
 * The size of the next slice: scaled toward `ms` by the time this one took, at most four times
 * larger or smaller, never smaller than the first slice. A slice's statements cost some time
 * whatever its size: on a busy machine, sizes scaled down to a row each made a count of 50,000
 * rows take minutes instead of a second.
 */
function nextSize(size: number, tookMs: number, least: number, most: number, ms: number): number {
  const factor = Math.min(4, Math.max(0.25, ms / Math.max(tookMs, 0.01)));
  return Math.max(least, Math.min(most, Math.round(size * factor)));
}

export interface MatchRow {
  id: number;
  date: string;
  occasions_id: string;
}

/** The dates every matching row lies within (each end optional, both inclusive): a walk by date reads no further. */
export interface DateWindow {
  from?: string;
  to?: string;
  /**
   * Several ranges, disjoint and newest first (read/date-ranges.ts), when the rows lie in one of
   * them: SQLite's reads go range by range, and a walk skips the dates between them.
   */
  ranges?: readonly DateRange[];
}

/** The conditions of a range of dates on `date`, before any other: SQLite reads that range of the date index. */
export function withinDates({ from, to }: DateRange): Expression<SqlBool>[] {
  return [...(to !== undefined ? [eb('date', '<=', to)] : []), ...(from !== undefined ? [eb('date', '>=', from)] : [])];
}

/** `cond` in each of the window's several ranges, newest first (each read through its range of the date index); else `cond` alone. */
export function inEachRange(cond: Expression<SqlBool>, dates: DateWindow = {}): Expression<SqlBool>[] {
  return dates.ranges?.map((range) => eb.and([...withinDates(range), cond])) ?? [cond];
}

/** A position in the log's order (date desc, id desc); a read starts below it, or at it when `inclusive`. */
export interface Position {
  date: string;
  id: number;
  inclusive?: boolean;
}

const eb = expressionBuilder<Database, 'history_events'>();

/**
 * Up to `limit` rows matching `cond`, newest first, below `after` (or from it, when inclusive),
 * after skipping `offset` of them (in the statement, or here when reading in slices).
 * `few`: few rows can match (the context index's candidates), and the condition's ids lead: on
 * SQLite, which without statistics would walk the date index to spare a sort, the order is
 * written so that no index serves it (`+date`), and the candidates are read and sorted (a word
 * found nowhere: 80–380 ms → 1 ms on 1,000,000 events). `oneStatement`: the condition gathers
 * something once per statement (an index's matches, read/conditions.ts namedByIndex), which
 * slices would gather again each (100,000 matches: 50 ms a slice).
 */
export async function newestFirst(
  app: AppServices,
  cond: Expression<SqlBool>,
  after: Position | null,
  limit: number,
  {
    slices = SLICES,
    few = false,
    offset = 0,
    dates = {},
    oneStatement = false,
  }: { slices?: Slices; few?: boolean; offset?: number; dates?: DateWindow; oneStatement?: boolean } = {},
): Promise<MatchRow[]> {
  const sqlite = app.dialect === 'sqlite';
  const read = (where: Expression<SqlBool>, from: Position | null, n: number) => {
    let q = app.readDb.selectFrom('history_events').select(['id', 'date', 'occasions_id']).where(where);
    if (from) q = q.where(pos(from.inclusive ? '<=' : '<', from));
    if (few && sqlite)
      return q
        .orderBy(sql`+${sql.ref('date')}`, 'desc')
        .orderBy(sql`+${sql.ref('id')}`, 'desc')
        .limit(n);
    return q.orderBy('date', 'desc').orderBy('id', 'desc').limit(n);
  };
  // Several ranges of dates: their window bounds a read in one statement, which no index of the
  // date serves otherwise (read/date-ranges.ts).
  const windowed = dates.ranges && sqlite ? eb.and([...withinDates(dates), cond]) : cond;
  const whole = read(windowed, after, limit).$if(offset > 0, (q) => q.offset(offset));
  // Several ranges are walked along either index in the log's order: the walk skips the dates between them.
  const walks = async () => {
    const access = await accessOf(app, whole);
    return access.dateIndex || (dates.ranges !== undefined && access.inOrderIndex);
  };
  if (!sqlite || few || oneStatement || !(await walks())) return whole.execute();
  const rows: MatchRow[] = [];
  let skip = offset;
  // The walk starts at the newest date a row may match, not at the top of the log.
  let from =
    dates.to !== undefined && (!after || after.date > dates.to)
      ? { date: dates.to, id: Number.MAX_SAFE_INTEGER, inclusive: true }
      : after;
  const first = Math.min(slices.walkFirst, slices.walkMost);
  // The window's range the walk is in or comes to next (a start below a row: from a row's position).
  let rangeIndex =
    dates.ranges && from ? dates.ranges.findIndex((r) => r.from === undefined || r.from <= from!.date) : 0;
  for (let size = first; ; ) {
    const started = performance.now();
    // Between two ranges of the window, the walk goes on at the top of the next; a slice ends
    // at its range's first date.
    const range = dates.ranges?.[rangeIndex];
    if (dates.ranges && !range) return rows;
    if (range?.to !== undefined && (!from || from.date > range.to))
      from = { date: range.to, id: Number.MAX_SAFE_INTEGER, inclusive: true };
    let last = await nthRow(app, from, size);
    const rangeEnds = range?.from !== undefined && (!last || last.date < range.from);
    if (rangeEnds) last = { date: range.from!, id: 0 };
    const inSlice = sliceCondition(cond, from, last);
    // Rows before the page are counted, not read: a deep page skips most slices in the index.
    const skipped = skip > 0 ? await countBelow(app, inSlice) : 0;
    if (skipped < skip) skip -= skipped;
    else {
      rows.push(
        ...(await read(inSlice, null, limit - rows.length)
          .$if(skip > 0, (q) => q.offset(skip))
          .execute()),
      );
      skip = 0;
    }
    // Below the oldest date a row may match, nothing is left to find.
    if (rows.length >= limit || !last || (dates.from !== undefined && last.date < dates.from)) return rows;
    from = { date: last.date, id: last.id };
    if (rangeEnds) rangeIndex++;
    size = nextSize(size, performance.now() - started, first, slices.walkMost, slices.ms);
    await nextTurn();
  }
}

/**
 * The rows of `cond` in a slice of the walk: below `from` (or from it, when inclusive) down to
 * `last`. The slice's own dates come first: SQLite's planner takes the first bounds it finds on
 * `date` for the date index's range, and with a date range of the filter first it read that whole
 * range for every slice (a range of 115,000 events: 10 ms a slice, a deep page 10 s).
 */
function sliceCondition(cond: Expression<SqlBool>, from: Position | null, last: Position | undefined) {
  return eb.and([
    ...(from ? [eb('date', '<=', from.date)] : []),
    ...(last ? [eb('date', '>=', last.date)] : []),
    cond,
    ...(from ? [pos(from.inclusive ? '<=' : '<', from)] : []),
    ...(last ? [pos('>=', last)] : []),
  ]);
}

/** Rows matching `cond`. */
async function countBelow(app: AppServices, cond: Expression<SqlBool>): Promise<number> {
  const q = app.readDb.selectFrom('history_events').select(sql<number>`count(*)`.as('n')).where(cond);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

/** The `n`-th row of the log from `from` on (any row, matching or not), or undefined when fewer are left. */
async function nthRow(app: AppServices, from: Position | null, n: number): Promise<Position | undefined> {
  let q = app.readDb.selectFrom('history_events').select(['date', 'id']);
  if (from) q = q.where(pos(from.inclusive ? '<=' : '<', from));
  return q
    .orderBy('date', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .offset(n - 1)
    .executeTakeFirst();
}

/** The rows `rows` (SQL selecting them) selects, counted up to `most`: whether there are that many, at that cost at most. */
export async function countUpTo(app: AppServices, rows: RawBuilder<unknown>, most: number): Promise<number> {
  const { rows: counted } = await sql<{ n: number }>`select count(*) as n from (${rows} limit ${most}) as r`.execute(
    app.readDb,
  );
  return Number(counted[0]!.n);
}

/** Rows matching `cond`, which lie within `dates`. */
export async function countRows(
  app: AppServices,
  cond: Expression<SqlBool>,
  slices: Slices = SLICES,
  dates: DateWindow = {},
): Promise<number> {
  return (await tallyRows(app, cond, { slices, dates })).n;
}

/** Rows matching `cond` and, with `maxId`, the highest id among them (0 when none) in the same read. */
export async function tallyRows(
  app: AppServices,
  cond: Expression<SqlBool>,
  { slices = SLICES, maxId = false, dates = {} }: { slices?: Slices; maxId?: boolean; dates?: DateWindow } = {},
): Promise<{ n: number; maxId: number }> {
  if (dates.ranges && app.dialect === 'sqlite') {
    const total = { n: 0, maxId: 0 };
    for (const inRange of inEachRange(cond, dates)) {
      const part = await tallyRows(app, inRange, { slices, maxId });
      total.n += part.n;
      total.maxId = Math.max(total.maxId, part.maxId);
    }
    return total;
  }
  const tally = (where: Expression<SqlBool>) =>
    app.readDb
      .selectFrom('history_events')
      .select(sql<number>`count(*)`.as('n'))
      .$if(maxId, (q) => q.select(sql<number | null>`max(${sql.ref('id')})`.as('m')))
      .where(where);
  const read = async (where: Expression<SqlBool>) => {
    const row = (await tally(where).executeTakeFirstOrThrow()) as { n: number; m?: number | null };
    return { n: Number(row.n), maxId: Number(row.m ?? 0) };
  };
  const whole = tally(cond);
  if (app.dialect !== 'sqlite' || !(await accessOf(app, whole)).testsEveryRow) return read(cond);
  const total = { n: 0, maxId: 0 };
  const first = Math.min(slices.countFirst, slices.countMost);
  let size = first;
  for (let below = await newestEventId(app.readDb); below > 0; ) {
    const started = performance.now();
    const above = Math.max(0, below - size);
    // Bare `id` bounds: SQLite reads just that range of the table.
    const part = await read(eb.and([cond, eb('id', '>', above), eb('id', '<=', below)]));
    total.n += part.n;
    total.maxId = Math.max(total.maxId, part.maxId);
    below = above;
    size = nextSize(size, performance.now() - started, first, slices.countMost, slices.ms);
    if (below > 0) await nextTurn();
  }
  return total;
}

/** How SQLite reads the log for a statement. */
export interface Access {
  /** Along the date index, all of it or a range. */
  dateIndex: boolean;
  /** Along the index of the filters in the log's order, which starts with the date too (FILTERS_IN_ORDER_INDEX). */
  inOrderIndex: boolean;
  /** Every row of the table (directly or through an index), or every entry of an index with a sub-query for each. */
  testsEveryRow: boolean;
}
const ACCESS_CACHE_LIMIT = 500;
const accessByStatement = new Map<string, Access>();

/** How SQLite reaches the log's rows for this statement (its plan's line for history_events itself). */
async function accessOf(app: AppServices, query: Compilable): Promise<Access> {
  const { sql: text, parameters } = query.compile();
  let access = accessByStatement.get(text);
  if (access === undefined) {
    const { rows } = await app.readDb.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${text}`, [...parameters]),
    );
    access = accessFromPlan(rows.map((r) => r.detail));
    if (accessByStatement.size >= ACCESS_CACHE_LIMIT) accessByStatement.clear();
    accessByStatement.set(text, access);
  }
  return access;
}

/**
 * From the plan's line for history_events (sub-queries name their tables by alias: `x`, `n`):
 * SCAN reads every row of the table or index, SEARCH a range of an index.
 */
export function accessFromPlan(details: string[]): Access {
  const outer = details.find((d) => /^(SCAN|SEARCH) history_events\b/.test(d)) ?? '';
  const subQueries = details.some((d) => /\bSUBQUERY\b|\bEXISTS\b/.test(d));
  return {
    dateIndex: /^(SCAN|SEARCH) history_events USING (COVERING )?INDEX history_events_date\b/.test(outer),
    inOrderIndex: new RegExp(`^(SCAN|SEARCH) history_events USING (COVERING )?INDEX ${FILTERS_IN_ORDER_INDEX}\\b`).test(
      outer,
    ),
    testsEveryRow: outer.startsWith('SCAN ') && (subQueries || !outer.includes(' USING COVERING INDEX ')),
  };
}
