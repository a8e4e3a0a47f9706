// The pages of the unfiltered overview and of a range of dates from the runs maintained on
// write (model/runs.ts), and the count of groups under max_id_first_page's cut, in ranges of
// dates, or without some rows.
import { sql, type RawBuilder } from 'kysely';
import {
  COLUMNS,
  COUNTER_RUN_HEADS,
  headAtOrAbove,
  newerNeighbour,
  olderNeighbour,
  pos,
  posAndDate,
  type Pos,
} from '../model/runs.ts';
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
export function inReferenceOrder<G extends Occasion>(groups: G[]): G[] {
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

/**
 * The number of groups of the log cut to ids ≤ `maxId`, from the maintained run count: a
 * group is one more than the boundaries (neighbours with different occasions ids) of a
 * sequence, and removing the cut-off rows only changes the boundaries around them. A few
 * cut-off rows: their neighbours are looked up; more: the rows from the oldest cut-off row
 * up (plus the row below it, which both sequences share with everything older) are read and
 * their runs counted with and without the cut-off rows. Null when that would read more than
 * `limit` rows.
 */
export async function cutRunCount(db: Db, maxId: number, { few = 100, limit = 20_000 } = {}): Promise<number | null> {
  // Read by id range and compared here: ordered by date, the planner could scan the log from its oldest row.
  const cutOff = await db
    .selectFrom('history_events')
    .select(['id', 'date', 'occasions_id'])
    .where('id', '>', maxId)
    .limit(limit + 1)
    .execute();
  if (cutOff.length > limit) return null;
  const total = await readCounter(db, COUNTER_RUN_HEADS);
  if (!cutOff.length) return total;
  const newestFirst = cutOff.sort((a, b) => (a.date === b.date ? b.id - a.id : a.date < b.date ? 1 : -1));
  if (cutOff.length <= few) return total - (await boundariesAround(db, newestFirst));
  const oldest = newestFirst[newestFirst.length - 1];
  const rows = await db
    .selectFrom('history_events')
    .select(['id', 'occasions_id'])
    .where(pos('>=', oldest))
    .orderBy('date', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
  if (rows.length > limit) return null;
  const below = await olderNeighbour(db, oldest);
  if (below) rows.push(below);
  return total - boundaries(rows) + boundaries(rows.filter((r) => r.id <= maxId));
}

function boundaries(list: { occasions_id: string }[]): number {
  return list.filter((r, i) => i > 0 && r.occasions_id !== list[i - 1].occasions_id).length;
}

/**
 * How many boundaries the log loses when `removed` (newest first) leave it: per block of
 * consecutive removed rows, those among the block and its kept neighbours, less the one its
 * neighbours may form once adjacent.
 */
async function boundariesAround(db: Db, removed: (Pos & { occasions_id: string })[]): Promise<number> {
  const ids = new Set(removed.map((r) => r.id));
  const seen = new Set<number>();
  let lost = 0;
  for (const first of removed) {
    if (seen.has(first.id)) continue;
    const block: { occasions_id: string }[] = [first];
    seen.add(first.id);
    let below = await olderNeighbour(db, first);
    while (below && ids.has(below.id)) {
      block.push(below);
      seen.add(below.id);
      below = await olderNeighbour(db, below);
    }
    // Kept: a removed row above `first` would have taken `first` into its own block.
    const above = await newerNeighbour(db, first);
    lost += boundaries([...(above ? [above] : []), ...block, ...(below ? [below] : [])]);
    if (above && below && above.occasions_id !== below.occasions_id) lost -= 1;
  }
  return lost;
}

/**
 * The number of groups of the log without the rows `removed` names (SQL selecting their ids),
 * and the newest id it counted up to: the maintained run heads (their counter, as cutRunCount
 * reads it), less those removed and those right below a block of consecutive removed rows, plus
 * those that start a group once the block is gone (the kept rows around it differ). One statement, so that it reads one state of
 * the log; its cost grows with the removed rows (two neighbours looked up each), not with the
 * log: `exclude_search` of a word in 43,000 of 1,000,000 events, about 0.5 s against 1.2 s
 * reading every kept row in order.
 */
export async function groupsWithout(db: Db, removed: RawBuilder<unknown>): Promise<{ groups: number; maxId: number }> {
  const { rows } = await sql<{
    heads: number;
    removedHeads: number;
    lostHeads: number;
    newHeads: number;
    maxId: number | null;
  }>`
    with m as materialized (
      select e.id, e.date, e.run_head from history_events e where e.id in (${removed})
    ),
    edges as (
      select m.id, m.date,
        (select n.id from history_events n where (n.date, n.id) < (m.date, m.id) order by n.date desc, n.id desc limit 1) as older,
        (select n.id from history_events n where (n.date, n.id) > (m.date, m.id) order by n.date, n.id limit 1) as newer
      from m
    ),
    tops as (
      select newer, row_number() over (order by date desc, id desc) as k from edges
      where newer is null or newer not in (select id from m)
    ),
    bottoms as (
      select older, row_number() over (order by date desc, id desc) as k from edges
      where older is null or older not in (select id from m)
    ),
    blocks as (
      select below.run_head as below_head, below.occasions_id as below_occasions, above.occasions_id as above_occasions
      from tops t join bottoms b on b.k = t.k
      join history_events below on below.id = b.older
      left join history_events above on above.id = t.newer
    )
    select
      (select value from history_counters where name = ${COUNTER_RUN_HEADS}) as heads,
      (select coalesce(sum(run_head), 0) from m) as "removedHeads",
      (select coalesce(sum(below_head), 0) from blocks) as "lostHeads",
      (select count(*) from blocks where above_occasions is null or above_occasions <> below_occasions) as "newHeads",
      (select max(id) from history_events) as "maxId"`.execute(db);
  const r = rows[0]!;
  return {
    groups: Number(r.heads) - Number(r.removedHeads) - Number(r.lostHeads) + Number(r.newHeads),
    maxId: Number(r.maxId ?? 0),
  };
}

/** A range of dates, both ends inclusive (UTC `YYYY-MM-DD HH:MM:SS`), either end open. */
export interface DateRange {
  from?: string;
  to?: string;
}

/**
 * The number of groups of the rows whose dates lie in `ranges` (disjoint, newest first), and the
 * newest id it counted up to. A range is a slice of the log: its groups are the run heads in it,
 * plus its newest row when that row's run begins above the range; two ranges' groups join when
 * the older one's newest row has the occasions id of the newer one's oldest. One statement (one
 * state of the log) that counts the partial index of run heads, not the rows: a year of
 * 1,000,000 events, about 12 ms against 0.7 s reading the rows in order.
 */
export async function groupsInDateRanges(db: Db, ranges: DateRange[]): Promise<{ groups: number; maxId: number }> {
  const within = (r: DateRange, alias: string) => {
    const date = sql.ref(`${alias}.date`);
    return sql.join(
      [sql`1 = 1`, ...(r.from ? [sql`${date} >= ${r.from}`] : []), ...(r.to ? [sql`${date} <= ${r.to}`] : [])],
      sql` and `,
    );
  };
  const headsIn = (where: RawBuilder<unknown>) =>
    sql`(select count(*) from history_events h where h.run_head = 1 and ${where})`;
  // A range over most of the log's time: its heads are all of them less those outside it, fewer
  // to count (PostgreSQL counts them from the table: a year of 1,000,000 events, 180 ms).
  const span = await dateSpan(db);
  const columns = ranges.map((r, i) => {
    const end = (dir: RawBuilder<unknown>, column: string) =>
      sql`(select ${sql.ref(`e.${column}`)} from history_events e where ${within(r, 'e')} order by e.date ${dir}, e.id ${dir} limit 1)`;
    const heads =
      span && share(r, span) > 0.5
        ? sql`(select value from history_counters where name = ${COUNTER_RUN_HEADS})
            - ${r.to ? headsIn(sql`h.date > ${r.to}`) : sql`0`} - ${r.from ? headsIn(sql`h.date < ${r.from}`) : sql`0`}`
        : headsIn(within(r, 'h'));
    return sql.join([
      sql`${heads} as ${sql.ref(`heads${i}`)}`,
      sql`${end(sql`desc`, 'run_head')} as ${sql.ref(`topHead${i}`)}`,
      sql`${end(sql`desc`, 'occasions_id')} as ${sql.ref(`top${i}`)}`,
      sql`${end(sql`asc`, 'occasions_id')} as ${sql.ref(`bottom${i}`)}`,
    ]);
  });
  const newest = sql`(select max(id) from history_events) as ${sql.ref('maxId')}`;
  const { rows } = await sql<Record<string, string | number | null>>`select ${sql.join([...columns, newest])}`.execute(
    db,
  );
  const row = rows[0]!;
  let groups = 0;
  let newerBottom: string | null = null;
  ranges.forEach((_, i) => {
    const top = row[`top${i}`] as string | null;
    if (top === null) return;
    groups += Number(row[`heads${i}`]) + (Number(row[`topHead${i}`]) === 1 ? 0 : 1);
    if (top === newerBottom) groups -= 1;
    newerBottom = row[`bottom${i}`] as string;
  });
  return { groups, maxId: Number(row.maxId ?? 0) };
}

/** The dates of the log's oldest and newest rows (null: an empty log). */
async function dateSpan(db: Db): Promise<{ from: string; to: string } | null> {
  const { rows } = await sql<{ from: string | null; to: string | null }>`select
    (select date from history_events order by date asc limit 1) as "from",
    (select date from history_events order by date desc limit 1) as "to"`.execute(db);
  const r = rows[0];
  return r?.from && r.to ? { from: r.from, to: r.to } : null;
}

/** The share of the log's time `span` that the range covers (0 to 1). */
function share(r: DateRange, span: { from: string; to: string }): number {
  const ms = (date: string) => Date.parse(`${date.replace(' ', 'T')}Z`);
  const whole = ms(span.to) - ms(span.from);
  if (whole <= 0) return 1;
  const from = Math.max(ms(span.from), r.from ? ms(r.from) : -Infinity);
  const to = Math.min(ms(span.to), r.to ? ms(r.to) : Infinity);
  return Math.max(0, to - from) / whole;
}
