// What the activity log's tests share: an event logged as a client would send it, and a list's
// filter from its query arguments (every logger, UTC, English).
import type { AppServices } from '../../src/site/services.ts';
import { prepareEvent } from '../../src/namespaces/history/model/event.ts';
import { insertEvents } from '../../src/namespaces/history/write/insert.ts';
import { eventFilterFromParams, type EventFilter } from '../../src/namespaces/history/read/query.ts';

/** Logs one event of `logger` (an unknown message key is its own template), by no user. */
export async function logEvent(
  app: AppServices,
  logger: string,
  messageKey: string,
  context: Record<string, string>,
): Promise<void> {
  const event = prepareEvent(app.loggers, { logger, messageKey, context }, { initiator: 'other', user: null, ip: '' });
  await insertEvents(app.db, [event]);
}

/** The list's filter of these query arguments, for a viewer who sees every logger. */
export function filterFromParams(app: AppServices, params: Record<string, unknown>): EventFilter {
  return eventFilterFromParams(params, {
    loggers: app.loggers,
    scope: { all: true },
    zone: 'UTC',
    lang: 'en',
    dialect: app.dialect,
  });
}
