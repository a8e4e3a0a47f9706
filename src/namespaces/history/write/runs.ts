// Run maintenance on write (model/runs.ts): linking an inserted row into the runs, the run fields
// of appended events, and the rebuild after bulk writes out of order. Writers are serialised.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { DialectName } from '../../../db/index.ts';
import type { PreparedEvent } from '../model/event.ts';
import {
  COLUMNS,
  COUNTER_RUN_HEADS,
  headAtOrAbove,
  newerNeighbour,
  olderNeighbour,
  pos,
  type Pos,
  type RunRow,
} from '../model/runs.ts';
import { addToCounter, COUNTER_CHANGES, type Db } from '../model/counters.ts';
import { isPostgres } from './pg-values.ts';

/** The statement every writer of runs takes first (PostgreSQL; SQLite has one writer). */
export const PG_RUNS_LOCK = 'select pg_advisory_xact_lock(73110017)';

/** Serialises run maintenance between concurrent writers (PostgreSQL; SQLite has one writer). */
export async function lockRuns(tx: Transaction<Database>, dialect: DialectName): Promise<void> {
  if (dialect === 'postgres') await sql.raw(PG_RUNS_LOCK).execute(tx);
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

/**
 * Sets the run fields of events that will be inserted in this order, all newer than `newest`
 * (the current newest row); returns whether `newest` stops being a head, and the change of the
 * number of heads.
 */
export function setAppendRuns(
  newest: RunRow | undefined,
  events: PreparedEvent[],
): { demoteNewest: boolean; headsDelta: number } {
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
        if (head !== prev.head || (head === 1 && prev.size !== prev.storedSize))
          changes.set(prev.id, [head, head ? prev.size : 0]);
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
