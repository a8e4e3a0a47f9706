// Lists of the log too long for one statement (a group's occasions, a year of media events),
// read newest first a slice at a time and sent as they are read (rest/json-list.ts): each
// statement goes on below the last event of the one before, in the log's order (date, then id).
// The condition of the rows below a position is model/runs.ts posAndDate('<', …): its bare date
// bound lets an index ending in (date, id) start reading there.
import type { Pos } from '../model/runs.ts';

/**
 * Up to `limit` rows newest first, `size` a statement: `read(below, count)` reads at most `count`
 * rows, newest first, below `below` (from the newest when undefined).
 */
export async function* newestFirstSlices<R extends Pos>(
  read: (below: Pos | undefined, count: number) => Promise<R[]>,
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
