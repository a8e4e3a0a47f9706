// The background indexer: indexes complete blocks one after another whenever the event loop has been
// idle for a while, and a few a second when it never is, so that the index keeps up under load.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { DialectName } from '../../../db/index.ts';
import type { AppServices } from '../../../site/services.ts';
import { contextIndexProgress, indexBlocks } from './build.ts';
import { BLOCK_EVENTS } from './terms.ts';

/** Indexes the next block if it is complete (a transaction only then); returns how many blocks were pending. */
async function indexPendingBlock(db: Kysely<Database>, dialect: DialectName): Promise<number> {
  const { indexed, complete } = await contextIndexProgress(db);
  if (complete <= indexed) return 0;
  await indexBlocks(db, dialect, 1);
  return complete - indexed;
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
/**
 * While busy, a block is still indexed this often (each holds SQLite's thread for about 50 ms
 * per 4,096 events): a million events written by a bulk load are indexed within about two
 * minutes of steady traffic, not only once it stops.
 */
const BUSY_INTERVAL_MS = 400;
/** A backlog of more blocks than this is reported in the process log as it shrinks. */
const REPORT_BACKLOG = 16;
const REPORT_EVERY_MS = 10_000;

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
  let reportedAt = 0;
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
    const sinceIndexed = Date.now() - lastIndexed;
    if (!idle && sinceIndexed < BUSY_INTERVAL_MS) {
      schedule(Math.min(IDLE_CHECK_MS, BUSY_INTERVAL_MS - sinceIndexed));
      return;
    }
    running = indexPendingBlock(app.db, app.dialect).then(
      (indexed) => {
        if (indexed) lastIndexed = Date.now();
        if (indexed > REPORT_BACKLOG && Date.now() - reportedAt >= REPORT_EVERY_MS) {
          reportedAt = Date.now();
          app.log.info({ blocksLeft: indexed - 1, events: (indexed - 1) * BLOCK_EVENTS }, 'context index: catching up');
        }
        // Measured from here: the block's own work does not count as the server being busy.
        remark();
        schedule(indexed > 1 ? (idle ? 10 : BUSY_INTERVAL_MS) : IDLE_CHECK_MS);
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
