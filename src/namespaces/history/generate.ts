// Realistic activity-log data in bulk, for demos and benchmarks: logins and failed-login
// runs, page edits in bursts, media, plugins, settings, comments and custom entries, spread
// over the last `days` days. Written through the same event preparation as real events,
// in batched multi-row INSERTs inside transactions.
import { sql } from 'kysely';
import type { AppServices } from '../../app.ts';
import type { AuthUser } from '../../auth/types.ts';
import type { ActivityEntry, ActivityOrigin, Initiator } from '../../site/activity.ts';
import { formatUtc } from '../../site/time.ts';
import { addToCounter, COUNTER_TOTAL, insertEvents, prepareEvent, type PreparedEvent } from './store.ts';
import { COUNTER_RUN_HEADS, lockRuns, newestRow, rebuildRuns, runsForAppend } from './runs.ts';
import { SqliteBulkWriter } from './bulk-sqlite.ts';

export interface GenerateOptions {
  count: number;
  /** Spread the events over this many days up to now (default 30). */
  days?: number;
  onProgress?: (written: number, total: number) => void;
  /** Random seed, for repeatable data (default 1). */
  seed?: number;
  now?: Date;
}

const BATCH = 20000;

/** Small deterministic PRNG (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TITLES = ['About us', 'Partner programme', 'Pricing', 'Contact', 'Impressum', 'Datenschutz', 'Release notes', 'Onboarding guide', 'FAQ', 'Team', 'Careers', 'Events 2026', 'Webinar: Getting started', 'Produktübersicht', 'Händlerportal'];
const PLUGINS = ['Forms', 'SEO Tools', 'Cache Booster', 'Backup Pro', 'Slider X', 'Translator', 'Scheduler'];
const OPTIONS = [['blogname', 'general'], ['timezone_string', 'general'], ['posts_per_page', 'reading'], ['permalink_structure', 'permalinks']];
const FILES = ['logo.png', 'team-photo.jpg', 'brochure.pdf', 'header.webp', 'price-list.xlsx'];
const NAMES = ['anna', 'ben', 'clara', 'david', 'eva', 'felix', 'greta', 'hans', 'ines', 'jonas'];

interface Actor {
  user: AuthUser | null;
  ip: string;
}

/** Users to act as: the site's users, or invented ones when the site has none. */
async function actors(app: AppServices): Promise<AuthUser[]> {
  const rows = await app.db.selectFrom('users').select(['id', 'login', 'email', 'display_name', 'role']).orderBy('id').limit(50).execute();
  const list = rows.length
    ? rows
    : NAMES.map((name, i) => ({ id: 1000 + i, login: name, email: `${name}@example.com`, display_name: name, role: i < 2 ? 'administrator' : 'editor' }));
  return list.map((u) => ({ id: u.id, login: u.login, email: u.email, displayName: u.display_name, role: u.role as AuthUser['role'], can: () => true }));
}

export async function generateEvents(app: AppServices, opts: GenerateOptions): Promise<number> {
  const total = Math.max(0, Math.floor(opts.count));
  const days = opts.days ?? 30;
  const rnd = random(opts.seed ?? 1);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)];
  const users = await actors(app);
  const ipOf = () => `${pick([10, 172, 192, 203])}.${Math.floor(rnd() * 256)}.${Math.floor(rnd() * 256)}.${Math.floor(rnd() * 256)}`;
  const endMs = (opts.now ?? new Date()).getTime();
  const startMs = endMs - days * 86_400_000;
  const step = total > 0 ? (endMs - startMs) / total : 0;

  // A scenario yields one or more events (bursts make occasions).
  const scenario = (): [ActivityEntry, ActivityOrigin][] => {
    const user = pick(users);
    const actor: Actor = { user, ip: ipOf() };
    const as = (initiator?: Initiator): ActivityOrigin => ({ user: actor.user, ip: actor.ip, rest: true, ...(initiator ? { initiator } : {}) });
    const r = rnd();
    if (r < 0.22) return [[{ logger: 'SimpleUserLogger', messageKey: 'user_logged_in' }, as()]];
    if (r < 0.3) {
      const login = rnd() < 0.5 ? pick(users).login : pick(NAMES) + Math.floor(rnd() * 100);
      const known = users.some((u) => u.login === login);
      const burst = 1 + Math.floor(rnd() * rnd() * 30);
      const anon: ActivityOrigin = { user: null, ip: ipOf(), rest: true, initiator: 'web_user' };
      return Array.from({ length: burst }, () => [
        known
          ? { logger: 'SimpleUserLogger', messageKey: 'user_login_failed', level: 'warning', context: { login, _occasionsID: `failed:${login}` } }
          : { logger: 'SimpleUserLogger', messageKey: 'user_unknown_login_failed', level: 'warning', context: { failed_username: login, _occasionsID: `failed:${login}` } },
        anon,
      ]);
    }
    if (r < 0.5) {
      const post_title = pick(TITLES);
      const post_type = rnd() < 0.6 ? 'page' : 'post';
      const post_id = 1 + Math.floor(rnd() * 400);
      const edits = 1 + Math.floor(rnd() * 4);
      const events: [ActivityEntry, ActivityOrigin][] = [];
      if (rnd() < 0.3) events.push([{ logger: 'SimplePostLogger', messageKey: 'post_created', context: { post_id, post_type, post_title } }, as()]);
      for (let i = 0; i < edits; i++) events.push([{ logger: 'SimplePostLogger', messageKey: 'post_updated', context: { post_id, post_type, post_title } }, as()]);
      if (rnd() < 0.05) events.push([{ logger: 'SimplePostLogger', messageKey: pick(['post_trashed', 'post_deleted', 'post_restored']), context: { post_id, post_type, post_title } }, as()]);
      return events;
    }
    if (r < 0.6) {
      const attachment_title = pick(FILES).replace(/\.\w+$/, '');
      return [[{ logger: 'SimpleMediaLogger', messageKey: pick(['attachment_created', 'attachment_created', 'attachment_updated', 'attachment_deleted']), context: { post_type: 'attachment', attachment_title, attachment_filename: pick(FILES) } }, as()]];
    }
    if (r < 0.66) {
      const plugin_name = pick(PLUGINS);
      const key = pick(['plugin_activated', 'plugin_deactivated', 'plugin_updated', 'plugin_installed']);
      return [[{ logger: 'SimplePluginLogger', messageKey: key, context: { plugin_name, plugin_version: `2.${Math.floor(rnd() * 9)}`, plugin_prev_version: '2.0' } }, as()]];
    }
    if (r < 0.71) {
      const [option, option_page] = pick(OPTIONS);
      return [[{ logger: 'SimpleOptionsLogger', messageKey: 'option_updated', context: { option, option_page } }, rnd() < 0.3 ? { user, ip: '', initiator: 'cms_cli' } : as()]];
    }
    if (r < 0.8) {
      return [[{ logger: 'SimpleCommentsLogger', messageKey: pick(['anon_comment_added', 'comment_status_approve', 'comment_status_spam']), context: { comment_post_type: 'post', comment_post_title: pick(TITLES), comment_author: pick(NAMES), comment_author_email: `${pick(NAMES)}@example.org` } }, { user: null, ip: ipOf(), rest: false, initiator: 'web_user' }]];
    }
    if (r < 0.85) return [[{ logger: 'AvailableUpdatesLogger', messageKey: 'plugin_update_available', level: 'notice', context: { plugin_name: pick(PLUGINS) } }, { user: null, ip: '', initiator: 'cms' }]];
    if (r < 0.9) return [[{ logger: 'CustomEntryLogger', messageKey: 'custom_entry_added', level: pick(['info', 'notice', 'warning']), context: { message: `Deployment ${Math.floor(rnd() * 1000)}` } }, as()]];
    if (r < 0.95) return [[{ logger: 'NotesLogger', messageKey: pick(['note_added', 'note_resolved', 'note_reply_added']), context: { post_type: 'page', post_title: pick(TITLES) } }, as()]];
    if (r < 0.98) return [[{ logger: 'SimpleUserLogger', messageKey: 'user_updated_profile', context: { edited_user_login: pick(users).login, edited_user_email: pick(users).email } }, as()]];
    return [[{ logger: 'SimpleUserLogger', messageKey: 'user_logged_out' }, as()]];
  };

  // Set when the new events interleave with existing newer ones: runs are rebuilt at the end.
  let outOfOrder = false;
  /** Append fast path: the batch is newer than every row, so run fields follow from the rows. */
  const setRuns = (newest: Awaited<ReturnType<typeof newestRow>>, batch: PreparedEvent[]) => {
    const first = batch[0].row.date;
    if (!outOfOrder && newest && first < newest.date) outOfOrder = true;
    if (outOfOrder) return null;
    const result = runsForAppend(newest, batch.map((e) => e.row.occasions_id));
    batch.forEach((e, i) => {
      e.row.run_head = result.runs[i][0];
      e.row.run_size = result.runs[i][1];
    });
    return result;
  };
  const writeBatch = (batch: PreparedEvent[]) =>
    app.db.transaction().execute(async (tx) => {
      await lockRuns(tx, app.dialect);
      const newest = await newestRow(tx);
      const runs = setRuns(newest, batch);
      if (runs?.demoteNewest) await tx.updateTable('history_events').set({ run_head: 0 }).where('id', '=', newest!.id).execute();
      if (runs) await addToCounter(tx, COUNTER_RUN_HEADS, runs.headsDelta);
      await insertEvents(tx, batch);
      await addToCounter(tx, COUNTER_TOTAL, batch.length);
    });
  const writeBatchSqlite = (writer: SqliteBulkWriter, batch: PreparedEvent[]) =>
    writer.transaction(() => {
      const newest = writer.get<NonNullable<Awaited<ReturnType<typeof newestRow>>>>(
        'select id, date, occasions_id, run_head, run_size from history_events order by date desc, id desc limit 1',
      );
      const runs = setRuns(newest, batch);
      const count = (name: string, delta: number) =>
        writer.run('insert into history_counters (name, value) values (?, ?) on conflict (name) do update set value = history_counters.value + excluded.value', name, delta);
      if (runs?.demoteNewest) writer.run('update history_events set run_head = 0 where id = ?', newest!.id);
      if (runs) count(COUNTER_RUN_HEADS, runs.headsDelta);
      writer.insert(batch);
      count(COUNTER_TOTAL, batch.length);
    });
  const bulk = app.dialect === 'sqlite' && app.dbHandle.location !== ':memory:' ? new SqliteBulkWriter(app.dbHandle.location) : null;

  let written = 0;
  let pending: [ActivityEntry, ActivityOrigin][] = [];
  try {
    while (written < total) {
      const batch: PreparedEvent[] = [];
      while (batch.length < Math.min(BATCH, total - written)) {
        if (!pending.length) pending = scenario();
        const [entry, origin] = pending.shift()!;
        const at = startMs + (written + batch.length) * step + rnd() * step * 0.5;
        batch.push(prepareEvent({ ...entry, date: formatUtc(new Date(Math.min(at, endMs))) }, origin));
      }
      if (bulk) writeBatchSqlite(bulk, batch);
      else await writeBatch(batch);
      written += batch.length;
      opts.onProgress?.(written, total);
    }
  } finally {
    bulk?.close();
  }
  if (outOfOrder) await rebuildRuns(app.db);
  // Fresh statistics after a bulk load, so the planner keeps using the right indexes.
  if (app.dialect === 'postgres' && total >= 10_000) await sql`analyze history_events, history_contexts`.execute(app.db);
  return written;
}
