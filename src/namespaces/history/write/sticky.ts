// POST /events/<id>/stick and /unstick: the event's _sticky context entry and column, the context
// index kept up to date, the change counted (the list caches' version), and the act recorded.
import type { Transaction } from 'kysely';
import type { AppServices } from '../../../site/services.ts';
import type { Database } from '../../../db/schema.ts';
import type { DialectName } from '../../../db/index.ts';
import { restError } from '../../../rest/define.ts';
import { MSG } from '../messages.ts';
import { loggerEntry, type ActivityOrigin } from '../../../site/activity.ts';
import type { EventItem, Viewer } from '../read/render.ts';
import { indexChangedContext } from '../index/build.ts';
import { historyLogger } from '../loggers/history.ts';
import { addToCounter, COUNTER_STICKS } from '../model/counters.ts';
import { contextJson, contextMap } from '../model/context.ts';
import { invalidEventId, renderSingle } from '../read/single.ts';

/** The context of an existing event as stored (JSON text); 404 rest_event_invalid_id when there is no such event. */
async function storedContext(tx: Transaction<Database>, id: number, viewer: Viewer): Promise<string> {
  const row = await tx
    .selectFrom('history_events as e')
    .leftJoin('history_event_contexts as x', 'x.event_id', 'e.id')
    .select('x.context')
    .where('e.id', '=', id)
    .executeTakeFirst();
  if (!row) throw invalidEventId(viewer.lang);
  return row.context ?? '{}';
}

async function setEventContext(
  tx: Transaction<Database>,
  dialect: DialectName,
  id: number,
  context: Map<string, string | null>,
  previous: string,
): Promise<void> {
  const json = contextJson(context);
  await tx
    .insertInto('history_event_contexts')
    .values({ event_id: id, context: json })
    .onConflict((oc) => oc.column('event_id').doUpdateSet({ context: json }))
    .execute();
  await indexChangedContext(tx, dialect, id, json, previous);
}

/** POST /events/<id>/stick: idempotent. Recorded in the log when `origin` is given. */
export async function stickEvent(
  app: AppServices,
  id: number,
  viewer: Viewer,
  origin?: ActivityOrigin,
): Promise<EventItem> {
  await app.db.transaction().execute(async (tx) => {
    const previous = await storedContext(tx, id, viewer);
    const context = contextMap(previous);
    // Stuck again: `_sticky` moves to the end, as the reference writes it anew.
    context.delete('_sticky');
    context.set('_sticky', '{}');
    await setEventContext(tx, app.dialect, id, context, previous);
    await tx.updateTable('history_events').set({ sticky: 1 }).where('id', '=', id).execute();
    await addToCounter(tx, COUNTER_STICKS, 1);
  });
  if (origin) await app.activity.log(loggerEntry(historyLogger, 'event_stuck', { event_id: id }), origin);
  return renderSingle(app, id, viewer);
}

/** POST /events/<id>/unstick: 409 rest_event_not_sticky when the event is not sticky. */
export async function unstickEvent(
  app: AppServices,
  id: number,
  viewer: Viewer,
  origin?: ActivityOrigin,
): Promise<EventItem> {
  await app.db.transaction().execute(async (tx) => {
    const previous = await storedContext(tx, id, viewer);
    const context = contextMap(previous);
    if (!context.delete('_sticky')) {
      throw restError(viewer, 'rest_event_not_sticky', MSG.eventNotSticky, 409);
    }
    await setEventContext(tx, app.dialect, id, context, previous);
    await tx.updateTable('history_events').set({ sticky: 0 }).where('id', '=', id).execute();
    await addToCounter(tx, COUNTER_STICKS, 1);
  });
  if (origin) await app.activity.log(loggerEntry(historyLogger, 'event_unstuck', { event_id: id }), origin);
  return renderSingle(app, id, viewer);
}
