// A list's first total from the log's columns (columns/count.ts), as a shortcut of the cached
// totals (read/caches.ts): the filter's rows or groups at the request's state of the log, and the
// newest of them, or null while the columns are not ready (the rows are counted instead).
import { sql } from 'kysely';
import type { AppServices } from '../../../site/services.ts';
import type { EventFilter } from '../read/query.ts';
import type { QueryPlan } from '../read/conditions.ts';
import type { TotalShortcut } from '../read/caches.ts';
import type { CountMode } from '../read/paging.ts';
import { indexMatches } from '../read/conditions.ts';
import { SEARCH_FTS } from '../index/fts.ts';
import { countFromColumns, COUNTED, idBits } from './count.ts';
import { columnsAt } from './sync.ts';
import type { ColumnsState } from './store.ts';

/**
 * The shortcut counting `filter` from the columns, when they hold every column it tests
 * (`exclude_search` only with the search index's exact matches, SQLite: plan.excludeIndex).
 */
export function columnsShortcut(
  app: AppServices,
  filter: EventFilter,
  plan: QueryPlan,
  state: ColumnsState,
  mode: CountMode,
): TotalShortcut | undefined {
  if (!Object.entries(filter).every(([k, v]) => v === undefined || v === false || COUNTED.has(k))) return undefined;
  const excludeIndex = plan.excludeIndex;
  if (filter.excludeSearch && !excludeIndex) return undefined;
  return async () => {
    const view = await columnsAt(app, state);
    if (!view) return null;
    let excluded: Uint8Array | undefined;
    if (excludeIndex) {
      // One row: the ids as text, parsed here (a row per match costs more to hand over).
      const { rows } = await sql<{ ids: string | null }>`select group_concat(rowid) as ids from (${indexMatches(
        SEARCH_FTS,
        excludeIndex,
      )})`.execute(app.readDb);
      excluded = idBits((rows[0]?.ids ?? '').split(',').filter(Boolean).map(Number), state.maxId);
    }
    const counted = countFromColumns(view, filter, mode, excluded);
    return counted && { value: counted.value, maxId: state.maxId, newest: counted.newest };
  };
}
