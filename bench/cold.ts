// The cold scenarios of `npm run bench` (issue 28): every request different, as when each user
// types another word, opens another page or picks another range. The requests are drawn from
// a seeded PRNG (the generator's own mulberry32), so two runs against the same generated log
// send the same sequence. Words come from the generator's vocabulary (page titles, plugins,
// files, user names, option names), from the messages the generated events show, and words
// found nowhere; dates lie in the generated span. Run by bench/cold-run.ts.
import { GENERATED_WORDS, random } from '../src/namespaces/history/bulk/scenarios.ts';
import { historyNamespace } from '../src/namespaces/history/routes.ts';
import type { RequestShape } from './loadgen.ts';

/** What the requests are drawn for: the generated log and the bench's login. */
export interface ColdLog {
  authorization: string;
  /** Newest generated event's time (ms) and the span generated before it. */
  endMs: number;
  days: number;
  events: number;
}

type Rng = () => number;
interface Draw {
  path: string;
  tag: string;
}
type Generator = (r: Rng, log: ColdLog) => Draw;

export interface ColdScenario {
  key: string;
  name: string;
  /** Targets at 1,000,000 events (doubled at 10,000,000). */
  p50: number;
  p99?: number;
  draw: Generator;
}

const EVENTS_PATH = '/en/cms-json/history/v1/events';
const STATS_PATH = '/en/cms-json/history/v1/stats';

const int = (r: Rng, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
const pick = <T>(r: Rng, list: readonly T[]): T => list[Math.floor(r() * list.length)]!;
const some = <T>(r: Rng, list: readonly T[], lo: number, hi: number): T[] => {
  const left = [...list];
  return Array.from(
    { length: Math.min(left.length, int(r, lo, hi)) },
    () => left.splice(Math.floor(r() * left.length), 1)[0]!,
  );
};
const query = (params: [string, string | number][]) =>
  params.map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`).join('&');

// ---- words ---------------------------------------------------------------------------------

const splitWords = (texts: readonly string[]) => [
  ...new Set(texts.flatMap((t) => t.split(/[\s:]+/)).filter((w) => w.length >= 3)),
];
/** Words of the generated events' messages (the loggers' templates, history/loggers/*.ts). */
const MESSAGE_WORDS = [
  'updated',
  'Updated',
  'Logged in',
  'Logged out',
  'Failed',
  'login',
  'username',
  'incorrect',
  'password',
  'Created',
  'Activated',
  'Deactivated',
  'Installed',
  'Found',
  'update',
  'Added',
  'note',
  'Edited',
  'profile',
  'setting',
  'custom entry',
  'Deployment',
  'version',
  'comment',
  'spam',
];
const POOLS: [number, readonly string[]][] = [
  [30, splitWords(GENERATED_WORDS.titles)],
  [25, MESSAGE_WORDS],
  [15, [...GENERATED_WORDS.names, 'bench', 'demo-editor', 'administrator']],
  [10, splitWords(GENERATED_WORDS.plugins)],
  [5, GENERATED_WORDS.files],
  [5, GENERATED_WORDS.options],
  [10, ['invoice-2024', 'zebra', 'Quittung', 'xylophon', 'Grüße', 'kubernetes']],
];
const POOL_WEIGHT = POOLS.reduce((s, [w]) => s + w, 0);

/** One word as a user types it: mostly as written, sometimes in other case, a fragment, or a word of nowhere. */
function word(r: Rng): string {
  let x = r() * POOL_WEIGHT;
  const pool = POOLS.find(([w]) => (x -= w) < 0)?.[1] ?? POOLS[0]![1];
  const w = pick(r, pool);
  const v = r();
  if (v < 0.15) return w.toLowerCase();
  if (v < 0.22) return w.toUpperCase();
  if (v < 0.3 && w.length > 5) {
    const from = int(r, 0, w.length - 4);
    return w.slice(from, from + int(r, 3, 5));
  }
  if (v < 0.33) return `zq${int(r, 0, 99_999)}`;
  return w;
}
const words = (r: Rng, n: number) => Array.from({ length: n }, () => word(r)).join(' ');

/** Words a metadata search looks for: context values of the generated events. */
function metadataWord(r: Rng): string {
  const v = r();
  if (v < 0.15) return `${pick(r, GENERATED_WORDS.names)}@example.org`;
  if (v < 0.25) return `Deployment ${int(r, 0, 999)}`;
  if (v < 0.35) return `2.${int(r, 0, 8)}`;
  return word(r);
}

// ---- filters -------------------------------------------------------------------------------

const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
const MESSAGES: Record<string, string[]> = {
  SimpleUserLogger: [
    'user_logged_in',
    'user_login_failed',
    'user_unknown_login_failed',
    'user_updated_profile',
    'user_logged_out',
  ],
  SimplePostLogger: ['post_created', 'post_updated', 'post_trashed', 'post_deleted', 'post_restored'],
  SimpleMediaLogger: ['attachment_created', 'attachment_updated', 'attachment_deleted'],
  SimplePluginLogger: ['plugin_activated', 'plugin_deactivated', 'plugin_updated', 'plugin_installed'],
  SimpleOptionsLogger: ['option_updated'],
  SimpleCommentsLogger: ['anon_comment_added', 'comment_status_approve', 'comment_status_spam'],
  AvailableUpdatesLogger: ['plugin_update_available'],
  CustomEntryLogger: ['custom_entry_added'],
  NotesLogger: ['note_added', 'note_resolved', 'note_reply_added'],
};
const LOGGERS = Object.keys(MESSAGES);
const INITIATORS = ['cms_user', 'web_user', 'cms', 'cms_cli', 'other'];
/** The site's users (the bench's and the demo users) and some that do not exist. */
const USER_IDS = [1, 2, 3, 4, 5, 6, 7, 9999];

const DAY_MS = 86_400_000;
const ymd = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const unix = (ms: number) => Math.floor(ms / 1000);
/** A range inside the generated span: an hour to the whole span, short ones likelier. */
function range(r: Rng, log: ColdLog): [number, number] {
  const lengths = [3_600_000, DAY_MS, 7 * DAY_MS, 30 * DAY_MS, 90 * DAY_MS, log.days * DAY_MS];
  const len = Math.min(log.days * DAY_MS, pick(r, lengths) * (0.5 + r()));
  const from = log.endMs - log.days * DAY_MS + r() * (log.days * DAY_MS - len);
  return [from, from + len];
}
const month = (r: Rng, log: ColdLog) => ymd(log.endMs - r() * log.days * DAY_MS).slice(0, 7);
const lastdays = (r: Rng) => pick(r, [1, 2, 3, 7, 14, 30, 60, 90, 180, 365, int(r, 1, 400)]);

const FILTERS: Record<string, (r: Rng, log: ColdLog) => [string, string | number][]> = {
  loglevels: (r) => [['loglevels', some(r, LEVELS, 1, 3).join(',')]],
  loggers: (r) => [['loggers', some(r, LOGGERS, 1, 3).join(',')]],
  messages: (r) => [
    [
      'messages',
      some(r, LOGGERS, 1, 2)
        .map((l) => `${l}:${pick(r, MESSAGES[l]!)}`)
        .join(','),
    ],
  ],
  users: (r) => (r() < 0.5 ? [['users', some(r, USER_IDS, 1, 3).join(',')]] : [['user', pick(r, USER_IDS)]]),
  initiator: (r) => [['initiator', some(r, INITIATORS, 1, 2).join(',')]],
  date_range: (r, log) => {
    const [from, to] = range(r, log);
    return r() < 0.5
      ? [
          ['date_from', unix(from)],
          ['date_to', unix(to)],
        ]
      : [
          ['date_from', ymd(from)],
          ['date_to', ymd(to)],
        ];
  },
  months: (r, log) => [['months', [...new Set([month(r, log), month(r, log)])].slice(0, int(r, 1, 2)).join(',')]],
  dates: (r, log) => [['dates', pick(r, [`month:${month(r, log)}`, `lastdays:${lastdays(r)}`, 'yesterday'])]],
  lastdays: (r) => [['lastdays', lastdays(r)]],
  ip_address: (r) => {
    const a = pick(r, [10, 172, 192, 203]);
    const b = int(r, 0, 255);
    return [
      [
        'ip_address',
        pick(r, [`${a}.${b}.x.x`, `${a}.${b}.${int(r, 0, 255)}.x`, `${a}.${b}.${int(r, 0, 255)}.${int(r, 0, 255)}`]),
      ],
    ];
  },
  context_filters: (r) =>
    pick(r, [
      () => [['context_filters[post_id]', int(r, 1, 400)]],
      () => [['context_filters[plugin_name]', pick(r, GENERATED_WORDS.plugins)]],
      () => [['context_filters[post_type]', pick(r, ['page', 'post', 'attachment'])]],
      () => [['context_filters[option]', pick(r, GENERATED_WORDS.options)]],
      () => [['context_filters[login]', pick(r, [...GENERATED_WORDS.names, 'bench'])]],
    ] as (() => [string, string | number][])[])(),
  exclude: (r) =>
    r() < 0.5
      ? [['exclude_loglevels', some(r, LEVELS, 1, 2).join(',')]]
      : [['exclude_loggers', some(r, LOGGERS, 1, 2).join(',')]],
};
const FILTER_NAMES = Object.keys(FILTERS);

/** One to three filters: tagged by the first (the per-tag percentiles say which filter is slow). */
function filters(r: Rng, log: ColdLog): { params: [string, string | number][]; tag: string } {
  const names = some(r, FILTER_NAMES, 1, 3);
  return { params: names.flatMap((n) => FILTERS[n]!(r, log)), tag: names[0]! };
}

const paging = (r: Rng, maxPage: number, perPage: [number, number]): [string, number][] => [
  ['page', int(r, 1, maxPage)],
  ['per_page', int(r, perPage[0], perPage[1])],
];

/** A list request of the filters, with `fixed` arguments first and a random page. */
const filtered = (
  r: Rng,
  f: { params: [string, string | number][]; tag: string },
  fixed: [string, string | number][],
  maxPage: number,
  perPage: [number, number],
) => ({ path: `${EVENTS_PATH}?${query([...fixed, ...f.params, ...paging(r, maxPage, perPage)])}`, tag: f.tag });

// ---- scenarios -----------------------------------------------------------------------------

const search =
  (n: number): Generator =>
  (r) => ({
    path: `${EVENTS_PATH}?${query([['search', words(r, n)], ...paging(r, 20, [5, 100])])}`,
    tag: `${n} word${n > 1 ? 's' : ''}`,
  });
/** Every statistics route, from the route registry. */
const STATS_ROUTES = historyNamespace.routes.flatMap((r) =>
  r.path.startsWith('/stats/') ? [r.path.slice('/stats/'.length)] : [],
);

export const COLD_SCENARIOS: ColdScenario[] = [
  { key: 'search1', name: 'search, one word, page 1–20, per_page 5–100', p50: 30, p99: 100, draw: search(1) },
  { key: 'search2', name: 'search, two words', p50: 30, p99: 100, draw: search(2) },
  { key: 'search3', name: 'search, three words', p50: 30, p99: 100, draw: search(3) },
  {
    key: 'exclude',
    name: 'exclude_search, one to three words',
    p50: 30,
    p99: 100,
    draw: (r) => ({
      path: `${EVENTS_PATH}?${query([['exclude_search', words(r, int(r, 1, 3))], ...paging(r, 20, [5, 100])])}`,
      tag: 'exclude_search',
    }),
  },
  {
    key: 'filters',
    name: 'one to three filters, grouped, page 1–1,000',
    p50: 15,
    p99: 50,
    draw: (r, log) => filtered(r, filters(r, log), [], r() < 0.7 ? 20 : 1000, [5, 100]),
  },
  {
    key: 'ungrouped',
    name: 'ungrouped=1, none to two filters, page 1–30,000, per_page 5–30',
    p50: 15,
    p99: 50,
    draw: (r, log) => {
      const f = r() < 0.4 ? { params: [], tag: 'no filter' } : filters(r, log);
      return filtered(r, { ...f, params: f.params.slice(0, 2) }, [['ungrouped', 1]], r() < 0.5 ? 100 : 30_000, [5, 30]);
    },
  },
  {
    key: 'metadata',
    name: 'metadata_search, page 1–20',
    p50: 50,
    p99: 150,
    draw: (r) => ({
      path: `${EVENTS_PATH}?${query([['metadata_search', metadataWord(r)], ...paging(r, 20, [5, 100])])}`,
      tag: 'metadata_search',
    }),
  },
  {
    key: 'stats',
    name: 'every /stats route, a range of an hour to a year',
    p50: 50,
    p99: 150,
    draw: (r, log) => {
      const route = pick(r, STATS_ROUTES);
      const [from, to] = range(r, log);
      return {
        path: `${STATS_PATH}/${route}?${query([['date_from', unix(from)], ['date_to', unix(to)], ...(r() < 0.5 ? [['include_details', 1] as [string, number]] : [])])}`,
        tag: route,
      };
    },
  },
  {
    key: 'has-updates',
    name: 'has-updates, since_id among the newest 1,000 (a fifth: 100,000)',
    p50: 3,
    draw: (r, log) => ({
      path: `${EVENTS_PATH}/has-updates?since_id=${Math.max(1, log.events - int(r, 0, r() < 0.8 ? 1_000 : 100_000))}`,
      tag: 'has-updates',
    }),
  },
];

/** The mixed cold workload: each request drawn from a scenario picked at random, tagged by it. */
const mixed: Generator = (r, log) => {
  const sc = pick(r, COLD_SCENARIOS);
  return { ...sc.draw(r, log), tag: sc.key };
};

/** A seed of its own per scenario and round: no two lists share their sequence. */
function seedOf(seed: number, key: string): number {
  let h = seed >>> 0;
  for (const ch of key) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return h;
}

/**
 * `count` requests of a scenario (or of the mixed workload: key `mixed…`), the same for the same
 * seed and `seen`. None is in `seen` (the paths already sent to this server) or twice in the
 * list; each goes into `seen`. A draw already taken is drawn again (a few tries per request:
 * a list can end shorter when a scenario's requests run out, has-updates' cursors say).
 */
export function coldRequests(
  key: string,
  log: ColdLog,
  seed: number,
  count: number,
  seen: Set<string> = new Set(),
): RequestShape[] {
  const draw = key.startsWith('mixed') ? mixed : COLD_SCENARIOS.find((s) => s.key === key)!.draw;
  const r = random(seedOf(seed, key));
  const headers = { authorization: log.authorization };
  const out: RequestShape[] = [];
  for (let tries = 0; out.length < count && tries < count * 20; tries++) {
    const d = draw(r, log);
    if (seen.has(d.path)) continue;
    seen.add(d.path);
    out.push({ method: 'GET', path: d.path, headers, tag: d.tag });
  }
  return out;
}
