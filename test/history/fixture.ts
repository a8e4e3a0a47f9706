// A known data set for the activity-log tests: four users and 18 events with fixed dates
// (plus two relative to now), written through the real logging function.
import type { AppServices } from '../../src/site/services.ts';
import type { AuthUser } from '../../src/auth/types.ts';
import { createUser } from '../../src/auth/users.ts';
import { toAuthUser } from '../../src/auth/user-rows.ts';
import type { Role } from '../../src/auth/roles.ts';
import type { ActivityEntry, ActivityOrigin } from '../../src/site/activity.ts';
import { formatUtc } from '../../src/site/time.ts';
import { addDays, todayIn, zoneToUtc } from '../../src/site/zone-time.ts';
import type { Args } from '../../src/rest/types.ts';
import {
  EVENT_LIST_ARGS,
  HAS_UPDATES_ARGS,
  type EventListParams,
  type HasUpdatesParams,
} from '../../src/namespaces/history/args/events.ts';
import { STATS_ARGS, type StatsParams } from '../../src/namespaces/history/args/stats.ts';

export interface Fixture {
  users: Record<'admin' | 'editor' | 'author' | 'subscriber', AuthUser>;
  /** Event ids by fixture number (1-based, as in the comments below). */
  id: (n: number) => number;
}

export async function fixtureUser(app: AppServices, login: string, role: Role): Promise<AuthUser> {
  return toAuthUser(
    await createUser(app, {
      login,
      email: `${login}@example.test`,
      role,
      displayName: `${login[0].toUpperCase()}${login.slice(1)} User`,
    }),
  );
}

export async function loadFixture(app: AppServices): Promise<Fixture> {
  const users = {
    admin: await fixtureUser(app, 'admin', 'administrator'),
    editor: await fixtureUser(app, 'editor', 'editor'),
    author: await fixtureUser(app, 'author', 'author'),
    subscriber: await fixtureUser(app, 'subscriber', 'subscriber'),
  };
  const ids: number[] = [];
  const log = async (entry: ActivityEntry, origin: ActivityOrigin) => ids.push(await app.activity.log(entry, origin));
  const as = (user: AuthUser | null, ip: string, initiator?: ActivityOrigin['initiator']): ActivityOrigin => ({
    user,
    ip,
    rest: true,
    ...(initiator ? { initiator } : {}),
  });
  const failed = (date: string) =>
    log(
      {
        logger: 'SimpleUserLogger',
        messageKey: 'user_login_failed',
        level: 'warning',
        date,
        context: { login: 'admin', _occasionsID: 'failed-admin' },
      },
      as(null, '10.0.0.5', 'web_user'),
    );
  const page = { post_type: 'page', post_title: 'About us' };
  /* 1 */ await log(
    { logger: 'SimpleUserLogger', messageKey: 'user_logged_in', date: '2025-01-10 10:00:00' },
    as(users.admin, '192.168.1.10'),
  );
  /* 2 */ await failed('2025-01-10 10:05:00');
  /* 3 */ await failed('2025-01-10 10:06:00');
  /* 4 */ await failed('2025-01-10 10:07:00');
  /* 5 */ await log(
    {
      logger: 'SimplePostLogger',
      messageKey: 'post_created',
      date: '2025-01-11 09:00:00',
      context: { ...page, post_id: 5 },
    },
    as(users.editor, '192.168.2.20'),
  );
  /* 6 */ await log(
    { logger: 'SimplePostLogger', messageKey: 'post_updated', date: '2025-01-11 09:30:00', context: page },
    as(users.editor, '192.168.2.20'),
  );
  /* 7 */ await log(
    { logger: 'SimplePostLogger', messageKey: 'post_updated', date: '2025-01-11 09:31:00', context: page },
    as(users.editor, '192.168.2.21'),
  );
  /* 8 */ await log(
    {
      logger: 'CustomEntryLogger',
      messageKey: 'custom_entry_added',
      level: 'notice',
      date: '2025-02-01 12:00:00',
      context: { message: 'Deploy v2', note: 'release' },
    },
    as(users.admin, '192.168.1.10'),
  );
  /* 9 */ await log(
    {
      logger: 'SimplePluginLogger',
      messageKey: 'plugin_activated',
      date: '2025-02-01 23:30:00',
      context: { plugin_name: 'Forms' },
    },
    as(users.admin, '2001:db8:85a3::8a2e:370:7334'),
  );
  /* 10 */ await log(
    {
      logger: 'SimpleOptionsLogger',
      messageKey: 'option_updated',
      date: '2025-02-15 08:00:00',
      context: { option: 'blogname', option_page: 'general' },
    },
    { user: users.admin, ip: '', initiator: 'cms_cli' },
  );
  /* 11 */ await log(
    { logger: 'SimpleUserLogger', messageKey: 'user_logged_in', date: '2025-02-15 08:01:00' },
    as(users.editor, '192.168.2.20'),
  );
  /* 12 */ await log(
    {
      logger: 'SimpleMediaLogger',
      messageKey: 'attachment_created',
      date: '2025-03-01 00:00:00',
      context: { post_type: 'attachment', attachment_title: 'Logo', attachment_filename: 'logo.png' },
    },
    as(users.author, '172.16.0.9'),
  );
  /* 13 */ await failed('2025-03-01 00:00:00');
  /* 14 */ await log(
    {
      logger: 'LegacyThingLogger',
      messageKey: 'thing_done',
      level: 'debug',
      date: '2025-03-02 10:00:00',
      context: { thing: 'x' },
    },
    as(users.admin, '192.168.1.10'),
  );
  /* 15 */ await log(
    {
      logger: 'SimpleCommentsLogger',
      messageKey: 'anon_comment_added',
      date: '2025-03-03 10:00:00',
      context: { comment_post_type: 'post', comment_post_title: 'Hallo Welt' },
    },
    as(null, '203.0.113.7'),
  );
  const zone = app.options.get('timezone_string');
  const yesterday = addDays(todayIn(zone), -1);
  /* 16 */ await log(
    {
      logger: 'SimplePostLogger',
      messageKey: 'post_trashed',
      date: zoneToUtc(zone, yesterday.y, yesterday.m, yesterday.d, 12),
      context: { post_type: 'post', post_title: 'Old news' },
    },
    as(users.editor, '192.168.2.20'),
  );
  /* 17 */ await log(
    { logger: 'SimpleUserLogger', messageKey: 'user_logged_out', date: formatUtc(new Date()) },
    as(users.admin, '192.168.1.10'),
  );
  /* 18 */ await log(
    {
      logger: 'SimpleUserLogger',
      messageKey: 'user_created',
      date: '2025-01-05 08:00:00',
      context: {
        created_user_login: 'author',
        created_user_email: 'author@example.test',
        created_user_role: 'author',
        _backfilled_event: '1',
      },
    },
    { user: null, ip: '', initiator: 'cms' },
  );
  return { users, id: (n) => ids[n - 1] };
}

/** Fixture numbers in the default order (date desc, id desc). */
export const ORDER = [17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 18];

/** Declared defaults (non-null), as the pipeline applies them before a handler runs. */
function declaredDefaults(args: Args): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(args)
      .filter(([, a]) => a.default !== undefined && a.default !== null)
      .map(([k, a]) => [k, a.default]),
  );
}

/** GET /events' arguments as its handler receives them: the given ones over the declared defaults. */
export function listParams(params: Record<string, unknown> = {}): EventListParams {
  return { ...declaredDefaults(EVENT_LIST_ARGS), ...params } as EventListParams;
}

/** GET /events/has-updates' arguments as its handler receives them. */
export function hasUpdatesParams(params: Record<string, unknown>): HasUpdatesParams {
  return { ...declaredDefaults(HAS_UPDATES_ARGS), ...params } as HasUpdatesParams;
}

/** A statistics route's arguments as its handler receives them. */
export function statsParams(params: Record<string, unknown> = {}): StatsParams {
  return { ...declaredDefaults(STATS_ARGS), ...params } as StatsParams;
}

/**
 * The stored media events of a message key in a range of UTC dates, newest first, as
 * /stats/media details show them (an event without a context row: `{}`).
 */
export async function storedMediaEvents(app: AppServices, key: string, from: string, to: string) {
  const rows = await app.db
    .selectFrom('history_events as e')
    .leftJoin('history_event_contexts as x', 'x.event_id', 'e.id')
    .select(['e.id', 'e.date', 'e.logger', 'e.level', 'e.message', 'e.occasions_id', 'e.initiator', 'x.context'])
    .where('e.logger', '=', 'SimpleMediaLogger')
    .where('e.message_key', '=', key)
    .where('e.date', '>=', from)
    .where('e.date', '<=', to)
    .orderBy('e.date', 'desc')
    .orderBy('e.id', 'desc')
    .execute();
  return rows.map(({ occasions_id, context, ...row }) => ({
    ...row,
    occasionsID: occasions_id,
    context: context === null ? {} : JSON.parse(context),
  }));
}
