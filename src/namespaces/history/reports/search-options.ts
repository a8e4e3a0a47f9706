// GET /search-options: the filter choices of the log's search form (loggers with their message types,
// initiators, months with events) and its counters.
import { sql } from 'kysely';
import type { AppServices } from '../../../site/services.ts';
import type { AuthUser } from '../../../auth/types.ts';
import type { Lang } from '../../../rest/types.ts';
import type { Initiator, LoggerDef } from '../../../site/activity.ts';
import type { LoggerScope } from '../../../site/loggers.ts';
import { historyAdminUrl } from '../read/render.ts';
import { addDays, startOfDayUtc, todayIn } from '../../../site/zone-time.ts';
import { COUNTER_SUPPRESSED_FAILED_LOGINS, readCounter } from '../model/counters.ts';
import { filterCondition } from '../read/conditions.ts';
import { FAILED_LOGIN_LIMIT } from '../write/group.ts';
import { countSince, dayStarts, INITIATOR_LABELS } from './cards.ts';

/** Distinct `YYYY-MM` months (UTC dates) with events, newest first: one index seek per month. */
async function monthsWithEvents(app: AppServices, scope: LoggerScope): Promise<string[]> {
  const months: string[] = [];
  const base = filterCondition({ scope });
  if (!base) return months;
  let before: string | null = null;
  for (let i = 0; i < 600; i++) {
    let q = app.db
      .selectFrom('history_events')
      .select(sql<string | null>`max(${sql.ref('date')})`.as('d'))
      .where(base);
    if (before) q = q.where('date', '<', before);
    const row = await q.executeTakeFirst();
    if (!row?.d) break;
    const month = row.d.slice(0, 7);
    months.push(month);
    before = `${month}-01 00:00:00`;
  }
  return months;
}

export async function searchOptions(app: AppServices, user: AuthUser, lang: Lang) {
  const scope = app.loggers.scope(user);
  const zone = app.options.get('timezone_string');
  const today = todayIn(zone);
  const pagerSize = 20;
  // daysToShow: the smallest window (1, 7, 14, 30 days) with at least 20 pages of occasions.
  const distinctOccasions = async (days: number) => {
    const cond = filterCondition({ scope, dateFrom: startOfDayUtc(zone, addDays(today, -(days - 1))) });
    if (!cond) return 0;
    const row = await app.db
      .selectFrom('history_events')
      // `|| ''` keeps SQLite on the date range instead of scanning the whole occasions index.
      .select(sql<number>`count(distinct ${sql.ref('occasions_id')} || '')`.as('n'))
      .where(cond)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  const arr: { daysToShow: number; numPages: number }[] = [];
  let daysToShow = 1;
  for (const days of [1, 7, 14, 30]) {
    const pages = (await distinctOccasions(days)) / pagerSize;
    arr.push({ daysToShow: days, numPages: pages });
    daysToShow = days;
    if (pages >= 20) break;
  }
  if (daysToShow === 30 && (arr.at(-1)?.numPages ?? 0) > 1000) daysToShow = 14;
  const starts = dayStarts(app);
  const base = `${app.config.siteUrl}/cms-admin/admin.php`;
  return {
    dates: {
      arr_days_and_pages: arr,
      daysToShow,
      result_months: (await monthsWithEvents(app, scope)).map((yearMonth) => ({ yearMonth })),
    },
    loggers: app.loggers.sorted
      .filter((def) => scope.all || scope.slugs.includes(def.slug))
      .map((def) => ({ slug: def.slug, name: def.name[lang], search_data: searchDataOf(def, lang) })),
    initiators: (Object.keys(INITIATOR_LABELS) as Initiator[]).map((value) => ({
      value,
      label: INITIATOR_LABELS[value][lang],
    })),
    pager_size: { page: pagerSize, dashboard: 5 },
    new_events_check_interval: 10000,
    maps_api_key: '',
    addons: { addons: [], has_extended_settings_add_on: false, has_premium_add_on: false },
    has_failed_login_limit: true,
    failed_login_limit_threshold: FAILED_LOGIN_LIMIT,
    failed_login_suppressed_count: await readCounter(app.db, COUNTER_SUPPRESSED_FAILED_LOGINS),
    experimental_features_enabled: false,
    events_admin_page_url: historyAdminUrl(app),
    settings_page_url: `${base}?page=history_settings_page`,
    stats_page_url: `${base}?page=history_stats_page`,
    current_user_id: user.id,
    current_user_can_manage_options: user.can('manage_options'),
    stats: {
      num_events_today: await countSince(app, scope, starts.today),
      num_events_last_7_days: await countSince(app, scope, starts.week),
    },
  };
}

/**
 * A logger's `search_data` as the reference builds it from its search labels: `search` with
 * every message key of its options (merged in order, as PHP's array_merge does), `search_all`
 * when the logger labels "all of them", and one `search_options` entry per option; `[]` when
 * the logger describes no message types.
 */
function searchDataOf(def: LoggerDef, lang: Lang): Record<string, unknown> | unknown[] {
  const search = def.search;
  if (!search) return [];
  const keys = (messageKeys: string[]) => messageKeys.map((k) => `${def.slug}:${k}`);
  const all = keys(search.options.flatMap((o) => o.messageKeys));
  return {
    search: { label: search.label[lang], options: all },
    ...(search.labelAll ? { search_all: { label: search.labelAll[lang], options: all } } : {}),
    search_options: search.options.map((o) => ({ label: o.label[lang], options: keys(o.messageKeys) })),
  };
}
