// The statistics routes (reference §6) in a date range: the range, its schema, and the counts
// per (logger, message key) the other statistics add up (stats/summary.ts, details.ts,
// times.ts). Stats are for administrators and count every logger.
import { sql, type RawBuilder } from 'kysely';
import type { AppServices } from '../../../site/services.ts';
import type { Lang } from '../../../rest/types.ts';
import { l } from '../../../rest/define.ts';
import { utcToZone } from '../../../site/time.ts';
import { addDays, endOfDayUtc, startOfDayUtc, todayIn, unixToUtc, utcToUnix } from '../../../site/zone-time.ts';
import type { StatsParams } from '../args/stats.ts';

export interface StatsRange {
  from: number;
  to: number;
  fromUtc: string;
  toUtc: string;
}

/** date_from/date_to (Unix timestamps); defaults: 00:00 of the day 29 days ago to 23:59:59 today, site time. */
export function statsRange(
  app: AppServices,
  params: Pick<StatsParams, 'date_from' | 'date_to'>,
  now: Date = new Date(),
): StatsRange {
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
          from: {
            description: d('Start date as Unix timestamp.', 'Startzeitpunkt als Unix-Zeitstempel.'),
            type: 'integer',
          },
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
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** A range cut into whole UTC days, whole UTC hours (each a first and last) and the seconds left at its ends. */
export interface RangeCover {
  days: [string, string] | null;
  hours: [string, string][];
  seconds: [string, string][];
}

/**
 * The range's whole UTC days (counted from the daily counts, migration 0022), the whole hours
 * around them (the hourly counts) and the partial hours at its ends (the events themselves).
 */
export function coverRange(r: Pick<StatsRange, 'fromUtc' | 'toUtc'>): RangeCover {
  const { fromUtc, toUtc } = r;
  const whole: RangeCover = { days: null, hours: [], seconds: [[fromUtc, toUtc]] };
  if (fromUtc > toUtc) return { days: null, hours: [], seconds: [] };
  const from = Date.parse(`${fromUtc.replace(' ', 'T')}Z`);
  // Exclusive: the second after the last.
  const end = Date.parse(`${toUtc.replace(' ', 'T')}Z`) + 1000;
  if (!UTC_DATE.test(fromUtc) || !UTC_DATE.test(toUtc) || !(from < end)) return whole;
  const text = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
  const out: RangeCover = { days: null, hours: [], seconds: [] };
  const dayFrom = Math.ceil(from / DAY_MS) * DAY_MS;
  const dayTo = Math.floor(end / DAY_MS) * DAY_MS;
  let rest: [number, number][] = [[from, end]];
  if (dayFrom < dayTo) {
    out.days = [text(dayFrom).slice(0, 10), text(dayTo - DAY_MS).slice(0, 10)];
    rest = [
      [from, dayFrom],
      [dayTo, end],
    ];
  }
  for (const [a, b] of rest) {
    const hourFrom = Math.ceil(a / HOUR_MS) * HOUR_MS;
    const hourTo = Math.floor(b / HOUR_MS) * HOUR_MS;
    let left: [number, number][] = [[a, b]];
    if (hourFrom < hourTo) {
      out.hours.push([text(hourFrom).slice(0, 13), text(hourTo - HOUR_MS).slice(0, 13)]);
      left = [
        [a, hourFrom],
        [hourTo, b],
      ];
    }
    for (const [x, y] of left) if (x < y) out.seconds.push([text(x), text(y - 1000)]);
  }
  // Dates outside the years 0000–9999 have no text of the events' form.
  return [...out.seconds.flat()].every((t) => UTC_DATE.test(t)) &&
    (out.days ?? []).every((d) => UTC_DATE.test(`${d} 00:00:00`))
    ? out
    : whole;
}

/** What events are counted by: columns of the counts tables, and their value in an event row. */
const EVENT_COLUMN = {
  logger: sql`logger`,
  message_key: sql`coalesce(message_key, '')`,
  level: sql`level`,
  user_id: sql`user_id`,
  hour: sql`substr(date, 1, 13)`,
} as const;
export type CountColumn = keyof typeof EVENT_COLUMN;

export interface CountQuery {
  /** The columns counted by. */
  by: CountColumn[];
  /** Counts per UTC day (with a `day` column), or null. */
  daily: 'history_stats_daily' | 'history_stats_daily_users' | null;
  /** Counts per UTC hour (with an `hour` column), or null. */
  hourly: 'history_stats_hourly' | 'history_stats_hourly_levels' | null;
  /** Only these values of columns. */
  only?: Partial<Record<CountColumn, (string | number)[]>>;
  /** Only events with a user (what the per-user counts hold). */
  withUser?: boolean;
}

/**
 * Events of the range counted by the columns: whole days from the daily counts, whole hours from
 * the hourly ones, the rest from the events (a period without counts of its own is read from
 * the next finer ones). Keys are the columns' values joined by NUL.
 */
export async function countInRange(
  app: AppServices,
  r: Pick<StatsRange, 'fromUtc' | 'toUtc'>,
  q: CountQuery,
): Promise<Map<string, { key: unknown[]; n: number }>> {
  const { days, hours, seconds } = coverRange(r);
  const counts = new Map<string, { key: unknown[]; n: number }>();
  const groupBy = sql.join(q.by.map((c) => sql.ref(c)));
  const only = (column: (c: CountColumn) => RawBuilder<unknown>) =>
    Object.entries(q.only ?? {}).map(([c, values]) => sql`${column(c as CountColumn)} in (${sql.join(values)})`);
  const fromTable = (table: string, period: 'day' | 'hour', first: string, last: string) =>
    sql<Record<string, unknown>>`select ${groupBy}, sum(n) as n from ${sql.table(table)}
      where ${sql.join([sql`${sql.ref(period)} between ${first} and ${last}`, ...only((c) => sql.ref(c))], sql` and `)} group by ${groupBy}`;
  const fromEvents = (first: string, last: string) =>
    sql<
      Record<string, unknown>
    >`select ${sql.join(q.by.map((c) => sql`${EVENT_COLUMN[c]} as ${sql.ref(c)}`))}, count(*) as n from history_events
      where ${sql.join([sql`date between ${first} and ${last}`, ...only((c) => EVENT_COLUMN[c]), ...(q.withUser ? [sql`user_id is not null`] : [])], sql` and `)}
      group by ${sql.join(q.by.map((_, i) => sql.raw(String(i + 1))))}`;
  const reads: RawBuilder<Record<string, unknown>>[] = [];
  const hourly = (first: string, last: string) =>
    reads.push(q.hourly ? fromTable(q.hourly, 'hour', first, last) : fromEvents(`${first}:00:00`, `${last}:59:59`));
  if (days) {
    if (q.daily) reads.push(fromTable(q.daily, 'day', days[0], days[1]));
    else hourly(`${days[0]} 00`, `${days[1]} 23`);
  }
  for (const [first, last] of hours) hourly(first, last);
  for (const [first, last] of seconds) reads.push(fromEvents(first, last));
  for (const read of reads) {
    for (const row of (await read.execute(app.readDb)).rows) {
      const n = Number(row.n);
      if (!n) continue;
      const key = q.by.map((c) => row[c]);
      const name = key.join('\u0000');
      const entry = counts.get(name);
      if (entry) entry.n += n;
      else counts.set(name, { key, n });
    }
  }
  return counts;
}

/** Number of events per `logger:message_key` in the range. */
export async function countsByMessage(app: AppServices, r: StatsRange): Promise<KeyCounts> {
  const rows = await countInRange(app, r, {
    by: ['logger', 'message_key'],
    daily: 'history_stats_daily',
    hourly: 'history_stats_hourly',
  });
  return new Map([...rows.values()].map(({ key, n }) => [`${key[0]}:${key[1]}`, n]));
}
