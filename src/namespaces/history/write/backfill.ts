// "Import existing data": existing users, pages and posts are written into the log once
// (tagged `_backfilled_event`, dated when they were created), so a fresh activity log is not
// empty. Runs the first time the backfill status is asked for (or `events backfill`), then
// reports what it did (reference §4.7).
import type { AppServices } from '../../../site/services.ts';
import type { Lang } from '../../../rest/types.ts';
import { MSG } from '../messages.ts';
import { unixToUtc, utcToUnix } from '../../../site/zone-time.ts';
import { contextPairs } from '../model/context.ts';
import { historyLogger } from '../loggers/history.ts';
import { userLogger } from '../../../auth/logger.ts';
import { loggerEntry, type LoggerDef } from '../../../site/activity.ts';
import { contentLogContext, contentLogger } from '../../../pages/api.ts';

export const BACKFILL_OPTION = 'history_auto_backfill_status';
export const BACKFILL_DAYS = 60;
const BACKFILL_LIMIT = 100;
const CONTENT_TYPES = ['post', 'page'] as const;

interface TypeStats {
  available: number;
  imported: number;
}
interface StoredStatus {
  completed: boolean;
  type_stats: Record<string, TypeStats>;
}

const running = new WeakMap<AppServices, Promise<StoredStatus>>();

/** The values of one context key in the logged events of one logger and message key. */
async function loggedValues<Key extends string>(
  app: AppServices,
  logger: LoggerDef<Key>,
  messageKey: NoInfer<Key>,
  key: string,
): Promise<Set<string | null>> {
  const rows = await app.db
    .selectFrom('history_events as e')
    .innerJoin('history_event_contexts as x', 'x.event_id', 'e.id')
    .innerJoin(contextPairs(app.dialect, 'x.context').as('c'), (join) => join.onTrue())
    .select('c.value')
    .where('e.logger', '=', logger.slug)
    .where('e.message_key', '=', messageKey)
    .where('c.key', '=', key)
    .execute();
  return new Set(rows.map((r) => r.value));
}

/** Writes `user_created` events for users created within the window that the log does not know yet. */
export async function runBackfill(app: AppServices, now: Date = new Date()): Promise<StoredStatus> {
  const since = unixToUtc(utcToUnix(now.toISOString().slice(0, 19).replace('T', ' ')) - BACKFILL_DAYS * 86400);
  const users = await app.db
    .selectFrom('users')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const candidates = users.filter((u) => u.created_at >= since).slice(0, BACKFILL_LIMIT);
  const logged = await loggedValues(app, userLogger, 'user_created', 'created_user_login');
  const origin = { user: null, ip: '', rest: false, initiator: 'cms' as const };
  let imported = 0;
  for (const user of [...candidates].reverse()) {
    if (logged.has(user.login)) continue;
    await app.activity.log(
      loggerEntry(
        userLogger,
        'user_created',
        {
          created_user_id: user.id,
          created_user_login: user.login,
          created_user_email: user.email,
          created_user_role: user.role,
          _backfilled_event: '1',
        },
        { date: user.created_at },
      ),
      origin,
    );
    imported++;
  }
  const typeStats: Record<string, TypeStats> = {};
  let postsImported = 0;
  for (const type of CONTENT_TYPES) {
    const items = await app.db
      .selectFrom('posts')
      .selectAll()
      .where('type', '=', type)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    const recent = items.filter((p) => p.created_at >= since).slice(0, BACKFILL_LIMIT);
    const known = await loggedValues(app, contentLogger, 'content_created', 'content_id');
    for (const item of [...recent].reverse()) {
      if (known.has(String(item.id))) continue;
      await app.activity.log(
        loggerEntry(
          contentLogger,
          'content_created',
          { ...contentLogContext(item), _backfilled_event: '1' },
          { date: item.created_at },
        ),
        origin,
      );
      postsImported++;
    }
    typeStats[type] = { available: items.length, imported: recent.length };
  }
  await app.activity.log(
    loggerEntry(historyLogger, 'auto_backfill_completed', {
      posts_imported: postsImported,
      users_imported: imported,
      days_back: BACKFILL_DAYS,
    }),
    origin,
  );
  typeStats.user = { available: users.length, imported: candidates.length };
  const status: StoredStatus = { completed: true, type_stats: typeStats };
  await app.options.set(BACKFILL_OPTION, status);
  return status;
}

/** The stored status; runs the backfill first when it never ran on this site. */
export async function ensureBackfill(app: AppServices): Promise<StoredStatus> {
  const stored = app.options.get(BACKFILL_OPTION) as StoredStatus | undefined;
  if (stored) return stored;
  let job = running.get(app);
  if (!job) {
    job = runBackfill(app).finally(() => running.delete(app));
    running.set(app, job);
  }
  return job;
}

function missedLabel(type: string, missed: number, lang: Lang): string {
  const names: Record<string, [string, string, string, string]> = {
    user: ['user', 'users', 'weiterer Benutzer', 'weitere Benutzer'],
    page: ['Page', 'Pages', 'weitere Seite', 'weitere Seiten'],
    post: ['Post', 'Posts', 'weiterer Beitrag', 'weitere Beiträge'],
  };
  const name = names[type];
  if (name) {
    if (lang === 'de') return `${missed} ${missed === 1 ? name[2] : name[3]}`;
    return `${missed} more ${missed === 1 ? name[0] : name[1].toLowerCase()}`;
  }
  return MSG.moreOfType(missed, type)[lang];
}

export async function backfillStatus(app: AppServices, lang: Lang) {
  const status = await ensureBackfill(app);
  const entries = Object.entries(status.type_stats ?? {});
  if (!entries.length) return { completed: status.completed, type_stats: [] };
  const type_stats: Record<string, { available: number; imported: number; missed_label: string }> = {};
  for (const [type, s] of entries) {
    type_stats[type] = {
      available: s.available,
      imported: s.imported,
      missed_label: missedLabel(type, Math.max(0, s.available - s.imported), lang),
    };
  }
  return { completed: status.completed, type_stats };
}
