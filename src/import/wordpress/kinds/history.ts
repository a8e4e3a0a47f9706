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
//
// Converting an event is history-events.ts; following stickiness changed at the source,
// history-sticky.ts.
import { vacuumAfterBulkLoad } from '../../../db/index.ts';
import {
  bulkWrittenTables,
  clearContextIndex,
  BLOCK_EVENTS,
  COUNTER_INDEXED_BLOCKS,
  presetRunsForRebuild,
  type EventSink,
  type IndexDefinition,
  SqliteSink,
  PostgresSink,
  rebuildRuns,
  COUNTER_TOTAL,
  readCounter,
  type PreparedEvent,
} from '../../../namespaces/history/api.ts';
import { syncIdSequence, type ImportContext, type ImportKind } from '../context.ts';
import type { KindReport } from '../report.ts';
import { convertEvent, type SourceContext, type SourceEvent } from './history-events.ts';
import { syncSticky } from './history-sticky.ts';

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
              await sink.indexNewEvents();
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
        await sink.indexNewEvents();
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
  if (inserted >= 10_000) await vacuumAfterBulkLoad(app.db, app.dialect, bulkWrittenTables(app.dialect));
}
