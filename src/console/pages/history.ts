// The activity log at /cms-admin/admin.php?page=history_admin_menu_page (the address of every
// event's `link` and `permalink`): the grouped list with sticky events on top, its filters in
// the address, paging pinned to the newest id of the first page, a single event's view, the
// actions (stick, unstick, custom entry) and the streamed export. The page's script (client/
// history.ts) expands occasions, announces new events, opens `#history/event/<id>` and runs the
// actions through the REST API; without it, links and forms do the same through this page.
// The page's parts live in src/console/history/: the address (query.ts), the filter form
// (filter-form.ts), the list (list.ts), the events' views (view.ts) and the export (export.ts).
import type { FastifyReply } from 'fastify';
import { LOG_LEVELS, purgeAndLog } from '../../namespaces/history/api.ts';
import type { ConsoleContext, ConsolePage, Notice } from '../context.ts';
import { text } from '../context.ts';
import { fmt } from '../../web/api.ts';
import { ADMIN_PHP, pagePath } from '../pages.ts';
import { startExport, type ExportFormat } from '../history/export.ts';
import { filterForm, searchOptions, type SearchOptions } from '../history/filter-form.ts';
import { listModel, readList } from '../history/list.ts';
import {
  filterArgs,
  filterQuery,
  HISTORY_PAGE,
  isFiltered,
  logUrl,
  readLogQuery,
  type LogQuery,
} from '../history/query.ts';
import { eventView, eventViews, viewOptions, type ApiEvent } from '../history/view.ts';
import { statsPage } from './stats.ts';

/** Texts the page's script shows. */
const CLIENT_STRINGS = [
  'newEvent',
  'newEvents',
  'showNewEvents',
  'eventHeading',
  'loadFailed',
  'stuck',
  'unstuck',
  'entryAdded',
  'exportProgress',
  'exportDone',
  'exportFailed',
] as const;

const DONE: Record<string, keyof ConsoleContext['t']> = {
  stuck: 'stuck',
  unstuck: 'unstuck',
  added: 'entryAdded',
  cleared: 'cleared',
};

/** Who may clear the log: the original offers "Clear log" on its settings page, to those who manage options. */
const CLEAR_LOG_CAPABILITY = 'manage_options';

/**
 * "Add a user" of the filter form without the page's script: the user whose id, login or
 * e-mail address is the text (or the only one search-user finds) joins the users filter.
 */
async function addUserFilter(ctx: ConsoleContext, q: LogQuery, wanted: string): Promise<FastifyReply | Notice> {
  const out = await ctx.api('GET', '/history/v1/search-user', { q: wanted });
  const found = out.status === 200 ? (out.body as { ID: string; user_login: string; user_email: string }[]) : [];
  const w = wanted.toLowerCase();
  const exact = found.filter(
    (u) => u.ID === wanted || u.user_login.toLowerCase() === w || u.user_email.toLowerCase() === w,
  );
  const user = exact.length === 1 ? exact[0] : found.length === 1 ? found[0] : undefined;
  if (!user) return { kind: 'error', text: ctx.t.noUserFound };
  const users = { ...q.filters.users, values: [...new Set([...q.filters.users.values, user.ID])] };
  return ctx.redirect(logUrl(ctx, filterQuery({ ...q.filters, users })), 303);
}

async function showLog(ctx: ConsoleContext, notices: Notice[], status = 200): Promise<FastifyReply> {
  const q = readLogQuery(ctx.query);
  const wanted = text(ctx.query.add_user).trim();
  if (wanted && ctx.user.can('list_users')) {
    const added = await addUserFilter(ctx, q, wanted);
    if ('kind' in added) notices.push(added);
    else return added;
  }
  const options = await searchOptions(ctx);
  const singleId = text(ctx.query.event);
  if (/^\d+$/.test(singleId)) return showEvent(ctx, Number(singleId), options, false);
  const list = await readList(ctx, q, options);
  if (ctx.query.partial === 'list')
    return ctx.fragment('history-list.twig', await listModel(ctx, q, list, options), list.error ? 400 : 200);
  const done = DONE[text(ctx.query.done)];
  if (done) notices.push({ kind: 'success', text: ctx.t[done] });
  if (list.error) notices.push({ kind: 'error', text: list.error.message });
  return ctx.html(
    'history.twig',
    ctx.t.historyTitle,
    {
      notices,
      form: {
        ...(await filterForm(ctx, q.filters, options)),
        action: ctx.url(ADMIN_PHP),
        invalid: list.error?.params ?? [],
        filtered: isFiltered(q.filters),
        resetUrl: logUrl(ctx),
      },
      ...(await listModel(ctx, q, list, options)),
      levels: LOG_LEVELS.map((l) => ({ value: l, label: ctx.t[`level_${l}`] })),
      canAddEntry: ctx.user.can('manage_options'),
      canClearLog: ctx.user.can(CLEAR_LOG_CAPABILITY),
      actionUrl: ctx.url(pagePath({ path: ADMIN_PHP, adminPage: HISTORY_PAGE })),
      exportCsv: logUrl(ctx, [...filterQuery(q.filters), ['export', 'csv']]),
      exportJson: logUrl(ctx, [...filterQuery(q.filters), ['export', 'json']]),
      clientStrings: JSON.stringify(Object.fromEntries(CLIENT_STRINGS.map((k) => [k, ctx.t[k]]))),
      statsUrl: ctx.user.can(statsPage.capability!)
        ? ctx.url(pagePath(statsPage, Object.fromEntries(filterQuery(q.filters))))
        : '',
    },
    list.error ? 400 : status,
  );
}

/** One event: a fragment for the page's dialog (`#history/event/<id>`), or a page of its own. */
async function showEvent(
  ctx: ConsoleContext,
  id: number,
  options: SearchOptions,
  fragment: boolean,
): Promise<FastifyReply> {
  const out = await ctx.api('GET', `/history/v1/events/${id}`);
  const error =
    out.status === 404 ? fmt(ctx.t.eventNotFound, { id }) : out.status !== 200 ? fmt(ctx.t.eventForbidden, { id }) : '';
  const event = error ? null : await eventView(out.body as ApiEvent, viewOptions(ctx, options));
  const model = {
    event,
    error,
    heading: fmt(ctx.t.eventHeading, { id }),
    canStick: ctx.user.can('manage_options'),
    csrf: await ctx.csrf(),
    returnTo: logUrl(ctx, [['event', String(id)]]),
    actionUrl: ctx.url(pagePath({ path: ADMIN_PHP, adminPage: HISTORY_PAGE })),
  };
  if (fragment)
    return ctx.fragment('history-event.twig', model, out.status === 200 ? 200 : out.status === 404 ? 404 : 403);
  return ctx.html(
    'history-single.twig',
    fmt(ctx.t.eventHeading, { id }),
    { ...model, backUrl: logUrl(ctx) },
    out.status === 200 ? 200 : out.status === 404 ? 404 : 403,
  );
}

/**
 * Similar events the console shows at most (the reference's screen shows 15): a group can hold a
 * hundred thousand, which as one page would take the server's memory and the browser's.
 */
const OCCASIONS_SHOWN = 200;

/**
 * The hidden members of a group (type=occasions), below its head: a fragment the page's script
 * inserts under the group, or (without it) a page of their own.
 */
async function showOccasions(ctx: ConsoleContext, fragment: boolean): Promise<FastifyReply> {
  const count = Number(text(ctx.query.count)) || 0;
  const out = await ctx.api('GET', '/history/v1/events', {
    type: 'occasions',
    occasionsID: text(ctx.query.occasions_id),
    logRowID: Number(text(ctx.query.below)) || 0,
    occasionsCount: count,
    occasionsCountMaxReturn: OCCASIONS_SHOWN,
  });
  const error = out.status === 200 ? '' : String((out.body as { message?: string }).message ?? '');
  const options = await searchOptions(ctx);
  const back = ctx.returnTo(ctx.query.return_to, logUrl(ctx));
  const events = error ? [] : (out.body as ApiEvent[]);
  const hidden = events.length === OCCASIONS_SHOWN ? count - OCCASIONS_SHOWN : 0;
  const model = {
    events: await eventViews(events, viewOptions(ctx, options)),
    error,
    more: hidden > 0 ? fmt(ctx.t.moreSimilar, { shown: OCCASIONS_SHOWN, n: hidden }) : '',
    grouped: false,
    canStick: ctx.user.can('manage_options'),
    csrf: await ctx.csrf(),
    actionUrl: ctx.url(ADMIN_PHP) + `?page=${HISTORY_PAGE}`,
    returnTo: back,
  };
  if (fragment) return ctx.fragment('history-events.twig', model, out.status);
  return ctx.html('history-occasions.twig', ctx.t.similarHeading, { ...model, backUrl: back }, out.status);
}

async function exportLog(ctx: ConsoleContext, format: ExportFormat): Promise<FastifyReply> {
  const q = readLogQuery(ctx.query);
  const result = await startExport(ctx, filterArgs(q.filters), format);
  if (!result.stream) return ctx.message(result.status, ctx.t.exportFailed, result.error ?? '');
  const stamp = new Date().toISOString().slice(0, 16).replace(/[-:T]/g, '');
  result.stream.on('error', (err) => ctx.app.log.error({ err }, 'activity log export failed'));
  return ctx.reply
    .code(200)
    .headers({
      'Content-Type': format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
      'Content-Disposition': `attachment; filename="activity-log-${stamp}.${format}"`,
      'X-Export-Total': String(result.total),
      'Cache-Control': 'no-store, private',
      'X-Content-Type-Options': 'nosniff',
    })
    .send(result.stream);
}

/** Clears the log (the original's "Clear log"): for those who may, after the form's confirmation. */
async function clearLog(ctx: ConsoleContext, back: string): Promise<FastifyReply> {
  if (!ctx.user.can(CLEAR_LOG_CAPABILITY)) return ctx.message(403, ctx.t.forbiddenTitle, ctx.t.forbiddenText);
  if (text(ctx.body.confirm) !== '1') return showLog(ctx, [{ kind: 'error', text: ctx.t.clearLogUnconfirmed }], 400);
  await purgeAndLog(ctx.app, {}, ctx.origin);
  const url = new URL(back);
  url.searchParams.set('done', 'cleared');
  return ctx.redirect(url.toString());
}

/** Form posts (without the page's script): stick, unstick, add a custom entry, clear the log. */
async function act(ctx: ConsoleContext): Promise<FastifyReply> {
  if (!(await ctx.csrfOk())) return ctx.csrfFailed();
  const back = ctx.returnTo(ctx.body.return_to, logUrl(ctx));
  const action = text(ctx.body.action);
  if (action === 'clear_log') return clearLog(ctx, back);
  let out;
  let done = '';
  if (action === 'stick' || action === 'unstick') {
    const id = text(ctx.body.event_id);
    if (!/^\d+$/.test(id)) return showLog(ctx, [{ kind: 'error', text: fmt(ctx.t.eventNotFound, { id }) }], 400);
    out = await ctx.api('POST', `/history/v1/events/${id}/${action}`);
    done = action === 'stick' ? 'stuck' : 'unstuck';
  } else if (action === 'add_entry') {
    // Empty fields are not sent: an empty message is the API's missing one.
    const args: Record<string, unknown> = { level: text(ctx.body.level) || 'info' };
    for (const name of ['message', 'note']) if (text(ctx.body[name])) args[name] = text(ctx.body[name]);
    out = await ctx.api('POST', '/history/v1/events', args);
    done = 'added';
  } else {
    return showLog(ctx, [{ kind: 'error', text: ctx.t.badAction }], 400);
  }
  if (out.status >= 300) {
    const body = out.body as { message?: string; data?: { params?: Record<string, string> } };
    return showLog(
      ctx,
      [
        {
          kind: 'error',
          text: fmt(ctx.t.apiError, {
            message: [body.message, ...Object.values(body.data?.params ?? {})].filter(Boolean).join(' '),
          }),
        },
      ],
      out.status,
    );
  }
  const url = new URL(back);
  url.searchParams.set('done', done);
  return ctx.redirect(url.toString());
}

export const historyPage: ConsolePage = {
  path: ADMIN_PHP,
  adminPage: HISTORY_PAGE,
  capability: null,
  title: 'historyTitle',
  navOrder: 20,
  async handle(ctx) {
    if (ctx.isPost) return act(ctx);
    const exportFormat = text(ctx.query.export);
    if (exportFormat === 'csv' || exportFormat === 'json') return exportLog(ctx, exportFormat);
    if (ctx.query.view === 'occasions') return showOccasions(ctx, ctx.query.partial === 'occasions');
    if (ctx.query.partial === 'event')
      return showEvent(ctx, Number(text(ctx.query.event)) || 0, await searchOptions(ctx), true);
    return showLog(ctx, []);
  },
};

export const historyPages: ConsolePage[] = [historyPage, statsPage];
