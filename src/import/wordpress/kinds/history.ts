// The activity log of Simple History (`<prefix>simple_history` + `_contexts`) into ours, with
// the same event ids, dates, levels, loggers, templates, occasions ids and contexts. Loggers we
// do not have keep their events: they show their stored templates.
//
// Streamed in batches of events by id (each batch's contexts by a range of history_id), through
// the activity log's bulk writers (history/bulk/sqlite-sink.ts, postgres-sink.ts). A big load into a
// log no bigger than it runs in one transaction with the secondary indexes built afterwards;
// otherwise every batch commits on its own. Either way a run killed half-way leaves whole
// batches: the next run skips the events already here (same id, date, logger and occasions id)
// and goes on. The high-water mark (the last source id brought over) only saves re-reading.
import { analyzeAfterBulkLoad } from '../../../db/index.ts';
import type { LogLevel } from '../../../site/activity.ts';
import type { LoggerCatalogue } from '../../../site/loggers.ts';
import {
  clearContextIndex,
  BLOCK_EVENTS,
  COUNTER_INDEXED_BLOCKS,
  presetRunsForRebuild,
  type EventSink,
  type IndexDefinition,
  SqliteSink,
  PostgresSink,
  rebuildRuns,
  stickEvent,
  unstickEvent,
  COUNTER_TOTAL,
  LOG_LEVELS,
  STATS_COUNT_TABLES,
  contextJson,
  readCounter,
  searchTextOf,
  storableText,
  type PreparedEvent,
} from '../../../namespaces/history/api.ts';
import { syncIdSequence, mysqlDate, type ImportContext, type ImportKind } from '../context.ts';
import type { KindReport } from '../report.ts';

/** Events per batch read from the source and written in one go. */
const BATCH = 5000;
/** Loads at least this big into a log no bigger than the load build the indexes afterwards (as the generator does). */
const DEFER_MIN = 50_000;

/** A load in one transaction reads the events already here above the mark beforehand: at most this many. */
const PRELOAD_MAX = 100_000;
/**
 * Page cache of the SQLite writer (the generator's 128 MB would take half of the import's 300 MB).
 * 1,000,000 events side by side (`node bench/import-wordpress.ts 1000000`): 48 MB 32.4 s, peak RSS
 * 290 MB; 24 MB 35.6 s, 249 MB — the budget's margin is worth the 10 %.
 */
const SQLITE_CACHE_MB = 24;

/** Simple History's initiators → ours. */
const INITIATORS: Record<string, string> = {
  wp_user: 'cms_user',
  wp: 'cms',
  wp_cli: 'cms_cli',
  web_user: 'web_user',
  other: 'other',
};

interface SourceEvent {
  id: number;
  date: string;
  logger: string | null;
  level: string | null;
  message: string | null;
  occasionsID: string | null;
  initiator: string | null;
}

interface SourceContext {
  history_id: number;
  key: string | null;
  value: string | null;
}

/** A source event as our events row and context; a reason instead when it cannot be stored. */
export function convertEvent(
  loggers: LoggerCatalogue,
  e: SourceEvent,
  contexts: SourceContext[],
  userIds: Map<string, string>,
  report: KindReport,
): PreparedEvent | string {
  const date = mysqlDate(e.date);
  if (!date) return 'no valid date';
  let level = String(e.level ?? '').toLowerCase();
  if (!(LOG_LEVELS as string[]).includes(level)) {
    report.note(`level "${e.level}" is not a PSR-3 level: stored as info`);
    level = 'info';
  }
  const initiator = INITIATORS[String(e.initiator ?? '')];
  if (!initiator) report.note(`initiator "${e.initiator}" is not one of Simple History's: stored as other`);
  const map = new Map<string, string | null>();
  for (const c of contexts)
    if (c.key !== null) map.set(storableText(c.key), c.value === null ? null : storableText(String(c.value)));
  // The acting user is ours now: a WordPress user id brought over as another id follows it.
  const sourceUser = map.get('_user_id');
  let userId: number | null = null;
  if (sourceUser && /^\d+$/.test(sourceUser)) {
    const mapped = userIds.get(sourceUser);
    if (mapped !== undefined && mapped !== sourceUser) map.set('_user_id', mapped);
    userId = Number(mapped ?? sourceUser);
  }
  const logger = storableText(String(e.logger ?? ''));
  const template = storableText(String(e.message ?? ''));
  return {
    row: {
      date,
      logger,
      level,
      message: template,
      message_key: map.get('_message_key') ?? null,
      occasions_id: String(e.occasionsID ?? ''),
      initiator: initiator ?? 'other',
      user_id: userId,
      remote_addr: map.get('_server_remote_addr')?.toLowerCase() || null,
      sticky: map.has('_sticky') ? 1 : 0,
      backfilled: map.has('_backfilled_event') ? 1 : 0,
      search_text: searchTextOf(loggers, template, logger, level as LogLevel, map),
      meta_text: '',
    },
    context: contextJson(map),
  };
}

/** An event of this site, as far as telling an earlier import of the same event from a conflict needs. */
interface HereEvent {
  id: number;
  date: string;
  logger: string;
  occasions_id: string;
}

interface Batch {
  events: SourceEvent[];
  contexts: SourceContext[];
}

export const historyKind: ImportKind = {
  name: 'history',
  plugin: { name: 'Simple History', tables: ['simple_history', 'simple_history_contexts'] },
  async run(ctx, report) {
    const { wp, app, state } = ctx;
    const events = wp.table('simple_history');
    const contexts = wp.table('simple_history_contexts');
    report.available = await wp.count('simple_history');
    const mark = await state.mark('history');
    const pending = await wp.count('simple_history', 'id > ?', [mark]);
    report.unchanged += report.available - pending;
    const stage = ctx.progress.stage('history', pending);
    const userIds = new Map([...(await state.mappings('users'))].map(([source, m]) => [source, m.targetId]));

    const read = async (after: number): Promise<Batch | null> => {
      const rows = await wp.db.query<SourceEvent & Record<string, unknown>>(
        `SELECT id, date, logger, level, message, occasionsID, initiator FROM ${events} WHERE id > ? ORDER BY id LIMIT ${BATCH}`,
        [after],
      );
      if (!rows.length) return null;
      const ctxRows = await wp.db.query<SourceContext & Record<string, unknown>>(
        `SELECT history_id, \`key\`, value FROM ${contexts} FORCE INDEX (history_id) WHERE history_id BETWEEN ? AND ? ORDER BY history_id, context_id`,
        [Number(rows[0]!.id), Number(rows[rows.length - 1]!.id)],
      );
      return { events: rows, contexts: ctxRows };
    };

    const targetCount = await readCounter(app.db, COUNTER_TOTAL);
    const pool = app.dbHandle.pgPool;
    if (!ctx.dryRun && (app.dialect === 'postgres' ? !pool : app.dbHandle.location === ':memory:'))
      throw new Error('importing the activity log needs a database file or a PostgreSQL pool');
    // The bulk writers of the activity log; on SQLite with a page cache that leaves room in the import's memory budget.
    const sink: EventSink | null = ctx.dryRun
      ? null
      : pool
        ? await PostgresSink.open(pool)
        : new SqliteSink(app.dbHandle.location, SQLITE_CACHE_MB);
    // The load's transaction drops indexes (on PostgreSQL that locks the table): the events
    // already here above the mark are read beforehand, and none is replaced meanwhile (that
    // deletes through another connection, which would wait for the load's).
    let deferrable =
      sink !== null &&
      sink.canDefer &&
      pending >= DEFER_MIN &&
      targetCount <= pending &&
      ctx.onConflict !== 'overwrite';
    let preloaded: Map<number, HereEvent> | null = null;
    if (deferrable) {
      const rows = await app.db
        .selectFrom('history_events')
        .select(['id', 'date', 'logger', 'occasions_id'])
        .where('id', '>', mark)
        .limit(PRELOAD_MAX + 1)
        .execute();
      if (rows.length > PRELOAD_MAX) deferrable = false;
      else preloaded = new Map(rows.map((r) => [r.id, r]));
    }
    const defer = deferrable;
    const existing = async (first: number, last: number): Promise<Map<number, HereEvent>> =>
      preloaded ??
      new Map(
        (
          await app.db
            .selectFrom('history_events')
            .select(['id', 'date', 'logger', 'occasions_id'])
            .where('id', '>=', first)
            .where('id', '<=', last)
            .execute()
        ).map((r) => [r.id, r]),
      );
    let indexes: IndexDefinition[] = [];
    let inserted = 0;
    let minId = Infinity;
    let maxId = 0;
    let seen = 0;
    try {
      if (defer && sink) {
        await sink.begin();
        indexes = await sink.secondaryIndexes();
        for (const index of indexes) await sink.dropIndex(index);
      }
      let batch = await read(mark);
      while (batch) {
        const last = Number(batch.events[batch.events.length - 1]!.id);
        // Read the next batch while this one is written.
        const next = read(last);
        const { prepared, ids } = await prepareBatch(ctx, report, batch, userIds, existing);
        if (sink && prepared.length) {
          presetRunsForRebuild(prepared);
          if (!defer) await sink.begin();
          try {
            await sink.insert(prepared, ids);
            if (!defer) {
              await sink.addToCounter(COUNTER_TOTAL, prepared.length);
              await sink.commit();
            }
          } catch (err) {
            if (!defer) await sink.rollback();
            await next.catch(() => {});
            throw err;
          }
          minId = Math.min(minId, ids[0]!);
          maxId = Math.max(maxId, ids[ids.length - 1]!);
          inserted += prepared.length;
        }
        if (!defer && !ctx.dryRun) await state.setMark(app.db, 'history', last);
        seen += batch.events.length;
        stage.update(seen);
        batch = await next;
      }
      if (defer && sink) {
        await sink.beforeCreateIndexes();
        for (const index of indexes) await sink.createIndex(index);
        await sink.addToCounter(COUNTER_TOTAL, inserted);
        await sink.commit();
        if (seen) await state.setMark(app.db, 'history', maxId);
      }
    } catch (err) {
      if (defer && sink) await sink.rollback();
      throw err;
    } finally {
      await sink?.close();
    }
    if (inserted) await afterLoad(ctx, minId, inserted);
    await syncSticky(ctx, report, mark);
    stage.finish(`${report.imported} new, ${report.unchanged} already here, ${report.skippedTotal} skipped`);
  },
};

/**
 * Converts a batch and sorts out the ids that exist here already: events of an earlier run of
 * this import (same date, logger and occasions id) are left as they are; other events with
 * the same id are conflicts, resolved by --on-conflict (skip; overwrite replaces ours; rename is
 * refused, since links to an event go by its id).
 */
async function prepareBatch(
  ctx: ImportContext,
  report: KindReport,
  batch: Batch,
  userIds: Map<string, string>,
  existingIn: (first: number, last: number) => Promise<Map<number, HereEvent>>,
): Promise<{ prepared: PreparedEvent[]; ids: number[] }> {
  const byEvent = new Map<number, SourceContext[]>();
  for (const c of batch.contexts) {
    const id = Number(c.history_id);
    let list = byEvent.get(id);
    if (!list) byEvent.set(id, (list = []));
    list.push(c);
  }
  const first = Number(batch.events[0]!.id);
  const last = Number(batch.events[batch.events.length - 1]!.id);
  const existing = await existingIn(first, last);
  const prepared: PreparedEvent[] = [];
  const ids: number[] = [];
  const replace: number[] = [];
  for (const e of batch.events) {
    const id = Number(e.id);
    const event = convertEvent(ctx.app.loggers, e, byEvent.get(id) ?? [], userIds, report);
    if (typeof event === 'string') {
      report.skip(`event ${event}`);
      continue;
    }
    const here = existing.get(id);
    if (here) {
      if (
        here.date === event.row.date &&
        here.logger === event.row.logger &&
        here.occasions_id === event.row.occasions_id
      ) {
        report.unchanged++;
        continue;
      }
      if (ctx.onConflict !== 'overwrite') {
        report.conflict(
          `event ${id}: this site's own event ${id} (${here.logger}, ${here.date}) has that id — ${ctx.onConflict === 'rename' ? 'events keep their ids (links point to them): skipped' : 'skipped'}`,
        );
        report.skip('id taken by an event of this site (--on-conflict overwrite replaces it)');
        continue;
      }
      report.conflict(
        `event ${id}: this site's own event ${id} (${here.logger}, ${here.date}) replaced by the WordPress event`,
      );
      replace.push(id);
      report.updated++;
    } else {
      report.imported++;
    }
    prepared.push(event);
    ids.push(id);
  }
  if (replace.length && !ctx.dryRun) {
    await ctx.app.db.transaction().execute(async (tx) => {
      // Events first: the statistics' triggers read a removed failed login's context (migration 0022).
      await tx.deleteFrom('history_events').where('id', 'in', replace).execute();
      await tx.deleteFrom('history_event_contexts').where('event_id', 'in', replace).execute();
      await tx
        .updateTable('history_counters')
        .set((eb) => ({ value: eb('value', '-', replace.length) }))
        .where('name', '=', COUNTER_TOTAL)
        .execute();
    });
  }
  return { prepared, ids };
}

/** After inserting with explicit ids: sequence, occasions runs, context index and planner statistics. */
async function afterLoad(ctx: ImportContext, minId: number, inserted: number): Promise<void> {
  const { app } = ctx;
  await syncIdSequence(app, 'history_events');
  // Source ids are not in date order everywhere (back-dated entries): runs are computed anew.
  await rebuildRuns(app.db);
  // Blocks of the context index that the new ids fall into were indexed without them.
  const indexed = await readCounter(app.db, COUNTER_INDEXED_BLOCKS);
  if (indexed > 0 && minId < indexed * BLOCK_EVENTS) await clearContextIndex(app.db, app.dialect);
  if (inserted >= 10_000)
    await analyzeAfterBulkLoad(app.db, app.dialect, [
      'history_events',
      'history_event_contexts',
      ...STATS_COUNT_TABLES,
    ]);
}

/**
 * Events stuck or unstuck at the source since the last run (sticky is the context key
 * `_sticky`, added and removed on events already logged): stuck or unstuck here as well.
 * The source's sticky events of the last run are remembered (import_map, kind `sticky`), so
 * that stickiness given or taken on this site stays as it is unless the source changed.
 */
async function syncSticky(ctx: ImportContext, report: KindReport, previousMark: number): Promise<void> {
  const { wp, app, state } = ctx;
  const rows = await wp.db.query<{ id: number }>(
    `SELECT DISTINCT history_id AS id FROM ${wp.table('simple_history_contexts')} WHERE \`key\` = '_sticky'`,
  );
  const now = new Set(rows.map((r) => String(r.id)));
  const before = await state.mappings('sticky');
  // Events up to the previous mark came over earlier; later ones brought their sticky state with them.
  const stuck = [...now].filter((id) => !before.has(id) && Number(id) <= previousMark);
  const unstuck = [...before.keys()].filter((id) => !now.has(id));
  const viewer = { user: null, lang: 'en' as const };
  let changed = 0;
  for (const id of [...stuck, ...unstuck]) {
    const here = await app.db
      .selectFrom('history_events')
      .select('sticky')
      .where('id', '=', Number(id))
      .executeTakeFirst();
    const wanted = now.has(id) ? 1 : 0;
    if (!here || here.sticky === wanted) continue;
    changed++;
    if (ctx.dryRun) continue;
    if (wanted) await stickEvent(app, Number(id), viewer);
    else await unstickEvent(app, Number(id), viewer);
  }
  if (changed) {
    report.updated += changed;
    report.note(
      `${changed} event(s) stuck or unstuck at the source since the last run: ${ctx.dryRun ? 'would be ' : ''}changed here too`,
    );
  }
  if (ctx.dryRun) return;
  await app.db.transaction().execute(async (tx) => {
    for (const id of now) if (!before.has(id)) await state.map(tx, 'sticky', id, id, '1');
    for (const id of unstuck) await state.unmap(tx, 'sticky', id);
  });
}
