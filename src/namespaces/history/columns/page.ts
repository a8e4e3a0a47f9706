// A page of a filter the log's columns hold (columns/walk.ts), and its total, in one pass
// over them: the ids of the page's rows (grouped: each group's highest id and size, groups in
// the reference's order), read from the database afterwards.
import { isUnfiltered, type EventFilter } from '../read/query.ts';
import { matchRowAt, walkPlan, type EventSets } from './count.ts';
import type { MatchRow } from '../read/slices.ts';
import { inReferenceOrder } from '../read/heads.ts';
import type { ColumnsView } from './store.ts';
import type { PageWalked, PageWanted } from './walk.ts';
import type { Walker } from './walk-thread.ts';

export type { PageWanted } from './walk.ts';

export interface ColumnsPage {
  ids: number[];
  /** Grouped: each shown row's group size. */
  counts: Map<number, number>;
  total: number;
  /** Grouped, the total counted: the newest matching row (read/caches.ts keepTotal); else null. */
  newest: MatchRow | null;
}

/**
 * Rows `offset … offset + limit` of the filter's (grouped: groups), newest first, and the
 * total, walked by `walker`; null when the filter tests something the columns do not hold.
 * `chunk`: the walk's positions tested at a time (tests cross its borders with small ones).
 */
export async function pageFromColumns(
  view: ColumnsView,
  f: EventFilter,
  wanted: PageWanted,
  sets: EventSets,
  walker: Walker,
  chunk?: number,
): Promise<ColumnsPage | null> {
  const { grouped, offset, limit } = wanted;
  // A cut at or above every id held cuts nothing.
  const cutsNothing = f.maxId === undefined || f.maxId >= view.cols.state.maxId;
  if (!grouped && cutsNothing && isUnfiltered({ ...f, maxId: undefined })) return wholeLogPage(view, offset, limit);
  const plan = walkPlan(view, f, sets);
  if (!plan) return null;
  const walked = (await walker(view, { kind: 'page', plan, wanted, chunk })) as PageWalked;
  if (!grouped) return { ids: walked.ids, counts: new Map(), total: walked.total, newest: null };
  // Sorting moves groups within a tie only; the walk kept the tie that holds the page's first group.
  const shown = inReferenceOrder(walked.kept).slice(offset - walked.from, offset + limit - walked.from);
  return {
    ids: shown.map((g) => g.maxId),
    counts: new Map(shown.map((g) => [g.maxId, g.size])),
    total: walked.total,
    newest: matchRowAt(view.cols, walked.newest),
  };
}

/** Rows `offset … offset + limit` of the whole log, newest first: those at these positions from the end. */
function wholeLogPage({ cols, length }: ColumnsView, offset: number, limit: number): ColumnsPage {
  const ids: number[] = [];
  for (let i = length - 1 - offset; i >= 0 && ids.length < limit; i--) ids.push(cols.ids[i]!);
  return { ids, counts: new Map(), total: length, newest: null };
}
