// What the statistics page shows beyond the stats/* routes: events of a date range counted
// per local day, logger, level and user, under the activity log's filters. The routes count
// only the whole log, and not by level or user; these counts use the filters exactly as
// GET /history/v1/events reads them (eventFilterFromParams, filterCondition), so a chart agrees
// with the list it was drawn from. Arguments are checked by the events route first (stats.ts).
// Without filters nothing reads the events of the range (a year holds a million of them).
import { sql } from 'kysely';
import type { AppServices } from '../../site/services.ts';
import type { AuthUser } from '../../auth/types.ts';
import type { Lang } from '../../rest/types.ts';
import { utcToZone } from '../../site/time.ts';
import {
  eventFilterFromParams,
  type EventFilterParams,
  filterCondition,
  countInRange,
  countsByMessage,
  type StatsRange,
  LOG_LEVELS,
} from '../../namespaces/history/api.ts';

export interface Breakdown {
  /** Local day `YYYY-MM-DD` → events (days without events absent). */
  perDay: Map<string, number>;
  byLogger: { slug: string; name: string; count: number }[];
  byLevel: { level: string; count: number }[];
  byUser: { id: number; name: string; login: string; count: number }[];
  /** Distinct users with events. */
  activeUsers: number;
}

/** Without filters, only the site's users are counted while there are at most this many. */
const USERS_COUNTED_SEPARATELY = 500;

export async function breakdown(
  app: AppServices,
  viewer: AuthUser,
  lang: Lang,
  filters: EventFilterParams,
  range: StatsRange,
  opts: { filtered: boolean; users?: number },
): Promise<Breakdown> {
  const zone = app.options.timeZone();
  const f = eventFilterFromParams(filters, {
    loggers: app.loggers,
    scope: app.loggers.scope(viewer),
    zone,
    lang,
    dialect: app.dialect,
  });
  const cond = filterCondition(f);
  if (!cond) return { perDay: new Map(), byLogger: [], byLevel: [], byUser: [], activeUsers: 0 };
  const counts = opts.filtered ? await filteredCounts(app, cond, range, zone) : await wholeLogCounts(app, range);
  const top = [...counts.users].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, opts.users ?? 10);
  const names = top.length
    ? await app.db
        .selectFrom('users')
        .select(['id', 'login', 'display_name'])
        .where(
          'id',
          'in',
          top.map(([id]) => id),
        )
        .execute()
    : [];
  const byId = new Map(names.map((u) => [u.id, u]));
  const desc = <T extends { count: number }>(rows: T[]) =>
    rows.filter((r) => r.count > 0).sort((a, b) => b.count - a.count);
  return {
    perDay: counts.perDay,
    byLogger: desc(
      [...counts.loggers].map(([slug, count]) => ({ slug, name: app.loggers.find(slug)?.name[lang] ?? slug, count })),
    ),
    byLevel: desc([...counts.levels].map(([level, count]) => ({ level, count }))),
    byUser: top.map(([id, count]) => ({
      id,
      name: byId.get(id)?.display_name ?? `#${id}`,
      login: byId.get(id)?.login ?? '',
      count,
    })),
    activeUsers: [...counts.users.values()].filter((n) => n > 0).length,
  };
}

interface Counts {
  perDay: Map<string, number>;
  loggers: Map<string, number>;
  levels: Map<string, number>;
  users: Map<number, number>;
}

function add<K>(map: Map<K, number>, key: K, n: number): void {
  map.set(key, (map.get(key) ?? 0) + n);
}

/**
 * Under filters: the matching events of the range read twice at most, per hour and per
 * logger, level and user at once (a few hundred groups), which the breakdowns are summed from.
 */
async function filteredCounts(
  app: AppServices,
  cond: NonNullable<ReturnType<typeof filterCondition>>,
  range: { fromUtc: string; toUtc: string },
  zone: string,
): Promise<Counts> {
  const inRange = () =>
    app.db.selectFrom('history_events').where(cond).where('date', '>=', range.fromUtc).where('date', '<=', range.toUtc);
  const hour = sql<string>`substr(${sql.ref('date')}, 1, 13)`;
  const [hours, groups] = await Promise.all([
    inRange()
      .select([hour.as('hour'), sql<number>`count(*)`.as('n')])
      .groupBy(hour)
      .execute(),
    inRange()
      .select(['logger', 'level', 'user_id', sql<number>`count(*)`.as('n')])
      .groupBy(['logger', 'level', 'user_id'])
      .execute(),
  ]);
  const counts: Counts = { perDay: new Map(), loggers: new Map(), levels: new Map(), users: new Map() };
  // Hours, not days, are grouped in the database: a local day is not a UTC day.
  for (const row of hours) add(counts.perDay, utcToZone(`${row.hour}:00:00`, zone).slice(0, 10), Number(row.n));
  for (const g of groups) {
    add(counts.loggers, g.logger, Number(g.n));
    add(counts.levels, g.level, Number(g.n));
    if (g.user_id !== null) add(counts.users, g.user_id, Number(g.n));
  }
  return counts;
}

/**
 * The whole log (a range of a year holds a million events): loggers, levels and users from the
 * counts the stats routes read (per hour, day, level and user), never by reading the events
 * themselves beyond the partial hours or days at the range's ends. The days come from
 * stats/activity-overview.
 */
async function wholeLogCounts(app: AppServices, range: StatsRange): Promise<Counts> {
  const counts: Counts = { perDay: new Map(), loggers: new Map(), levels: new Map(), users: new Map() };
  for (const [key, n] of await countsByMessage(app, range)) add(counts.loggers, key.slice(0, key.indexOf(':')), n);
  const levels = await countInRange(app, range, { by: ['level'], daily: null, hourly: 'history_stats_hourly_levels' });
  for (const level of LOG_LEVELS) counts.levels.set(level, levels.get(level)?.n ?? 0);
  const users = await countInRange(app, range, {
    by: ['user_id'],
    daily: 'history_stats_daily_users',
    hourly: null,
    withUser: true,
  });
  // Only the site's users while they are few (events may name users deleted since).
  const people = await app.db
    .selectFrom('users')
    .select('id')
    .orderBy('id')
    .limit(USERS_COUNTED_SEPARATELY + 1)
    .execute();
  if (people.length <= USERS_COUNTED_SEPARATELY) {
    for (const { id } of people) counts.users.set(id, users.get(String(id))?.n ?? 0);
  } else {
    for (const { key, n } of users.values()) counts.users.set(Number(key[0]), n);
  }
  return counts;
}
