// history/v1's arguments: the checks beyond the schema (their failures are 400 rest_invalid_param) and
// the argument sets of the routes (routes.ts).
import { l } from '../../rest/define.ts';
import type { ArgSchema, Args, ParamsOf, RestRequest } from '../../rest/types.ts';
import { RestError } from '../../rest/types.ts';
import { dateBoundMessage, DATES_ITEMS, LASTDAYS_RANGE, MONTHS_ITEMS, parseMessagePairs } from './read/query.ts';
import { MAX_ALTERNATIVES, MAX_DB_INT, MAX_LIST_ITEMS } from '../../db/limits.ts';
import { isIpFilterPattern } from './model/ip.ts';
import {
  FIRST_UNIX,
  isFilterTime,
  isLastdays,
  isStrictUtcDate,
  LAST_UNIX,
  monthRangeUtc,
  parseDateBound,
} from '../../site/zone-time.ts';
import { INITIATORS } from './model/event.ts';

// ---- argument checks beyond the schema (their failures are 400 rest_invalid_param) ----------

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);

/** Refused as the reference refuses: an error whose details carry `data: {status: 400}`. */
function validInitiators(value: unknown, _req: RestRequest, name: string): true | RestError {
  const refuse = (message: string) => new RestError('rest_invalid_param', message, 400, { status: 400 });
  if (typeof value !== 'string' && !Array.isArray(value)) return refuse(`${name} must be a string or array of strings`);
  return list(value).every(
    (v) => typeof v === 'string' && v.split(',').every((one) => (INITIATORS as string[]).includes(one.trim())),
  )
    ? true
    : refuse(`${name} is not one of ${INITIATORS.join(', ')}`);
}

function validDateBound(value: unknown, req: RestRequest, name: string): true | string {
  if (value === '' || value === null) return true;
  return parseDateBound(req.app.options.get('timezone_string'), String(value), name === 'date_to') === null
    ? dateBoundMessage(name)
    : true;
}

/** stats: a Unix timestamp, 0 for the default. */
function validTimestamp(value: unknown, _req: RestRequest, name: string): true | string {
  return value === 0 || isFilterTime(Number(value))
    ? true
    : `${name} must be 0 or a Unix timestamp from ${FIRST_UNIX} to ${LAST_UNIX} (the years 1000 to 9999).`;
}

/**
 * Ids and counts are the database's integers (PostgreSQL's int4): a larger one made the query
 * fail (since_id=2147483648 was a 500 there). A list's items each.
 */
function dbInteger(value: unknown, _req: RestRequest, name: string): true | string {
  return list(value).every((v) => Math.abs(Number(v)) <= MAX_DB_INT)
    ? true
    : `${name} must be between -${MAX_DB_INT} and ${MAX_DB_INT}.`;
}

function validSinceDate(value: unknown): true | string {
  return isStrictUtcDate(String(value)) ? true : 'since_date must have the form YYYY-MM-DD HH:MM:SS (UTC).';
}

function validMonths(value: unknown): true | string {
  return list(value).every((m) => monthRangeUtc('UTC', String(m)) !== null) ? true : MONTHS_ITEMS;
}

function validDates(value: unknown): true | string {
  const ok = list(value).every((item) => {
    const s = String(item);
    return (
      s === 'allDates' ||
      s === 'yesterday' ||
      (/^month:/.test(s) && monthRangeUtc('UTC', s.slice(6)) !== null) ||
      (/^lastdays:\d+$/.test(s) && isLastdays(Number(s.slice(9))))
    );
  });
  return ok ? true : DATES_ITEMS;
}

function validLastdays(value: unknown): true | string {
  return value === 0 || isLastdays(Number(value)) ? true : LASTDAYS_RANGE;
}

function validMessages(value: unknown, _req: RestRequest, name: string): true | string {
  try {
    parseMessagePairs(list(value), name);
    return true;
  } catch (err) {
    return err instanceof RestError ? String((err.data.params as Record<string, string>)[name]) : 'Invalid parameter.';
  }
}

/** The reference's plain refusal: "Invalid parameter." and no details. */
function validIp(value: unknown): boolean {
  return value === '' || isIpFilterPattern(String(value));
}

function validContextFilters(value: unknown): true | string {
  if (!value || typeof value !== 'object' || Array.isArray(value))
    return 'context_filters must be an object of key → value strings.';
  if (Object.keys(value).length > MAX_ALTERNATIVES) return `context_filters may hold at most ${MAX_ALTERNATIVES} keys.`;
  return Object.values(value).every((v) => typeof v === 'string' || typeof v === 'number')
    ? true
    : 'context_filters values must be strings.';
}

// ---- argument declarations ---------------------------------------------------------------

type Validator = NonNullable<ArgSchema['validate']>;

/**
 * At most `max` items, then `inner`. The bound is this server's (what one statement can bind),
 * not the contract's: checked here rather than published as the schema's maxItems.
 */
function atMost(max: number, inner?: Validator): Validator {
  return (value, req, name) => {
    if (Array.isArray(value) && value.length > max) return `${name} may hold at most ${max} items.`;
    return inner ? inner(value, req, name) : true;
  };
}

// The helpers keep their literal types (`as const`): a handler's params are typed from them (ParamsOf).
const strings = (description: ArgSchema['description'], validate: Validator = atMost(MAX_LIST_ITEMS)) =>
  ({ description, type: 'array', items: { type: 'string' }, validate }) as const;
const integers = (description: ArgSchema['description']) =>
  ({ description, type: 'array', items: { type: 'integer' }, validate: atMost(MAX_LIST_ITEMS, dbInteger) }) as const;
/** A single integer arg, bounded by dbInteger. */
export const integer = <const M extends Partial<ArgSchema> = {}>(description: ArgSchema['description'], more?: M) =>
  ({ description, type: 'integer', validate: dbInteger, ...more }) as {
    readonly description: ArgSchema['description'];
    readonly type: 'integer';
    readonly validate: Validator;
  } & NoInfer<M>;

const SINCE_ID = l('Limit result set to rows with id greater than this.', 'Nur Zeilen mit größerer ID als dieser.');

/** GET /events. */
export const EVENT_LIST_ARGS = {
  context: {
    description: l(
      'Scope under which the request is made; determines fields present in response.',
      'Bereich, in dem die Anfrage gestellt wird; bestimmt die Felder der Antwort.',
    ),
    type: 'string',
    default: 'view',
  },
  page: integer(l('Current page of the collection.', 'Aktuelle Seite der Sammlung.'), { default: 1, minimum: 1 }),
  per_page: {
    description: l('Maximum number of items to be returned in result set.', 'Höchstzahl der Einträge im Ergebnis.'),
    type: 'integer',
    default: 10,
    minimum: 1,
    maximum: 100,
  },
  search: {
    description: l('Limit results to those matching a string.', 'Nur Ergebnisse, die zu diesem Text passen.'),
    type: 'string',
  },
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

export const STATS_ARGS = {
  context: {
    description: l(
      'Scope under which the request is made; determines fields present in response.',
      'Bereich, in dem die Anfrage gestellt wird; bestimmt die Felder der Antwort.',
    ),
    type: 'string',
  },
  page: {
    description: l('Current page of the collection.', 'Aktuelle Seite der Sammlung.'),
    type: 'integer',
    default: 1,
    minimum: 1,
  },
  per_page: {
    description: l('Maximum number of items to be returned in result set.', 'Höchstzahl der Einträge im Ergebnis.'),
    type: 'integer',
    default: 10,
    minimum: 1,
    maximum: 100,
  },
  search: {
    description: l('Limit results to those matching a string.', 'Nur Ergebnisse, die zu diesem Text passen.'),
    type: 'string',
  },
  date_from: {
    description: l(
      'Start date as Unix timestamp (default: 30 days ago).',
      'Startzeitpunkt als Unix-Zeitstempel (Standard: vor 30 Tagen).',
    ),
    type: 'integer',
    validate: validTimestamp,
  },
  date_to: {
    description: l(
      'End date as Unix timestamp (default: end of today).',
      'Endzeitpunkt als Unix-Zeitstempel (Standard: Ende des heutigen Tages).',
    ),
    type: 'integer',
    validate: validTimestamp,
  },
  limit: {
    description: l('Maximum number of detail items.', 'Höchstzahl der Detaileinträge.'),
    type: 'integer',
    default: 50,
    minimum: 1,
    maximum: 100,
  },
  include_details: {
    description: l('Include detailed stats.', 'Detaillierte Statistik einschließen.'),
    type: 'boolean',
    default: false,
  },
} as const satisfies Args;

export type StatsParams = ParamsOf<typeof STATS_ARGS>;
