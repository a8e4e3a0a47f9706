// Occasions of the whole log, maintained on write: every row knows whether it is the newest
// row of a run of consecutive rows (date desc, id desc) with the same occasions id, and run
// heads know the run's size. The unfiltered overview then pages through heads with an index
// and reads its total from a counter instead of grouping a million rows per request.
// Writers are serialised (SQLite has one writer; PostgreSQL takes an advisory lock).
import { sql } from 'kysely';
import type { Db } from './counters.ts';

export const COUNTER_RUN_HEADS = 'run_heads';

export interface Pos {
  id: number;
  date: string;
}
/** A row as run maintenance needs it (the log's newest row, run heads and their neighbours). */
export interface RunRow extends Pos {
  occasions_id: string;
  run_head: number;
  run_size: number;
}

export const COLUMNS = ['id', 'date', 'occasions_id', 'run_head', 'run_size'] as const;

/** The newest row of the log, as SQL text for the writers that send their own statements. */
export const NEWEST_ROW_SQL = `select ${COLUMNS.join(', ')} from history_events order by date desc, id desc limit 1`;

/** `(date, id) <op> (p.date, p.id)`: a row-value comparison both databases serve from the (date, id) index. */
export function pos(op: '<' | '<=' | '>' | '>=', p: Pos) {
  return sql<boolean>`(${sql.ref('date')}, ${sql.ref('id')}) ${sql.raw(op)} (${p.date}, ${p.id})`;
}

/**
 * `pos`, and the bare date bound it implies. PostgreSQL misjudges how many rows a comparison of
 * (date, id) pairs keeps, and read a short range of an old part of the log by walking the
 * primary key down from the newest id (180 ms, 1,000,000 events) or through a bitmap (7 ms);
 * with the date bound it reads the date index (0.3 ms).
 */
export function posAndDate(op: '<' | '<=' | '>' | '>=', p: Pos) {
  const dateOp = op.startsWith('<') ? '<=' : '>=';
  return sql<boolean>`${pos(op, p)} and ${sql.ref('date')} ${sql.raw(dateOp)} ${p.date}`;
}

export async function newerNeighbour(db: Db, p: Pos): Promise<RunRow | undefined> {
  return db
    .selectFrom('history_events')
    .select(COLUMNS)
    .where(pos('>', p))
    .orderBy('date', 'asc')
    .orderBy('id', 'asc')
    .limit(1)
    .executeTakeFirst();
}

export async function olderNeighbour(db: Db, p: Pos): Promise<RunRow | undefined> {
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
export async function headAtOrAbove(db: Db, p: Pos): Promise<RunRow> {
  return nearestHead(db, p, 'atOrAbove').executeTakeFirstOrThrow();
}

/** The newest run head older than `p`: the run holding `p` ends just above it (none: at the log's oldest row). */
export async function headBelow(db: Db, p: Pos): Promise<RunRow | undefined> {
  return nearestHead(db, p, 'below').executeTakeFirst();
}

/** The newest row of the log, if any. */
export async function newestRow(db: Db): Promise<RunRow | undefined> {
  return (await sql<RunRow>`${sql.raw(NEWEST_ROW_SQL)}`.execute(db)).rows[0];
}
