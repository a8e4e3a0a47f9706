// GET /stats/users, /content, /plugins, /core and /notes: the events behind the summaries, per
// user or per object (/media: stats/media.ts).
import { sql } from 'kysely';
import type { AppServices } from '../../../site/services.ts';
import type { Selectable } from 'kysely';
import type { HistoryEventsTable } from '../../../db/schema.ts';
import type { Lang } from '../../../rest/types.ts';
import { MSG } from '../messages.ts';
import { contextPairs } from '../model/context.ts';
import { countInRange, countsByMessage, coverRange, dateRangeInfo, statsRange, type StatsRange } from './range.ts';
import {
  ATTEMPTED_LOGIN_KEYS,
  attemptedKey,
  contentSummary,
  coreSummary,
  FAILED_LOGIN_KEYS,
  LOGIN_KEYS,
  notesSummary,
  P,
  PL,
  pluginsSummary,
  U,
  usersSummary,
} from './summary.ts';
import type { StatsParams } from '../args/stats.ts';

type HistoryEventRow = Selectable<HistoryEventsTable>;

/**
 * Events of one logger and keys in the range, newest first, with their contexts (read in the same
 * statement: a list of the events' ids to look them up by took longer than the events, 43,000
 * media events of a year). Each key is read on its own, in the order of the (logger, key, date)
 * index, which SQLite is told to use: it walked the logger's index by date instead (a year of
 * user events for the few `user_created`: 1.3–2 s).
 */
async function eventsWithContext(app: AppServices, r: StatsRange, logger: string, keys: string[], limit: number) {
  const byKey = app.dialect === 'sqlite' ? sql`indexed by history_events_message_key` : sql``;
  const perKey: (HistoryEventRow & { context: string | null })[][] = [];
  for (const key of keys) {
    const { rows } = await sql<HistoryEventRow & { context: string | null }>`
      select e.*, x.context as context from history_events as e ${byKey}
      left join history_event_contexts as x on x.event_id = e.id
      where e.logger = ${logger} and e.message_key = ${key} and e.date >= ${r.fromUtc} and e.date <= ${r.toUtc}
      order by e.date desc, e.id desc limit ${limit}`.execute(app.readDb);
    perKey.push(rows);
  }
  const merged = perKey.flat().sort((a, b) => (a.date === b.date ? b.id - a.id : a.date < b.date ? 1 : -1));
  return merged.slice(0, limit).map(({ context, ...row }) => ({
    row,
    context: (context === null ? {} : JSON.parse(context)) as Record<string, string | null>,
  }));
}

/**
 * Per-user counts with the latest date (logins, profile updates): the counts from the per-user
 * counts (migration 0022), each listed user's latest such event by the user index.
 */
async function perUser(
  app: AppServices,
  r: StatsRange,
  logger: string,
  keys: string[],
  limit: number,
  countName: string,
) {
  const counts = await countInRange(app, r, {
    by: ['user_id'],
    daily: 'history_stats_daily_users',
    hourly: null,
    withUser: true,
    only: { logger: [logger], message_key: keys },
  });
  const top = [...counts.values()]
    .map(({ key, n }) => ({ id: Number(key[0]), n }))
    .sort((a, b) => b.n - a.n || a.id - b.id)
    .slice(0, limit);
  const ids = top.map((u) => u.id);
  const users = ids.length
    ? await app.readDb.selectFrom('users').select(['id', 'login', 'email']).where('id', 'in', ids).execute()
    : [];
  const byId = new Map(users.map((u) => [u.id, u]));
  const out = [];
  for (const { id, n } of top) {
    const last = await app.readDb
      .selectFrom('history_events')
      .select('date')
      .where('user_id', '=', id)
      .where('date', '>=', r.fromUtc)
      .where('date', '<=', r.toUtc)
      .where('logger', '=', logger)
      .where('message_key', 'in', keys)
      .orderBy('date', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    out.push({
      date: last.date,
      user_id: String(id),
      user_login: byId.get(id)?.login ?? '',
      user_email: byId.get(id)?.email ?? '',
      [countName]: String(n),
    });
  }
  return out;
}

/** The UTC date text `delta` seconds from `utc`. */
const shifted = (utc: string, delta: number) =>
  new Date(Date.parse(`${utc.replace(' ', 'T')}Z`) + delta * 1000).toISOString().slice(0, 19).replace('T', ' ');

/**
 * Days whose failed logins failedLogins reads at once: as many as the SQLite read workers by
 * default. All at once (up to `limit` reads) would queue ahead of every other request's reads in
 * the read pool.
 */
const DAYS_AT_ONCE = 2;

/**
 * Failed logins per attempted name, most first: whole UTC days from their daily counts and
 * latest dates (migrations 0022, 0032), the partial days at the ends from the events, added up
 * and ordered in one statement (so that ties are ordered as the database orders the names). A
 * name's latest attempt is the latest of those, unless a later whole day does not know its
 * latest (a deletion took it): then that day's events are read.
 */
async function failedLogins(app: AppServices, r: StatsRange, limit: number) {
  const { days } = coverRange(r);
  const ends: [string, string][] = [];
  if (!days) ends.push([r.fromUtc, r.toUtc]);
  else {
    if (r.fromUtc < `${days[0]} 00:00:00`) ends.push([r.fromUtc, shifted(`${days[0]} 00:00:00`, -1)]);
    if (r.toUtc > `${days[1]} 23:59:59`) ends.push([shifted(`${days[1]} 23:59:59`, 1), r.toUtc]);
  }
  const failed = (
    from: string,
    to: string,
  ) => sql`from history_events as e join history_event_contexts as x on x.event_id = e.id
    cross join ${contextPairs(app.dialect, 'x.context')} as c
    where e.date >= ${from} and e.date <= ${to} and e.logger = ${U} and e.message_key in (${sql.join(FAILED_LOGIN_KEYS)}) and c.key in (${sql.join(ATTEMPTED_LOGIN_KEYS)})`;
  const parts = ends.map(
    ([from, to]) =>
      sql`select c.value as value, 1 as n, e.date as last, cast(null as varchar(10)) as last_day ${failed(from, to)}`,
  );
  if (days) {
    parts.push(sql`select case when attempted = 'n' then null else substr(attempted, 2) end as value, n, last,
      case when n > 0 and last is null then day end as last_day from history_stats_daily_failed_logins where day >= ${days[0]} and day <= ${days[1]}`);
  }
  if (!parts.length) return [];
  const { rows } = await sql<{ value: string | null; n: number; last: string | null; last_day: string | null }>`
    select value, sum(n) as n, max(last) as last, max(last_day) as last_day from (${sql.join(parts, sql` union all `)}) as u
    group by value having sum(n) > 0 order by sum(n) desc, value asc limit ${limit}`.execute(app.readDb);
  // The latest attempt of names last seen on a whole day that does not know it: from that day's
  // events, about 1,000 failed logins a day of a generated log, DAYS_AT_ONCE days side by side,
  // each on a read worker or connection of its own.
  const dayOf = (row: (typeof rows)[number]) =>
    row.last_day && (!row.last || row.last < `${row.last_day} 00:00:00`) ? row.last_day : null;
  const lastDays = [...new Set(rows.map(dayOf).filter((d) => d !== null))];
  const latest = new Map<string, string>();
  const readDay = async (day: string) => {
    const { rows: found } = await sql<{
      value: string | null;
      last: string;
    }>`select c.value as value, max(e.date) as last ${failed(`${day} 00:00:00`, `${day} 23:59:59`)} group by c.value`.execute(
      app.readDb,
    );
    for (const f of found) latest.set(`${day}|${attemptedKey(f.value)}`, f.last);
  };
  await Promise.all(
    Array.from({ length: DAYS_AT_ONCE }, async (_, lane) => {
      for (let i = lane; i < lastDays.length; i += DAYS_AT_ONCE) await readDay(lastDays[i]!);
    }),
  );
  return rows.map((row) => {
    const day = dayOf(row);
    return {
      date: day ? latest.get(`${day}|${attemptedKey(row.value)}`)! : row.last!,
      attempted_username: row.value ?? '',
      failed_count: String(row.n),
    };
  });
}

/**
 * The users' summary and, with details, its five lists, read side by side: each is a few reads
 * in sequence, and one after another they took 130–390 ms over most of a year (1,000,000
 * events), where the read workers (SQLite) or connections (PostgreSQL) could share them.
 */
export async function statsUsers(app: AppServices, params: StatsParams) {
  const r = statsRange(app, params);
  const limit = params.limit;
  const [counts, details] = await Promise.all([
    countsByMessage(app, r),
    params.include_details &&
      Promise.all([
        eventsWithContext(app, r, U, ['user_created'], limit),
        eventsWithContext(app, r, U, ['user_deleted'], limit),
        perUser(app, r, U, LOGIN_KEYS, limit, 'login_count'),
        failedLogins(app, r, limit),
        perUser(app, r, U, ['user_updated_profile'], limit, 'update_count'),
      ]),
  ]);
  const out: Record<string, unknown> = { date_range: dateRangeInfo(app, r), summary: usersSummary(counts) };
  if (!details) return out;
  const [added, removed, successfulLogins, failed, profileUpdates] = details;
  out.details = {
    successful_logins: successfulLogins,
    failed_logins: failed,
    profile_updates: profileUpdates,
    added_users: added.map(({ row, context }) => ({
      date: row.date,
      user_id: context.created_user_id ?? null,
      user_login: context.created_user_login ?? null,
      user_email: context.created_user_email ?? null,
      user_role: context.created_user_role ?? null,
      added_by_id: context._user_id ?? null,
    })),
    removed_users: removed.map(({ row, context }) => ({
      date: row.date,
      user_login: context.deleted_user_login ?? null,
      user_email: context.deleted_user_email ?? null,
      removed_by_id: context._user_id ?? null,
    })),
  };
  return out;
}

export async function statsContent(app: AppServices, params: StatsParams) {
  const r = statsRange(app, params);
  const out: Record<string, unknown> = {
    date_range: dateRangeInfo(app, r),
    summary: contentSummary(await countsByMessage(app, r)),
  };
  if (!params.include_details) return out;
  const limit = params.limit;
  const details: Record<string, unknown> = {};
  for (const [name, key, verb] of [
    ['content_items_created_details', 'post_created', 'created'],
    ['content_items_updated_details', 'post_updated', 'updated'],
    ['content_items_trashed_details', 'post_trashed', 'trashed'],
    ['content_items_deleted_details', 'post_deleted', 'deleted'],
  ] as const) {
    const rows = await eventsWithContext(app, r, P, [key], limit);
    details[name] = rows.map(({ row, context }) => ({
      [`${verb}_date`]: row.date,
      post_id: context.post_id ?? null,
      post_title: context.post_title ?? null,
      post_type: context.post_type ?? null,
      [`${verb}_by_id`]: context._user_id ?? null,
    }));
  }
  out.details = details;
  return out;
}

function humanAgo(fromUtc: string, lang: Lang, now = Date.now()): string {
  const secs = Math.max(0, Math.floor((now - Date.parse(fromUtc.replace(' ', 'T') + 'Z')) / 1000));
  const units: [number, string, string, string, string][] = [
    [86400, 'day', 'days', 'Tag', 'Tagen'],
    [3600, 'hour', 'hours', 'Stunde', 'Stunden'],
    [60, 'min', 'mins', 'Minute', 'Minuten'],
    [1, 'second', 'seconds', 'Sekunde', 'Sekunden'],
  ];
  for (const [size, one, many, eins, viele] of units) {
    if (secs >= size || size === 1) {
      const n = Math.max(1, Math.floor(secs / size));
      return MSG.ago(n, n === 1 ? one : many, n === 1 ? eins : viele)[lang];
    }
  }
  return '';
}

export async function statsPlugins(app: AppServices, params: StatsParams, lang: Lang) {
  const r = statsRange(app, params);
  const { updates, installations, activations, total } = pluginsSummary(await countsByMessage(app, r));
  const out: Record<string, unknown> = {
    date_range: dateRangeInfo(app, r),
    // The reference's order. The site has no plugin updater: nothing is ever pending.
    summary: { updates, installations, activations, available_updates: 0, total },
  };
  if (!params.include_details) return out;
  const limit = params.limit;
  const list = async (keys: string[]) =>
    (await eventsWithContext(app, r, PL, keys, limit)).map(({ row, context }) => ({
      name: context.plugin_name ?? '',
      version: context.plugin_version ?? '',
      when: humanAgo(row.date, lang),
    }));
  out.details = {
    updates: await list(['plugin_updated', 'plugin_bulk_updated']),
    installations: await list(['plugin_installed']),
    activations: await list(['plugin_activated']),
    available_updates: [],
  };
  return out;
}

export async function statsCore(app: AppServices, params: StatsParams) {
  const r = statsRange(app, params);
  return { date_range: dateRangeInfo(app, r), summary: coreSummary(await countsByMessage(app, r)) };
}

export async function statsNotes(app: AppServices, params: StatsParams) {
  const r = statsRange(app, params);
  return { date_range: dateRangeInfo(app, r), summary: notesSummary(await countsByMessage(app, r)) };
}
