// The pages of the unfiltered overview and of a range of dates from the runs maintained on
// write (model/runs.ts); their counts are in run-counts.ts.
import { sql } from 'kysely';
import { COLUMNS, COUNTER_RUN_HEADS, headAtOrAbove, pos, posAndDate, type Pos } from '../model/runs.ts';
import { newestEventId, readCounter, type Db } from '../model/counters.ts';

/** A group of the overview: its first row in walk order (the newest), its highest id and its size. */
export interface Occasion {
  first: Pos;
  maxId: number;
  size: number;
}

/**
 * Groups in the reference's order: newest date first, then highest id. The walk's order (by
 * first row: date, then id) has the dates in order already; only groups that start at the same
 * date can trade places. In such a tie every group but the last holds rows of that date only,
 * so its highest id is its first row's; the last may hold older rows with higher ids (rows
 * back-dated into it) and then goes before the others.
 */
export function inReferenceOrder<G extends { first: { date: string | number }; maxId: number }>(groups: G[]): G[] {
  return groups
    .map((group, walk) => ({ group, walk }))
    .sort((a, b) => (a.group.first.date === b.group.first.date ? b.group.maxId - a.group.maxId : a.walk - b.walk))
    .map((x) => x.group);
}

/** A maintained run range read from `first` down to (not including) `below`, `size` rows. */
interface RunRange {
  first: Pos;
  below: Pos | undefined;
  size: number;
}

/** A range of at most this many rows is read by date, whatever the ids above it. */
const RANGE_READ_ROWS = 2000;

/**
 * The highest id of each range, in one statement. Its rows with higher ids than its first row
 * are rows back-dated into it: a long range is searched among the ids above its first row
 * when those are fewer than its rows (a flood near the top of the log), else read by date.
 */
async function runMaxIds(db: Db, ranges: RunRange[]): Promise<number[]> {
  if (!ranges.length) return [];
  const newestId = ranges.some((r) => r.size > RANGE_READ_ROWS) ? await newestEventId(db) : 0;
  const columns = ranges.map((r, i) => {
    if (r.size > RANGE_READ_ROWS && newestId - r.first.id < r.size) {
      // Expressions on date/id keep the planner on the id range above the first row.
      const inRange = sql<boolean>`(${sql.ref('date')} || '', ${sql.ref('id')} + 0) < (${r.first.date}, ${r.first.id})`;
      let q = db.selectFrom('history_events').select('id').where('id', '>', r.first.id).where(inRange);
      if (r.below)
        q = q.where(sql<boolean>`(${sql.ref('date')} || '', ${sql.ref('id')} + 0) > (${r.below.date}, ${r.below.id})`);
      return q.orderBy('id', 'desc').limit(1).as(`m${i}`);
    }
    // `id + 0`: no walk of the primary key down from the newest id (PostgreSQL).
    let q = db
      .selectFrom('history_events')
      .select(sql<number>`max(${sql.ref('id')} + 0)`.as('id'))
      .where(posAndDate('<=', r.first));
    if (r.below) q = q.where(posAndDate('>', r.below));
    return q.as(`m${i}`);
  });
  const row = (await db.selectNoFrom(columns).executeTakeFirstOrThrow()) as Record<string, number | null>;
  return ranges.map((r, i) => Math.max(r.first.id, Number(row[`m${i}`] ?? 0)));
}

export interface HeadsPage {
  /** The representative of each group on the page (its highest id), with the group sizes. */
  ids: number[];
  counts: Map<number, number>;
  total: number | null;
}

type HeadRow = Pos & { run_size: number };

/** A range of dates, both ends inclusive (UTC `YYYY-MM-DD HH:MM:SS`), either end open. */
export interface DateRange {
  from?: string;
  to?: string;
}

/** Where the log is cut for headsPage: at an id (max_id_first_page), or to a range of dates. */
export interface LogCut {
  maxId?: number;
  dates?: DateRange;
}

/**
 * The groups of the log, or of a slice of it (`cut`), from the maintained runs: groups
 * `offset … offset + limit` in the reference's order (inReferenceOrder), each shown by its
 * highest id. A cut keeps the rows up to its newest row kept: only the group of that row is
 * shortened (its run may begin above it), as long as every later row is also newer (so for a
 * cut at an id; a cut by date always is). A range's first date cuts the oldest group kept the
 * same way. Returns null when rows above an id cut were back-dated between older ones (the
 * caller then groups at read time). The total is counted only for the whole log or an id cut.
 */
export async function headsPage(
  db: Db,
  cut: LogCut,
  offset: number,
  limit: number,
  countTotal: boolean,
): Promise<HeadsPage | null> {
  const { maxId, dates } = cut;
  // Rows at or after the range's first date lie above this position (no id is 0).
  const floor: Pos | null = dates?.from ? { date: dates.from, id: 0 } : null;
  const heads = async (below: Pos | null, skip: number, take: number): Promise<Occasion[]> => {
    let q = db.selectFrom('history_events').select(['id', 'date', 'run_size']).where('run_head', '=', 1);
    if (below) q = q.where(pos('<', below));
    if (floor) q = q.where(pos('>', floor));
    const rows: HeadRow[] = await q.orderBy('date', 'desc').orderBy('id', 'desc').limit(take).offset(skip).execute();
    return rows.map((r) => ({ first: { id: r.id, date: r.date }, maxId: r.id, size: r.run_size }));
  };
  // The groups of the log in walk order: its run heads, or under a cut the group of the newest
  // row kept and the run heads below it.
  let top: Occasion | null = null;
  let total: number | null = null;
  if (maxId === undefined && !dates) {
    if (countTotal) total = await readCounter(db, COUNTER_RUN_HEADS);
  } else {
    // `id + 0` keeps the planner on the date index (see read/conditions.ts).
    let kept = db.selectFrom('history_events').select(COLUMNS);
    if (maxId !== undefined) kept = kept.where(sql<boolean>`${sql.ref('id')} + 0 <= ${maxId}`);
    if (dates?.to) kept = kept.where('date', '<=', dates.to);
    if (dates?.from) kept = kept.where('date', '>=', dates.from);
    const newest = await kept.orderBy('date', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
    if (!newest) return { ids: [], counts: new Map(), total: countTotal ? 0 : null };
    if (maxId !== undefined) {
      // Expressions on date/id keep the planner on the id range (the few rows after maxId).
      const interleaved = await db
        .selectFrom('history_events')
        .select('id')
        .where('id', '>', maxId)
        .where(sql<boolean>`(${sql.ref('date')} || '', ${sql.ref('id')} + 0) < (${newest.date}, ${newest.id})`)
        .limit(1)
        .executeTakeFirst();
      if (interleaved) return null;
    }
    const head = await headAtOrAbove(db, newest);
    let above = 0;
    if (head.id !== newest.id) {
      const row = await db
        .selectFrom('history_events')
        .select(sql<number>`count(*)`.as('n'))
        .where(posAndDate('>', newest))
        .where(posAndDate('<=', head))
        .executeTakeFirstOrThrow();
      above = Number(row.n);
    }
    top = { first: { id: newest.id, date: newest.date }, maxId: newest.id, size: head.run_size - above };
    if (countTotal && !dates) {
      const newer = await db
        .selectFrom('history_events')
        .select(sql<number>`count(*)`.as('n'))
        .where('run_head', '=', 1)
        .where(pos('>=', newest))
        .executeTakeFirstOrThrow();
      total = 1 + (await readCounter(db, COUNTER_RUN_HEADS)) - Number(newer.n);
    }
  }
  const below = top ? top.first : null;
  const groupsFrom = async (index: number, take: number) =>
    top
      ? index === 0
        ? [top, ...(await heads(below, 0, take - 1))]
        : heads(below, index - 1, take)
      : heads(null, index, take);

  // Sorting moves groups within a tie of equal first dates only, and by one place at most but
  // for a tie's last group: the groups read are the one before the page (which may move into
  // it), the page, and one after it, widened to whole ties at both ends.
  const wanted = offset + limit;
  const skip = Math.max(0, offset - 1);
  const window = await groupsFrom(skip, wanted - skip + 1);
  if (!window.length) return { ids: [], counts: new Map(), total };
  const tiedBefore: Occasion[] = [];
  // Groups further before the page matter only when the group before it ties with its first.
  if (skip > 0 && window.length > 1 && window[0]!.first.date === window[1]!.first.date) {
    const first = window[0]!.first;
    let q = db
      .selectFrom('history_events')
      .select(['id', 'date', 'run_size'])
      .where('run_head', '=', 1)
      .where('date', '=', first.date)
      .where('id', '>', first.id);
    if (below) q = q.where(pos('<', below));
    for (const r of await q.orderBy('id', 'desc').execute())
      tiedBefore.push({ first: { id: r.id, date: r.date }, maxId: r.id, size: r.run_size });
    if (top && top.first.date === first.date) tiedBefore.unshift(top);
  }
  const groups = [...tiedBefore, ...window];
  const from = skip - tiedBefore.length; // walk index of groups[0]
  const pageEnd = wanted - from; // index in `groups` just past the page
  const lastDate = groups[Math.min(pageEnd, groups.length) - 1]!.first.date;
  // The tie of the page's last group, when it goes on past the page, and the group after it.
  while (groups.length > pageEnd && groups[groups.length - 1]!.first.date === lastDate) {
    const more = await heads(groups[groups.length - 1]!.first, 0, 50);
    const other = more.findIndex((g) => g.first.date !== lastDate);
    groups.push(...(other < 0 ? more : more.slice(0, other + 1)));
    if (other < 0 && more.length < 50) break;
  }
  // The first group after the last tie only bounds it.
  const bound =
    groups.length > pageEnd && groups[groups.length - 1]!.first.date !== lastDate ? groups.pop() : undefined;

  const next = (i: number) => (i + 1 < groups.length ? groups[i + 1] : bound);
  // The oldest group of a range (no group after it) ends at the range's first date, which may
  // cut its run: its rows down to there are counted.
  const last = groups.length - 1;
  if (floor && !next(last)) {
    const row = await db
      .selectFrom('history_events')
      .select(sql<number>`count(*)`.as('n'))
      .where(posAndDate('<=', groups[last]!.first))
      .where(posAndDate('>', floor))
      .executeTakeFirstOrThrow();
    groups[last]!.size = Number(row.n);
  }
  // A group followed by one of the same first date holds rows of that date only: its highest
  // id is its first row's. The others' are read where they can be on the page.
  const unknown = groups
    .map((_, i) => i)
    .filter((i) => i >= offset - from && groups[i]!.size > 1 && next(i)?.first.date !== groups[i]!.first.date);
  const maxIds = await runMaxIds(
    db,
    unknown.map((i) => ({
      first: groups[i]!.first,
      below: next(i)?.first ?? floor ?? undefined,
      size: groups[i]!.size,
    })),
  );
  unknown.forEach((i, k) => (groups[i]!.maxId = maxIds[k]!));

  const page = inReferenceOrder(groups).slice(offset - from, wanted - from);
  return { ids: page.map((g) => g.maxId), counts: new Map(page.map((g) => [g.maxId, g.size])), total };
}
