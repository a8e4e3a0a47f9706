// One read connection of the SQLite read pool (read-pool.ts), in its own thread: it runs the
// compiled read queries it is sent, one at a time, and answers each with its rows. Read-only,
// so nothing here can change the database; WAL lets it read while the main connection writes.
//
// JavaScript checked by tsc through its JSDoc types, not TypeScript: a thread whose entry is a
// .ts file loads Node's type stripper (swc compiled to WebAssembly: its source, compiled code
// and memory), about 10 MB per thread that the server's 250 MB budget pays for every worker.
// It imports nothing of the project for the same reason; read-messages.ts holds its messages' types.
/** @import { ReadAnswer, ReadJob, ReadStop, ReadWorkerData } from './read-messages.ts' */
import { parentPort, workerData } from 'node:worker_threads';
import SqliteDatabase from 'better-sqlite3';

const { file, cacheKib } = /** @type {ReadWorkerData} */ (workerData);
const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);

/** @typedef {{ runs: number, first: unknown[] | null, last: unknown }} RunEdges */

/** The thread's connection, with its settings and functions. */
function connect() {
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
    start: () => /** @type {RunEdges} */ ({ runs: 0, first: null, last: null }),
    step: (/** @type {RunEdges} */ state, /** @type {unknown} */ value, /** @type {unknown[]} */ ...rest) => {
      if (state.runs === 0) {
        state.first = [value, ...rest];
        state.runs = 1;
      } else if (value !== state.last) state.runs++;
      state.last = value;
      return state;
    },
    result: (/** @type {RunEdges} */ state) => JSON.stringify([state.runs, state.first, state.last]),
  });
  return sqlite;
}
let sqlite = connect();

// Prepared statements by SQL text: preparing costs as much as running a short query.
const STATEMENT_CACHE_SIZE = 200;
/** @type {Map<string, SqliteDatabase.Statement>} */
const statements = new Map();
/**
 * A dropped statement's SQLite memory (its compiled program: tens of KB for a search's) is freed
 * only when this thread's collector finalizes it, which V8 is not told to hurry: under a cold
 * workload, where most SQL is new, it piled up by tens of MB (1,000,000 events, the bench's mixed
 * workload: the C heap 18 → 42 MB in a minute, peak RSS 258–265 MB). So after every
 * DROPPED_PER_RECONNECT of them the thread closes its connection, which finalizes all its
 * statements at once, and opens another (about a millisecond; the kept statements are prepared
 * again as they are asked for).
 */
const DROPPED_PER_RECONNECT = 50;
let dropped = 0;

/** @param {string} source */
function prepare(source) {
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
  if (statements.size >= STATEMENT_CACHE_SIZE) {
    statements.delete(/** @type {string} */ (statements.keys().next().value));
    dropped++;
  }
  statements.set(source, stmt);
  return stmt;
}

/**
 * Blobs arrive as plain Uint8Arrays; better-sqlite3 binds Buffers.
 * @param {unknown} value
 */
function bindable(value) {
  return value instanceof Uint8Array && !Buffer.isBuffer(value)
    ? Buffer.from(value.buffer, value.byteOffset, value.byteLength)
    : value;
}

/** @param {ReadAnswer} answer */
const answer = (answer) => port.postMessage(answer);

answer({ ready: true });
port.on('message', (/** @type {ReadJob | ReadStop} */ job) => {
  if ('stop' in job) {
    sqlite.close();
    port.close();
    return;
  }
  try {
    const stmt = prepare(job.sql);
    const rows = /** @type {unknown[][]} */ (stmt.all(...job.parameters.map(bindable)));
    answer({ id: job.id, columns: stmt.columns().map((c) => c.name), rows });
  } catch (err) {
    const { message, code } = /** @type {{ message: string, code?: string }} */ (err);
    answer({ id: job.id, error: { message, code } });
  }
  if (dropped >= DROPPED_PER_RECONNECT) {
    dropped = 0;
    statements.clear();
    sqlite.close();
    sqlite = connect();
  }
});
