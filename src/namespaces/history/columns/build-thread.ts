// Reading a large log into its columns in a thread of its own (columns/build-worker.ts), so
// that the serving thread answers requests meanwhile instead of decoding a million rows between
// them. On 1,000,000 generated events the serving thread read them in 6.3–8.8 s (SQLite) in
// chunks of a thousand through the read pool, each row copied between threads; one statement
// in a thread of its own takes 2.8–3.6 s, idle.
import { Worker } from 'node:worker_threads';
import type { DatabaseHandle } from '../../../db/index.ts';
import { ColumnsUnfit, LogColumns, type ColumnsParts } from './store.ts';

/** What the thread reads. */
export interface BuildOrder {
  source: { sqliteFile: string } | { pg: NonNullable<DatabaseHandle['pgConnection']> };
  /** The newest id when the build started (the rows above are appended by the serving thread). */
  maxId: number;
  /** The log's events then: the arrays' room. */
  total: number;
  /** Rows beyond which the columns do not hold the log (ColumnsUnfit). */
  maxRows: number;
}

/** Rows after which the thread says how far it is. */
export const READ_REPORTED = 65_536;

/** What the thread says: how far it is, the columns read, or why there are none. */
export type BuildReport = { read: number } | { parts: ColumnsParts } | { unfit: string } | { failed: string };

/**
 * The thread's heap: the rows die young, the dictionaries' strings stay (a million distinct
 * occasions are about 100 MB with their map).
 */
const BUILD_HEAP = { maxOldGenerationSizeMb: 192, maxYoungGenerationSizeMb: 8 };

/** Where another thread can read the log: null for a database only this one can (SQLite in memory). */
export function threadSource(handle: DatabaseHandle): BuildOrder['source'] | null {
  if (handle.dialect === 'postgres') return handle.pgConnection ? { pg: handle.pgConnection } : null;
  return handle.location === ':memory:' ? null : { sqliteFile: handle.location };
}

export interface ColumnsThread {
  /** The columns read (ColumnsUnfit when they cannot hold the log). */
  columns: Promise<LogColumns>;
  stop(): Promise<void>;
}

/** Starts the thread; `progress` hears how many rows it has read, every READ_REPORTED rows. */
export function readInThread(order: BuildOrder, progress: (read: number) => void): ColumnsThread {
  const worker = new Worker(new URL('./build-worker.ts', import.meta.url), {
    workerData: order,
    resourceLimits: BUILD_HEAP,
  });
  // A cache being read never keeps the process alive.
  worker.unref();
  const columns = new Promise<LogColumns>((resolve, reject) => {
    worker.on('message', (report: BuildReport) => {
      if ('read' in report) progress(report.read);
      else if ('parts' in report) resolve(new LogColumns({ parts: report.parts }));
      else if ('unfit' in report) reject(new ColumnsUnfit(report.unfit));
      else reject(new Error(report.failed));
    });
    worker.on('error', reject);
    // After an answer this changes nothing.
    worker.on('exit', (code) => reject(new Error(`the thread reading the log's columns ended (exit code ${code})`)));
  });
  return { columns, stop: async () => void (await worker.terminate()) };
}
