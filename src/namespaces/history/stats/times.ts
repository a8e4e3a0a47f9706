// GET /stats/peak-days, /peak-times and /activity-overview: events per hour and per day in the site's
// timezone, each hour bucketed at its own UTC offset.
import type { AppServices } from '../../../site/services.ts';
import type { Lang } from '../../../rest/types.ts';
import { utcToZone } from '../../../site/time.ts';
import { addDays, parseYmd, ymdText } from '../../../site/zone-time.ts';
import { countInRange, dateRangeInfo, statsRange, type StatsRange } from './range.ts';
import type { StatsParams } from '../args/stats.ts';

/** Events per UTC hour in the range (`YYYY-MM-DD HH` → count): the base of the time charts. */
async function eventsPerHour(app: AppServices, r: StatsRange): Promise<[string, number][]> {
  const counts = await countInRange(app, r, { by: ['hour'], daily: null, hourly: 'history_stats_hourly_levels' });
  return [...counts.values()].map(({ key, n }) => [String(key[0]), n]);
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/**
 * The local time (as milliseconds of a UTC clock) of UTC hour buckets `YYYY-MM-DD HH`, each at
 * its own start's offset. The zone's offset is read at the start of each UTC day and the next:
 * when both are the same, every hour of the day has it (zones change their offset at most once
 * a day); otherwise each hour is converted. A year has 8,760 hours: converted one by one through
 * date texts they took longer than counting them.
 */
function localHours(zone: string): (utcHour: string) => number {
  const offsetAt = (ms: number) =>
    Date.parse(`${utcToZone(new Date(ms).toISOString().slice(0, 19).replace('T', ' '), zone).replace(' ', 'T')}Z`) - ms;
  const dayOffsets = new Map<number, number | null>();
  return (utcHour) => {
    const ms = Date.UTC(
      Number(utcHour.slice(0, 4)),
      Number(utcHour.slice(5, 7)) - 1,
      Number(utcHour.slice(8, 10)),
      Number(utcHour.slice(11, 13)),
    );
    const day = Math.floor(ms / DAY_MS) * DAY_MS;
    let offset = dayOffsets.get(day);
    if (offset === undefined) {
      const start = offsetAt(day);
      offset = start === offsetAt(day + DAY_MS) && !Number.isNaN(start) ? start : null;
      dayOffsets.set(day, offset);
    }
    return ms + (offset ?? offsetAt(ms));
  };
}

/** Non-negative remainder. */
const mod = (n: number, m: number) => ((n % m) + m) % m;

const DAY_NAMES = {
  en: ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'],
  de: ['Sonntag', 'Montag', 'Dienstag', 'Mittwoch', 'Donnerstag', 'Freitag', 'Samstag'],
};
export function dayNames(lang: Lang): string[] {
  return DAY_NAMES[lang];
}

export function weekdayOf(ymd: string): number {
  const d = parseYmd(ymd)!;
  return new Date(Date.UTC(d.y, d.m - 1, d.d)).getUTCDay();
}

/** Weekday (0 = Sunday) of a local time in milliseconds of a UTC clock (1 January 1970 was a Thursday). */
const weekdayAt = (local: number) => mod(Math.floor(local / DAY_MS) + 4, 7);

export async function statsPeakDays(app: AppServices, params: StatsParams, lang: Lang) {
  const r = statsRange(app, params);
  const perDay = await countsByLocalHour(app, r, weekdayAt);
  const peak_days = [...perDay]
    .sort((a, b) => a[0] - b[0])
    .map(([day, n]) => ({ day: String(day), count: String(n), day_name: DAY_NAMES[lang][day] }));
  return { date_range: dateRangeInfo(app, r), peak_days };
}

export async function statsPeakTimes(app: AppServices, params: StatsParams) {
  const r = statsRange(app, params);
  const perHour = await countsByLocalHour(app, r, (local) => mod(Math.floor(local / HOUR_MS), 24));
  const peak_times = [...perHour]
    .sort((a, b) => a[0] - b[0])
    .map(([h, n]) => ({
      hour: String(h),
      count: String(n),
      time_span: `${String(h).padStart(2, '0')}:00-${String(h).padStart(2, '0')}:59`,
    }));
  return { date_range: dateRangeInfo(app, r), peak_times };
}

/** Events of the range added up by `bucket` of each hour's local time (milliseconds of a UTC clock). */
async function countsByLocalHour<K>(
  app: AppServices,
  r: StatsRange,
  bucket: (local: number) => K,
): Promise<Map<K, number>> {
  const zone = app.options.get('timezone_string');
  const counts = new Map<K, number>();
  const localHour = localHours(zone);
  for (const [hour, n] of await eventsPerHour(app, r)) {
    const key = bucket(localHour(hour));
    counts.set(key, (counts.get(key) ?? 0) + n);
  }
  return counts;
}

/** Events per local calendar day of the range (days without events are absent). */
export async function countsPerLocalDay(app: AppServices, r: StatsRange): Promise<Map<string, number>> {
  const perDay = await countsByLocalHour(app, r, (local) => Math.floor(local / DAY_MS));
  return new Map([...perDay].map(([day, n]) => [new Date(day * DAY_MS).toISOString().slice(0, 10), n]));
}

export async function statsActivityOverview(app: AppServices, params: StatsParams) {
  const r = statsRange(app, params);
  const zone = app.options.get('timezone_string');
  const perDay = await countsPerLocalDay(app, r);
  const first = parseYmd(utcToZone(r.fromUtc, zone).slice(0, 10))!;
  const last = utcToZone(r.toUtc, zone).slice(0, 10);
  const activity_by_date: { date: string; count: string | number }[] = [];
  for (let day = first, i = 0; ymdText(day) <= last && i < 3700; day = addDays(day, 1), i++) {
    const n = perDay.get(ymdText(day));
    activity_by_date.push({ date: ymdText(day), count: n ? String(n) : 0 });
  }
  return { date_range: dateRangeInfo(app, r), activity_by_date };
}
