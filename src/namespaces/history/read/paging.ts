// Paging the log: a page of events matching a condition, grouped into occasions or flat, and its total
// counted now. One query builder (read/conditions.ts + selectEventPage) serves the list, has-updates
// and counts.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { expressionBuilder, sql, type Expression, type SqlBool } from 'kysely';
import type { AppServices } from '../../../site/services.ts';
import type { Database } from '../../../db/schema.ts';
import {
  countRows,
  countUpTo,
  newestFirst,
  tallyRows,
  inEachRange,
  type DateWindow,
  type MatchRow,
  type Position,
  type Slices,
} from './slices.ts';
import type { EventRow } from './render.ts';
import { headsPage, inReferenceOrder, type DateRange, type Occasion } from './heads.ts';
import { cutRunCount, dateSpan } from './run-counts.ts';
import { headBelow, pos } from '../model/runs.ts';
import { FEW_CANDIDATES } from './plan.ts';
import { FILTERS_IN_ORDER_INDEX } from '../migrations/0026_history_filters_in_order.ts';
import { unixToUtc, utcToUnix } from '../../../site/zone-time.ts';

interface PageRequest {
  grouped: boolean;
  page: number;
  perPage: number;
  countTotal: boolean;
  /** How to get the total (rows, or groups when grouped); default: count now. */
  count?: (mode: CountMode) => Promise<number>;
  /** At most this many rows can match (the context index's candidates lead). */
  rowsAtMost?: number;
  /** Rows of one group read one by one before the walk skips to the end of its maintained run (default LONG_GROUP_ROWS). */
  longGroup?: number;
  /** Slices of SQLite's reads that test row after row (default SLICES). */
  slices?: Slices;
  /** The dates the matching rows lie within (conditions.ts dateWindow). */
  dates?: DateWindow;
  /** An ungrouped page reads in one statement (newestFirst's `oneStatement`). */
  oneStatement?: boolean;
  /** The filter asks for one range of dates and nothing else: its groups are paged through the run heads. */
  dateSlice?: DateRange;
}

export interface PageResult {
  rows: EventRow[];
  counts: Map<number, number>;
  total: number | null;
}

export type CountMode = 'rows' | 'groups';

const eb = expressionBuilder<Database, 'history_events'>();
const ORDER = sql`order by ${sql.ref('date')} desc, ${sql.ref('id')} desc`;

/**
 * A page of events (grouped into occasions or flat) matching a condition, plus the total.
 * A group is a maximal run of consecutive rows (date desc, id desc) with equal occasions id;
 * as in the reference, groups are ordered by their newest date, then their highest id, and
 * each is shown by its highest-id row, the page's rows ordered by date, then id.
 * `unfiltered` requests (every row readable, no filter) and those of one range of dates page
 * through the run heads maintained on write (model/runs.ts); others walk the matching rows
 * newest first and stop once the page is complete, so a page costs what it shows, not the
 * log's size.
 */
export async function selectEventPage(
  app: AppServices,
  cond: Expression<SqlBool>,
  req: PageRequest & { unfiltered?: boolean; maxId?: number },
): Promise<PageResult> {
  const offset = (req.page - 1) * req.perPage;
  const totalOf = async (mode: CountMode) =>
    req.countTotal
      ? await (req.count ?? ((m: CountMode) => countMatching(app, cond, m, { slices: req.slices, dates: req.dates })))(
          mode,
        )
      : null;
  if (!req.grouped) {
    const few = (req.rowsAtMost ?? Infinity) <= FEW_CANDIDATES;
    // The total is counted beside the page's read: each holds its own read worker or connection.
    const [matching, total] = await Promise.all([
      newestFirst(app, cond, null, req.perPage, {
        slices: req.slices,
        few,
        offset,
        dates: req.dates,
        oneStatement: req.oneStatement,
      }),
      totalOf('rows'),
    ]);
    return {
      rows: await loadRows(
        app,
        matching.map((r) => r.id),
      ),
      counts: new Map(),
      total,
    };
  }
  if (req.dateSlice) {
    // A slice of the log: its groups are its run heads, as the whole log's; the total is counted beside.
    const [page, total] = await Promise.all([
      headsPage(app.readDb, { dates: req.dateSlice }, offset, req.perPage, false),
      totalOf('groups'),
    ]);
    // (headsPage gives up only on a cut by id.)
    return { rows: newestFirstRows(await loadRows(app, page!.ids)), counts: page!.counts, total };
  }
  let cutTotal: number | null = null;
  if (req.unfiltered) {
    const page = await headsPage(app.readDb, { maxId: req.maxId }, offset, req.perPage, req.countTotal);
    if (page) return { rows: newestFirstRows(await loadRows(app, page.ids)), counts: page.counts, total: page.total };
    // Events newer than the cut were back-dated between older ones: the page is walked below,
    // the total taken from the maintained runs when few rows lie above the cut.
    if (req.maxId !== undefined && req.countTotal) cutTotal = await cutRunCount(app.readDb, req.maxId);
  }
  const [groups, total] = await Promise.all([
    walkGroups(app, cond, offset, req.perPage, req),
    cutTotal ?? totalOf('groups'),
  ]);
  return {
    rows: newestFirstRows(
      await loadRows(
        app,
        groups.map((g) => g.maxId),
      ),
    ),
    counts: new Map(groups.map((g) => [g.maxId, g.size])),
    total,
  };
}

/** Rows by date, then id, newest first: the order of a page's rows in the reference. */
export function newestFirstRows(rows: EventRow[]): EventRow[] {
  return rows.sort((a, b) => (a.date === b.date ? b.id - a.id : a.date < b.date ? 1 : -1));
}

/** Rows of one group read one by one before the walk skips to the end of its maintained run. */
const LONG_GROUP_ROWS = 1000;

/**
 * Groups `offset … offset + limit` of the matching rows in the reference's order
 * (inReferenceOrder), with their highest ids and sizes. Reads the rows newest first in growing
 * chunks (keyset on date, id) and stops once a group starts past the page at another date
 * than the page's last (ties of equal dates are read whole: sorting moves groups within them);
 * in one read when at most `rowsAtMost` rows can match.
 * A long group is not read row by row: the matching rows of one maintained run (model/runs.ts) all
 * belong to the group of its first matching row, whatever the filter, since every row between
 * them has the same occasions id. So once a group has run long, its rows down to the end of
 * the current maintained run are counted in the database and the walk goes on below it (a
 * flood of one message otherwise made every filtered page read the whole flood).
 */
async function walkGroups(
  app: AppServices,
  cond: Expression<SqlBool>,
  offset: number,
  limit: number,
  {
    rowsAtMost = Infinity,
    longGroup = LONG_GROUP_ROWS,
    slices,
    dates,
  }: Pick<PageRequest, 'rowsAtMost' | 'longGroup' | 'slices' | 'dates'>,
): Promise<Occasion[]> {
  const wanted = offset + limit;
  // The groups from the tie (of equal first dates) before the page on: sorting moves a group
  // by one place at most, but for a tie's last group, which may move ahead of the others.
  let kept: (Occasion & { occasions_id: string })[] = [];
  let from = 0; // walk index of kept[0]
  let index = -1; // walk index of the current group
  let current = null as (typeof kept)[number] | null;
  /** Rows of the current group read since it started or since its last skip. */
  let streak = 0;
  /** Where the next read starts: below this position, or at it when `inclusive`. */
  let after: Position | null = null;
  const page = () => inReferenceOrder(kept).slice(offset - from, wanted - from);
  // Each read of candidates of the context index looks them all up: one read takes them all
  // (and no group is skipped: counting a run by date would read more than the candidates).
  const oneRead = rowsAtMost < 50_000;
  const first = oneRead ? rowsAtMost + 1 : Math.min(Math.max(2 * wanted, 50), 5000);
  const skipAfter = oneRead ? Infinity : longGroup;
  for (let chunk = first; ; chunk = Math.min(4 * chunk, 50_000)) {
    const rows = await newestFirst(app, cond, after, chunk, { slices, dates });
    let skipped = false;
    for (const row of rows) {
      if (row.occasions_id !== current?.occasions_id) {
        index++;
        if (index >= wanted && row.date !== kept[wanted - 1 - from]!.first.date) return page();
        if (index < offset && current && row.date !== current.first.date) {
          kept = [];
          from = index;
        }
        current = { first: { id: row.id, date: row.date }, maxId: row.id, size: 0, occasions_id: row.occasions_id };
        kept.push(current);
        streak = 0;
      }
      current.size++;
      if (row.id > current.maxId) current.maxId = row.id;
      if (++streak < skipAfter) continue;
      const end = await headBelow(app.readDb, row);
      const inRun = end ? [cond, pos('<', row), pos('>', end)] : [cond, pos('<', row)];
      // Counted where the group may be on the page: before it, only the group just before it
      // can move into it (and a group before that holds one date only, its first row the highest id).
      if (index >= offset - 1) {
        const rest = await tallyRows(app, eb.and(inRun), { maxId: true });
        current.size += rest.n;
        current.maxId = Math.max(current.maxId, rest.maxId);
      }
      if (!end) return page();
      after = { date: end.date, id: end.id, inclusive: true };
      streak = 0;
      skipped = true;
      break;
    }
    if (!skipped) {
      if (rows.length < chunk) return page();
      after = rows[rows.length - 1];
    }
    // SQLite reads on the server's only thread: other requests go first between chunks.
    if (app.dialect === 'sqlite') await nextTurn();
  }
}

/** Matching rows per read when SQLite counts groups. */
const COUNT_CHUNK_ROWS = 20_000;

/**
 * Matching rows (countRows, in slices where SQLite would scan the table), or groups of them
 * (runs of equal occasions id, date desc, id desc), counted now. PostgreSQL counts groups in one
 * statement, which holds only its own connection. SQLite runs every statement on the server's
 * only thread, and grouping a million rows in one statement held every other request for
 * seconds: it reads the matching rows newest first in chunks (the walk's reads, keyset on date
 * and id) and counts the groups itself, letting the event loop run between chunks.
 */
export async function countMatching(
  app: AppServices,
  cond: Expression<SqlBool>,
  mode: CountMode,
  {
    chunkRows = COUNT_CHUNK_ROWS,
    slices,
    dates,
    inOrderFrom,
  }: { chunkRows?: number; slices?: Slices; dates?: DateWindow; inOrderFrom?: number } = {},
): Promise<number> {
  if (mode === 'rows') return countRows(app, cond, slices, dates);
  if (app.dialect === 'postgres') return countGroups(app, cond);
  if (app.dbHandle.readsInWorkers) return (await countRunsInWorker(app, cond, { inOrderFrom, dates })).groups;
  let n = 0;
  let newer: MatchRow | null = null;
  for (;;) {
    const rows = await newestFirst(app, cond, newer, chunkRows, { slices, dates });
    for (const row of rows) {
      if (row.occasions_id !== newer?.occasions_id) n++;
      newer = row;
    }
    if (rows.length < chunkRows) return n;
    await nextTurn();
  }
}

/** Groups of matching rows, in one statement. */
async function countGroups(app: AppServices, cond: Expression<SqlBool>): Promise<number> {
  const withNewer = app.readDb
    .selectFrom('history_events')
    .where(cond)
    .select(['occasions_id', sql<string | null>`lag(${sql.ref('occasions_id')}) over (${ORDER})`.as('newer')]);
  const row = await app.readDb
    .selectFrom(withNewer.as('w'))
    .select(sql<number>`count(*)`.as('n'))
    .where((eb) => eb.or([eb('newer', 'is', null), eb('newer', '<>', eb.ref('occasions_id'))]))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * SQLite with read workers: groups of matching rows in one statement, which holds a worker, not
 * the server; the worker's `run_edges` counts them as the sub-query hands them over in order
 * (1,000,000 rows: about half the time of reading them here in chunks), and reports the newest
 * of them. When `inOrderFrom` rows or more match (a condition on the columns
 * FILTERS_IN_ORDER_INDEX holds, read/totals.ts inOrderCountFrom), they are read from that index
 * in the log's order, without a sort or a look-up in the table (SQLite, without statistics,
 * would read them through the filter column's index and sort them), in two statements split at
 * the middle of their time, which two workers run side by side. When that first count finds
 * no row at all, nothing is read again.
 */
export async function countRunsInWorker(
  app: AppServices,
  cond: Expression<SqlBool>,
  { inOrderFrom, dates }: { inOrderFrom?: number; dates?: DateWindow },
): Promise<{ groups: number; newest: MatchRow | null }> {
  const matching = inOrderFrom === undefined ? undefined : await matchingUpTo(app, cond, inOrderFrom, dates);
  if (matching === 0) return { groups: 0, newest: null };
  const inOrder = matching !== undefined && matching >= inOrderFrom!;
  const index = inOrder ? sql`indexed by ${sql.ref(FILTERS_IN_ORDER_INDEX)}` : sql``;
  // Several ranges of dates: a stretch each, read through its range of the index.
  const seam = inOrder && !dates?.ranges ? await middleDate(app, dates) : null;
  const date = sql.ref('date');
  const stretches = dates?.ranges
    ? inEachRange(cond, dates)
    : seam
      ? [eb.and([cond, sql<SqlBool>`${date} >= ${seam}`]), eb.and([cond, sql<SqlBool>`${date} < ${seam}`])]
      : [cond];
  const edges = await Promise.all(
    stretches.map(async (where) => {
      // The first row's date is read by its id: handing every row's date to the aggregate costs more.
      const { rows } = await sql<{ e: string; date: string | null }>`select e,
          (select date from history_events where id = json_extract(e, '$[1][1]')) as date
        from (select run_edges(o, id) as e from (
          select occasions_id as o, id from history_events ${index} where ${where} ${ORDER}
        ))`.execute(app.readDb);
      const [runs, first, last] = JSON.parse(rows[0]!.e) as RunEdges;
      return { runs, last, first: first && { occasions_id: first[0], id: first[1], date: rows[0]!.date! } };
    }),
  );
  return { groups: joinRuns(edges), newest: edges.find((s) => s.first)?.first ?? null };
}

/** Rows matching `cond`, counted up to `most`; several ranges of dates one after the other, each through its range of the date index. */
async function matchingUpTo(
  app: AppServices,
  cond: Expression<SqlBool>,
  most: number,
  dates: DateWindow = {},
): Promise<number> {
  let n = 0;
  for (const where of inEachRange(cond, dates)) {
    if (n >= most) break;
    n += await countUpTo(app, sql`select 1 from history_events where ${where}`, most - n);
  }
  return n;
}

/** `run_edges` of a stretch: its runs, its first row (occasions id, id) and its last occasions id (null: no rows). */
type RunEdges = [runs: number, first: [occasions: string, id: number] | null, last: string | null];

interface Stretch {
  runs: number;
  first: MatchRow | null;
  last: string | null;
}

/** The runs of consecutive stretches, in order: a run across a seam is one. */
export function joinRuns(stretches: Stretch[]): number {
  let runs = 0;
  let before: string | null = null;
  for (const { runs: n, first, last } of stretches) {
    if (!first) continue;
    runs += first.occasions_id === before ? n - 1 : n;
    before = last;
  }
  return runs;
}

/** The date halfway through the window's time (the log's own where it is open); null: an empty log. */
async function middleDate(app: AppServices, dates: DateWindow = {}): Promise<string | null> {
  const span = await dateSpan(app.readDb);
  if (!span) return null;
  const from = Math.max(utcToUnix(span.from), dates.from ? utcToUnix(dates.from) : -Infinity);
  const to = Math.min(utcToUnix(span.to), dates.to ? utcToUnix(dates.to) : Infinity);
  // (NaN, a date of another form: no seam, the count is one statement.)
  return to > from ? unixToUtc(Math.floor((from + to) / 2)) : null;
}

/** Rows by id, in the order of the ids given. */
export async function loadRows(app: AppServices, ids: number[]): Promise<EventRow[]> {
  if (!ids.length) return [];
  const rows = await app.readDb.selectFrom('history_events').selectAll().where('id', 'in', ids).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((r): r is EventRow => r !== undefined);
}
