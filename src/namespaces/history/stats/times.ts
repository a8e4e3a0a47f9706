// GET /stats/peak-days, /peak-times and /activity-overview: events per hour and per day in the site's
// timezone, each hour bucketed at its own UTC offset.
import { sql } from 'kysely';
import type { AppServices } from '../../../site/services.ts';
import type { Lang } from '../../../rest/types.ts';
import { utcToZone } from '../../../site/time.ts';
import { addDays, parseYmd, ymdText } from '../../../site/zone-time.ts';
import { dateRangeInfo, splitRange, statsRange, type StatsRange } from './range.ts';
import type { StatsParams } from '../args.ts';

/** Events per UTC hour in the range (`YYYY-MM-DD HH` → count): the base of the time charts. */
async function eventsPerHour(app: AppServices, r: StatsRange): Promise<[string, number][]> {
  const { hours, edges } = splitRange(r);
  const out: [string, number][] = [];
  if (hours) {
    const rows = await app.readDb
      .selectFrom('history_stats_hourly')
      .select(['hour', sql<number>`sum(${sql.ref('n')})`.as('n')])
      .where('hour', '>=', hours[0])
      .where('hour', '<=', hours[1])
      .groupBy('hour')
      .execute();
    for (const row of rows) if (Number(row.n)) out.push([row.hour, Number(row.n)]);
  }
  for (const [from, to] of edges) {
    const rows = await app.readDb
      .selectFrom('history_events')
      .select([sql<string>`substr(${sql.ref('date')}, 1, 13)`.as('hour'), sql<number>`count(*)`.as('n')])
      .where('date', '>=', from)
      .where('date', '<=', to)
      .groupBy(sql`substr(${sql.ref('date')}, 1, 13)`)
      .execute();
    for (const row of rows) out.push([row.hour, Number(row.n)]);
  }
  return out;
}

/** Local `YYYY-MM-DD HH` of a UTC hour bucket. */
function localHour(zone: string, utcHour: string): string {
  return utcToZone(`${utcHour}:00:00`, zone).slice(0, 13);
}

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

export async function statsPeakDays(app: AppServices, params: StatsParams, lang: Lang) {
  const r = statsRange(app, params);
  const perDay = await countsByLocalHour(app, r, (local) => weekdayOf(local.slice(0, 10)));
  const peak_days = [...perDay].sort((a, b) => a[0] - b[0]).map(([day, n]) => ({ day: String(day), count: String(n), day_name: DAY_NAMES[lang][day] }));
  return { date_range: dateRangeInfo(app, r), peak_days };
}

export async function statsPeakTimes(app: AppServices, params: StatsParams) {
  const r = statsRange(app, params);
  const perHour = await countsByLocalHour(app, r, (local) => Number(local.slice(11, 13)));
  const peak_times = [...perHour].sort((a, b) => a[0] - b[0]).map(([h, n]) => ({
    hour: String(h),
    count: String(n),
    time_span: `${String(h).padStart(2, '0')}:00-${String(h).padStart(2, '0')}:59`,
  }));
  return { date_range: dateRangeInfo(app, r), peak_times };
}

/** Events of the range added up by `bucket` of each hour's local time (`YYYY-MM-DD HH`). */
async function countsByLocalHour<K>(app: AppServices, r: StatsRange, bucket: (local: string) => K): Promise<Map<K, number>> {
  const zone = app.options.get('timezone_string');
  const counts = new Map<K, number>();
  for (const [hour, n] of await eventsPerHour(app, r)) {
    const key = bucket(localHour(zone, hour));
    counts.set(key, (counts.get(key) ?? 0) + n);
  }
  return counts;
}

/** Events per local calendar day of the range (days without events are absent). */
export function countsPerLocalDay(app: AppServices, r: StatsRange): Promise<Map<string, number>> {
  return countsByLocalHour(app, r, (local) => local.slice(0, 10));
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
