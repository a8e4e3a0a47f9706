// The original's overview, written plainly from its query (class-log-query.php, MySQL path) to
// check our pages against: the matching rows ordered by date, then id, newest first; a group is
// a run of consecutive rows with equal occasions id; groups ordered by their newest date, then
// their highest id; a page of them, each shown by its highest-id row; the page's rows ordered
// by date, then id.

export interface ModelRow {
  id: number;
  date: string;
  occasions_id: string;
}

const newestFirst = (a: ModelRow, b: ModelRow) => (a.date === b.date ? b.id - a.id : a.date < b.date ? 1 : -1);

/** [shown id, group size] of each item of the page, and the number of groups. */
export function referenceOverview(
  rows: ModelRow[],
  page: number,
  perPage: number,
): { items: [number, number][]; total: number } {
  const groups: { maxDate: string; maxId: number; size: number }[] = [];
  let previous: string | null = null;
  for (const row of [...rows].sort(newestFirst)) {
    const group = groups.at(-1);
    if (group && row.occasions_id === previous) {
      group.size++;
      group.maxId = Math.max(group.maxId, row.id);
    } else {
      groups.push({ maxDate: row.date, maxId: row.id, size: 1 });
    }
    previous = row.occasions_id;
  }
  groups.sort((a, b) => (a.maxDate === b.maxDate ? b.maxId - a.maxId : a.maxDate < b.maxDate ? 1 : -1));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const shown = groups
    .slice((page - 1) * perPage, page * perPage)
    .map((g) => ({ row: byId.get(g.maxId)!, size: g.size }));
  shown.sort((a, b) => newestFirst(a.row, b.row));
  return { items: shown.map((s) => [s.row.id, s.size]), total: groups.length };
}
