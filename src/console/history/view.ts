// Events of the REST API (history/v1 event items) as the console's templates show them: the
// initiator with avatar and name, times relative and absolute in the site's zone, the level,
// the context as a table, IP addresses, and a link to the object an event concerns.
import type { AppServices } from '../../site/services.ts';
import type { AuthUser } from '../../auth/types.ts';
import type { Lang } from '../../rest/types.ts';
import { getContent, isViewable, permalink } from '../../pages/api.ts';
import { avatarOf, type Avatar } from '../avatar.ts';
import { fromGmt, relativeTime } from '../client/relative-time.ts';
import { displayLocale, type ConsoleStrings } from '../i18n.ts';
import type { ConsoleContext } from '../context.ts';

/** The fields of an event item the console reads (GET /history/v1/events). */
export interface ApiEvent {
  id: number;
  date_gmt: string;
  via: string | null;
  message: string;
  details_data: { title: string | null; items: { name: string; new_value?: string; prev_value?: string }[] }[] | null;
  link: string;
  permalink: string;
  logger: string;
  message_key: string | null;
  loglevel: string;
  initiator: string;
  initiator_data: {
    user_id: string | null;
    user_login: string | null;
    user_email: string | null;
    user_profile_url: string;
    user_display_name: string | null;
  };
  ip_addresses: Record<string, string>;
  occasions_id: string;
  subsequent_occasions_count: number;
  sticky: boolean;
  sticky_appended: boolean;
  context: Record<string, string | null>;
}

export interface EventView {
  id: number;
  level: string;
  levelLabel: string;
  message: string;
  via: string;
  logger: string;
  dateIso: string;
  dateAbsolute: string;
  dateRelative: string;
  initiator: { name: string; detail: string; avatar: Avatar; url: string };
  sticky: boolean;
  stickyAppended: boolean;
  similar: number;
  occasionsId: string;
  context: { key: string; value: string }[];
  details: { name: string; value: string }[];
  ips: { key: string; value: string }[];
  objectUrl: string;
  permalink: string;
}

export interface ViewOptions {
  app: AppServices;
  viewer: AuthUser;
  lang: Lang;
  t: ConsoleStrings;
  initiatorLabels: Map<string, string>;
  now?: Date;
  /** The site's zone (read once for a list). */
  zone?: string;
}

const absoluteFormats = new Map<string, Intl.DateTimeFormat>();

/** A date and time in the site's zone, as the console writes them (formats made once: they are costly). */
export function absoluteTime(date: Date, lang: Lang, timeZone: string): string {
  const key = `${lang}|${timeZone}`;
  let format = absoluteFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(displayLocale(lang), { dateStyle: 'medium', timeStyle: 'medium', timeZone });
    absoluteFormats.set(key, format);
  }
  return format.format(date);
}

/** The address of what an event concerns, if the viewer may open it (the event's own link otherwise ''). */
async function objectUrl(e: ApiEvent, o: ViewOptions): Promise<string> {
  const c = e.context;
  const site = o.app.config.siteUrl;
  const userId = c.edited_user_id ?? c.created_user_id ?? c.login_id ?? null;
  if (userId && /^\d+$/.test(userId) && o.viewer.can('edit_users'))
    return `${site}/cms-admin/user-edit.php?user_id=${userId}`;
  if (c.event_id && /^\d+$/.test(c.event_id))
    return `${site}/cms-admin/admin.php?page=history_admin_menu_page#history/event/${c.event_id}`;
  if (c.content_id && /^\d+$/.test(c.content_id)) {
    const item = await getContent(o.app, Number(c.content_id));
    if (item && isViewable(item)) return permalink(o.app, item);
  }
  return '';
}

function initiatorOf(e: ApiEvent, o: ViewOptions): EventView['initiator'] {
  const d = e.initiator_data;
  const kind = o.initiatorLabels.get(e.initiator) ?? e.initiator;
  if (e.initiator === 'cms_user') {
    const name = d.user_display_name ?? d.user_login ?? o.t.deletedUser;
    const detail = d.user_login && d.user_login !== name ? d.user_login : '';
    return { name, detail, avatar: avatarOf(name, d.user_id ?? name), url: d.user_profile_url };
  }
  return { name: kind, detail: '', avatar: avatarOf(kind, e.initiator), url: '' };
}

export async function eventView(e: ApiEvent, o: ViewOptions): Promise<EventView> {
  const date = fromGmt(e.date_gmt);
  const ips = Object.entries(e.ip_addresses ?? {}).map(([key, value]) => ({ key, value }));
  return {
    id: e.id,
    level: e.loglevel,
    levelLabel: o.t[`level_${e.loglevel}` as keyof ConsoleStrings] ?? e.loglevel,
    message: e.message,
    via: e.via ?? '',
    logger: e.logger,
    dateIso: date.toISOString(),
    dateAbsolute: absoluteTime(date, o.lang, o.zone ?? o.app.options.timeZone()),
    dateRelative: relativeTime(date, o.now ?? new Date(), o.lang),
    initiator: initiatorOf(e, o),
    sticky: e.sticky,
    stickyAppended: e.sticky_appended,
    similar: Math.max(0, e.subsequent_occasions_count - 1),
    occasionsId: e.occasions_id,
    context: Object.entries(e.context)
      .filter(([key]) => !(key in e.ip_addresses))
      .map(([key, value]) => ({ key, value: value ?? '' })),
    details: (e.details_data ?? []).flatMap((group) =>
      group.items.map((item) => ({ name: item.name, value: item.new_value ?? '' })),
    ),
    ips,
    objectUrl: await objectUrl(e, o),
    permalink: e.permalink,
  };
}

/** The view options of the signed-in user, with the initiators' labels of `search-options`. */
export function viewOptions(
  ctx: ConsoleContext,
  options: { initiators: { value: string; label: string }[] },
): ViewOptions {
  return {
    app: ctx.app,
    viewer: ctx.user,
    lang: ctx.lang,
    t: ctx.t,
    initiatorLabels: new Map(options.initiators.map((i) => [i.value, i.label])),
  };
}

export function eventViews(events: ApiEvent[], o: ViewOptions): Promise<EventView[]> {
  const shared = { ...o, now: o.now ?? new Date(), zone: o.zone ?? o.app.options.timeZone() };
  return Promise.all(events.map((e) => eventView(e, shared)));
}
