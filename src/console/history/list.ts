// The list part of the activity log page: the events of the address's query (the grouped
// overview with sticky events on top, or why it could not be read), and everything the list
// shows: summary, pager pinned to the newest id, what the page's script polls and reloads. The
// list is also sent alone as a fragment (`partial=list`).
import qs from 'qs';
import { fmt } from '../../web/api.ts';
import type { ConsoleContext } from '../context.ts';
import { displayLocale } from '../i18n.ts';
import { ADMIN_PHP, pagerModel } from '../pages.ts';
import type { SearchOptions } from './filter-form.ts';
import { contextFilters, filterArgs, filterQuery, HISTORY_PAGE, listArgs, logUrl, type LogQuery } from './query.ts';
import { eventViews, viewOptions, type ApiEvent } from './view.ts';

export interface ListResult {
  events: Awaited<ReturnType<typeof eventViews>>;
  sticky: Awaited<ReturnType<typeof eventViews>>;
  total: number;
  pages: number;
  maxId: number;
  error: { message: string; params: string[] } | null;
}

/** A list that could not be read: no rows, the reason and the fields it concerns. */
const failedList = (message: string, params: string[]): ListResult => ({
  events: [],
  sticky: [],
  total: 0,
  pages: 0,
  maxId: 0,
  error: { message, params },
});

export async function readList(ctx: ConsoleContext, q: LogQuery, options: SearchOptions): Promise<ListResult> {
  if (q.filters.context !== '' && contextFilters(q.filters.context) === null) {
    return failedList(ctx.t.contextInvalid, ['context']);
  }
  const out = await ctx.api('GET', '/history/v1/events', listArgs(q));
  if (out.status !== 200) {
    const body = out.body as { message?: string; data?: { params?: Record<string, string> } };
    const params = Object.keys(body.data?.params ?? {});
    const detail = Object.values(body.data?.params ?? {}).join(' ');
    return failedList([body.message ?? '', detail].filter(Boolean).join(' '), params);
  }
  const views = await eventViews(out.body as ApiEvent[], viewOptions(ctx, options));
  return {
    events: views.filter((e) => !e.stickyAppended),
    sticky: views.filter((e) => e.stickyAppended),
    total: Number(out.headers['X-WP-Total'] ?? 0),
    pages: Number(out.headers['X-WP-TotalPages'] ?? 0),
    maxId: q.maxId ?? Number(out.headers['X-History-MaxId'] ?? 0),
    error: null,
  };
}

/** Everything the list part of the page shows (also sent alone as a fragment). */
export async function listModel(ctx: ConsoleContext, q: LogQuery, list: ListResult, options: SearchOptions) {
  const { t } = ctx;
  const base = filterQuery(q.filters);
  const pageLink = (paged: number) =>
    logUrl(ctx, [
      ...base,
      ...(paged > 1
        ? ([
            ['paged', String(paged)],
            ['max_id', String(list.maxId)],
          ] as [string, string][])
        : []),
    ]);
  const returnTo = pageLink(q.paged);
  const grouped = !q.filters.search && !q.filters.metadataSearch;
  return {
    list,
    grouped,
    summary: list.error
      ? ''
      : fmt(grouped ? t.eventsCountGroups : t.eventsCount, {
          total: list.total.toLocaleString(displayLocale(ctx.lang)),
        }),
    timesIn: fmt(t.timesInZone, { zone: ctx.app.options.timeZone() }),
    pager: pagerModel(t.pageOf, q.paged, list.pages, pageLink, [
      ['page', HISTORY_PAGE],
      ...base,
      ['max_id', String(list.maxId)],
    ]),
    pageFormAction: ctx.url(ADMIN_PHP),
    occasionsUrl: logUrl(ctx, [
      ['view', 'occasions'],
      ['return_to', returnTo],
    ]),
    canStick: ctx.user.can('manage_options'),
    csrf: await ctx.csrf(),
    actionUrl: ctx.url(ADMIN_PHP) + `?page=${HISTORY_PAGE}`,
    returnTo,
    // What the page's script needs to poll has-updates and to reload the list.
    apiQuery: qs.stringify(filterArgs(q.filters), { arrayFormat: 'brackets', encodeValuesOnly: true }),
    listUrl: logUrl(ctx, base),
    fragmentUrl: logUrl(ctx, [...base, ['partial', 'list']]),
    checkInterval: options.new_events_check_interval,
    newestId: list.maxId,
  };
}
