// User and initiator cards and the user search of history/v1; their counters are shared with
// search-options (reports/search-options.ts).
import { sql } from 'kysely';
import type { AppServices } from '../../../site/services.ts';
import type { AuthUser } from '../../../auth/types.ts';
import type { Lang } from '../../../rest/types.ts';
import { l, restError } from '../../../rest/define.ts';
import { MSG } from '../messages.ts';
import type { Initiator } from '../../../site/activity.ts';
import type { LoggerScope } from '../../../site/loggers.ts';
import type { EventFilter } from '../read/query.ts';
import { likeContains } from '../../../db/like.ts';
import { countRows } from '../read/slices.ts';
import { gravatarHash, gravatarUrl, userProfileUrl } from '../read/render.ts';
import { addDays, startOfDayUtc, todayIn } from '../../../site/zone-time.ts';
import { filterCondition } from '../read/conditions.ts';

export const INITIATOR_LABELS: Record<Initiator, { en: string; de: string }> = {
  cms_user: { en: 'CMS user', de: 'CMS-Benutzer' },
  web_user: { en: 'Anonymous web user', de: 'Anonymer Web-Besucher' },
  cms: { en: 'CMS', de: 'CMS' },
  cms_cli: { en: 'CMS CLI', de: 'CMS-Kommandozeile' },
  other: { en: 'Other', de: 'Sonstige' },
};

export async function countSince(
  app: AppServices,
  scope: LoggerScope,
  from: string | undefined,
  extra: Partial<EventFilter> = {},
): Promise<number> {
  const cond = filterCondition({ scope, ...(from ? { dateFrom: from } : {}), ...extra });
  return cond ? countRows(app, cond) : 0;
}

/** Start (UTC) of today and of the day six days ago, site time. */
export function dayStarts(app: AppServices): { today: string; week: string } {
  const zone = app.options.get('timezone_string');
  const today = todayIn(zone);
  return { today: startOfDayUtc(zone, today), week: startOfDayUtc(zone, addDays(today, -6)) };
}

/** GET /search-user?q=: up to 20 users, raw records with string values. */
export async function searchUsers(app: AppServices, q: string) {
  const term = q.trim();
  const has = (col: string) => likeContains(app.dialect, sql`lower(${sql.ref(col)})`, term.toLowerCase());
  let query = app.db.selectFrom('users').select(['id', 'login', 'email', 'display_name']);
  if (term.includes('@')) {
    query = query.where(has('email'));
  } else if (/^\d+$/.test(term)) {
    query = query.where((eb) => eb.or([has('login'), eb('id', '=', Number(term))]));
  } else {
    query = query.where((eb) => eb.or(['login', 'email', 'display_name'].map(has)));
  }
  const rows = await query.orderBy('login').limit(20).execute();
  // `id` repeats `ID`, as the CMS adds it to user rows fetched by field list (the original's
  // screens build their user suggestions from it).
  return rows.map((u) => ({
    ID: String(u.id),
    user_login: u.login,
    user_nicename: u.login.toLowerCase(),
    user_email: u.email,
    display_name: u.display_name,
    id: String(u.id),
  }));
}

export async function userCard(app: AppServices, userId: number, viewer: AuthUser, lang: Lang) {
  const user = await app.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
  if (!user) throw restError({ lang }, 'rest_user_not_found', MSG.userNotFound, 404);
  const profile = userProfileUrl(app, viewer, user.id);
  return {
    user_id: user.id,
    display_name: user.display_name,
    user_login: user.login,
    user_email: user.email,
    avatar_url: gravatarUrl(gravatarHash(user.email), 96),
    profile_url: profile,
    roles: [user.role],
    has_premium_add_on: false,
    details: [],
    // The action is there for every viewer; its link is empty for those who may not follow it.
    actions: [{ key: 'view_profile', label: MSG.viewUserProfile[lang], url: profile }],
  };
}

export async function initiatorCard(app: AppServices, type: Initiator, viewer: AuthUser, lang: Lang) {
  const scope = app.loggers.scope(viewer);
  const starts = dayStarts(app);
  const only = { initiators: [type] };
  const stat = (key: string, en: string, de: string, value: number) => ({
    key,
    label: l(en, de)[lang],
    value,
    type: 'stat',
  });
  return {
    initiator: type,
    has_premium_add_on: false,
    details: [
      stat('events_today', 'Today', 'Heute', await countSince(app, scope, starts.today, only)),
      stat('events_7_days', 'Last 7 days', 'Letzte 7 Tage', await countSince(app, scope, starts.week, only)),
      stat('events_total', 'Total', 'Gesamt', await countSince(app, scope, undefined, only)),
    ],
    actions: [],
  };
}
