// Loading generated activity-log events in bulk, for demos and benchmarks: the events come from
// bulk/scenarios.ts and are written in batches of bulk INSERTs (bulk/sqlite-sink.ts,
// bulk/postgres-sink.ts); the next batch is prepared while the database writes the previous one.
//
// A big load into a log that is small beside it runs in ONE transaction that drops the
// secondary indexes of history_events, loads, and creates them again from the definitions the
// database itself held (one sort per index instead of a B-tree insert per row and index). DDL
// is transactional on both databases, so a process dying half-way leaves the log and its indexes
// exactly as they were: no list of indexes to keep in step with the migrations, nothing to
// repair on the next start. Other writers wait for that transaction (on PostgreSQL, readers
// of the table too: dropping an index locks its table).
import { vacuumAfterBulkLoad } from '../../../db/index.ts';
import type { AppServices } from '../../../site/services.ts';
import type { PreparedEvent } from '../model/event.ts';
import { rebuildRuns, setAppendRuns } from '../write/runs.ts';
import { SqliteSink } from './sqlite-sink.ts';
import { KyselySink, PostgresSink } from './postgres-sink.ts';
import { bulkWrittenTables, type EventSink, type IndexDefinition } from './sink.ts';
import { COUNTER_RUN_HEADS, type RunRow } from '../model/runs.ts';
import { COUNTER_TOTAL } from '../model/counters.ts';
import { actors, eventSource, type ScenarioOptions } from './scenarios.ts';

export interface GenerateOptions extends ScenarioOptions {
  count: number;
  onProgress?: (written: number, total: number) => void;
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

/** Events per transaction (normal path) or per write (deferred indexes). */
const DEFAULT_BATCH = 10000;
/** Loads at least this big into a log no bigger than the load build the indexes afterwards. */
const DEFER_MIN = 50_000;

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
        await sink.indexNewEvents();
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
          await sink.indexNewEvents();
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
  // Fresh statistics and visibility map after a bulk load, so the planner keeps using the right
  // indexes and index-only scans stay so.
  if (total >= 10_000) await vacuumAfterBulkLoad(app.db, app.dialect, bulkWrittenTables(app.dialect));
  return written;
}
