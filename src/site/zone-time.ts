// Dates in the site's timezone: days, months and ranges of the filters and statistics,
// converted to the UTC text the events table stores.
import { formatUtc, utcToZone, zoneOffsetHours } from './time.ts';

/**
 * The instants a filter may name: four-digit years, 1000-01-01 00:00:00 to 9999-12-31 23:59:59
 * UTC. Dates are compared as `YYYY-MM-DD HH:MM:SS` text, which cannot name others, and a Date
 * beyond ±8.64e15 ms cannot be formatted at all (date_from=99999999999999999999 was a 500).
 */
export const FIRST_UNIX = Date.UTC(1000, 0, 1) / 1000;
export const LAST_UNIX = Date.UTC(9999, 11, 31, 23, 59, 59) / 1000;

export function isFilterTime(seconds: number): boolean {
  return seconds >= FIRST_UNIX && seconds <= LAST_UNIX;
}

/** The most days `lastdays` may reach back: about a thousand years, so the first day stays within FIRST_UNIX. */
export const MAX_LASTDAYS = 365_000;

/** A `lastdays` count that names days: 1 (today) to MAX_LASTDAYS. */
export function isLastdays(days: number): boolean {
  return Number.isInteger(days) && days >= 1 && days <= MAX_LASTDAYS;
}

export interface Ymd {
  y: number;
  m: number;
  d: number;
}

/** The UTC text of a wall-clock time in the zone. */
export function zoneToUtc(zone: string, y: number, m: number, d: number, hh = 0, mi = 0, ss = 0): string {
  return formatUtc(new Date(zoneToUtcMs(zone, y, m, d, hh, mi, ss)));
}

export function zoneToUtcMs(zone: string, y: number, m: number, d: number, hh = 0, mi = 0, ss = 0): number {
  const wall = Date.UTC(y, m - 1, d, hh, mi, ss);
  let t = wall - zoneOffsetHours(zone, new Date(wall)) * 3_600_000;
  t = wall - zoneOffsetHours(zone, new Date(t)) * 3_600_000;
  return t;
}

/** Today's calendar date in the zone. */
export function todayIn(zone: string, now: Date = new Date()): Ymd {
  return parseYmd(utcToZone(formatUtc(now), zone).slice(0, 10))!;
}

export function parseYmd(text: string): Ymd | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return null;
  const ymd = { y: Number(m[1]), m: Number(m[2]), d: Number(m[3]) };
  const check = new Date(Date.UTC(ymd.y, ymd.m - 1, ymd.d));
  if (check.getUTCFullYear() !== ymd.y || check.getUTCMonth() !== ymd.m - 1 || check.getUTCDate() !== ymd.d)
    return null;
  return ymd;
}

export function addDays(day: Ymd, n: number): Ymd {
  const dt = new Date(Date.UTC(day.y, day.m - 1, day.d + n));
  return { y: dt.getUTCFullYear(), m: dt.getUTCMonth() + 1, d: dt.getUTCDate() };
}

export function ymdText(day: Ymd): string {
  return `${day.y}-${String(day.m).padStart(2, '0')}-${String(day.d).padStart(2, '0')}`;
}

export function startOfDayUtc(zone: string, day: Ymd): string {
  return zoneToUtc(zone, day.y, day.m, day.d, 0, 0, 0);
}

export function endOfDayUtc(zone: string, day: Ymd): string {
  return zoneToUtc(zone, day.y, day.m, day.d, 23, 59, 59);
}

/** First and last second of a `YYYY-MM` month in the zone, as UTC text; null when malformed. */
export function monthRangeUtc(zone: string, month: string): [string, string] | null {
  const m = /^(\d{4})-(\d{2})$/.exec(month);
  if (!m) return null;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  if (mo < 1 || mo > 12) return null;
  const last = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  const from = zoneToUtcMs(zone, y, mo, 1) / 1000;
  const to = zoneToUtcMs(zone, y, mo, last, 23, 59, 59) / 1000;
  return isFilterTime(from) && isFilterTime(to) ? [unixToUtc(from), unixToUtc(to)] : null;
}

export function unixToUtc(seconds: number): string {
  return formatUtc(new Date(seconds * 1000));
}

export function utcToUnix(utc: string): number {
  return Math.floor(Date.parse(utc.replace(' ', 'T') + 'Z') / 1000);
}

/**
 * Seconds since 1970 of a strictly `YYYY-MM-DD HH:MM:SS` UTC time that a calendar has; null for
 * any other text (`02-30` and `24:00:00` too, which Date.parse rolls over). Read character by
 * character, without allocating: the log's columns read a million of them when a server starts
 * (Date.parse and a check of the days that may roll over: 2.2 s of the 3.5 s).
 */
export function strictUtcSeconds(text: string): number | null {
  if (text.length !== 19) return null;
  const at = (i: number) => {
    const d = text.charCodeAt(i) - 48;
    return d >= 0 && d <= 9 ? d : NaN;
  };
  const two = (i: number) => at(i) * 10 + at(i + 1);
  if (text[4] !== '-' || text[7] !== '-' || text[10] !== ' ' || text[13] !== ':' || text[16] !== ':') return null;
  const y = two(0) * 100 + two(2);
  const m = two(5);
  const d = two(8);
  const hh = two(11);
  const mm = two(14);
  const ss = two(17);
  // NaN (a character not a digit) fails every comparison.
  if (!(m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(y, m) && hh < 24 && mm < 60 && ss < 60)) return null;
  return daysFromCivil(y, m, d) * 86400 + hh * 3600 + mm * 60 + ss;
}

const daysInMonth = (y: number, m: number) =>
  m === 2
    ? y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)
      ? 29
      : 28
    : m === 4 || m === 6 || m === 9 || m === 11
      ? 30
      : 31;

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
function daysFromCivil(y: number, m: number, d: number): number {
  const year = m <= 2 ? y - 1 : y;
  const era = Math.floor(year / 400);
  const yearOfEra = year - era * 400;
  const dayOfYear = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

/** Strictly `YYYY-MM-DD HH:MM:SS` and a real calendar time. */
export function isStrictUtcDate(text: string): boolean {
  const m = /^(\d{4}-\d{2}-\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(text);
  if (!m || !parseYmd(m[1])) return false;
  return Number(m[2]) < 24 && Number(m[3]) < 60 && Number(m[4]) < 60;
}

/**
 * A `date_from`/`date_to` value as a Unix timestamp: digits are a timestamp; `YYYY-MM-DD`
 * is the start (or end) of that day in the zone; `YYYY-MM-DD HH:MM[:SS]` a wall time in the
 * zone; other ISO 8601 texts with an offset are parsed as such. null when unparseable or
 * outside FIRST_UNIX…LAST_UNIX (0, "no bound", is returned as it is).
 */
export function parseDateBound(zone: string, text: string, endOfDay: boolean): number | null {
  const ts = parseTimestamp(zone, text.trim(), endOfDay);
  return ts !== null && (ts === 0 || isFilterTime(ts)) ? ts : null;
}

function parseTimestamp(zone: string, s: string, endOfDay: boolean): number | null {
  if (/^-?\d+$/.test(s)) return Number(s);
  const day = parseYmd(s);
  if (day)
    return zoneToUtcMs(zone, day.y, day.m, day.d, endOfDay ? 23 : 0, endOfDay ? 59 : 0, endOfDay ? 59 : 0) / 1000;
  const wall = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(s);
  if (wall) {
    const d = parseYmd(wall[1]);
    if (!d || Number(wall[2]) > 23 || Number(wall[3]) > 59 || Number(wall[4] ?? 0) > 59) return null;
    return zoneToUtcMs(zone, d.y, d.m, d.d, Number(wall[2]), Number(wall[3]), Number(wall[4] ?? 0)) / 1000;
  }
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i.test(s)) {
    const ms = Date.parse(s);
    return Number.isNaN(ms) ? null : Math.floor(ms / 1000);
  }
  return null;
}
