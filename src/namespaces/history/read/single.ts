// Single events: GET /events/<id>, and the permission checks of the event routes (the event exists;
// the viewer may read its logger).
import type { AppServices } from '../../../site/services.ts';
import type { Lang } from '../../../rest/types.ts';
import { RestError } from '../../../rest/types.ts';
import { restError } from '../../../rest/define.ts';
import { MSG } from '../messages.ts';
import { renderEvents, type EventItem, type EventRow, type Viewer } from './render.ts';
import { loadRows } from './paging.ts';

export function invalidEventId(lang: Lang): RestError {
  return restError({ lang }, 'rest_event_invalid_id', MSG.eventInvalidId, 404);
}

/** The event if it exists (else 404 rest_event_invalid_id) and the viewer may read its logger (else 401/403). */
async function readableEventRow(app: AppServices, id: number, viewer: Viewer): Promise<EventRow> {
  const row = await app.db.selectFrom('history_events').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw invalidEventId(viewer.lang);
  if (!app.loggers.canRead(viewer.user, row.logger)) {
    throw restError(viewer, 'rest_forbidden_context', MSG.eventForbidden, viewer.user ? 403 : 401);
  }
  return row;
}

/**
 * Whether the viewer may read the event: true, or the error to answer with. The reference
 * checks this in the permission callback of the event's routes (so their 404/403 carry no Allow).
 */
export async function eventReadable(app: AppServices, id: number, viewer: Viewer): Promise<true | RestError> {
  return readableEventRow(app, id, viewer).then(
    () => true,
    (err: unknown) => (err instanceof RestError ? err : Promise.reject(err)),
  );
}

/** Whether the event exists: true, or 404 rest_event_invalid_id (the permission check of stick/unstick). */
export async function eventExists(app: AppServices, id: number, lang: Lang): Promise<true | RestError> {
  const row = await app.db.selectFrom('history_events').select('id').where('id', '=', id).executeTakeFirst();
  return row ? true : invalidEventId(lang);
}

/** GET /events/<id>. */
export async function getEvent(app: AppServices, id: number, viewer: Viewer): Promise<EventItem> {
  const [item] = await renderEvents(app, [await readableEventRow(app, id, viewer)], {
    lang: viewer.lang,
    viewer: viewer.user,
  });
  return item;
}
export async function renderSingle(app: AppServices, id: number, viewer: Viewer): Promise<EventItem> {
  const rows = await loadRows(app, [id]);
  const [item] = await renderEvents(app, rows, { lang: viewer.lang, viewer: viewer.user });
  return item;
}
