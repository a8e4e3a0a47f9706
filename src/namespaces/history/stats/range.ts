// The statistics routes (reference §6) in a date range: the range, its schema, and the counts
// per (logger, message key) the other statistics add up (stats/summary.ts, details.ts,
// times.ts). Stats are for administrators and count every logger.
import { sql } from 'kysely';
import type { AppServices } from '../../../site/services.ts';
import type { Lang } from '../../../rest/types.ts';
import { l } from '../../../rest/define.ts';
import { utcToZone } from '../../../site/time.ts';
import { addDays, endOfDayUtc, startOfDayUtc, todayIn, unixToUtc, utcToUnix } from '../../../site/zone-time.ts';
import type { StatsParams } from '../args.ts';

export interface StatsRange {
  from: number;
  to: number;
  fromUtc: string;
  toUtc: string;
}

/** date_from/date_to (Unix timestamps); defaults: 00:00 of the day 29 days ago to 23:59:59 today, site time. */
export function statsRange(app: AppServices, params: Pick<StatsParams, 'date_from' | 'date_to'>, now: Date = new Date()): StatsRange {
  const zone = app.options.get('timezone_string');
  const today = todayIn(zone, now);
  const fromTs = params.date_from || utcToUnix(startOfDayUtc(zone, addDays(today, -29)));
  const toTs = params.date_to || utcToUnix(endOfDayUtc(zone, today));
  return { from: fromTs, to: toTs, fromUtc: unixToUtc(fromTs), toUtc: unixToUtc(toTs) };
}

/** The JSON schema the stats routes show with context=help, as the reference declares it. */
export function statsSchema(lang: Lang) {
  const d = (en: string, de: string) => l(en, de)[lang];
  return {
    $schema: 'http://json-schema.org/draft-04/schema#',
    title: 'history-stats',
    type: 'object',
    properties: {
      date_range: {
        description: d('Date range for the stats.', 'Zeitraum der Statistik.'),
        type: 'object',
        properties: {
          from: { description: d('Start date as Unix timestamp.', 'Startzeitpunkt als Unix-Zeitstempel.'), type: 'integer' },
          to: { description: d('End date as Unix timestamp.', 'Endzeitpunkt als Unix-Zeitstempel.'), type: 'integer' },
        },
      },
      summary: { description: d('Summary of stats.', 'Zusammenfassung der Statistik.'), type: 'object' },
      details: { description: d('Detailed stats.', 'Detaillierte Statistik.'), type: 'object' },
    },
  };
}

export function dateRangeInfo(app: AppServices, r: StatsRange) {
  const zone = app.options.get('timezone_string');
  return {
    from: r.from,
    to: r.to,
    from_formatted: utcToZone(r.fromUtc, zone).slice(0, 16),
    to_formatted: utcToZone(r.toUtc, zone).slice(0, 16),
    duration_days: Math.ceil((r.to - r.from) / 86400),
  };
}

export type KeyCounts = Map<string, number>;

const UTC_DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const HOUR = /^\d{4}-\d{2}-\d{2} \d{2}$/;

/** `YYYY-MM-DD HH` of a UTC date text moved by `delta` hours. */
function shiftHour(hour: string, delta: number): string {
  const ms = Date.UTC(Number(hour.slice(0, 4)), Number(hour.slice(5, 7)) - 1, Number(hour.slice(8, 10)), Number(hour.slice(11, 13))) + delta * 3_600_000;
  return new Date(ms).toISOString().slice(0, 13).replace('T', ' ');
}

/**
 * The range cut into whole UTC hours (counted from history_stats_hourly, migration 0009) and
 * the partial hours at its ends (counted from the events): `hours` is null when the range
 * holds no whole hour.
 */
export function splitRange(r: Pick<StatsRange, 'fromUtc' | 'toUtc'>): { hours: [string, string] | null; edges: [string, string][] } {
  const { fromUtc, toUtc } = r;
  if (fromUtc > toUtc) return { hours: null, edges: [] };
  if (!UTC_DATE.test(fromUtc) || !UTC_DATE.test(toUtc)) return { hours: null, edges: [[fromUtc, toUtc]] };
  const first = fromUtc.endsWith(':00:00') ? fromUtc.slice(0, 13) : shiftHour(fromUtc.slice(0, 13), 1);
  const last = toUtc.endsWith(':59:59') ? toUtc.slice(0, 13) : shiftHour(toUtc.slice(0, 13), -1);
  if (first > last || !HOUR.test(first) || !HOUR.test(last)) return { hours: null, edges: [[fromUtc, toUtc]] };
  const edges: [string, string][] = [];
  if (fromUtc < `${first}:00:00`) edges.push([fromUtc, `${shiftHour(first, -1)}:59:59`]);
  if (toUtc > `${last}:59:59`) edges.push([`${shiftHour(last, 1)}:00:00`, toUtc]);
  return { hours: [first, last], edges };
}

/** Number of events per `logger:message_key` in the range. */
export async function countsByMessage(app: AppServices, r: StatsRange): Promise<KeyCounts> {
  const { hours, edges } = splitRange(r);
  const counts: KeyCounts = new Map();
  const add = (logger: string, key: string | null, n: number) => {
    if (!n) return;
    const name = `${logger}:${key ?? ''}`;
    counts.set(name, (counts.get(name) ?? 0) + n);
  };
  if (hours) {
    const rows = await app.readDb
      .selectFrom('history_stats_hourly')
      .select(['logger', 'message_key', sql<number>`sum(${sql.ref('n')})`.as('n')])
      .where('hour', '>=', hours[0])
      .where('hour', '<=', hours[1])
      .groupBy(['logger', 'message_key'])
      .execute();
    for (const row of rows) add(row.logger, row.message_key, Number(row.n));
  }
  for (const [from, to] of edges) {
    const rows = await app.readDb
      .selectFrom('history_events')
      .select(['logger', 'message_key', sql<number>`count(*)`.as('n')])
      .where('date', '>=', from)
      .where('date', '<=', to)
      .groupBy(['logger', 'message_key'])
      .execute();
    for (const row of rows) add(row.logger, row.message_key, Number(row.n));
  }
  return counts;
}
