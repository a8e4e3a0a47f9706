// The number of groups of the log under max_id_first_page's cut, in ranges of dates, or without
// some rows, from the runs maintained on write (model/runs.ts) instead of the rows themselves.
import { sql, type RawBuilder } from 'kysely';
import { COUNTER_RUN_HEADS, olderNeighbour, pos } from '../model/runs.ts';
import { counterValue, NEWEST_EVENT_ID, readCounter, type Db } from '../model/counters.ts';
import type { DateRange } from './heads.ts';
import { utcToUnix } from '../../../site/zone-time.ts';

/**
 * The number of groups of the log cut to ids ≤ `maxId`, from the maintained run count: a
 * group is one more than the boundaries (neighbours with different occasions ids) of a
 * sequence, and removing the cut-off rows only changes the boundaries around them. A few
 * cut-off rows: counted around them (groupsWithout); more: the rows from the oldest cut-off row
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
  if (!cutOff.length) return readCounter(db, COUNTER_RUN_HEADS);
  if (cutOff.length <= few)
    return (await groupsWithout(db, sql`select id from history_events where id > ${maxId}`)).groups;
  const total = await readCounter(db, COUNTER_RUN_HEADS);
  const oldest = cutOff.reduce((a, b) => (a.date === b.date ? (a.id < b.id ? a : b) : a.date < b.date ? a : b));
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
      ${counterValue(COUNTER_RUN_HEADS)} as heads,
      (select coalesce(sum(run_head), 0) from m) as "removedHeads",
      (select coalesce(sum(below_head), 0) from blocks) as "lostHeads",
      (select count(*) from blocks where above_occasions is null or above_occasions <> below_occasions) as "newHeads",
      ${NEWEST_EVENT_ID} as "maxId"`.execute(db);
  const r = rows[0]!;
  return {
    groups: Number(r.heads) - Number(r.removedHeads) - Number(r.lostHeads) + Number(r.newHeads),
    maxId: Number(r.maxId ?? 0),
  };
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
        ? sql`${counterValue(COUNTER_RUN_HEADS)}
            - ${r.to ? headsIn(sql`h.date > ${r.to}`) : sql`0`} - ${r.from ? headsIn(sql`h.date < ${r.from}`) : sql`0`}`
        : headsIn(within(r, 'h'));
    return sql.join([
      sql`${heads} as ${sql.ref(`heads${i}`)}`,
      sql`${end(sql`desc`, 'run_head')} as ${sql.ref(`topHead${i}`)}`,
      sql`${end(sql`desc`, 'occasions_id')} as ${sql.ref(`top${i}`)}`,
      sql`${end(sql`asc`, 'occasions_id')} as ${sql.ref(`bottom${i}`)}`,
    ]);
  });
  const newest = sql`${NEWEST_EVENT_ID} as ${sql.ref('maxId')}`;
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
export async function dateSpan(db: Db): Promise<{ from: string; to: string } | null> {
  const { rows } = await sql<{ from: string | null; to: string | null }>`select
    (select date from history_events order by date asc limit 1) as "from",
    (select date from history_events order by date desc limit 1) as "to"`.execute(db);
  const r = rows[0];
  return r?.from && r.to ? { from: r.from, to: r.to } : null;
}

/** The share of the log's time `span` that the range covers (0 to 1). */
function share(r: DateRange, span: { from: string; to: string }): number {
  const whole = utcToUnix(span.to) - utcToUnix(span.from);
  if (whole <= 0) return 1;
  const from = Math.max(utcToUnix(span.from), r.from ? utcToUnix(r.from) : -Infinity);
  const to = Math.min(utcToUnix(span.to), r.to ? utcToUnix(r.to) : Infinity);
  return Math.max(0, to - from) / whole;
}
