// Dates are stored in UTC as `YYYY-MM-DD HH:MM:SS` (sortable text on both databases).

export function formatUtc(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

export function utcNow(): string {
  return formatUtc(new Date());
}

/** UTC `YYYY-MM-DD HH:MM:SS` of a time in ms (as formatUtc(new Date(ms))), the date part cached. */
export function utcFormatter(): (ms: number) => string {
  let day = NaN;
  let prefix = '';
  const two = (n: number) => (n < 10 ? '0' : '') + n;
  return (ms) => {
    const t = Math.trunc(ms);
    const d = Math.floor(t / 86_400_000);
    if (d !== day) {
      day = d;
      prefix = new Date(d * 86_400_000).toISOString().slice(0, 11).replace('T', ' ');
    }
    const s = Math.floor((t - d * 86_400_000) / 1000);
    return prefix + two(Math.floor(s / 3600)) + ':' + two(Math.floor(s / 60) % 60) + ':' + two(s % 60);
  };
}

// Creating an Intl.DateTimeFormat costs far more than formatting with one (it dominated
// listing events, one per date): one formatter per zone and locale, made once.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(locale: 'en-US', timeZone: string): Intl.DateTimeFormat {
  const key = `${locale}|${timeZone}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    // Zone names come from site options (validated), so the map stays small; bound it anyway.
    if (formatters.size >= 200) formatters.clear();
    formatters.set(key, f);
  }
  return f;
}

/** Offset of the zone at an instant, in milliseconds, computed with the zone's formatter. */
function offsetAt(timeZone: string, ms: number): number {
  const parts = formatter('en-US', timeZone).formatToParts(new Date(ms));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return asUtc - Math.floor(ms / 1000) * 1000;
}

// Offsets only change at transitions, which fall on quarter hours: one formatToParts per
// zone and quarter hour, instead of one per date (a page of events formats many dates).
const QUARTER_HOUR_MS = 900_000;
const offsets = new Map<string, number>();

function cachedOffset(timeZone: string, ms: number): number {
  const slot = Math.floor(ms / QUARTER_HOUR_MS);
  const key = `${timeZone}|${slot}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    offset = offsetAt(timeZone, slot * QUARTER_HOUR_MS);
    if (offsets.size >= 10_000) offsets.clear();
    offsets.set(key, offset);
  }
  return offset;
}

/** Offset of an IANA zone from UTC at the given instant, in hours (e.g. 1 or 2 for Europe/Berlin). */
export function zoneOffsetHours(timeZone: string, at: Date = new Date()): number {
  return Math.round((cachedOffset(timeZone, at.getTime()) / 3_600_000) * 100) / 100;
}

/** Formats a UTC `YYYY-MM-DD HH:MM:SS` date as local time in the zone, same format. */
export function utcToZone(utc: string, timeZone: string): string {
  const ms = Date.parse(utc.replace(' ', 'T') + 'Z');
  if (Number.isNaN(ms)) return utc;
  return formatUtc(new Date(ms + cachedOffset(timeZone, ms)));
}

export function isValidTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
