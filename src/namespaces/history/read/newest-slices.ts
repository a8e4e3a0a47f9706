// Lists of the log too long for one statement (a group's occasions, a year of media events),
// read newest first a slice at a time and sent as they are read (rest/json-list.ts): each
// statement goes on below the last event of the one before, in the log's order (date, then id).
import { sql, type RawBuilder, type SqlBool } from 'kysely';

/** An event's place in the log's order. */
export interface LogPosition {
  date: string;
  id: number;
}

/**
 * The condition of the events below `last` in the log's order, for a table or alias whose columns
 * are `date` and `id` (`e`, say). The date is a bound of its own, so that an index ending in
 * (date, id) starts reading there instead of testing every row above it.
 */
export function belowPosition(last: LogPosition, table: string): RawBuilder<SqlBool> {
  const date = sql.ref(`${table}.date`);
  const id = sql.ref(`${table}.id`);
  return sql<SqlBool>`${date} <= ${last.date} and (${date} < ${last.date} or ${id} < ${last.id})`;
}

/**
 * Up to `limit` rows newest first, `size` a statement: `read(below, count)` reads at most `count`
 * rows, newest first, below `below` (from the newest when undefined).
 */
export async function* newestFirstSlices<R extends LogPosition>(
  read: (below: LogPosition | undefined, count: number) => Promise<R[]>,
  size: number,
  limit = Infinity,
): AsyncGenerator<R[]> {
  let below: R | undefined;
  for (let left = limit; left > 0; ) {
    const count = Math.min(left, size);
    const rows = await read(below, count);
    if (rows.length) yield rows;
    if (rows.length < count) return;
    left -= rows.length;
    below = rows.at(-1);
  }
}
