// Realistic activity-log data in bulk, for demos and benchmarks: logins and failed-login
// runs, page edits in bursts, media, plugins, settings, comments and custom entries, spread
// over the last `days` days. Written through the same event preparation as real events, in
// batches of bulk INSERTs (bulk/sqlite-sink.ts, bulk/postgres-sink.ts); the next batch is prepared while
// the database writes the previous one.
//
// A big load into a log that is small beside it runs in ONE transaction that drops the
// secondary indexes of history_events, loads, and creates them again from the definitions the
// database itself held (one sort per index instead of a B-tree insert per row and index). DDL
// is transactional on both databases, so a process dying half-way leaves the log and its indexes
// exactly as they were: no list of indexes to keep in step with the migrations, nothing to
// repair on the next start. Other writers wait for that transaction (on PostgreSQL, readers
// of the table too: dropping an index locks its table).
import { analyzeAfterBulkLoad } from '../../../db/index.ts';
import type { LoggerCatalogue } from '../../../site/loggers.ts';
import type { AppServices } from '../../../site/services.ts';
import type { AuthUser } from '../../../auth/types.ts';
import type { ActivityEntry, ActivityOrigin, Initiator } from '../../../site/activity.ts';
import { utcFormatter } from '../../../site/time.ts';
import { prepareEvent, type PreparedEvent } from '../model/event.ts';
import { rebuildRuns, setAppendRuns } from '../write/runs.ts';
import { STATS_COUNT_TABLES } from '../write/stats-counts.ts';
import { SqliteSink } from './sqlite-sink.ts';
import { KyselySink, PostgresSink } from './postgres-sink.ts';
import type { EventSink, IndexDefinition } from './sink.ts';
import { COUNTER_RUN_HEADS, type RunRow } from '../model/runs.ts';
import { COUNTER_TOTAL } from '../model/counters.ts';

export interface GenerateOptions {
  count: number;
  /** Spread the events over this many days up to now (default 30). */
  days?: number;
  onProgress?: (written: number, total: number) => void;
  /** Random seed, for repeatable data (default 1). */
  seed?: number;
  now?: Date;
  /**
   * Build the secondary indexes of history_events after loading instead of row by row, in one
   * transaction for the whole
   * load. Default: for loads of at least 50,000 events into a log no bigger than the load.
   */
  deferIndexes?: boolean;
  /** Events per batch (default 10,000). */
  batchSize?: number;
  /** false: write through the query builder (insertEvents), as the activity log does; for comparisons. */
  bulk?: boolean;
}

/**
 * The context key that marks every generated event (value "1"), so that generated events can
 * be told from real ones and removed (write/maintenance.ts).
 */
export const GENERATED_KEY = '_generated';

/** Events per transaction (normal path) or per write (deferred indexes). */
const DEFAULT_BATCH = 10000;
/** Events prepared between two turns of the event loop (so database I/O goes on meanwhile). */
const SLICE = 1000;
/** Loads at least this big into a log no bigger than the load build the indexes afterwards. */
const DEFER_MIN = 50_000;

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
async function actors(app: AppServices): Promise<AuthUser[]> {
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
function eventSource(
  loggers: LoggerCatalogue,
  users: AuthUser[],
  opts: GenerateOptions,
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

/**
 * Run fields for rows whose runs are rebuilt afterwards (rebuildRuns): within the batch,
 * heads get their size and other rows (0, 0) — what the rebuild writes — so that it only
 * changes the rows next to older events the batch interleaves with.
 */
export function presetRunsForRebuild(batch: PreparedEvent[]): void {
  let size = 0;
  for (let i = 0; i < batch.length; i++) {
    const row = batch[i].row;
    size = i > 0 && batch[i - 1].row.occasions_id === row.occasions_id ? size + 1 : 1;
    const head = i === batch.length - 1 || batch[i + 1].row.occasions_id !== row.occasions_id;
    row.run_head = head ? 1 : 0;
    row.run_size = head ? size : 0;
  }
}

async function sinkFor(app: AppServices, bulk: boolean): Promise<EventSink> {
  if (bulk && app.dialect === 'postgres' && app.dbHandle.pgPool) return PostgresSink.open(app.dbHandle.pgPool);
  if (bulk && app.dialect === 'sqlite' && app.dbHandle.location !== ':memory:')
    return new SqliteSink(app.dbHandle.location);
  return new KyselySink(app.db, app.dialect);
}

export async function generateEvents(app: AppServices, opts: GenerateOptions): Promise<number> {
  const total = Math.max(0, Math.floor(opts.count));
  if (total === 0) return 0;
  const next = eventSource(app.loggers, await actors(app), opts, total);
  const bulk = opts.bulk ?? true;
  const sink = await sinkFor(app, bulk);
  const BATCH = Math.max(1, Math.floor(opts.batchSize ?? DEFAULT_BATCH));
  let written = 0;
  // Set when the new events interleave with existing newer ones: runs are rebuilt at the end.
  let outOfOrder = false;
  try {
    const defer = sink.canDefer && (opts.deferIndexes ?? (total >= DEFER_MIN && (await sink.count()) <= total));

    // One batch in its own transaction, newest row read inside it (other writers may add rows).
    const writeAlone = async (batch: PreparedEvent[]) => {
      await sink.begin();
      try {
        const newest = await sink.newest();
        if (!outOfOrder && newest && batch[0].row.date < newest.date) outOfOrder = true;
        // (The query-builder path keeps the table's defaults, (1, 1): the reference in tests.)
        if (outOfOrder) {
          if (bulk) presetRunsForRebuild(batch);
        } else {
          const runs = setAppendRuns(newest, batch);
          if (runs.demoteNewest) await sink.demote(newest!.id);
          await sink.addToCounter(COUNTER_RUN_HEADS, runs.headsDelta);
        }
        await sink.insert(batch);
        await sink.addToCounter(COUNTER_TOTAL, batch.length);
        await sink.commit();
      } catch (err) {
        await sink.rollback();
        throw err;
      }
    };

    // Deferred indexes: one transaction for everything; the newest row is tracked here.
    let newest: RunRow | undefined;
    let heads = 0;
    const writeInLoad = async (batch: PreparedEvent[]) => {
      if (outOfOrder) presetRunsForRebuild(batch);
      else {
        const runs = setAppendRuns(newest, batch);
        if (runs.demoteNewest) await sink.demote(newest!.id);
        heads += runs.headsDelta;
      }
      const lastId = await sink.insert(batch);
      const last = batch[batch.length - 1].row;
      newest = {
        id: lastId,
        date: last.date,
        occasions_id: last.occasions_id,
        run_head: last.run_head!,
        run_size: last.run_size!,
      };
    };

    let batch: PreparedEvent[] | null = await next(Math.min(BATCH, total));
    let indexes: IndexDefinition[] = [];
    if (defer) await sink.begin();
    try {
      if (defer) {
        newest = await sink.newest();
        outOfOrder = newest !== undefined && batch[0].row.date < newest.date;
        indexes = await sink.secondaryIndexes();
        for (const index of indexes) await sink.dropIndex(index);
      }
      while (batch) {
        const writing = defer ? writeInLoad(batch) : writeAlone(batch);
        const remaining: number = total - written - batch.length;
        // Prepared while the database writes (the preparation yields to the event loop).
        const following: Promise<PreparedEvent[] | null> =
          remaining > 0 ? next(Math.min(BATCH, remaining)) : Promise.resolve(null);
        try {
          await writing;
        } catch (err) {
          await following;
          throw err;
        }
        written += batch.length;
        opts.onProgress?.(written, total);
        if (defer && written === total) {
          // The rows are in (the bar is full); the indexes take a few seconds more.
          await sink.beforeCreateIndexes();
          for (const index of indexes) await sink.createIndex(index);
          if (!outOfOrder) await sink.addToCounter(COUNTER_RUN_HEADS, heads);
          await sink.addToCounter(COUNTER_TOTAL, total);
          await sink.commit();
        }
        batch = await following;
      }
    } catch (err) {
      if (defer) await sink.rollback();
      throw err;
    }
  } finally {
    await sink.close();
  }
  if (outOfOrder) await rebuildRuns(app.db);
  // Fresh statistics after a bulk load, so the planner keeps using the right indexes.
  if (total >= 10_000)
    await analyzeAfterBulkLoad(app.db, app.dialect, [
      'history_events',
      'history_event_contexts',
      ...STATS_COUNT_TABLES,
    ]);
  return written;
}
