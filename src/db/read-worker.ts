// One read connection of the SQLite read pool (read-pool.ts), in its own thread: it runs the
// compiled read queries it is sent, one at a time, and answers each with its rows. Read-only,
// so nothing here can change the database; WAL lets it read while the main connection writes.
import { parentPort, workerData } from 'node:worker_threads';
import SqliteDatabase from 'better-sqlite3';

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

const { file, cacheKib } = workerData as ReadWorkerData;
const sqlite = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
sqlite.pragma('busy_timeout = 5000');
sqlite.pragma(`cache_size = ${-cacheKib}`);

// The runs of equal consecutive values, in the order the rows arrive (a sub-query's ORDER BY),
// as JSON: [runs, first row, last value], a row being [value, ...the rest of its arguments].
// The activity log's groups of a filter counted in one statement in this thread, rather than
// every matching row sent to the server's thread and counted there; the ends let the counts of
// consecutive stretches be joined (a group may span the seam), and the first row is the newest
// the count saw, which the total's cache keeps.
sqlite.aggregate('run_edges', {
  varargs: true,
  start: () => ({ runs: 0, first: null as unknown[] | null, last: null as unknown }),
  step: (state, value: unknown, ...rest: unknown[]) => {
    if (state.runs === 0) {
      state.first = [value, ...rest];
      state.runs = 1;
    } else if (value !== state.last) state.runs++;
    state.last = value;
    return state;
  },
  result: (state) => JSON.stringify([state.runs, state.first, state.last]),
});

// Prepared statements by SQL text: preparing costs as much as running a short query.
const STATEMENT_CACHE_SIZE = 200;
const statements = new Map<string, SqliteDatabase.Statement>();

function prepare(source: string): SqliteDatabase.Statement {
  const hit = statements.get(source);
  if (hit) {
    statements.delete(source);
    statements.set(source, hit);
    return hit;
  }
  const stmt = sqlite.prepare(source);
  if (!stmt.reader)
    throw Object.assign(new Error('the read pool runs queries that return rows only'), { code: 'SQLITE_READONLY' });
  stmt.raw(true);
  if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
  statements.set(source, stmt);
  return stmt;
}

/** Blobs arrive as plain Uint8Arrays; better-sqlite3 binds Buffers. */
function bindable(value: unknown): unknown {
  return value instanceof Uint8Array && !Buffer.isBuffer(value)
    ? Buffer.from(value.buffer, value.byteOffset, value.byteLength)
    : value;
}

parentPort!.postMessage({ ready: true } satisfies ReadAnswer);
parentPort!.on('message', (job: ReadJob | ReadStop) => {
  if ('stop' in job) {
    sqlite.close();
    parentPort!.close();
    return;
  }
  let answer: ReadAnswer;
  try {
    const stmt = prepare(job.sql);
    const rows = stmt.all(...job.parameters.map(bindable)) as unknown[][];
    answer = { id: job.id, columns: stmt.columns().map((c) => c.name), rows };
  } catch (err) {
    const { message, code } = err as { message: string; code?: string };
    answer = { id: job.id, error: { message, code } };
  }
  parentPort!.postMessage(answer);
});
