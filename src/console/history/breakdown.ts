// What the statistics page shows beyond the stats/* routes: events of a date range counted
// per local day, logger, level and user, under the activity log's filters. The routes count
// only the whole log, and not by level or user; these counts use the filters exactly as
// GET /history/v1/events reads them (eventFilterFromParams, filterCondition), so a chart agrees
// with the list it was drawn from. Arguments are checked by the events route first (stats.ts).
import { sql } from 'kysely';
import type { AppServices } from '../../app.ts';
import type { AuthUser } from '../../auth/types.ts';
import type { Lang } from '../../rest/types.ts';
import { utcToZone } from '../../site/time.ts';
import { findLogger, loggerScope } from '../../namespaces/history/catalogue.ts';
import { eventFilterFromParams, filterCondition } from '../../namespaces/history/filters.ts';

export interface Breakdown {
  /** Local day `YYYY-MM-DD` → events (days without events absent). */
  perDay: Map<string, number>;
  byLogger: { slug: string; name: string; count: number }[];
  byLevel: { level: string; count: number }[];
  byUser: { id: number; name: string; login: string; count: number }[];
  /** Distinct users with events. */
  activeUsers: number;
}

export async function breakdown(
  app: AppServices,
  viewer: AuthUser,
  lang: Lang,
  filters: Record<string, unknown>,
  range: { fromUtc: string; toUtc: string },
  opts: { perDay: boolean; users?: number },
): Promise<Breakdown> {
  const zone = app.options.timeZone();
  const f = eventFilterFromParams(filters, { scope: loggerScope(viewer), zone, lang, dialect: app.dialect });
  const cond = filterCondition(f);
  if (!cond) return { perDay: new Map(), byLogger: [], byLevel: [], byUser: [], activeUsers: 0 };
  const inRange = () => app.db.selectFrom('history_events').where(cond).where('date', '>=', range.fromUtc).where('date', '<=', range.toUtc);
  const hour = sql<string>`substr(${sql.ref('date')}, 1, 13)`;
  // Two reads of the range at most: per hour (when the days are wanted), and per logger, level
  // and user at once (a few hundred groups), which the three breakdowns are summed from.
  const [hours, groups] = await Promise.all([
    opts.perDay ? inRange().select([hour.as('hour'), sql<number>`count(*)`.as('n')]).groupBy(hour).execute() : Promise.resolve([]),
    inRange().select(['logger', 'level', 'user_id', sql<number>`count(*)`.as('n')]).groupBy(['logger', 'level', 'user_id']).execute(),
  ]);
  const perDay = new Map<string, number>();
  for (const row of hours) {
    // Hours, not days, are grouped in the database: a local day is not a UTC day.
    const day = utcToZone(`${row.hour}:00:00`, zone).slice(0, 10);
    perDay.set(day, (perDay.get(day) ?? 0) + Number(row.n));
  }
  const add = <K>(map: Map<K, number>, key: K, n: number) => map.set(key, (map.get(key) ?? 0) + n);
  const loggers = new Map<string, number>();
  const levels = new Map<string, number>();
  const people = new Map<number, number>();
  for (const g of groups) {
    const n = Number(g.n);
    add(loggers, g.logger, n);
    add(levels, g.level, n);
    if (g.user_id !== null) add(people, g.user_id, n);
  }
  const top = [...people].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, opts.users ?? 10);
  const names = top.length ? await app.db.selectFrom('users').select(['id', 'login', 'display_name']).where('id', 'in', top.map(([id]) => id)).execute() : [];
  const byId = new Map(names.map((u) => [u.id, u]));
  const desc = <T extends { count: number }>(rows: T[]) => rows.sort((a, b) => b.count - a.count);
  return {
    perDay,
    byLogger: desc([...loggers].map(([slug, count]) => ({ slug, name: findLogger(slug)?.name[lang] ?? slug, count }))),
    byLevel: desc([...levels].map(([level, count]) => ({ level, count }))),
    byUser: top.map(([id, count]) => ({ id, name: byId.get(id)?.display_name ?? `#${id}`, login: byId.get(id)?.login ?? '', count })),
    activeUsers: people.size,
  };
}
