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
}

export async function breakdown(
  app: AppServices,
  viewer: AuthUser,
  lang: Lang,
  filters: Record<string, unknown>,
  range: { fromUtc: string; toUtc: string },
  users = 10,
): Promise<Breakdown> {
  const zone = app.options.timeZone();
  const f = eventFilterFromParams(filters, { scope: loggerScope(viewer), zone, lang, dialect: app.dialect });
  const cond = filterCondition(f);
  const empty: Breakdown = { perDay: new Map(), byLogger: [], byLevel: [], byUser: [] };
  if (!cond) return empty;
  const inRange = () => app.db.selectFrom('history_events').where(cond).where('date', '>=', range.fromUtc).where('date', '<=', range.toUtc);
  const hour = sql<string>`substr(${sql.ref('date')}, 1, 13)`;
  const [hours, loggers, levels, people] = await Promise.all([
    inRange().select([hour.as('hour'), sql<number>`count(*)`.as('n')]).groupBy(hour).execute(),
    inRange().select(['logger', sql<number>`count(*)`.as('n')]).groupBy('logger').execute(),
    inRange().select(['level', sql<number>`count(*)`.as('n')]).groupBy('level').execute(),
    inRange()
      .select(['user_id', sql<number>`count(*)`.as('n')])
      .where('user_id', 'is not', null)
      .groupBy('user_id')
      .orderBy(sql`count(*)`, 'desc')
      .orderBy('user_id')
      .limit(users)
      .execute(),
  ]);
  const perDay = new Map<string, number>();
  for (const row of hours) {
    // Hours, not days, are grouped in the database: a local day is not a UTC day.
    const day = utcToZone(`${row.hour}:00:00`, zone).slice(0, 10);
    perDay.set(day, (perDay.get(day) ?? 0) + Number(row.n));
  }
  const ids = people.map((p) => p.user_id!);
  const names = ids.length ? await app.db.selectFrom('users').select(['id', 'login', 'display_name']).where('id', 'in', ids).execute() : [];
  const byId = new Map(names.map((u) => [u.id, u]));
  const desc = <T extends { count: number }>(rows: T[]) => rows.sort((a, b) => b.count - a.count);
  return {
    perDay,
    byLogger: desc(loggers.map((r) => ({ slug: r.logger, name: findLogger(r.logger)?.name[lang] ?? r.logger, count: Number(r.n) }))),
    byLevel: desc(levels.map((r) => ({ level: r.level, count: Number(r.n) }))),
    byUser: people.map((p) => ({ id: p.user_id!, name: byId.get(p.user_id!)?.display_name ?? `#${p.user_id}`, login: byId.get(p.user_id!)?.login ?? '', count: Number(p.n) })),
  };
}
