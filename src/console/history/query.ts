// The activity log page's state in its address: the filters as the form sends them (so that a
// filtered view can be bookmarked and shared), and the history/v1 arguments they stand for.
// Names follow the API where they mean the same; `<list>_mode=exclude` turns a list filter
// into its `exclude_<list>` variant, `context` holds key=value lines for context_filters, and
// `paged`/`max_id` are the page and the newest id of the first page (the API's page and
// max_id_first_page; `page` names the console page, as in wp-admin).
import { text, texts, type ConsoleContext } from '../context.ts';
import { ADMIN_PHP } from '../pages.ts';
import type { EventFilterParams } from '../../namespaces/history/api.ts';

export const HISTORY_PAGE = 'history_admin_menu_page';
export const PER_PAGE = 20;

export interface ListFilter {
  values: string[];
  exclude: boolean;
}

export interface LogFilters {
  search: string;
  excludeSearch: string;
  metadataSearch: string;
  /** '' (all dates), 'lastdays:N', 'month:YYYY-MM', 'yesterday' or 'custom'. */
  dates: string;
  dateFrom: string;
  dateTo: string;
  loglevels: ListFilter;
  messages: ListFilter;
  users: ListFilter;
  initiator: ListFilter;
  ip: string;
  /** key=value lines. */
  context: string;
}

export interface LogQuery {
  filters: LogFilters;
  paged: number;
  maxId: number | null;
}

const DATES = /^(lastdays:[1-9]\d{0,4}|month:\d{4}-\d{2}|yesterday|custom)$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

function list(query: Record<string, unknown>, name: string): ListFilter {
  return {
    values: texts(query[name])
      .map((v) => v.trim())
      .filter(Boolean),
    exclude: text(query[`${name}_mode`]) === 'exclude',
  };
}

function positive(value: unknown): number | null {
  const s = text(value);
  return /^[1-9]\d{0,14}$/.test(s) ? Number(s) : null;
}

export function readLogQuery(query: Record<string, unknown>): LogQuery {
  const dates = text(query.dates);
  return {
    filters: {
      search: text(query.search).trim(),
      excludeSearch: text(query.exclude_search).trim(),
      metadataSearch: text(query.metadata_search).trim(),
      dates: DATES.test(dates) ? dates : '',
      dateFrom: DAY.test(text(query.date_from)) ? text(query.date_from) : '',
      dateTo: DAY.test(text(query.date_to)) ? text(query.date_to) : '',
      loglevels: list(query, 'loglevels'),
      messages: list(query, 'messages'),
      users: { ...list(query, 'users'), values: list(query, 'users').values.filter((v) => /^\d+$/.test(v)) },
      initiator: list(query, 'initiator'),
      ip: text(query.ip_address).trim(),
      context: text(query.context).replace(/\r\n?/g, '\n').trim(),
    },
    paged: positive(query.paged) ?? 1,
    maxId: positive(query.max_id),
  };
}

/** key=value lines as an object; null when a non-empty line has no key. */
export function contextFilters(lines: string): Record<string, string> | null {
  const out: Record<string, string> = {};
  for (const line of lines
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)) {
    const eq = line.indexOf('=');
    if (eq <= 0) return null;
    out[line.slice(0, eq).trim()] = line.slice(eq + 1).trim();
  }
  return out;
}

/** The history/v1 filter arguments of the filters (without paging). */
export function filterArgs(f: LogFilters): EventFilterParams {
  const args: EventFilterParams = {};
  if (f.search) args.search = f.search;
  if (f.excludeSearch) args.exclude_search = f.excludeSearch;
  if (f.metadataSearch) args.metadata_search = f.metadataSearch;
  if (f.dates === 'custom') {
    if (f.dateFrom) args.date_from = f.dateFrom;
    if (f.dateTo) args.date_to = f.dateTo;
  } else if (f.dates) {
    args.dates = [f.dates];
  }
  if (f.loglevels.values.length) args[f.loglevels.exclude ? 'exclude_loglevels' : 'loglevels'] = f.loglevels.values;
  if (f.messages.values.length) args[f.messages.exclude ? 'exclude_messages' : 'messages'] = f.messages.values;
  if (f.initiator.values.length) args[f.initiator.exclude ? 'exclude_initiator' : 'initiator'] = f.initiator.values;
  if (f.users.values.length) args[f.users.exclude ? 'exclude_users' : 'users'] = f.users.values.map(Number);
  if (f.ip) args.ip_address = f.ip;
  const context = contextFilters(f.context);
  if (context && Object.keys(context).length) args.context_filters = context;
  return args;
}

/** Whether any filter is set (the unfiltered log is served from maintained groups). */
export function isFiltered(f: LogFilters): boolean {
  return Object.keys(filterArgs(f)).length > 0 || (f.context !== '' && contextFilters(f.context) === null);
}

/** The arguments of GET /history/v1/events for a page of the list. */
export function listArgs(q: LogQuery): Record<string, unknown> {
  const args: Record<string, unknown> = { ...filterArgs(q.filters), per_page: PER_PAGE, page: q.paged };
  // Later pages stay where they were when page 1 was read, even as events arrive.
  if (q.maxId !== null) args.max_id_first_page = q.maxId;
  if (q.paged === 1) args.include_sticky = true;
  return args;
}

/** The page's own query arguments for the filters (what the form sends), in a stable order. */
export function filterQuery(f: LogFilters): [string, string][] {
  const out: [string, string][] = [];
  const add = (name: string, value: string) => value && out.push([name, value]);
  add('search', f.search);
  add('exclude_search', f.excludeSearch);
  add('metadata_search', f.metadataSearch);
  add('dates', f.dates);
  if (f.dates === 'custom') {
    add('date_from', f.dateFrom);
    add('date_to', f.dateTo);
  }
  for (const name of ['loglevels', 'messages', 'users', 'initiator'] as const) {
    for (const v of f[name].values) add(`${name}[]`, v);
    if (f[name].values.length && f[name].exclude) add(`${name}_mode`, 'exclude');
  }
  add('ip_address', f.ip);
  add('context', f.context);
  return out;
}

/** The address of the activity log page with query arguments (and a fragment). */
export function logUrl(ctx: ConsoleContext, query: [string, string][] = [], hash = ''): string {
  const qs = query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  return ctx.url(`${ADMIN_PHP}?page=${HISTORY_PAGE}${qs ? `&${qs}` : ''}`) + hash;
}
