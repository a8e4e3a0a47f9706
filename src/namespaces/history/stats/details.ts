// GET /stats/users, /content, /media, /plugins, /core and /notes: the events behind the summaries, per
// user or per object.
import { sql } from 'kysely';
import type { AppServices } from '../../../site/services.ts';
import type { Lang } from '../../../rest/types.ts';
import { MSG } from '../messages.ts';
import { contextPairs, loadContexts } from '../model/context.ts';
import { countsByMessage, dateRangeInfo, statsRange, type StatsRange } from './range.ts';
import {
  contentSummary, coreSummary, FAILED_LOGIN_KEYS, LOGIN_KEYS, M, mediaSummary, notesSummary, P, PL, pluginsSummary, U, usersSummary,
} from './summary.ts';
import type { StatsParams } from '../args.ts';

/** Events of one logger and keys in the range, newest first, with the named context values. */
async function eventsWithContext(app: AppServices, r: StatsRange, logger: string, keys: string[], limit: number | null) {
  let q = app.readDb
    .selectFrom('history_events')
    .selectAll()
    .where('date', '>=', r.fromUtc)
    .where('date', '<=', r.toUtc)
    .where('logger', '=', logger)
    .where('message_key', 'in', keys)
    .orderBy('date', 'desc')
    .orderBy('id', 'desc');
  if (limit !== null) q = q.limit(limit);
  const rows = await q.execute();
  const contexts = await loadContexts(app.readDb, rows.map((row) => row.id));
  return rows.map((row) => ({ row, context: Object.fromEntries(contexts.get(row.id) ?? []) }));
}

/** Per-user counts with the latest date (logins, profile updates). */
async function perUser(app: AppServices, r: StatsRange, logger: string, keys: string[], limit: number, countName: string) {
  const rows = await app.readDb
    .selectFrom('history_events')
    .select(['user_id', sql<string>`max(${sql.ref('date')})`.as('last'), sql<number>`count(*)`.as('n')])
    .where('date', '>=', r.fromUtc)
    .where('date', '<=', r.toUtc)
    .where('logger', '=', logger)
    .where('message_key', 'in', keys)
    .where('user_id', 'is not', null)
    .groupBy('user_id')
    .orderBy('n', 'desc')
    .orderBy('user_id', 'asc')
    .limit(limit)
    .execute();
  const ids = rows.map((row) => row.user_id!).filter((id) => id !== null);
  const users = ids.length ? await app.readDb.selectFrom('users').select(['id', 'login', 'email']).where('id', 'in', ids).execute() : [];
  const byId = new Map(users.map((u) => [u.id, u]));
  return rows.map((row) => ({
    date: row.last,
    user_id: String(row.user_id),
    user_login: byId.get(row.user_id!)?.login ?? '',
    user_email: byId.get(row.user_id!)?.email ?? '',
    [countName]: String(row.n),
  }));
}

export async function statsUsers(app: AppServices, params: StatsParams) {
  const r = statsRange(app, params);
  const out: Record<string, unknown> = { date_range: dateRangeInfo(app, r), summary: usersSummary(await countsByMessage(app, r)) };
  if (!params.include_details) return out;
  const limit = params.limit;
  const failed = await app.readDb
    .selectFrom('history_events as e')
    .innerJoin('history_event_contexts as x', 'x.event_id', 'e.id')
    .innerJoin(contextPairs(app.dialect, 'x.context').as('c'), (join) => join.onTrue())
    .select([sql<string>`max(e.date)`.as('last'), 'c.value as attempted', sql<number>`count(*)`.as('n')])
    .where('e.date', '>=', r.fromUtc)
    .where('e.date', '<=', r.toUtc)
    .where('e.logger', '=', U)
    .where('e.message_key', 'in', FAILED_LOGIN_KEYS)
    .where('c.key', 'in', ['login', 'failed_username'])
    .groupBy('c.value')
    .orderBy('n', 'desc')
    .orderBy('c.value', 'asc')
    .limit(limit)
    .execute();
  const added = await eventsWithContext(app, r, U, ['user_created'], limit);
  const removed = await eventsWithContext(app, r, U, ['user_deleted'], limit);
  out.details = {
    successful_logins: await perUser(app, r, U, LOGIN_KEYS, limit, 'login_count'),
    failed_logins: failed.map((f) => ({ date: f.last, attempted_username: f.attempted ?? '', failed_count: String(f.n) })),
    profile_updates: await perUser(app, r, U, ['user_updated_profile'], limit, 'update_count'),
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
  const out: Record<string, unknown> = { date_range: dateRangeInfo(app, r), summary: contentSummary(await countsByMessage(app, r)) };
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

export async function statsMedia(app: AppServices, params: StatsParams) {
  const r = statsRange(app, params);
  const out: Record<string, unknown> = { date_range: dateRangeInfo(app, r), summary: mediaSummary(await countsByMessage(app, r)) };
  if (!params.include_details) return out;
  const full = async (key: string) =>
    (await eventsWithContext(app, r, M, [key], null)).map(({ row, context }) => ({
      id: row.id, date: row.date, logger: row.logger, level: row.level, message: row.message,
      occasionsID: row.occasions_id, initiator: row.initiator, context,
    }));
  out.details = { uploads: await full('attachment_created'), edits: await full('attachment_updated'), deletions: await full('attachment_deleted') };
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
