// The statistics routes (reference §6): counts per (logger, message key) in a date range,
// peak days/times and a per-day overview in the site's timezone. Stats are for
// administrators and count every logger.
import { sql } from 'kysely';
import type { AppServices } from '../../../site/services.ts';
import type { Lang } from '../../../rest/types.ts';
import { utcToZone } from '../../../site/time.ts';
import { addDays, endOfDayUtc, parseYmd, startOfDayUtc, todayIn, unixToUtc, utcToUnix, ymdText } from '../../../site/zone-time.ts';
import { contextPairs, loadContexts } from '../model/context.ts';
import { COUNTER_TOTAL, readCounter } from '../model/counters.ts';

export interface StatsRange {
  from: number;
  to: number;
  fromUtc: string;
  toUtc: string;
}

/** date_from/date_to (Unix timestamps); defaults: 00:00 of the day 29 days ago to 23:59:59 today, site time. */
export function statsRange(app: AppServices, params: Record<string, unknown>, now: Date = new Date()): StatsRange {
  const zone = app.options.get('timezone_string');
  const today = todayIn(zone, now);
  const fromTs = Number(params.date_from) || utcToUnix(startOfDayUtc(zone, addDays(today, -29)));
  const toTs = Number(params.date_to) || utcToUnix(endOfDayUtc(zone, today));
  return { from: fromTs, to: toTs, fromUtc: unixToUtc(fromTs), toUtc: unixToUtc(toTs) };
}

/** The JSON schema the stats routes show with context=help, as the reference declares it. */
export function statsSchema(lang: Lang) {
  const d = (en: string, de: string) => (lang === 'de' ? de : en);
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

type KeyCounts = Map<string, number>;

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
    const rows = await app.db
      .selectFrom('history_stats_hourly')
      .select(['logger', 'message_key', sql<number>`sum(${sql.ref('n')})`.as('n')])
      .where('hour', '>=', hours[0])
      .where('hour', '<=', hours[1])
      .groupBy(['logger', 'message_key'])
      .execute();
    for (const row of rows) add(row.logger, row.message_key, Number(row.n));
  }
  for (const [from, to] of edges) {
    const rows = await app.db
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

function sum(counts: KeyCounts, logger: string, keys: string[]): number {
  return keys.reduce((total, key) => total + (counts.get(`${logger}:${key}`) ?? 0), 0);
}

const U = 'SimpleUserLogger';
const P = 'SimplePostLogger';
const M = 'SimpleMediaLogger';
const PL = 'SimplePluginLogger';
const AU = 'AvailableUpdatesLogger';
const C = 'SimpleCoreUpdatesLogger';
const N = 'NotesLogger';

export const LOGIN_KEYS = ['user_logged_in', 'user_unknown_logged_in'];
export const FAILED_LOGIN_KEYS = ['user_login_failed', 'user_unknown_login_failed'];

export function usersSummary(c: KeyCounts) {
  return {
    logins: sum(c, U, LOGIN_KEYS),
    failed_logins: sum(c, U, FAILED_LOGIN_KEYS),
    profile_updates: sum(c, U, ['user_updated_profile']),
    total: sum(c, U, [...LOGIN_KEYS, ...FAILED_LOGIN_KEYS, 'user_updated_profile', 'user_created', 'user_deleted']),
  };
}
export function contentSummary(c: KeyCounts) {
  return {
    created: sum(c, P, ['post_created']),
    updated: sum(c, P, ['post_updated']),
    deleted: sum(c, P, ['post_deleted']),
    total: sum(c, P, ['post_created', 'post_updated', 'post_trashed', 'post_deleted', 'post_restored']),
  };
}
export function mediaSummary(c: KeyCounts) {
  return {
    uploads: sum(c, M, ['attachment_created']),
    edits: sum(c, M, ['attachment_updated']),
    deletions: sum(c, M, ['attachment_deleted']),
    total: sum(c, M, ['attachment_created', 'attachment_updated', 'attachment_deleted']),
  };
}
export function pluginsSummary(c: KeyCounts) {
  return {
    updates: sum(c, PL, ['plugin_updated', 'plugin_bulk_updated']),
    installations: sum(c, PL, ['plugin_installed']),
    activations: sum(c, PL, ['plugin_activated']),
    total:
      sum(c, PL, ['plugin_updated', 'plugin_bulk_updated', 'plugin_installed', 'plugin_deleted', 'plugin_activated', 'plugin_deactivated', 'plugin_update_available']) +
      sum(c, AU, ['plugin_update_available']),
  };
}
export function coreSummary(c: KeyCounts) {
  return {
    updates: sum(c, C, ['core_updated', 'core_auto_updated']),
    available_updates: sum(c, AU, ['core_update_available']),
    total: sum(c, C, ['core_updated', 'core_auto_updated', 'core_update_available']),
  };
}
export function notesSummary(c: KeyCounts) {
  return {
    added: sum(c, N, ['note_added', 'note_reply_added']),
    resolved: sum(c, N, ['note_resolved']),
    total: sum(c, N, ['note_added', 'note_reply_added', 'note_edited', 'note_deleted', 'note_resolved', 'note_reopened']),
  };
}
export { sum as countFor };

export async function statsSummary(app: AppServices, params: Record<string, unknown>) {
  const r = statsRange(app, params);
  const c = await countsByMessage(app, r);
  let total = 0;
  for (const n of c.values()) total += n;
  return {
    date_range: dateRangeInfo(app, r),
    total_events: total,
    total_events_since_install: await readCounter(app.db, COUNTER_TOTAL),
    totals: {
      users: usersSummary(c),
      content: contentSummary(c),
      media: mediaSummary(c),
      plugins: pluginsSummary(c),
      core: coreSummary(c),
      notes: notesSummary(c),
    },
  };
}

/** Events of one logger and keys in the range, newest first, with the named context values. */
async function eventsWithContext(app: AppServices, r: StatsRange, logger: string, keys: string[], limit: number | null) {
  let q = app.db
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
  const contexts = await loadContexts(app.db, rows.map((row) => row.id));
  return rows.map((row) => ({ row, context: Object.fromEntries(contexts.get(row.id) ?? []) }));
}

/** Per-user counts with the latest date (logins, profile updates). */
async function perUser(app: AppServices, r: StatsRange, logger: string, keys: string[], limit: number, countName: string) {
  const rows = await app.db
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
  const users = ids.length ? await app.db.selectFrom('users').select(['id', 'login', 'email']).where('id', 'in', ids).execute() : [];
  const byId = new Map(users.map((u) => [u.id, u]));
  return rows.map((row) => ({
    date: row.last,
    user_id: String(row.user_id),
    user_login: byId.get(row.user_id!)?.login ?? '',
    user_email: byId.get(row.user_id!)?.email ?? '',
    [countName]: String(row.n),
  }));
}

function limitOf(params: Record<string, unknown>): number {
  const n = Number(params.limit);
  return Number.isInteger(n) && n > 0 ? n : 50;
}

export async function statsUsers(app: AppServices, params: Record<string, unknown>) {
  const r = statsRange(app, params);
  const out: Record<string, unknown> = { date_range: dateRangeInfo(app, r), summary: usersSummary(await countsByMessage(app, r)) };
  if (params.include_details !== true) return out;
  const limit = limitOf(params);
  const failed = await app.db
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

export async function statsContent(app: AppServices, params: Record<string, unknown>) {
  const r = statsRange(app, params);
  const out: Record<string, unknown> = { date_range: dateRangeInfo(app, r), summary: contentSummary(await countsByMessage(app, r)) };
  if (params.include_details !== true) return out;
  const limit = limitOf(params);
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

export async function statsMedia(app: AppServices, params: Record<string, unknown>) {
  const r = statsRange(app, params);
  const out: Record<string, unknown> = { date_range: dateRangeInfo(app, r), summary: mediaSummary(await countsByMessage(app, r)) };
  if (params.include_details !== true) return out;
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
      return lang === 'de' ? `vor ${n} ${n === 1 ? eins : viele}` : `${n} ${n === 1 ? one : many} ago`;
    }
  }
  return '';
}

export async function statsPlugins(app: AppServices, params: Record<string, unknown>, lang: Lang) {
  const r = statsRange(app, params);
  const { updates, installations, activations, total } = pluginsSummary(await countsByMessage(app, r));
  const out: Record<string, unknown> = {
    date_range: dateRangeInfo(app, r),
    // The reference's order. The site has no plugin updater: nothing is ever pending.
    summary: { updates, installations, activations, available_updates: 0, total },
  };
  if (params.include_details !== true) return out;
  const limit = limitOf(params);
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

export async function statsCore(app: AppServices, params: Record<string, unknown>) {
  const r = statsRange(app, params);
  return { date_range: dateRangeInfo(app, r), summary: coreSummary(await countsByMessage(app, r)) };
}

export async function statsNotes(app: AppServices, params: Record<string, unknown>) {
  const r = statsRange(app, params);
  return { date_range: dateRangeInfo(app, r), summary: notesSummary(await countsByMessage(app, r)) };
}

/** Events per UTC hour in the range (`YYYY-MM-DD HH` → count): the base of the time charts. */
async function eventsPerHour(app: AppServices, r: StatsRange): Promise<[string, number][]> {
  const { hours, edges } = splitRange(r);
  const out: [string, number][] = [];
  if (hours) {
    const rows = await app.db
      .selectFrom('history_stats_hourly')
      .select(['hour', sql<number>`sum(${sql.ref('n')})`.as('n')])
      .where('hour', '>=', hours[0])
      .where('hour', '<=', hours[1])
      .groupBy('hour')
      .execute();
    for (const row of rows) if (Number(row.n)) out.push([row.hour, Number(row.n)]);
  }
  for (const [from, to] of edges) {
    const rows = await app.db
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

export async function statsPeakDays(app: AppServices, params: Record<string, unknown>, lang: Lang) {
  const r = statsRange(app, params);
  const zone = app.options.get('timezone_string');
  const perDay = new Map<number, number>();
  for (const [hour, n] of await eventsPerHour(app, r)) {
    const day = weekdayOf(localHour(zone, hour).slice(0, 10));
    perDay.set(day, (perDay.get(day) ?? 0) + n);
  }
  const peak_days = [...perDay].sort((a, b) => a[0] - b[0]).map(([day, n]) => ({ day: String(day), count: String(n), day_name: DAY_NAMES[lang][day] }));
  return { date_range: dateRangeInfo(app, r), peak_days };
}

export async function statsPeakTimes(app: AppServices, params: Record<string, unknown>) {
  const r = statsRange(app, params);
  const zone = app.options.get('timezone_string');
  const perHour = new Map<number, number>();
  for (const [hour, n] of await eventsPerHour(app, r)) {
    const h = Number(localHour(zone, hour).slice(11, 13));
    perHour.set(h, (perHour.get(h) ?? 0) + n);
  }
  const peak_times = [...perHour].sort((a, b) => a[0] - b[0]).map(([h, n]) => ({
    hour: String(h),
    count: String(n),
    time_span: `${String(h).padStart(2, '0')}:00-${String(h).padStart(2, '0')}:59`,
  }));
  return { date_range: dateRangeInfo(app, r), peak_times };
}

/** Events per local calendar day of the range (zero-filled). */
export async function countsPerLocalDay(app: AppServices, r: StatsRange): Promise<Map<string, number>> {
  const zone = app.options.get('timezone_string');
  const perDay = new Map<string, number>();
  for (const [hour, n] of await eventsPerHour(app, r)) {
    const day = localHour(zone, hour).slice(0, 10);
    perDay.set(day, (perDay.get(day) ?? 0) + n);
  }
  return perDay;
}

export async function statsActivityOverview(app: AppServices, params: Record<string, unknown>) {
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
