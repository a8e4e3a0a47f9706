// The event item of the REST API (reference §4.1), built from event rows and their context
// rows: messages interpolated in the request's language, initiator data, IP addresses.
import crypto from 'node:crypto';
import type { Selectable } from 'kysely';
import type { AppServices } from '../../app.ts';
import type { AuthUser } from '../../auth/types.ts';
import type { HistoryEventsTable } from '../../db/schema.ts';
import type { Lang } from '../../rest/types.ts';
import { utcToZone } from '../../site/time.ts';
import { findLogger } from './catalogue.ts';
import { loadContexts } from './store.ts';

export type EventRow = Selectable<HistoryEventsTable>;

export interface EventItem {
  id: number;
  date_local: string;
  date_gmt: string;
  via: string | null;
  message: string;
  message_html: string;
  message_uninterpolated: string;
  details_data: unknown[];
  details_html: string;
  link: string;
  logger: string;
  message_key: string | null;
  loglevel: string;
  initiator: string;
  initiator_data: Record<string, unknown>;
  ip_addresses: Record<string, string>;
  occasions_id: string;
  subsequent_occasions_count: number;
  sticky: boolean;
  sticky_appended: boolean;
  backfilled: boolean;
  context: Record<string, string | null>;
  permalink: string;
  action_links: unknown[];
}

const IP_MESSAGE_KEYS = new Set(['user_logged_in', 'user_login_failed', 'user_unknown_login_failed', 'user_unknown_logged_in']);

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' })[c]!);
}

/** `{name}` placeholders replaced by context values in one pass (replaced text is not re-scanned). */
export function interpolate(template: string, context: Map<string, string | null>): string {
  return template.replace(/\{([^{}]+)\}/g, (whole, name: string) => {
    const value = context.get(name);
    return typeof value === 'string' ? value : whole;
  });
}

/** The template an event is shown with: the logger's current one in `lang`, else the stored one. */
export function templateOf(row: Pick<EventRow, 'logger' | 'message' | 'message_key'>, lang: Lang): string {
  const def = findLogger(row.logger);
  const text = row.message_key ? def?.messages[row.message_key] : undefined;
  return text ? text[lang] : row.message;
}

export function renderMessage(row: Pick<EventRow, 'logger' | 'message' | 'message_key'>, context: Map<string, string | null>, lang: Lang): string {
  return interpolate(templateOf(row, lang), context);
}

export function gravatarUrl(email: string | null | undefined, size: number): string {
  const hash = email ? crypto.createHash('md5').update(email.trim().toLowerCase()).digest('hex') : '';
  return `https://secure.gravatar.com/avatar/${hash}?s=${size}&d=mm&r=g`;
}

export function historyAdminUrl(app: AppServices): string {
  return `${app.config.siteUrl}/cms-admin/admin.php?page=history_admin_menu_page`;
}

export function userProfileUrl(app: AppServices, userId: number): string {
  return `${app.config.siteUrl}/cms-admin/user-edit.php?user_id=${userId}`;
}

export interface RenderOptions {
  lang: Lang;
  viewer: AuthUser | null;
  /** Group sizes of grouped overview rows (default 1). */
  counts?: Map<number, number>;
  stickyAppended?: boolean;
}

/** Loads the contexts and users of these events (two queries) and renders them in order. */
export async function renderEvents(app: AppServices, rows: EventRow[], opts: RenderOptions): Promise<EventItem[]> {
  if (!rows.length) return [];
  const contexts = await loadContexts(app.db, rows.map((r) => r.id));
  const userIds = [...new Set(rows.map((r) => r.user_id).filter((id): id is number => id !== null))];
  const users = userIds.length
    ? await app.db.selectFrom('users').select(['id', 'display_name']).where('id', 'in', userIds).execute()
    : [];
  const displayNames = new Map(users.map((u) => [u.id, u.display_name]));
  return rows.map((row) => renderEvent(app, row, contexts.get(row.id) ?? new Map(), displayNames, opts));
}

function renderEvent(
  app: AppServices,
  row: EventRow,
  context: Map<string, string | null>,
  displayNames: Map<number, string>,
  opts: RenderOptions,
): EventItem {
  const { lang } = opts;
  const def = findLogger(row.logger);
  const message = renderMessage(row, context, lang);
  const link = `${historyAdminUrl(app)}#history/event/${row.id}`;
  const userId = context.get('_user_id') ?? null;
  const userEmail = context.get('_user_email') ?? null;
  const numericUserId = userId !== null && /^\d+$/.test(userId) ? Number(userId) : null;
  const displayName = numericUserId !== null ? (displayNames.get(numericUserId) ?? null) : null;
  const avatar = gravatarUrl(userEmail, 32);
  const ipAddresses: Record<string, string> = {};
  if (row.logger === 'SimpleUserLogger' && row.message_key && IP_MESSAGE_KEYS.has(row.message_key)) {
    for (const [k, v] of context) {
      if (v !== null && (k === '_server_remote_addr' || /^_server_http_.+_\d+$/.test(k))) ipAddresses[k] = v;
    }
  }
  const details = detailsOf(row, context, lang);
  const out: Record<string, string | null> = Object.fromEntries(context);
  if (!context.has('_message_key')) out._message_key = null;
  return {
    id: row.id,
    date_local: utcToZone(row.date, app.options.get('timezone_string')),
    date_gmt: row.date,
    via: def ? (def.via ? def.via[lang] : null) : '',
    message,
    message_html: escapeHtml(message),
    message_uninterpolated: row.message,
    details_data: details.data,
    details_html: details.html,
    link,
    logger: row.logger,
    message_key: context.get('_message_key') ?? row.message_key ?? null,
    loglevel: row.level,
    initiator: row.initiator,
    initiator_data: {
      user_id: userId,
      user_login: context.get('_user_login') ?? null,
      user_email: userEmail,
      user_image: row.initiator === 'cms_user' ? `<img alt='' src='${escapeHtml(avatar)}' class='avatar avatar-32 photo' height='32' width='32' />` : '',
      user_avatar_url: avatar,
      user_profile_url: displayName !== null && opts.viewer?.can('edit_users') ? userProfileUrl(app, numericUserId!) : '',
      user_display_name: displayName,
    },
    ip_addresses: ipAddresses,
    occasions_id: row.occasions_id,
    subsequent_occasions_count: opts.counts?.get(row.id) ?? 1,
    sticky: row.sticky === 1 || context.has('_sticky'),
    sticky_appended: opts.stickyAppended === true,
    backfilled: row.backfilled === 1 || context.has('_backfilled_event'),
    context: out,
    permalink: link,
    action_links: [],
  };
}

function detailsOf(row: EventRow, context: Map<string, string | null>, lang: Lang): { data: unknown[]; html: string } {
  const note = context.get('note');
  if (row.logger !== 'CustomEntryLogger' || typeof note !== 'string' || note === '') return { data: [], html: '' };
  const label = lang === 'de' ? 'Notizen zum Eintrag' : 'Entry notes';
  return {
    data: [{ title: null, items: [{ name: label, new_value: note }] }],
    html:
      '<table class="SimpleHistoryLogitem__keyValueTable"><tbody><tr>' +
      `<td>${escapeHtml(label)}</td><td>${escapeHtml(note)}</td>` +
      '</tr></tbody></table>',
  };
}
