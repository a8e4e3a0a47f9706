// The event item of the REST API (reference §4.1), built from event rows and their context
// rows: messages interpolated in the request's language, initiator data, IP addresses.
import crypto from 'node:crypto';
import type { Selectable } from 'kysely';
import type { AppServices } from '../../../site/services.ts';
import type { AuthUser } from '../../../auth/types.ts';
import type { HistoryEventsTable } from '../../../db/schema.ts';
import type { Lang } from '../../../rest/types.ts';
import { l } from '../../../rest/define.ts';
import { MSG } from '../messages.ts';
import { utcToZone } from '../../../site/time.ts';
import type { LoggerCatalogue } from '../../../site/loggers.ts';
import { loadContexts } from '../model/context.ts';

export type EventRow = Selectable<HistoryEventsTable>;

export interface EventItem {
  id: number;
  date_local: string;
  date_gmt: string;
  via: string | null;
  message: string;
  message_html: string;
  message_uninterpolated: string;
  /** Null when the event has no details. */
  details_data: unknown[] | null;
  details_html: string | null;
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

/** The JSON schema of an event item (shown by the events route with context=help), as the reference declares it. */
export function eventItemSchema(lang: Lang) {
  const prop = (type: unknown, en: string, de: string, extra: Record<string, unknown> = {}) => ({
    description: l(en, de)[lang],
    type,
    ...extra,
  });
  return {
    $schema: 'http://json-schema.org/draft-04/schema#',
    title: 'history-event',
    type: 'object',
    properties: {
      id: prop('integer', 'Unique identifier for the event.', 'Eindeutige Kennung des Ereignisses.'),
      type: prop('string', 'Type of result to return.', 'Art des Ergebnisses.', { enum: ['overview', 'occasions'] }),
      date_local: prop(
        ['string', 'null'],
        "The date the event was added, in the site's timezone.",
        'Datum des Ereignisses in der Zeitzone der Website.',
        { format: 'date-time' },
      ),
      date_gmt: prop(['string', 'null'], 'The date the event was added, as GMT.', 'Datum des Ereignisses in UTC.', {
        format: 'date-time',
      }),
      link: prop('string', 'URL to the event.', 'URL des Ereignisses.', { format: 'uri' }),
      message: prop(
        'string',
        'The interpolated message of the event.',
        'Die Meldung des Ereignisses mit eingesetzten Werten.',
      ),
      message_html: prop(
        'string',
        'The interpolated message of the event, with possible markup applied.',
        'Die Meldung des Ereignisses mit eingesetzten Werten, als HTML.',
      ),
      details_html: prop(
        'string',
        'The details of the event, with possible markup applied.',
        'Die Details des Ereignisses als HTML.',
      ),
      details_data: prop('object', 'The details of the event.', 'Die Details des Ereignisses.'),
      message_uninterpolated: prop(
        'string',
        'The uninterpolated message of the event.',
        'Die Vorlage der Meldung des Ereignisses.',
      ),
      logger: prop('string', 'The logger of the event.', 'Der Protokollierer des Ereignisses.'),
      via: prop('string', 'The via of the event.', 'Worüber das Ereignis entstand.'),
      message_key: prop('string', 'The message key of the event.', 'Der Meldungsschlüssel des Ereignisses.'),
      loglevel: prop('string', 'The log level of the event.', 'Die Protokollstufe des Ereignisses.'),
      initiator: prop('string', 'The initiator of the event.', 'Der Auslöser des Ereignisses.'),
      initiator_data: prop('object', 'Details of the initiator.', 'Details zum Auslöser.'),
      ip_addresses: prop('array', 'The IP addresses of the event.', 'Die IP-Adressen des Ereignisses.'),
      occasions_id: prop('string', 'The occasions ID of the event.', 'Die Wiederholungs-ID des Ereignisses.'),
      subsequent_occasions_count: prop(
        'integer',
        'The subsequent occasions count of the event.',
        'Die Anzahl der Wiederholungen des Ereignisses.',
      ),
      context: prop('object', 'The context of the event.', 'Der Kontext des Ereignisses.'),
      permalink: prop('string', 'The permalink of the event.', 'Der Permalink des Ereignisses.'),
      sticky: prop('boolean', 'Whether the event is sticky.', 'Ob das Ereignis angeheftet ist.'),
      sticky_appended: prop(
        'boolean',
        'Whether the event is sticky and appended to the result set.',
        'Ob das Ereignis angeheftet und dem Ergebnis vorangestellt ist.',
      ),
    },
  };
}

const IP_MESSAGE_KEYS = new Set([
  'user_logged_in',
  'user_login_failed',
  'user_unknown_login_failed',
  'user_unknown_logged_in',
]);

export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' })[c]!,
  );
}

/** `{name}` placeholders replaced by context values in one pass (replaced text is not re-scanned). */
export function interpolate(template: string, context: Map<string, string | null>): string {
  return template.replace(/\{([^{}]+)\}/g, (whole, name: string) => {
    const value = context.get(name);
    return typeof value === 'string' ? value : whole;
  });
}

/** The template an event is shown with: the logger's current one in `lang`, else the stored one. */
export function templateOf(
  loggers: LoggerCatalogue,
  row: Pick<EventRow, 'logger' | 'message' | 'message_key'>,
  lang: Lang,
): string {
  const def = loggers.find(row.logger);
  const text = row.message_key ? def?.messages[row.message_key] : undefined;
  return text ? text[lang] : row.message;
}

export function renderMessage(
  loggers: LoggerCatalogue,
  row: Pick<EventRow, 'logger' | 'message' | 'message_key'>,
  context: Map<string, string | null>,
  lang: Lang,
): string {
  return interpolate(templateOf(loggers, row, lang), context);
}

/**
 * Text without markup, as the CMS's strip-all-tags gives it: script and style elements with
 * their content, comments and every tag removed (a `<` before a space is text), then trimmed.
 */
function stripAllTags(text: string): string {
  return text
    .replace(/<(script|style)[^>]*?>[\s\S]*?<\/\1>/gi, '')
    .replace(/<!--[\s\S]*?(?:-->|$)/g, '')
    .replace(/<(?!\s)[^>]*(?:>|$)/g, '')
    .trim();
}

/** The Gravatar hash of an address as the CMS computes it: SHA-256 of it trimmed and lower-cased ("" for none). */
export function gravatarHash(email: string | null | undefined): string {
  return email ? crypto.hash('sha256', email.trim().toLowerCase(), 'hex') : '';
}

/** A Gravatar URL as the CMS builds it (with an empty hash when there is no address). */
export function gravatarUrl(hash: string, size: number): string {
  return `https://secure.gravatar.com/avatar/${hash}?s=${size}&d=mm&r=g`;
}

/** The CMS's avatar image: the URL and its double size for 2x screens, `&` written as the CMS's URL escaping does. */
function avatarImage(hash: string, size: number): string {
  const attr = (url: string) => url.replaceAll('&', '&#038;');
  return (
    `<img alt='' src='${attr(gravatarUrl(hash, size))}' srcset='${attr(gravatarUrl(hash, 2 * size))} 2x' ` +
    `class='avatar avatar-${size} photo' height='${size}' width='${size}' loading='lazy' decoding='async'/>`
  );
}

export function historyAdminUrl(app: AppServices): string {
  return `${app.config.siteUrl}/cms-admin/admin.php?page=history_admin_menu_page`;
}

/**
 * The link to a user's profile for this viewer, as the CMS gives it: the viewer's own profile
 * page, another user's edit page for those who may edit users, else "".
 */
export function userProfileUrl(app: AppServices, viewer: AuthUser | null, userId: number): string {
  if (viewer?.id === userId) return `${app.config.siteUrl}/cms-admin/profile.php`;
  return viewer?.can('edit_users') ? `${app.config.siteUrl}/cms-admin/user-edit.php?user_id=${userId}` : '';
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
  const contexts = await loadContexts(
    app.readDb,
    rows.map((r) => r.id),
  );
  const userIds = [...new Set(rows.map((r) => r.user_id).filter((id): id is number => id !== null))];
  const users = userIds.length
    ? await app.readDb.selectFrom('users').select(['id', 'display_name', 'email']).where('id', 'in', userIds).execute()
    : [];
  const byId = new Map(users.map((u) => [u.id, { displayName: u.display_name, avatarHash: gravatarHash(u.email) }]));
  return rows.map((row) => renderEvent(app, row, contexts.get(row.id) ?? new Map(), byId, opts));
}

function renderEvent(
  app: AppServices,
  row: EventRow,
  context: Map<string, string | null>,
  users: Map<number, { displayName: string; avatarHash: string }>,
  opts: RenderOptions,
): EventItem {
  const { lang } = opts;
  const def = app.loggers.find(row.logger);
  const message = renderMessage(app.loggers, row, context, lang);
  const link = `${historyAdminUrl(app)}#history/event/${row.id}`;
  const userId = context.get('_user_id') ?? null;
  const numericUserId = userId !== null && /^\d+$/.test(userId) ? Number(userId) : null;
  // Avatars and names are the user's as they are now, as the original reads them (a deleted
  // user has none).
  const user = numericUserId !== null ? users.get(numericUserId) : undefined;
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
    message: stripAllTags(message),
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
      user_email: context.get('_user_email') ?? null,
      user_image:
        row.initiator === 'cms_user' && numericUserId !== null && numericUserId > 0
          ? avatarImage(user?.avatarHash ?? '', 32)
          : '',
      user_avatar_url: gravatarUrl(user?.avatarHash ?? '', 96),
      user_profile_url: user ? userProfileUrl(app, opts.viewer, numericUserId!) : '',
      user_display_name: user?.displayName ?? null,
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

/** Structured details of an event and their HTML; both null when it has none. */
function detailsOf(
  row: EventRow,
  context: Map<string, string | null>,
  lang: Lang,
): { data: unknown[] | null; html: string | null } {
  const note = context.get('note');
  if (row.logger !== 'CustomEntryLogger' || typeof note !== 'string' || note === '') return { data: null, html: null };
  const label = MSG.entryNotes[lang];
  return {
    // An item names the context key its value comes from (`slug_new`), as the original's do.
    data: [{ title: null, items: [{ name: label, new_value: note, slug_new: 'note' }] }],
    html:
      '<table class="SimpleHistoryLogitem__keyValueTable"><tbody><tr>' +
      `<td>${escapeHtml(label)}</td><td><span class="SimpleHistoryLogitem__keyValueTable__addedThing">${escapeHtml(note)}</span></td>` +
      '</tr></tbody></table>',
  };
}

export interface Viewer {
  user: AuthUser | null;
  lang: Lang;
}
