// A page of a filter the log's columns hold (columns/count.ts), and its total, in one pass
// over them: the ids of the page's rows (grouped: each group's highest id and size, groups in
// the reference's order), read from the database afterwards.
import { isUnfiltered, type EventFilter } from '../read/query.ts';
import { matchRowAt, visitMatches, type EventSets } from './count.ts';
import type { MatchRow } from '../read/slices.ts';
import { inReferenceOrder } from '../read/heads.ts';
import type { ColumnsView } from './store.ts';

export interface ColumnsPage {
  ids: number[];
  /** Grouped: each shown row's group size. */
  counts: Map<number, number>;
  total: number;
  /** Grouped, the total counted: the newest matching row (read/caches.ts keepTotal); else null. */
  newest: MatchRow | null;
}

/** A group as the walk meets it: its first row's date (seconds), highest id and size. */
interface Group {
  first: { date: number };
  maxId: number;
  size: number;
}

/** A page of a filter: its rows (grouped: groups) `offset … offset + limit`, newest first. */
export interface PageWanted {
  grouped: boolean;
  offset: number;
  limit: number;
  /** The filter's total, when known: nothing past the page is counted. */
  knownTotal?: number;
}

/**
 * Rows `offset … offset + limit` of the filter's (grouped: groups), newest first, and the
 * total; null when the filter tests something the columns do not hold. A grouped page keeps
 * the groups from the tie (of equal first dates) that holds its first group on, until one starts
 * past it at another date, as read/paging.ts walkGroups does: sorting moves groups within a tie
 * only. `chunk`: visitMatches' (tests cross its borders with small ones).
 */
export function pageFromColumns(
  view: ColumnsView,
  f: EventFilter,
  { grouped, offset, limit, knownTotal }: PageWanted,
  sets: EventSets = {},
  chunk?: number,
): ColumnsPage | null {
  // A cut at or above every id held cuts nothing.
  const cutsNothing = f.maxId === undefined || f.maxId >= view.cols.state.maxId;
  if (!grouped && cutsNothing && isUnfiltered({ ...f, maxId: undefined })) return wholeLogPage(view, offset, limit);
  const { ids, dates, occasions } = view.cols;
  const wanted = offset + limit;
  const page: number[] = [];
  let rows = 0;
  let groups = 0;
  let last = -1;
  let kept: Group[] = [];
  let from = 0; // walk index of kept[0]
  let current: Group | null = null;
  let newest = -1;
  const rest = visitMatches(
    view,
    f,
    sets,
    (i) => {
      if (rows++ === 0) newest = i;
      if (!grouped) {
        if (rows > offset) page.push(ids[i]!);
        return rows < wanted;
      }
      if (occasions[i] !== last) {
        const walk = groups++;
        last = occasions[i]!;
        // Past the page and its tie: the walk has the page.
        if (walk >= wanted && dates[i] !== kept[wanted - 1 - from]!.first.date) return false;
        if (walk < offset && current && dates[i] !== current.first.date) {
          kept = [];
          from = walk;
        }
        current = { first: { date: dates[i]! }, maxId: ids[i]!, size: 0 };
        kept.push(current);
      }
      current!.size++;
      if (ids[i]! > current!.maxId) current!.maxId = ids[i]!;
    },
    { countRest: knownTotal === undefined, chunk },
  );
  if (!rest) return null;
  if (!grouped) return { ids: page, counts: new Map(), total: knownTotal ?? rows + rest.rows, newest: null };
  const shown = inReferenceOrder(kept).slice(offset - from, wanted - from);
  return {
    ids: shown.map((g) => g.maxId),
    counts: new Map(shown.map((g) => [g.maxId, g.size])),
    total: knownTotal ?? groups + rest.groups,
    newest: matchRowAt(view.cols, newest),
  };
}

/** Rows `offset … offset + limit` of the whole log, newest first: those at these positions from the end. */
function wholeLogPage({ cols, length }: ColumnsView, offset: number, limit: number): ColumnsPage {
  const ids: number[] = [];
  for (let i = length - 1 - offset; i >= 0 && ids.length < limit; i--) ids.push(cols.ids[i]!);
  return { ids, counts: new Map(), total: length, newest: null };
}
