// history/v1's arguments of the event list (GET /events, its filters) and of the routes that
// take the same filters or one event's id; the handlers' params are typed from them (ParamsOf).
import { l } from '../../../rest/define.ts';
import type { Args, ParamsOf } from '../../../rest/types.ts';
import { MAX_ALTERNATIVES, MAX_LIST_ITEMS } from '../../../db/limits.ts';
import {
  atMost,
  validContextFilters,
  validDateBound,
  validDates,
  validInitiators,
  validIp,
  validLastdays,
  validMessages,
  validMonths,
  validSinceDate,
} from './checks.ts';
import { CONTEXT_DESCRIPTION, integer, integers, PAGE_DESCRIPTION, PER_PAGE, SEARCH, strings } from './shared.ts';

const SINCE_ID = l('Limit result set to rows with id greater than this.', 'Nur Zeilen mit größerer ID als dieser.');

/** GET /events. */
export const EVENT_LIST_ARGS = {
  context: {
    description: CONTEXT_DESCRIPTION,
    type: 'string',
    default: 'view',
  },
  page: integer(PAGE_DESCRIPTION, { default: 1, minimum: 1 }),
  per_page: PER_PAGE,
  search: SEARCH,
  type: {
    description: l(
      'Type of result to return: grouped overview or the occasions of one group.',
      'Art des Ergebnisses: gruppierte Übersicht oder die Wiederholungen einer Gruppe.',
    ),
    type: 'string',
    default: 'overview',
    enum: ['overview', 'occasions'],
  },
  logRowID: integer(
    l(
      'Limit result set to rows with id lower than this (type occasions).',
      'Nur Zeilen mit kleinerer ID als dieser (Typ occasions).',
    ),
  ),
  occasionsID: {
    description: l(
      'Limit result set to rows with this occasions id (type occasions).',
      'Nur Zeilen mit dieser Wiederholungs-ID (Typ occasions).',
    ),
    type: 'string',
  },
  occasionsCount: integer(
    l('Number of occasions to get (type occasions).', 'Anzahl der zu holenden Wiederholungen (Typ occasions).'),
  ),
  occasionsCountMaxReturn: integer(
    l(
      'Maximum number of occasions to return (type occasions).',
      'Höchstzahl zurückgegebener Wiederholungen (Typ occasions).',
    ),
  ),
  include: {
    ...integers(l('Limit result set to specific event ids.', 'Nur Ereignisse mit diesen IDs.')),
    default: null,
  },
  max_id_first_page: integer(
    l(
      'Limit result set to rows with id equal or lower than this, so later pages do not shift.',
      'Nur Zeilen mit dieser oder kleinerer ID, damit spätere Seiten stabil bleiben.',
    ),
  ),
  since_id: integer(SINCE_ID),
  since_date: {
    description: l(
      'With since_id: rows with a later date, or the same date and a greater id (UTC, YYYY-MM-DD HH:MM:SS).',
      'Mit since_id: Zeilen mit späterem Datum oder gleichem Datum und größerer ID (UTC, JJJJ-MM-TT HH:MM:SS).',
    ),
    type: 'string',
    format: 'date-time',
    validate: validSinceDate,
  },
  date_from: {
    description: l(
      'Limit result set to rows from this date on (Unix timestamp or YYYY-MM-DD in site time).',
      'Nur Zeilen ab diesem Zeitpunkt (Unix-Zeitstempel oder JJJJ-MM-TT in Ortszeit).',
    ),
    type: 'string',
    validate: validDateBound,
  },
  date_to: {
    description: l(
      'Limit result set to rows up to this date (Unix timestamp or YYYY-MM-DD in site time).',
      'Nur Zeilen bis zu diesem Zeitpunkt (Unix-Zeitstempel oder JJJJ-MM-TT in Ortszeit).',
    ),
    type: 'string',
    validate: validDateBound,
  },
  dates: strings(
    l(
      'Date ranges: month:YYYY-MM, lastdays:N, yesterday or allDates.',
      'Zeiträume: month:JJJJ-MM, lastdays:N, yesterday oder allDates.',
    ),
    atMost(MAX_ALTERNATIVES, validDates),
  ),
  skip_count_query: {
    description: l('Skip the total count query for speed.', 'Gesamtzählung überspringen (schneller).'),
    type: 'boolean',
    default: false,
  },
  lastdays: {
    description: l('Limit result set to rows within the last number of days.', 'Nur Zeilen der letzten Anzahl Tage.'),
    type: 'integer',
    validate: validLastdays,
  },
  months: strings(
    l('Limit result set to these months (YYYY-MM, site time).', 'Nur Zeilen dieser Monate (JJJJ-MM, Ortszeit).'),
    atMost(MAX_ALTERNATIVES, validMonths),
  ),
  loglevels: strings(l('Limit result set to these log levels.', 'Nur diese Protokollstufen.')),
  loggers: strings(l('Limit result set to these loggers.', 'Nur diese Protokollierer.')),
  messages: strings(
    l(
      'Limit result set to these messages, each LoggerSlug:message_key.',
      'Nur diese Meldungen, jeweils LoggerSlug:message_key.',
    ),
    validMessages,
  ),
  users: integers(l('Limit result set to events of these user ids.', 'Nur Ereignisse dieser Benutzer-IDs.')),
  user: integer(l('Limit result set to events of this user id.', 'Nur Ereignisse dieser Benutzer-ID.')),
  offset: integer(
    l('Offset the result set by a specific number of items.', 'Ergebnis um diese Anzahl Einträge verschieben.'),
  ),
  include_sticky: {
    description: l(
      'Include sticky events first on every page.',
      'Angeheftete Ereignisse auf jeder Seite voranstellen.',
    ),
    type: 'boolean',
    default: false,
  },
  only_sticky: {
    description: l('Only return sticky events.', 'Nur angeheftete Ereignisse.'),
    type: 'boolean',
    default: false,
  },
  initiator: {
    description: l(
      'Limit result set to these initiators (cms_user, web_user, cms, cms_cli, other).',
      'Nur diese Auslöser (cms_user, web_user, cms, cms_cli, other).',
    ),
    type: ['string', 'array'],
    items: { type: 'string' },
    validate: atMost(MAX_LIST_ITEMS, validInitiators),
  },
  ip_address: {
    description: l(
      'Limit result set to this IP address; anonymised addresses may end in .x.',
      'Nur diese IP-Adresse; anonymisierte Adressen dürfen auf .x enden.',
    ),
    type: 'string',
    validate: validIp,
  },
  context_filters: {
    description: l(
      'Limit result set to events with these context key/value pairs.',
      'Nur Ereignisse mit diesen Kontext-Schlüssel/Wert-Paaren.',
    ),
    type: 'object',
    additionalProperties: { type: 'string' },
    validate: validContextFilters,
  },
  metadata_search: {
    description: l(
      'Plain-text search over all event metadata; slower than search.',
      'Volltextsuche über alle Metadaten der Ereignisse; langsamer als search.',
    ),
    type: 'string',
  },
  ungrouped: {
    description: l('Return events without occasions grouping.', 'Ereignisse ohne Gruppierung der Wiederholungen.'),
    type: 'boolean',
    default: false,
  },
  surrounding_event_id: integer(
    l(
      'Return the events before and after this event id, ignoring other filters (administrators only).',
      'Ereignisse vor und nach dieser Ereignis-ID, andere Filter werden ignoriert (nur Administratoren).',
    ),
  ),
  surrounding_count: {
    description: l(
      'Number of events before and after the surrounding event.',
      'Anzahl der Ereignisse vor und nach dem Bezugsereignis.',
    ),
    type: 'integer',
    default: 5,
    minimum: 1,
    maximum: 50,
  },
  exclude_search: {
    description: l('Hide events matching these words.', 'Ereignisse mit diesen Wörtern ausblenden.'),
    type: 'string',
  },
  exclude_loglevels: strings(l('Hide events of these log levels.', 'Ereignisse dieser Protokollstufen ausblenden.')),
  exclude_loggers: strings(l('Hide events of these loggers.', 'Ereignisse dieser Protokollierer ausblenden.')),
  exclude_messages: strings(
    l(
      'Hide these messages, each LoggerSlug:message_key.',
      'Diese Meldungen ausblenden, jeweils LoggerSlug:message_key.',
    ),
    validMessages,
  ),
  exclude_users: integers(l('Hide events of these user ids.', 'Ereignisse dieser Benutzer-IDs ausblenden.')),
  exclude_user: integer(l('Hide events of this user id.', 'Ereignisse dieser Benutzer-ID ausblenden.')),
  exclude_initiator: {
    description: l('Hide events of these initiators.', 'Ereignisse dieser Auslöser ausblenden.'),
    type: ['string', 'array'],
    items: { type: 'string' },
    validate: atMost(MAX_LIST_ITEMS, validInitiators),
  },
} as const satisfies Args;

/** GET /events/has-updates: the list's filters from a required cursor. */
export const HAS_UPDATES_ARGS = {
  ...EVENT_LIST_ARGS,
  since_id: integer(SINCE_ID, { required: true }),
} as const satisfies Args;

export type EventListParams = ParamsOf<typeof EVENT_LIST_ARGS>;
export type HasUpdatesParams = ParamsOf<typeof HAS_UPDATES_ARGS>;

export const EVENT_ID_ARG: Args = {
  id: integer(l('Unique identifier for the event.', 'Eindeutige Kennung des Ereignisses.'), { urlParam: 'event_id' }),
};
