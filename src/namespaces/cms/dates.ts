// The date bounds of the cms/v2 lists (after, before, modified_after, modified_before): their
// check, run by the pipeline as the arguments' `validate`, and their conversion to the UTC text
// the pages' store compares, which trusts a checked bound.
import type { AppServices } from '../../site/services.ts';
import { RestError, type RestRequest } from '../../rest/types.ts';
import { formatUtc } from '../../site/time.ts';
import { isFilterTime, zoneToUtcMs } from '../../site/zone-time.ts';

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(Z|z|[+-](\d{2})(?::?(\d{2}))?)?/;

/**
 * A date-time (its `date-time` format checked) as UTC milliseconds: with a zone as given,
 * without one in the site's zone (as the reference reads it). Out-of-range parts roll over as
 * PHP's strtotime does (Feb 31 is March 3). NaN for the years 0–99, which Date.UTC would read
 * as 1900–1999.
 */
function boundMs(app: AppServices, text: string): number {
  const m = DATE_TIME.exec(text)!;
  const [y, mo, d, h, mi, sec] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (y < 100) return NaN;
  if (m[7] === undefined) return zoneToUtcMs(String(app.options.get('timezone_string') || 'UTC'), y, mo, d, h, mi, sec);
  const offsetMinutes = /^[Zz]$/.test(m[7])
    ? 0
    : (m[7].startsWith('-') ? -1 : 1) * (Number(m[8]) * 60 + Number(m[9] ?? 0));
  return Date.UTC(y, mo - 1, d, h, mi, sec) - offsetMinutes * 60_000;
}

/** The `validate` of a date bound: in UTC within the years 1000–9999, as the stored dates are; else the format's refusal. */
export function checkDateBound(value: unknown, req: RestRequest): true | RestError {
  return isFilterTime(boundMs(req.app, value as string) / 1000)
    ? true
    : new RestError('rest_invalid_date', 'Invalid date.', 400);
}

/** A checked date bound as UTC text `YYYY-MM-DD HH:MM:SS`. */
export function utcBound(app: AppServices, text: string): string {
  return formatUtc(new Date(boundMs(app, text)));
}
