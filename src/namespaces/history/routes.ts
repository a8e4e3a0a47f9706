// history/v1: the activity log. Declarations only; the logic lives in the service modules.
import qs from 'qs';
import { cap, custom, endpoint, l, LOGGED_IN, namespace, restError, route } from '../../rest/define.ts';
import { MSG } from './messages.ts';
import type { Args, NamespaceDef, ParamsOf, RestRequest } from '../../rest/types.ts';
import { RestResponse } from '../../rest/types.ts';
import type { Initiator } from '../../site/activity.ts';
import { backfillStatus } from './write/backfill.ts';
import { emailReportHtml, sendEmailReportPreview } from './reports/email-report.ts';
import { asksOccasions, countNewEvents, listEvents, occasionEvents } from './read/list.ts';
import { invalidParamsError } from '../../rest/param-errors.ts';
import { eventItemSchema, type Viewer } from './read/render.ts';
import { initiatorCard, searchUsers, userCard } from './reports/cards.ts';
import { isStrictUtcDate } from '../../site/zone-time.ts';
import { statsSchema } from './stats/range.ts';
import { LOG_LEVELS } from './model/event.ts';
import { healthCheck, supportInfo } from './reports/support-info.ts';
import { createCustomEntry } from './write/custom-entry.ts';
import { eventExists, eventReadable, getEvent } from './read/single.ts';
import { stickEvent, unstickEvent } from './write/sticky.ts';
import { statsActivityOverview, statsPeakDays, statsPeakTimes } from './stats/times.ts';
import { statsContent, statsCore, statsNotes, statsPlugins, statsUsers } from './stats/details.ts';
import { statsMedia } from './stats/media.ts';
import { ListedBody } from '../../rest/json-list.ts';
import { statsSummary } from './stats/summary.ts';
import { searchOptions } from './reports/search-options.ts';
import { EVENT_ID_ARG, EVENT_LIST_ARGS, HAS_UPDATES_ARGS, type EventListParams } from './args/events.ts';
import { STATS_ARGS, type StatsParams } from './args/stats.ts';
import { integer } from './args/shared.ts';

const CARD_INITIATORS: Initiator[] = ['cms', 'cms_cli', 'web_user', 'other'];

const viewer = (req: RestRequest): Viewer => ({ user: req.user, lang: req.lang });

// ---- permissions ---------------------------------------------------------------------------

const VIEW_EVENTS = l('Sorry, you are not allowed to view events.', 'Du darfst keine Ereignisse ansehen.');

/** Logged in; the surrounding mode additionally needs manage_options. */
const readEvents = custom(
  l('Logged in (surrounding_event_id: manage_options).', 'Angemeldet (surrounding_event_id: manage_options).'),
  (req) => {
    if (!req.user) return false;
    if (req.params.surrounding_event_id !== undefined && !req.user.can('manage_options')) {
      return restError(req, 'rest_forbidden', MSG.surroundingForbidden, 403);
    }
    return true;
  },
);

const eventsRead = { permission: readEvents, forbiddenCode: 'rest_forbidden_context', forbiddenMessage: VIEW_EVENTS };
const loggedInRead = { permission: LOGGED_IN, forbiddenCode: 'rest_forbidden_context', forbiddenMessage: VIEW_EVENTS };
// The single event's routes check the event in their permission, as the reference does: its
// 404 and 403 are then answers of the permission check (no Allow header).
const eventRead = {
  permission: custom(
    l(
      'Logged in; the event exists and its logger is readable.',
      'Angemeldet; das Ereignis existiert und sein Protokollierer ist lesbar.',
    ),
    (req) => (req.user ? eventReadable(req.app, eventId(req), viewer(req)) : false),
  ),
  forbiddenCode: 'rest_forbidden_context',
  forbiddenMessage: VIEW_EVENTS,
};
const updateEvents = {
  permission: custom(
    l('manage_options; the event exists.', 'manage_options; das Ereignis existiert.'),
    (req) => (req.user?.can('manage_options') ? eventExists(req.app, eventId(req), req.lang) : false),
    'manage_options',
  ),
  forbiddenCode: 'rest_forbidden_context',
  forbiddenMessage: l('Sorry, you are not allowed to update events.', 'Du darfst keine Ereignisse ändern.'),
};
const viewStats = {
  permission: cap('manage_options'),
  forbiddenCode: 'rest_forbidden_context',
  forbiddenMessage: l('Sorry, you are not allowed to view stats.', 'Du darfst keine Statistiken ansehen.'),
};
const viewSupport = {
  permission: cap('manage_options'),
  forbiddenCode: 'rest_forbidden_context',
  forbiddenMessage: l(
    'Sorry, you are not allowed to view support info.',
    'Du darfst keine Support-Informationen ansehen.',
  ),
};
const viewCards = {
  permission: cap('edit_pages'),
  forbiddenCode: 'rest_forbidden_context',
  forbiddenMessage: l('Sorry, you are not allowed to view user card data.', 'Du darfst keine Benutzerkarten ansehen.'),
};

// ---- handlers --------------------------------------------------------------------------------

/** PHP's true and false in a query string. */
function phpScalars(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (Array.isArray(value)) return value.map(phpScalars);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, phpScalars(v)]));
  return value;
}

async function listEventsHandler(req: RestRequest<EventListParams>): Promise<RestResponse | ListedBody> {
  // A group's occasions, as many as asked: sent as they are read.
  if (asksOccasions(req.params)) return new ListedBody(occasionEvents(req.app, req.params, viewer(req)));
  // The Link header's query is rebuilt from the request's query parameters as the reference
  // rebuilds it: declared args as they were parsed (lists indexed, booleans as 1 or 0), the
  // others as given, in the order given.
  const parsed: Record<string, unknown> = req.params;
  const query: Record<string, unknown> = {};
  for (const key of Object.keys(req.query)) query[key] = Object.hasOwn(parsed, key) ? parsed[key] : req.query[key];
  const result = await listEvents(req.app, req.params, viewer(req), {
    query,
    urlFor: (q) =>
      `${req.restUrl('/history/v1/events')}?${qs.stringify(phpScalars(q), { arrayFormat: 'indices', format: 'RFC1738', skipNulls: true })}`,
  });
  return new RestResponse(result.items, 200, result.headers);
}

// Keys in the reference's order (`type` first), which the index shows as declared.
const CREATE_EVENT_ARGS = {
  message: {
    type: 'string',
    description: l('Short message of the event.', 'Kurze Meldung des Ereignisses.'),
    required: true,
  },
  note: { type: 'string', description: l('Optional details of the event.', 'Optionale Details des Ereignisses.') },
  level: {
    type: 'string',
    enum: LOG_LEVELS,
    default: 'info',
    description: l('Log level of the event.', 'Protokollstufe des Ereignisses.'),
  },
  date: {
    type: 'string',
    format: 'date-time',
    description: l(
      'Date of the event in UTC (Y-m-d H:i:s); now when omitted.',
      'Datum des Ereignisses in UTC (Y-m-d H:i:s); jetzt, wenn nicht angegeben.',
    ),
  },
} as const satisfies Args;

async function createEventHandler(req: RestRequest<ParamsOf<typeof CREATE_EVENT_ARGS>>): Promise<RestResponse> {
  const { message, note, level, date } = req.params;
  // Its own error code (the reference's), not the schema's rest_invalid_param.
  if (date && !isStrictUtcDate(date)) throw restError(req, 'rest_invalid_date', MSG.invalidDate, 400);
  await createCustomEntry(req.app, { message, note, level, date: date || undefined }, req);
  return new RestResponse({ message: 'Event logged successfully', data: { status: 201 } }, 201);
}

const eventId = (req: RestRequest) => Number(req.urlParams.event_id);

const SEARCH_USER_ARGS = {
  // Not in the contract's list of arguments, as in the reference, which reads it undeclared.
  q: {
    description: l(
      'Text to find in user names and e-mail addresses.',
      'Text, der in Benutzernamen und E-Mail-Adressen gesucht wird.',
    ),
    type: 'string',
    internal: true,
  },
} as const satisfies Args;

function searchUserHandler(req: RestRequest<ParamsOf<typeof SEARCH_USER_ARGS>>) {
  const q = req.params.q?.trim();
  if (!q) throw restError(req, 'rest_invalid_param', MSG.searchQueryMissing, 400);
  return searchUsers(req.app, q);
}

function initiatorCardHandler(req: RestRequest) {
  const type = req.urlParams.initiator_type as Initiator;
  if (!CARD_INITIATORS.includes(type)) {
    const reason = `type is not one of ${CARD_INITIATORS.join(', ')}.`;
    throw invalidParamsError(
      req,
      { type: reason },
      { type: { code: 'rest_invalid_param', message: reason, data: null } },
    );
  }
  return initiatorCard(req.app, type, req.user!, req.lang);
}

const stats = (path: string, handler: (req: RestRequest<StatsParams>) => unknown) =>
  route(`/stats/${path}`, [endpoint('GET', { args: STATS_ARGS, ...viewStats, handler })], statsSchema);

export const historyNamespace: NamespaceDef = namespace('history/v1', [
  route('/email-report/preview/email', [
    endpoint(['POST', 'GET'], {
      permission: cap('manage_options'),
      handler: (req) => sendEmailReportPreview(req.app, req.user!, req.lang),
    }),
  ]),
  route('/email-report/preview/html', [
    endpoint('GET', {
      permission: cap('manage_options'),
      handler: async (req) => RestResponse.raw(await emailReportHtml(req.app, req.lang), 'text/html; charset=UTF-8'),
    }),
  ]),
  route(
    '/events',
    [
      endpoint('GET', { args: EVENT_LIST_ARGS, ...eventsRead, handler: listEventsHandler, returnsList: true }),
      endpoint('POST', {
        args: CREATE_EVENT_ARGS,
        permission: cap('manage_options'),
        handler: createEventHandler,
        // Independent writes: a batch of them is written in one transaction by the activity log.
        concurrentInBatch: true,
      }),
    ],
    eventItemSchema,
  ),
  route('/events/has-updates', [
    endpoint('GET', {
      args: HAS_UPDATES_ARGS,
      ...eventsRead,
      handler: (req) => countNewEvents(req.app, req.params, viewer(req)),
    }),
  ]),
  route('/events/(?P<event_id>\\d+)', [
    endpoint('GET', {
      args: EVENT_ID_ARG,
      ...eventRead,
      handler: (req) => getEvent(req.app, eventId(req), viewer(req)),
    }),
  ]),
  route('/events/(?P<event_id>\\d+)/stick', [
    endpoint('POST', {
      args: EVENT_ID_ARG,
      ...updateEvents,
      handler: (req) => stickEvent(req.app, eventId(req), viewer(req), req),
    }),
  ]),
  route('/events/(?P<event_id>\\d+)/unstick', [
    endpoint('POST', {
      args: EVENT_ID_ARG,
      ...updateEvents,
      handler: (req) => unstickEvent(req.app, eventId(req), viewer(req), req),
    }),
  ]),
  route('/backfill-status', [
    endpoint('GET', { ...loggedInRead, handler: (req) => backfillStatus(req.app, req.lang) }),
  ]),
  route('/search-options', [
    endpoint('GET', { ...loggedInRead, handler: (req) => searchOptions(req.app, req.user!, req.lang) }),
  ]),
  route('/search-user', [
    endpoint('GET', {
      permission: cap('list_users'),
      forbiddenCode: 'rest_forbidden_context',
      forbiddenMessage: l('Sorry, you are not allowed to search users.', 'Du darfst keine Benutzer suchen.'),
      args: SEARCH_USER_ARGS,
      handler: searchUserHandler,
    }),
  ]),
  stats('summary', (req) => statsSummary(req.app, req.params)),
  stats('users', (req) => statsUsers(req.app, req.params)),
  stats('content', (req) => statsContent(req.app, req.params)),
  stats('media', (req) => statsMedia(req.app, req.params)),
  stats('plugins', (req) => statsPlugins(req.app, req.params, req.lang)),
  stats('core', (req) => statsCore(req.app, req.params)),
  stats('peak-days', (req) => statsPeakDays(req.app, req.params, req.lang)),
  stats('peak-times', (req) => statsPeakTimes(req.app, req.params)),
  stats('activity-overview', (req) => statsActivityOverview(req.app, req.params)),
  stats('notes', (req) => statsNotes(req.app, req.params)),
  route('/support-info', [
    endpoint('GET', {
      ...viewSupport,
      handler: (req) => supportInfo(req.app, String(req.headers['user-agent'] ?? '')),
    }),
  ]),
  route('/support-info/health-check', [endpoint('GET', { ...viewSupport, handler: (req) => healthCheck(req.app) })]),
  route('/users/(?P<user_id>\\d+)/card', [
    endpoint('GET', {
      args: { id: integer(l('User id.', 'Benutzer-ID.'), { required: true, urlParam: 'user_id' }) },
      ...viewCards,
      handler: (req) => userCard(req.app, Number(req.urlParams.user_id), req.user!, req.lang),
    }),
  ]),
  route('/initiators/(?P<initiator_type>[a-z_]+)/card', [
    endpoint('GET', {
      args: {
        type: {
          description: l('Initiator type.', 'Art des Auslösers.'),
          type: 'string',
          required: true,
          enum: CARD_INITIATORS,
          urlParam: 'initiator_type',
        },
      },
      ...viewCards,
      handler: initiatorCardHandler,
    }),
  ]),
]);
