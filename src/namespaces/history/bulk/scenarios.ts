// What `events generate` makes up: realistic activity-log events — logins and failed-login
// runs, page edits in bursts, media, plugins, settings, comments and custom entries — spread
// over the last `days` days, prepared as real events are (model/event.ts). Kept apart from the
// loading (bulk/generate.ts) because the data is its own concern: the cold benchmark searches
// for its words, and removing generated events (write/maintenance.ts) needs only its mark.
import type { LoggerCatalogue } from '../../../site/loggers.ts';
import type { AppServices } from '../../../site/services.ts';
import type { AuthUser } from '../../../auth/types.ts';
import type { ActivityEntry, ActivityOrigin, Initiator } from '../../../site/activity.ts';
import { utcFormatter } from '../../../site/time.ts';
import { prepareEvent, type PreparedEvent } from '../model/event.ts';

/** What shapes the generated events (GenerateOptions extends it). */
export interface ScenarioOptions {
  /** Spread the events over this many days up to now (default 30). */
  days?: number;
  /** Random seed, for repeatable data (default 1). */
  seed?: number;
  now?: Date;
}

/**
 * The context key that marks every generated event (value "1"), so that generated events can
 * be told from real ones and removed (write/maintenance.ts).
 */
export const GENERATED_KEY = '_generated';

/** Events prepared between two turns of the event loop (so database I/O goes on meanwhile). */
const SLICE = 1000;

/** Small deterministic PRNG (mulberry32). */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TITLES = [
  'About us',
  'Partner programme',
  'Pricing',
  'Contact',
  'Impressum',
  'Datenschutz',
  'Release notes',
  'Onboarding guide',
  'FAQ',
  'Team',
  'Careers',
  'Events 2026',
  'Webinar: Getting started',
  'Produktübersicht',
  'Händlerportal',
];
const PLUGINS = ['Forms', 'SEO Tools', 'Cache Booster', 'Backup Pro', 'Slider X', 'Translator', 'Scheduler'];
const OPTIONS = [
  ['blogname', 'general'],
  ['timezone_string', 'general'],
  ['posts_per_page', 'reading'],
  ['permalink_structure', 'permalinks'],
];
const FILES = ['logo.png', 'team-photo.jpg', 'brochure.pdf', 'header.webp', 'price-list.xlsx'];
const NAMES = ['anna', 'ben', 'clara', 'david', 'eva', 'felix', 'greta', 'hans', 'ines', 'jonas'];
/** The words generated events are made of (the cold benchmark searches for them: bench/cold.ts). */
export const GENERATED_WORDS = {
  titles: TITLES,
  plugins: PLUGINS,
  files: FILES,
  names: NAMES,
  options: OPTIONS.map(([option]) => option),
};

interface Actor {
  user: AuthUser | null;
  ip: string;
}

/** Users to act as: the site's users, or invented ones when the site has none. */
export async function actors(app: AppServices): Promise<AuthUser[]> {
  const rows = await app.db
    .selectFrom('users')
    .select(['id', 'login', 'email', 'display_name', 'role'])
    .orderBy('id')
    .limit(50)
    .execute();
  const list = rows.length
    ? rows
    : NAMES.map((name, i) => ({
        id: 1000 + i,
        login: name,
        email: `${name}@example.com`,
        display_name: name,
        role: i < 2 ? 'administrator' : 'editor',
      }));
  return list.map((u) => ({
    id: u.id,
    login: u.login,
    email: u.email,
    displayName: u.display_name,
    role: u.role as AuthUser['role'],
    can: () => true,
  }));
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The generation's events in date order: each call prepares the next `n`. */
export function eventSource(
  loggers: LoggerCatalogue,
  users: AuthUser[],
  opts: ScenarioOptions,
  total: number,
): (n: number) => Promise<PreparedEvent[]> {
  const days = opts.days ?? 30;
  const rnd = random(opts.seed ?? 1);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)];
  const ipOf = () =>
    `${pick([10, 172, 192, 203])}.${Math.floor(rnd() * 256)}.${Math.floor(rnd() * 256)}.${Math.floor(rnd() * 256)}`;
  const endMs = (opts.now ?? new Date()).getTime();
  const startMs = endMs - days * 86_400_000;
  const step = total > 0 ? (endMs - startMs) / total : 0;
  const format = utcFormatter();
  const now = format(Date.now());

  // A scenario yields one or more events (bursts make occasions).
  const scenario = (): [ActivityEntry, ActivityOrigin][] => {
    const user = pick(users);
    const actor: Actor = { user, ip: ipOf() };
    const as = (initiator?: Initiator): ActivityOrigin => ({
      user: actor.user,
      ip: actor.ip,
      rest: true,
      ...(initiator ? { initiator } : {}),
    });
    const r = rnd();
    if (r < 0.22) return [[{ logger: 'SimpleUserLogger', messageKey: 'user_logged_in' }, as()]];
    if (r < 0.3) {
      const login = rnd() < 0.5 ? pick(users).login : pick(NAMES) + Math.floor(rnd() * 100);
      const known = users.some((u) => u.login === login);
      const burst = 1 + Math.floor(rnd() * rnd() * 30);
      const anon: ActivityOrigin = { user: null, ip: ipOf(), rest: true, initiator: 'web_user' };
      return Array.from({ length: burst }, () => [
        known
          ? {
              logger: 'SimpleUserLogger',
              messageKey: 'user_login_failed',
              level: 'warning',
              context: { login, _occasionsID: `failed:${login}` },
            }
          : {
              logger: 'SimpleUserLogger',
              messageKey: 'user_unknown_login_failed',
              level: 'warning',
              context: { failed_username: login, _occasionsID: `failed:${login}` },
            },
        anon,
      ]);
    }
    if (r < 0.5) {
      const post_title = pick(TITLES);
      const post_type = rnd() < 0.6 ? 'page' : 'post';
      const post_id = 1 + Math.floor(rnd() * 400);
      const edits = 1 + Math.floor(rnd() * 4);
      const events: [ActivityEntry, ActivityOrigin][] = [];
      if (rnd() < 0.3)
        events.push([
          { logger: 'SimplePostLogger', messageKey: 'post_created', context: { post_id, post_type, post_title } },
          as(),
        ]);
      for (let i = 0; i < edits; i++)
        events.push([
          { logger: 'SimplePostLogger', messageKey: 'post_updated', context: { post_id, post_type, post_title } },
          as(),
        ]);
      if (rnd() < 0.05)
        events.push([
          {
            logger: 'SimplePostLogger',
            messageKey: pick(['post_trashed', 'post_deleted', 'post_restored']),
            context: { post_id, post_type, post_title },
          },
          as(),
        ]);
      return events;
    }
    if (r < 0.6) {
      const attachment_title = pick(FILES).replace(/\.\w+$/, '');
      return [
        [
          {
            logger: 'SimpleMediaLogger',
            messageKey: pick(['attachment_created', 'attachment_created', 'attachment_updated', 'attachment_deleted']),
            context: { post_type: 'attachment', attachment_title, attachment_filename: pick(FILES) },
          },
          as(),
        ],
      ];
    }
    if (r < 0.66) {
      const plugin_name = pick(PLUGINS);
      const key = pick(['plugin_activated', 'plugin_deactivated', 'plugin_updated', 'plugin_installed']);
      return [
        [
          {
            logger: 'SimplePluginLogger',
            messageKey: key,
            context: { plugin_name, plugin_version: `2.${Math.floor(rnd() * 9)}`, plugin_prev_version: '2.0' },
          },
          as(),
        ],
      ];
    }
    if (r < 0.71) {
      const [option, option_page] = pick(OPTIONS);
      return [
        [
          { logger: 'SimpleOptionsLogger', messageKey: 'option_updated', context: { option, option_page } },
          rnd() < 0.3 ? { user, ip: '', initiator: 'cms_cli' } : as(),
        ],
      ];
    }
    if (r < 0.8) {
      return [
        [
          {
            logger: 'SimpleCommentsLogger',
            messageKey: pick(['anon_comment_added', 'comment_status_approve', 'comment_status_spam']),
            context: {
              comment_post_type: 'post',
              comment_post_title: pick(TITLES),
              comment_author: pick(NAMES),
              comment_author_email: `${pick(NAMES)}@example.org`,
            },
          },
          { user: null, ip: ipOf(), rest: false, initiator: 'web_user' },
        ],
      ];
    }
    if (r < 0.85)
      return [
        [
          {
            logger: 'AvailableUpdatesLogger',
            messageKey: 'plugin_update_available',
            level: 'notice',
            context: { plugin_name: pick(PLUGINS) },
          },
          { user: null, ip: '', initiator: 'cms' },
        ],
      ];
    if (r < 0.9)
      return [
        [
          {
            logger: 'CustomEntryLogger',
            messageKey: 'custom_entry_added',
            level: pick(['info', 'notice', 'warning']),
            context: { message: `Deployment ${Math.floor(rnd() * 1000)}` },
          },
          as(),
        ],
      ];
    if (r < 0.95)
      return [
        [
          {
            logger: 'NotesLogger',
            messageKey: pick(['note_added', 'note_resolved', 'note_reply_added']),
            context: { post_type: 'page', post_title: pick(TITLES) },
          },
          as(),
        ],
      ];
    if (r < 0.98)
      return [
        [
          {
            logger: 'SimpleUserLogger',
            messageKey: 'user_updated_profile',
            context: { edited_user_login: pick(users).login, edited_user_email: pick(users).email },
          },
          as(),
        ],
      ];
    return [[{ logger: 'SimpleUserLogger', messageKey: 'user_logged_out' }, as()]];
  };

  let produced = 0;
  let pending: [ActivityEntry, ActivityOrigin][] = [];
  return async (n) => {
    const batch: PreparedEvent[] = [];
    while (batch.length < n) {
      await nextTurn();
      const end = Math.min(n, batch.length + SLICE);
      while (batch.length < end) {
        if (!pending.length) pending = scenario();
        const [entry, origin] = pending.shift()!;
        const at = startMs + produced * step + rnd() * step * 0.5;
        batch.push(
          prepareEvent(
            loggers,
            { ...entry, context: { ...entry.context, [GENERATED_KEY]: '1' }, date: format(Math.min(at, endMs)) },
            origin,
            now,
          ),
        );
        produced++;
      }
    }
    return batch;
  };
}
