// Stickiness of the activity-log import (history.ts): events stuck or unstuck at the source
// after they came over follow here, once the run's new events are in.
import { stickEvent, unstickEvent } from '../../../namespaces/history/api.ts';
import type { ImportContext } from '../context.ts';
import type { KindReport } from '../report.ts';

/**
 * Events stuck or unstuck at the source since the last run (sticky is the context key
 * `_sticky`, added and removed on events already logged): stuck or unstuck here as well.
 * The source's sticky events of the last run are remembered (import_map, kind `sticky`), so
 * that stickiness given or taken on this site stays as it is unless the source changed.
 */
export async function syncSticky(ctx: ImportContext, report: KindReport, previousMark: number): Promise<void> {
  const { wp, app, state } = ctx;
  const rows = await wp.db.query<{ id: number }>(
    `SELECT DISTINCT history_id AS id FROM ${wp.table('simple_history_contexts')} WHERE \`key\` = '_sticky'`,
  );
  const now = new Set(rows.map((r) => String(r.id)));
  const before = await state.mappings('sticky');
  // Events up to the previous mark came over earlier; later ones brought their sticky state with them.
  const stuck = [...now].filter((id) => !before.has(id) && Number(id) <= previousMark);
  const unstuck = [...before.keys()].filter((id) => !now.has(id));
  const viewer = { user: null, lang: 'en' as const };
  let changed = 0;
  for (const id of [...stuck, ...unstuck]) {
    const here = await app.db
      .selectFrom('history_events')
      .select('sticky')
      .where('id', '=', Number(id))
      .executeTakeFirst();
    const wanted = now.has(id) ? 1 : 0;
    if (!here || here.sticky === wanted) continue;
    changed++;
    if (ctx.dryRun) continue;
    if (wanted) await stickEvent(app, Number(id), viewer);
    else await unstickEvent(app, Number(id), viewer);
  }
  if (changed) {
    report.updated += changed;
    report.note(
      `${changed} event(s) stuck or unstuck at the source since the last run: ${ctx.dryRun ? 'would be ' : ''}changed here too`,
    );
  }
  if (ctx.dryRun) return;
  await app.db.transaction().execute(async (tx) => {
    for (const id of now) if (!before.has(id)) await state.map(tx, 'sticky', id, id, '1');
    for (const id of unstuck) await state.unmap(tx, 'sticky', id);
  });
}
