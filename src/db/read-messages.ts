// What the SQLite read pool (read-pool.ts) and its worker threads (read-worker.js) send each other.

export interface ReadWorkerData {
  file: string;
  /** SQLite page cache of this connection, in KiB (each worker has its own). */
  cacheKib: number;
}

export interface ReadJob {
  id: number;
  sql: string;
  parameters: readonly unknown[];
}

/** Sent when the pool closes: the thread closes its connection and ends by itself. */
export interface ReadStop {
  stop: true;
}

/** Rows as arrays (cheaper to pass between threads than objects), with their column names. */
export type ReadAnswer =
  | { ready: true }
  | { id: number; columns: string[]; rows: unknown[][] }
  | { id: number; error: { message: string; code?: string } };
