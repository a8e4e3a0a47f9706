// A page of a filter the log's columns hold (columns/count.ts), and its total, in one pass
// over them: the ids of the page's rows (grouped: each group's highest id and size, groups in
// the reference's order, read/heads.ts inReferenceOrder), read from the database afterwards.
import type { EventFilter } from '../read/query.ts';
import { matcher, type WordMatches } from './count.ts';
import type { ColumnsView } from './store.ts';

export interface ColumnsPage {
  ids: number[];
  /** Grouped: each shown row's group size. */
  counts: Map<number, number>;
  total: number;
}

interface Group {
  firstDate: number;
  maxId: number;
  size: number;
  walk: number;
}

/**
 * Rows `offset … offset + limit` of the filter's (grouped: groups), newest first, and the
 * total; null when the filter tests something the columns do not hold.
 */
export function pageFromColumns(
  view: ColumnsView,
  f: EventFilter,
  { grouped, offset, limit }: { grouped: boolean; offset: number; limit: number },
  words?: WordMatches,
): ColumnsPage | null {
  const match = matcher(view, f, words);
  if (!match) return null;
  const { ids, dates, occasions } = view.cols;
  const wanted = offset + limit;
  const page: number[] = [];
  let rows = 0;
  let groups = 0;
  let last = -1;
  // Grouped: the groups from the tie (of equal first dates) that holds the page's first group on,
  // until one starts past the page at another date (sorting moves groups within a tie only).
  let kept: Group[] = [];
  let current: Group | null = null;
  let collecting = grouped;
  match.forEachNewestFirst((i) => {
    rows++;
    if (!grouped) {
      if (rows > offset && rows <= wanted) page.push(ids[i]!);
      return;
    }
    if (occasions[i] !== last) {
      groups++;
      last = occasions[i]!;
      if (!collecting) return;
      const walk = groups - 1;
      if (walk >= wanted && dates[i] !== kept[wanted - 1 - kept[0]!.walk]!.firstDate) {
        collecting = false;
        return;
      }
      if (walk < offset && current && dates[i] !== current.firstDate) kept = [];
      current = { firstDate: dates[i]!, maxId: ids[i]!, size: 0, walk };
      kept.push(current);
    }
    if (!collecting) return;
    current!.size++;
    if (ids[i]! > current!.maxId) current!.maxId = ids[i]!;
  });
  if (!grouped) return { ids: page, counts: new Map(), total: rows };
  const from = kept[0]?.walk ?? 0;
  const ordered = kept
    .sort((a, b) => (a.firstDate === b.firstDate ? b.maxId - a.maxId : a.walk - b.walk))
    .slice(offset - from, wanted - from);
  return { ids: ordered.map((g) => g.maxId), counts: new Map(ordered.map((g) => [g.maxId, g.size])), total: groups };
}
