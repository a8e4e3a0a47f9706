// What the activity log's tests share: an event logged as a client would send it, and a list's
// filter from its query arguments (every logger, UTC, English), and a list page checked against
// the rows read one by one.
import assert from 'node:assert/strict';
import type { AppServices } from '../../src/site/services.ts';
import type { AuthUser } from '../../src/auth/types.ts';
import { selectEventPage } from '../../src/namespaces/history/read/paging.ts';
import { filterCondition } from '../../src/namespaces/history/read/conditions.ts';
import { callRoute } from '../support/http.ts';
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

/**
 * Asserts that a page of the list over HTTP shows the events, and X-WP-Total the total, that
 * reading the log row by row (read/paging.ts) finds for `filter`; the total.
 */
export async function assertListedAsWalked(
  app: AppServices,
  user: AuthUser,
  query: Record<string, unknown>,
  filter: EventFilter,
  { grouped, page, perPage }: { grouped: boolean; page: number; perPage: number },
): Promise<number> {
  const res = await callRoute(app, 'GET', '/history/v1/events', {
    query: { ...query, page: String(page), per_page: String(perPage) },
    user,
  });
  const walked = await selectEventPage(app, filterCondition(filter)!, { grouped, page, perPage, countTotal: true });
  const what = `${JSON.stringify(query)} page ${page}×${perPage}`;
  assert.equal(res.status, 200, what);
  assert.deepEqual(
    (res.body as { id: number }[]).map((e) => e.id),
    walked.rows.map((r) => r.id),
    what,
  );
  assert.equal(Number(res.headers['x-wp-total']), walked.total, what);
  return walked.total!;
}
