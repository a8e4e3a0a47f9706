// "5 minutes ago" in the page's language, the same on the server (first render) and in the
// browser (kept current by the page's script). Pure: no DOM, no Node.

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

const formats = new Map<string, Intl.RelativeTimeFormat>();

export function relativeTime(date: Date, now: Date, lang: string): string {
  const seconds = Math.round((date.getTime() - now.getTime()) / 1000);
  let format = formats.get(lang);
  if (!format) {
    format = new Intl.RelativeTimeFormat(lang, { numeric: 'auto' });
    formats.set(lang, format);
  }
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === 'second') {
      // Under a minute reads as "now"/"jetzt" rather than a count of seconds.
      return unit === 'second' ? format.format(0, 'second') : format.format(Math.trunc(seconds / size), unit);
    }
  }
  return '';
}

/** `YYYY-MM-DD HH:MM:SS` (UTC, as the API's date_gmt) as a Date. */
export function fromGmt(dateGmt: string): Date {
  return new Date(`${dateGmt.replace(' ', 'T')}Z`);
}
