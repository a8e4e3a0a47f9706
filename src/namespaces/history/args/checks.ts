// history/v1's argument checks beyond the schema: their failures are 400 rest_invalid_param.
// The argument sets that use them: args/events.ts, args/stats.ts (helpers: args/shared.ts).
import type { ArgSchema, RestRequest } from '../../../rest/types.ts';
import { RestError } from '../../../rest/types.ts';
import { dateBoundMessage, DATES_ITEMS, LASTDAYS_RANGE, MONTHS_ITEMS, parseMessagePairs } from '../read/query.ts';
import { MAX_ALTERNATIVES, MAX_DB_INT } from '../../../db/limits.ts';
import { isIpFilterPattern } from '../model/ip.ts';
import {
  FIRST_UNIX,
  isFilterTime,
  isLastdays,
  isStrictUtcDate,
  LAST_UNIX,
  monthRangeUtc,
  parseDateBound,
} from '../../../site/zone-time.ts';
import { INITIATORS } from '../model/event.ts';

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);

/** Refused as the reference refuses: an error whose details carry `data: {status: 400}`. */
export function validInitiators(value: unknown, _req: RestRequest, name: string): true | RestError {
  const refuse = (message: string) => new RestError('rest_invalid_param', message, 400, { status: 400 });
  if (typeof value !== 'string' && !Array.isArray(value)) return refuse(`${name} must be a string or array of strings`);
  return list(value).every(
    (v) => typeof v === 'string' && v.split(',').every((one) => (INITIATORS as string[]).includes(one.trim())),
  )
    ? true
    : refuse(`${name} is not one of ${INITIATORS.join(', ')}`);
}

export function validDateBound(value: unknown, req: RestRequest, name: string): true | string {
  if (value === '' || value === null) return true;
  return parseDateBound(req.app.options.get('timezone_string'), String(value), name === 'date_to') === null
    ? dateBoundMessage(name)
    : true;
}

/** stats: a Unix timestamp, 0 for the default. */
export function validTimestamp(value: unknown, _req: RestRequest, name: string): true | string {
  return value === 0 || isFilterTime(Number(value))
    ? true
    : `${name} must be 0 or a Unix timestamp from ${FIRST_UNIX} to ${LAST_UNIX} (the years 1000 to 9999).`;
}

/**
 * Ids and counts are the database's integers (PostgreSQL's int4): a larger one made the query
 * fail (since_id=2147483648 was a 500 there). A list's items each.
 */
export function dbInteger(value: unknown, _req: RestRequest, name: string): true | string {
  return list(value).every((v) => Math.abs(Number(v)) <= MAX_DB_INT)
    ? true
    : `${name} must be between -${MAX_DB_INT} and ${MAX_DB_INT}.`;
}

export function validSinceDate(value: unknown): true | string {
  return isStrictUtcDate(String(value)) ? true : 'since_date must have the form YYYY-MM-DD HH:MM:SS (UTC).';
}

export function validMonths(value: unknown): true | string {
  return list(value).every((m) => monthRangeUtc('UTC', String(m)) !== null) ? true : MONTHS_ITEMS;
}

export function validDates(value: unknown): true | string {
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

export function validLastdays(value: unknown): true | string {
  return value === 0 || isLastdays(Number(value)) ? true : LASTDAYS_RANGE;
}

export function validMessages(value: unknown, _req: RestRequest, name: string): true | string {
  const pairs = parseMessagePairs(list(value), name);
  return typeof pairs === 'string' ? pairs : true;
}

/** The reference's plain refusal: "Invalid parameter." and no details. */
export function validIp(value: unknown): boolean {
  return value === '' || isIpFilterPattern(String(value));
}

export function validContextFilters(value: unknown): true | string {
  if (!value || typeof value !== 'object' || Array.isArray(value))
    return 'context_filters must be an object of key → value strings.';
  if (Object.keys(value).length > MAX_ALTERNATIVES) return `context_filters may hold at most ${MAX_ALTERNATIVES} keys.`;
  return Object.values(value).every((v) => typeof v === 'string' || typeof v === 'number')
    ? true
    : 'context_filters values must be strings.';
}

export type Validator = NonNullable<ArgSchema['validate']>;

/**
 * At most `max` items, then `inner`. The bound is this server's (what one statement can bind),
 * not the contract's: checked here rather than published as the schema's maxItems.
 */
export function atMost(max: number, inner?: Validator): Validator {
  return (value, req, name) => {
    if (Array.isArray(value) && value.length > max) return `${name} may hold at most ${max} items.`;
    return inner ? inner(value, req, name) : true;
  };
}
