// Occasions of the whole log, maintained on write: every row knows whether it is the newest
// row of a run of consecutive rows (date desc, id desc) with the same occasions id, and run
// heads know the run's size. The unfiltered overview then pages through heads with an index
// and reads its total from a counter instead of grouping a million rows per request.
// Writers are serialised (SQLite has one writer; PostgreSQL takes an advisory lock).
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { DialectName } from '../../db/index.ts';
import { addToCounter, COUNTER_CHANGES, isPostgres, readCounter, type PreparedEvent } from './store.ts';

type Db = Kysely<Database> | Transaction<Database>;

export const COUNTER_RUN_HEADS = 'run_heads';

interface Pos {
  id: number;
  date: string;
}
/** A row as run maintenance needs it (the log's newest row, run heads and their neighbours). */
export interface RunRow extends Pos {
  occasions_id: string;
  run_head: number;
  run_size: number;
}

const COLUMNS = ['id', 'date', 'occasions_id', 'run_head', 'run_size'] as const;

/** The newest row of the log, as SQL text for the writers that send their own statements. */
export const NEWEST_ROW_SQL = `select ${COLUMNS.join(', ')} from history_events order by date desc, id desc limit 1`;

/** `(date, id) <op> (p.date, p.id)`: a row-value comparison both databases serve from the (date, id) index. */
export function pos(op: '<' | '<=' | '>' | '>=', p: Pos) {
  return sql<boolean>`(${sql.ref('date')}, ${sql.ref('id')}) ${sql.raw(op)} (${p.date}, ${p.id})`;
}

/** The statement every writer of runs takes first (PostgreSQL; SQLite has one writer). */
export const PG_RUNS_LOCK = 'select pg_advisory_xact_lock(73110017)';

/** Serialises run maintenance between concurrent writers (PostgreSQL; SQLite has one writer). */
export async function lockRuns(tx: Transaction<Database>, dialect: DialectName): Promise<void> {
  if (dialect === 'postgres') await sql.raw(PG_RUNS_LOCK).execute(tx);
}

async function newerNeighbour(db: Db, p: Pos): Promise<RunRow | undefined> {
  return db
    .selectFrom('history_events')
    .select(COLUMNS)
    .where(pos('>', p))
    .orderBy('date', 'asc')
    .orderBy('id', 'asc')
    .limit(1)
    .executeTakeFirst();
}

async function olderNeighbour(db: Db, p: Pos): Promise<RunRow | undefined> {
  return db
    .selectFrom('history_events')
    .select(COLUMNS)
    .where(pos('<', p))
    .orderBy('date', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The nearest run head at or above `p`, or strictly below it. */
function nearestHead(db: Db, p: Pos, side: 'atOrAbove' | 'below') {
  const order = side === 'below' ? 'desc' : 'asc';
  return db
    .selectFrom('history_events')
    .select(COLUMNS)
    .where('run_head', '=', 1)
    .where(pos(side === 'below' ? '<' : '>=', p))
    .orderBy('date', order)
    .orderBy('id', order)
    .limit(1);
}

/** The head of the run containing `p`: the nearest head at or above it. */
async function headAtOrAbove(db: Db, p: Pos): Promise<RunRow> {
  return nearestHead(db, p, 'atOrAbove').executeTakeFirstOrThrow();
}

/** The newest run head older than `p`: the run holding `p` ends just above it (none: at the log's oldest row). */
export async function headBelow(db: Db, p: Pos): Promise<RunRow | undefined> {
  return nearestHead(db, p, 'below').executeTakeFirst();
}

async function setRun(db: Db, id: number, head: number, size: number): Promise<void> {
  await db.updateTable('history_events').set({ run_head: head, run_size: size }).where('id', '=', id).execute();
}

/** Links a freshly inserted row (inserted with run_head 1, run_size 1) into the runs. */
export async function linkIntoRuns(db: Db, x: Pos & { occasions_id: string }): Promise<void> {
  const newer = await newerNeighbour(db, x);
  const older = await olderNeighbour(db, x);
  let heads = 0;
  if (newer && newer.occasions_id === x.occasions_id) {
    // X continues the run above it: that run's head grows by one.
    await setRun(db, x.id, 0, 1);
    const head = await headAtOrAbove(db, newer);
    await setRun(db, head.id, 1, head.run_size + 1);
  } else if (older && older.occasions_id === x.occasions_id) {
    // X becomes the new head of the run below it (whose head `older` was).
    await setRun(db, older.id, 0, older.run_size);
    await setRun(db, x.id, 1, older.run_size + 1);
  } else {
    heads += 1; // a run of its own
    if (newer && older && newer.occasions_id === older.occasions_id) {
      // X splits a run in two: `older` heads the lower part.
      const head = await headAtOrAbove(db, newer);
      const upper = await db
        .selectFrom('history_events')
        .select(sql<number>`count(*)`.as('n'))
        .where(pos('>=', newer))
        .where(pos('<=', head))
        .executeTakeFirstOrThrow();
      const upperSize = Number(upper.n);
      await setRun(db, head.id, 1, upperSize);
      await setRun(db, older.id, 1, head.run_size - upperSize);
      heads += 1;
    }
  }
  if (heads) await addToCounter(db, COUNTER_RUN_HEADS, heads);
}

/** The newest row of the log, if any. */
export async function newestRow(db: Db): Promise<RunRow | undefined> {
  return (await sql<RunRow>`${sql.raw(NEWEST_ROW_SQL)}`.execute(db)).rows[0];
}

/**
 * Sets the run fields of events that will be inserted in this order, all newer than `newest`
 * (the current newest row); returns whether `newest` stops being a head, and the change of the
 * number of heads.
 */
export function setAppendRuns(newest: RunRow | undefined, events: PreparedEvent[]): { demoteNewest: boolean; headsDelta: number } {
  let prevOcc = newest?.occasions_id;
  let prevSize = newest?.run_size ?? 0;
  let headsDelta = 0;
  const demoteNewest = events.length > 0 && newest !== undefined && events[0].row.occasions_id === newest.occasions_id;
  if (demoteNewest) headsDelta -= 1;
  events.forEach(({ row }, i) => {
    const occ = row.occasions_id;
    const size = occ === prevOcc ? prevSize + 1 : 1;
    const head = i === events.length - 1 || events[i + 1].row.occasions_id !== occ ? 1 : 0;
    row.run_head = head;
    row.run_size = size;
    headsDelta += head;
    prevOcc = occ;
    prevSize = size;
  });
  return { demoteNewest, headsDelta };
}

/** Recomputes every row's run fields and the head counter (after bulk writes out of order). */
export async function rebuildRuns(db: Kysely<Database>): Promise<void> {
  const CHUNK = 20000;
  let after: Pos | null = null;
  let prev: { id: number; occ: string; size: number; head: number; storedSize: number } | null = null;
  let heads = 0;
  const changes = new Map<number, [number, number]>();
  const flush = async () => {
    if (!changes.size) return;
    const entries = [...changes];
    changes.clear();
    if (isPostgres(db)) {
      // One statement per flush: row by row, a large out-of-order load took minutes here.
      await sql`update history_events as e set run_head = v.head, run_size = v.size
        from unnest(${entries.map(([id]) => id)}::int[], ${entries.map(([, [head]]) => head)}::int[], ${entries.map(([, [, size]]) => size)}::int[]) as v(id, head, size)
        where e.id = v.id`.execute(db);
      return;
    }
    await db.transaction().execute(async (tx) => {
      for (const [id, [head, size]] of entries) await setRun(tx, id, head, size);
    });
  };
  for (;;) {
    let q = db.selectFrom('history_events').select(COLUMNS).orderBy('date', 'asc').orderBy('id', 'asc').limit(CHUNK);
    if (after) {
      const a: Pos = after;
      q = q.where(pos('>', a));
    }
    const rows = await q.execute();
    if (!rows.length) break;
    for (const row of rows) {
      // The previous (older) row is a head unless this row continues its run.
      if (prev) {
        const continues = prev.occ === row.occasions_id;
        const head = continues ? 0 : 1;
        if (head !== prev.head || (head === 1 && prev.size !== prev.storedSize)) changes.set(prev.id, [head, head ? prev.size : 0]);
        heads += head;
      }
      const size: number = prev && prev.occ === row.occasions_id ? prev.size + 1 : 1;
      prev = { id: row.id, occ: row.occasions_id, size, head: row.run_head, storedSize: row.run_size };
    }
    after = rows[rows.length - 1];
    if (changes.size > 5000) await flush();
  }
  if (prev) {
    if (prev.head !== 1 || prev.size !== prev.storedSize) changes.set(prev.id, [1, prev.size]);
    heads += 1;
  }
  await flush();
  await db.transaction().execute(async (tx) => {
    await tx.deleteFrom('history_counters').where('name', '=', COUNTER_RUN_HEADS).execute();
    await addToCounter(tx, COUNTER_RUN_HEADS, heads);
    await addToCounter(tx, COUNTER_CHANGES, 1);
  });
}

export interface HeadsPage {
  /** Run heads (or the newest row of a run cut by `max_id_first_page`) with their group sizes. */
  ids: number[];
  counts: Map<number, number>;
  total: number | null;
}

/**
 * The unfiltered overview from the maintained runs: group heads in order, `offset`/`limit`.
 * With `maxId` (max_id_first_page) the log is cut to rows with id ≤ maxId; that only shortens
 * the newest run, as long as every later row is also newer. Returns null when later rows
 * were back-dated between older ones (the caller then groups at read time).
 */
export async function headsPage(db: Db, maxId: number | undefined, offset: number, limit: number, countTotal: boolean): Promise<HeadsPage | null> {
  const heads = (below: Pos | null, skip: number, take: number) => {
    let q = db.selectFrom('history_events').select(['id', 'run_size']).where('run_head', '=', 1);
    if (below) q = q.where(pos('<', below));
    return q.orderBy('date', 'desc').orderBy('id', 'desc').limit(take).offset(skip).execute();
  };
  if (maxId === undefined) {
    const rows = await heads(null, offset, limit);
    const total = countTotal ? await readCounter(db, COUNTER_RUN_HEADS) : null;
    return { ids: rows.map((r) => r.id), counts: new Map(rows.map((r) => [r.id, r.run_size])), total };
  }
  // `id + 0` keeps the planner on the date index (see filters.ts).
  const top = await db.selectFrom('history_events').select(COLUMNS).where(sql<boolean>`${sql.ref('id')} + 0 <= ${maxId}`).orderBy('date', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
  if (!top) return { ids: [], counts: new Map(), total: countTotal ? 0 : null };
  // Expressions on date/id keep the planner on the id range (the few rows after maxId).
  const interleaved = await db
    .selectFrom('history_events')
    .select('id')
    .where('id', '>', maxId)
    .where(sql<boolean>`(${sql.ref('date')} || '', ${sql.ref('id')} + 0) < (${top.date}, ${top.id})`)
    .limit(1)
    .executeTakeFirst();
  if (interleaved) return null;
  const head = await headAtOrAbove(db, top);
  let cut = 0;
  if (head.id !== top.id) {
    const above = await db.selectFrom('history_events').select(sql<number>`count(*)`.as('n')).where(pos('>', top)).where(pos('<=', head)).executeTakeFirstOrThrow();
    cut = Number(above.n);
  }
  const counts = new Map<number, number>();
  const ids: number[] = [];
  if (offset === 0) {
    ids.push(top.id);
    counts.set(top.id, head.run_size - cut);
  }
  const rest = await heads(top, Math.max(0, offset - 1), offset === 0 ? limit - 1 : limit);
  for (const r of rest) {
    ids.push(r.id);
    counts.set(r.id, r.run_size);
  }
  let total: number | null = null;
  if (countTotal) {
    const newer = await db.selectFrom('history_events').select(sql<number>`count(*)`.as('n')).where('run_head', '=', 1).where(pos('>=', top)).executeTakeFirstOrThrow();
    total = 1 + (await readCounter(db, COUNTER_RUN_HEADS)) - Number(newer.n);
  }
  return { ids, counts, total };
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
  const cutOff = await db.selectFrom('history_events').select(['id', 'date', 'occasions_id']).where('id', '>', maxId).limit(limit + 1).execute();
  if (cutOff.length > limit) return null;
  const total = await readCounter(db, COUNTER_RUN_HEADS);
  if (!cutOff.length) return total;
  const newestFirst = cutOff.sort((a, b) => (a.date === b.date ? b.id - a.id : a.date < b.date ? 1 : -1));
  if (cutOff.length <= few) return total - (await boundariesAround(db, newestFirst));
  const oldest = newestFirst[newestFirst.length - 1];
  const rows = await db.selectFrom('history_events').select(['id', 'occasions_id']).where(pos('>=', oldest)).orderBy('date', 'desc').orderBy('id', 'desc').limit(limit + 1).execute();
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
