// Statistics of the activity log at /cms-admin/admin.php?page=history_stats_page (the
// `stats_page_url` of search-options), for administrators as the stats/* routes are: a chosen
// range, optionally under the activity log's filters. Every chart is a table first (numbers a
// screen reader and a page without scripts read) with a text summary; bars are drawn in the
// table by the server, the activity over time by uPlot in the browser (client/stats.ts).
import type { ConsoleContext, ConsolePage } from '../context.ts';
import { text } from '../context.ts';
import { fmt } from '../../web/api.ts';
import {
  addDays,
  endOfDayUtc,
  parseYmd,
  startOfDayUtc,
  todayIn,
  utcToUnix,
  ymdText,
  type Ymd,
} from '../../site/zone-time.ts';
import { ADMIN_PHP } from '../pages.ts';
import { displayLocale } from '../i18n.ts';
import { filterArgs, filterQuery, isFiltered, readLogQuery } from '../history/query.ts';
import { breakdown } from '../history/breakdown.ts';

export const STATS_PAGE = 'history_stats_page';
const RANGES = ['7', '30', '90', '365'];
const MAX_DAYS = 3660;

/** Rows with the length of their bar, in percent of the largest count. */
function bars<T extends { count: number }>(rows: T[]): (T & { width: number })[] {
  const max = Math.max(1, ...rows.map((r) => r.count));
  return rows.map((r) => ({ ...r, width: Math.round((r.count / max) * 1000) / 10 }));
}

/** Heat steps 1–5 from the quietest to the busiest of the rows (0 only for none). */
function heat<T extends { count: number }>(rows: T[]): (T & { heat: number })[] {
  const counts = rows.map((r) => r.count).filter((n) => n > 0);
  const min = Math.min(...counts);
  const spread = Math.max(...counts) - min;
  return rows.map((r) => ({
    ...r,
    heat: r.count === 0 ? 0 : spread === 0 ? 5 : 1 + Math.round(((r.count - min) / spread) * 4),
  }));
}

function chosenRange(ctx: ConsoleContext): { range: string; from: Ymd; to: Ymd } {
  const zone = ctx.app.options.timeZone();
  const today = todayIn(zone);
  const range = text(ctx.query.range);
  if (range === 'custom') {
    const from = parseYmd(text(ctx.query.from));
    const to = parseYmd(text(ctx.query.to));
    if (from && to && ymdText(from) <= ymdText(to) && ymdText(addDays(from, MAX_DAYS)) >= ymdText(to))
      return { range, from, to };
  }
  const days = RANGES.includes(range) ? Number(range) : 30;
  return { range: String(days), from: addDays(today, -(days - 1)), to: today };
}

async function get<T>(ctx: ConsoleContext, route: string, args: Record<string, unknown>): Promise<T> {
  const out = await ctx.api('GET', route, args);
  if (out.status !== 200) throw new Error(`${route} answered ${out.status}`);
  return out.body as T;
}

async function showStats(ctx: ConsoleContext) {
  const { t, lang } = ctx;
  const zone = ctx.app.options.timeZone();
  const { range, from, to } = chosenRange(ctx);
  const fromUtc = startOfDayUtc(zone, from);
  const toUtc = endOfDayUtc(zone, to);
  const span = { date_from: utcToUnix(fromUtc), date_to: utcToUnix(toUtc) };
  const log = readLogQuery(ctx.query);
  const filters = filterArgs(log.filters);
  const filtered = isFiltered(log.filters);
  const number = (n: number) => n.toLocaleString(displayLocale(lang));

  // The events route checks the filters (one row, no count: only its verdict is wanted).
  const check = await ctx.api('GET', '/history/v1/events', {
    ...filters,
    date_from: String(span.date_from),
    date_to: String(span.date_to),
    ungrouped: true,
    per_page: 1,
    skip_count_query: true,
  });
  const problem = check.status === 200 ? '' : String((check.body as { message?: string }).message ?? '');
  const [summary, peakDays, peakTimes, content, plugins, counts] = await Promise.all([
    get<{ total_events: number; totals: Record<string, Record<string, number>> }>(
      ctx,
      '/history/v1/stats/summary',
      span,
    ),
    get<{ peak_days: { day: string; count: string; day_name: string }[] }>(ctx, '/history/v1/stats/peak-days', span),
    get<{ peak_times: { hour: string; count: string; time_span: string }[] }>(
      ctx,
      '/history/v1/stats/peak-times',
      span,
    ),
    get<{ summary: Record<string, number> }>(ctx, '/history/v1/stats/content', span),
    get<{
      summary: Record<string, number>;
      details: {
        updates: { name: string; version: string; when: string }[];
        installations: { name: string }[];
        activations: { name: string }[];
      };
    }>(ctx, '/history/v1/stats/plugins', { ...span, include_details: true, limit: 10 }),
    problem
      ? null
      : breakdown(
          ctx.app,
          ctx.user,
          lang,
          filters,
          { from: span.date_from, to: span.date_to, fromUtc, toUtc },
          { filtered },
        ),
  ]);
  const overview = filtered
    ? null
    : await get<{ activity_by_date: { date: string; count: string | number }[] }>(
        ctx,
        '/history/v1/stats/activity-overview',
        span,
      );

  // Activity per local day, every day of the range.
  const perDay = new Map<string, number>(
    overview ? overview.activity_by_date.map((d) => [d.date, Number(d.count)]) : [...(counts?.perDay ?? [])],
  );
  const days: { date: string; label: string; count: number }[] = [];
  const dayFormat = new Intl.DateTimeFormat(displayLocale(lang), { dateStyle: 'medium', timeZone: 'UTC' });
  for (let d = from, i = 0; ymdText(d) <= ymdText(to) && i <= MAX_DAYS; d = addDays(d, 1), i++) {
    const date = ymdText(d);
    days.push({ date, label: dayFormat.format(new Date(`${date}T12:00:00Z`)), count: perDay.get(date) ?? 0 });
  }
  const total = days.reduce((s, d) => s + d.count, 0);
  const peak = days.reduce((best, d) => (d.count > best.count ? d : best), days[0]!);

  // Peak days in week order from Monday (de) or Sunday (en); peak hours 0–23.
  const dayRows = peakDays.peak_days.map((d) => ({ label: d.day_name, day: Number(d.day), count: Number(d.count) }));
  const weekdays = [0, 1, 2, 3, 4, 5, 6].map(
    (day) =>
      dayRows.find((d) => d.day === day) ?? {
        label: new Intl.DateTimeFormat(lang, { weekday: 'long', timeZone: 'UTC' }).format(
          new Date(Date.UTC(2024, 0, 7 + day)),
        ),
        day,
        count: 0,
      },
  );
  if (lang === 'de') weekdays.push(weekdays.shift()!);
  const hours = Array.from({ length: 24 }, (_, h) => {
    const row = peakTimes.peak_times.find((p) => Number(p.hour) === h);
    return {
      label: `${String(h).padStart(2, '0')}:00`,
      span: `${String(h).padStart(2, '0')}:00–${String(h).padStart(2, '0')}:59`,
      count: Number(row?.count ?? 0),
    };
  });
  const busiest = <T extends { label: string; count: number }>(rows: T[]) =>
    rows.reduce((b, r) => (r.count > b.count ? r : b), rows[0]!);
  const busyDay = busiest(weekdays);
  const busyHour = busiest(hours);

  const summaryRows = (summary: Record<string, number>) =>
    Object.entries(summary)
      .filter(([k]) => k !== 'total')
      .map(([k, n]) => ({ label: t[`sum_${k}` as keyof typeof t] ?? k.replace(/_/g, ' '), count: Number(n) }));
  const contentRows = summaryRows(content.summary);
  const pluginRows = summaryRows(plugins.summary);
  const formatDay = (d: Ymd) =>
    new Intl.DateTimeFormat(displayLocale(lang), { dateStyle: 'long', timeZone: 'UTC' }).format(
      new Date(`${ymdText(d)}T12:00:00Z`),
    );
  const logFilters = filterQuery(log.filters);

  return ctx.html('stats.twig', t.statsTitle, {
    notices: problem ? [{ kind: 'error', text: fmt(t.apiError, { message: problem }) }] : [],
    form: {
      action: ctx.url(ADMIN_PHP),
      range,
      ranges: RANGES.map((r) => ({ value: r, label: fmt(t.lastDays, { n: r }), selected: r === range })),
      from: ymdText(from),
      to: ymdText(to),
      hidden: logFilters.map(([name, value]) => ({ name, value })),
    },
    rangeLabel: fmt(t.statsRangeLabel, { from: formatDay(from), to: formatDay(to) }),
    filtered,
    filteredText: filtered
      ? fmt(t.statsFiltered, { filters: logFilters.map(([k, v]) => `${k.replace('[]', '')}=${v}`).join(', ') })
      : '',
    logUrl:
      ctx.url(`${ADMIN_PHP}?page=history_admin_menu_page`) +
      (logFilters.length
        ? '&' + logFilters.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')
        : ''),
    totals: [
      { label: t.totalEvents, value: number(filtered ? total : summary.total_events) },
      { label: t.activeUsers, value: number(counts?.activeUsers ?? 0) },
    ],
    activity: {
      days: days.map((d) => ({ ...d, countText: number(d.count) })),
      alt: total
        ? fmt(t.activityOverTimeAlt, {
            from: formatDay(from),
            to: formatDay(to),
            total: number(total),
            peakDay: peak.label,
            peak: number(peak.count),
          })
        : t.noData,
      series: JSON.stringify({
        dates: days.map((d) => d.date),
        counts: days.map((d) => d.count),
        label: t.colEvents,
        dateLabel: t.colDate,
      }),
    },
    weekdays: heat(weekdays),
    weekdaysAlt: busyDay.count ? fmt(t.peakAlt, { label: busyDay.label, n: number(busyDay.count) }) : t.noData,
    hours: heat(hours),
    hoursAlt: busyHour.count ? fmt(t.peakAlt, { label: busyHour.label, n: number(busyHour.count) }) : t.noData,
    users: bars(
      (counts?.byUser ?? []).map((u) => ({
        label: u.name,
        sub: u.login,
        count: u.count,
        url: ctx.user.can('edit_users') ? ctx.url('/cms-admin/user-edit.php', { user_id: String(u.id) }) : '',
      })),
    ),
    loggers: bars((counts?.byLogger ?? []).map((l) => ({ label: l.name, sub: l.slug, count: l.count }))),
    levels: bars(
      (counts?.byLevel ?? []).map((l) => ({
        label: t[`level_${l.level}` as keyof typeof t] ?? l.level,
        count: l.count,
      })),
    ),
    contentRows: bars(contentRows),
    pluginRows: bars(pluginRows),
    pluginUpdates: plugins.details.updates,
  });
}

export const statsPage: ConsolePage = {
  path: ADMIN_PHP,
  adminPage: STATS_PAGE,
  capability: 'manage_options',
  title: 'statsTitle',
  navOrder: 30,
  handle: (ctx) => showStats(ctx),
};
