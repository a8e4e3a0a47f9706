// The background indexer: indexes a complete block whenever the event loop has been idle for a while,
// and one every few seconds when it never is.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { DialectName } from '../../../db/index.ts';
import type { AppServices } from '../../../site/services.ts';
import { contextIndexProgress, indexBlocks } from './build.ts';

/** Indexes the next block if it is complete; a transaction only then (the indexer asks twice a second). */
async function indexPendingBlock(db: Kysely<Database>, dialect: DialectName): Promise<number> {
  const { indexed, complete } = await contextIndexProgress(db);
  return complete > indexed ? indexBlocks(db, dialect, 1) : 0;
}

/** Below this share of busy time (event loop utilization) the server counts as idle. */
const IDLE_UTILIZATION = 0.3;
const IDLE_CHECK_MS = 500;
/**
 * Idle this long before indexing starts: a pause between two bursts of requests (a client's
 * think time, a load generator starting its next round) is not idleness; once started, blocks
 * follow one another while the server stays idle.
 */
const IDLE_BEFORE_MS = 1000;
/** While busy, a block is still indexed this often, so that the index keeps up with a busy site. */
const BUSY_INTERVAL_MS = 5000;

/**
 * Indexes complete blocks in the background of a serving process: one block after another once
 * the event loop has been idle for IDLE_BEFORE_MS, one every BUSY_INTERVAL_MS otherwise.
 * stop() waits for the block being indexed.
 */
export function startContextIndexer(app: AppServices): { stop(): Promise<void> } {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  let mark = performance.eventLoopUtilization();
  let markedAt = Date.now();
  let idleSince: number | undefined;
  let lastIndexed = Date.now();
  const remark = () => {
    mark = performance.eventLoopUtilization();
    markedAt = Date.now();
  };
  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(tick, ms);
    timer.unref();
  };
  const tick = () => {
    if (performance.eventLoopUtilization(mark).utilization < IDLE_UTILIZATION) idleSince ??= markedAt;
    else idleSince = undefined;
    remark();
    const idle = idleSince !== undefined && Date.now() - idleSince >= IDLE_BEFORE_MS;
    if (!idle && Date.now() - lastIndexed < BUSY_INTERVAL_MS) {
      schedule(IDLE_CHECK_MS);
      return;
    }
    running = indexPendingBlock(app.db, app.dialect).then(
      (indexed) => {
        if (indexed) lastIndexed = Date.now();
        // Measured from here: the block's own work does not count as the server being busy.
        remark();
        schedule(indexed && idle ? 10 : IDLE_CHECK_MS);
      },
      (err: unknown) => {
        app.log.warn({ err }, 'context index: block not indexed');
        remark();
        schedule(BUSY_INTERVAL_MS);
      },
    );
  };
  schedule(IDLE_CHECK_MS);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
