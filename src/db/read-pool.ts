// SQLite reads off the event loop: a Kysely dialect whose queries run on a small pool of
// read-only connections, each in a worker thread (read-worker.js). better-sqlite3 is
// synchronous and cannot be interrupted, so a long read on the main connection holds every
// request; here it holds one worker, other readers use the others (WAL lets them read while
// the main connection writes), and a query that outlives its time (deadline.ts) is answered
// with QueryTimeoutError at once while its worker is terminated and replaced.
import { Worker } from 'node:worker_threads';
import {
  CompiledQuery,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
} from 'kysely';
import type { ReadAnswer, ReadJob, ReadStop, ReadWorkerData } from './read-messages.ts';
import { QueryTimeoutError, queryBudget } from './deadline.ts';

export interface ReadPoolConfig {
  file: string;
  /** Worker threads, each one connection (each with its own heap and page cache). */
  size: number;
  /** The longest a query may run (a request's deadline may cut it shorter). */
  timeoutMs: number;
  cacheKib: number;
}

interface PendingJob {
  job: ReadJob;
  resolve(result: QueryResult<unknown>): void;
  reject(err: unknown): void;
  timer: NodeJS.Timeout;
  timeoutMs: number;
  worker?: ReadWorker;
}

interface ReadWorker {
  thread: Worker;
  /** Started and connected: a job sent now runs now (starting takes up to seconds under load). */
  ready: boolean;
  job: PendingJob | null;
}

/** JavaScript, not TypeScript: a thread that loads TypeScript loads Node's type stripper too (read-worker.js). */
export const READ_WORKER_URL = new URL('./read-worker.js', import.meta.url);
/**
 * A worker's JavaScript heap: rows pass through it on their way out, nothing stays. Its young
 * generation is its own, not the serving thread's (v8-flags.ts threadsSizeTheirYoungGeneration).
 */
const WORKER_HEAP = { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 4 };
/** How long a closing pool waits for an idle thread to end by itself before terminating it. */
const STOP_GRACE_MS = 5_000;

export class ReadPool {
  readonly #config: ReadPoolConfig;
  readonly #workers = new Set<ReadWorker>();
  readonly #queue: PendingJob[] = [];
  /** Threads still finishing a statement that ran out of time (see #expire). */
  #abandoned = 0;
  #nextId = 1;
  #closed = false;

  constructor(config: ReadPoolConfig) {
    this.#config = config;
  }

  run(query: CompiledQuery): Promise<QueryResult<unknown>> {
    if (this.#closed) return Promise.reject(new Error('the read pool is closed'));
    const timeoutMs = queryBudget(this.#config.timeoutMs);
    if (timeoutMs <= 0) return Promise.reject(new QueryTimeoutError(this.#config.timeoutMs));
    return new Promise((resolve, reject) => {
      const pending: PendingJob = {
        job: { id: this.#nextId++, sql: query.sql, parameters: query.parameters },
        resolve,
        reject,
        timeoutMs,
        timer: undefined!,
      };
      pending.timer = setTimeout(() => this.#expire(pending), timeoutMs);
      this.#queue.push(pending);
      this.#dispatch();
    });
  }

  /** Ends the workers (saying how many had to be terminated); queries still waiting fail. */
  async close(): Promise<{ terminated: number }> {
    this.#closed = true;
    for (const pending of this.#queue.splice(0)) this.#settle(pending, new Error('the read pool is closed'));
    const workers = [...this.#workers];
    this.#workers.clear();
    const ends = await Promise.all(workers.map(stopWorker));
    return { terminated: ends.filter((end) => end === 'terminated').length };
  }

  #dispatch(): void {
    if (this.#queue.length) while (this.#canSpawn()) this.#spawn();
    while (this.#queue.length) {
      const worker = [...this.#workers].find((w) => w.ready && !w.job);
      if (!worker) return;
      const pending = this.#queue.shift()!;
      pending.worker = worker;
      worker.job = pending;
      worker.thread.ref();
      worker.thread.postMessage(pending.job);
    }
  }

  /**
   * Threads start when queries wait (all of them at once: starting takes a while). Abandoned
   * threads still hold a core and their memory: while as many as the pool's size run, the pool
   * shrinks instead.
   */
  #canSpawn(): boolean {
    return (
      !this.#closed &&
      this.#workers.size < this.#config.size &&
      this.#workers.size + this.#abandoned < 2 * this.#config.size
    );
  }

  #spawn(): void {
    const data: ReadWorkerData = { file: this.#config.file, cacheKib: this.#config.cacheKib };
    const thread = new Worker(READ_WORKER_URL, { workerData: data, resourceLimits: WORKER_HEAP });
    const worker: ReadWorker = { thread, ready: false, job: null };
    thread.on('message', (answer: ReadAnswer) => {
      if ('ready' in answer) {
        worker.ready = true;
        this.#dispatch();
        return;
      }
      const pending = worker.job;
      if (!pending || pending.job.id !== answer.id) return;
      worker.job = null;
      thread.unref();
      if ('error' in answer)
        this.#settle(pending, Object.assign(new Error(answer.error.message), { code: answer.error.code }));
      else this.#settle(pending, null, { rows: answer.rows.map((row) => rowObject(answer.columns, row)) });
      this.#dispatch();
    });
    // A worker that dies (out of memory, a crash) fails its query and is replaced on demand.
    thread.on('error', (err) => this.#retire(worker, err));
    thread.on('exit', () => this.#retire(worker, new Error('a read worker stopped')));
    thread.unref();
    this.#workers.add(worker);
  }

  #expire(pending: PendingJob): void {
    const queued = this.#queue.indexOf(pending);
    if (queued >= 0) this.#queue.splice(queued, 1);
    else if (pending.worker) {
      // better-sqlite3 cannot interrupt a statement: its thread is abandoned (terminated, it
      // ends when the statement does; process exit waits for that) and a fresh one takes its place.
      const { thread } = pending.worker;
      this.#abandoned++;
      thread.once('exit', () => {
        this.#abandoned--;
        this.#dispatch();
      });
      this.#retire(pending.worker, null);
      void thread.terminate();
      if (this.#canSpawn()) this.#spawn();
    }
    this.#settle(pending, new QueryTimeoutError(pending.timeoutMs));
  }

  #retire(worker: ReadWorker, err: unknown): void {
    if (!this.#workers.delete(worker)) return;
    const pending = worker.job;
    worker.job = null;
    if (pending && err) this.#settle(pending, err);
    // One that could not even start (the file gone, unreadable) fails the waiting queries
    // instead of being started again and again.
    if (!worker.ready && err) for (const waiting of this.#queue.splice(0)) this.#settle(waiting, err);
    this.#dispatch();
  }

  #settle(pending: PendingJob, err: unknown, result?: QueryResult<unknown>): void {
    clearTimeout(pending.timer);
    if (err) pending.reject(err);
    else pending.resolve(result!);
  }
}

/**
 * Terminating a thread while it is inside better-sqlite3 (opening its connection, running a
 * pragma) can abort the whole process in the addon's error path. An idle or still starting
 * thread is therefore asked to stop (the message waits until it listens) and ends by itself;
 * only one running a statement, or one that does not end in time, is terminated.
 */
async function stopWorker(worker: ReadWorker): Promise<'stopped' | 'terminated'> {
  const { thread } = worker;
  if (worker.job) {
    await thread.terminate();
    return 'terminated';
  }
  // Not events.once: that rejects on 'error', and a thread that fails to start still exits.
  const exited = new Promise((resolve) => thread.once('exit', resolve));
  thread.ref();
  thread.postMessage({ stop: true } satisfies ReadStop);
  let end: 'stopped' | 'terminated' = 'stopped';
  const timer = setTimeout(() => {
    end = 'terminated';
    void thread.terminate();
  }, STOP_GRACE_MS);
  await exited;
  clearTimeout(timer);
  return end;
}

function rowObject(columns: string[], values: unknown[]): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (let i = 0; i < columns.length; i++) row[columns[i]!] = values[i];
  return row;
}

/** Kysely over the read pool: SQLite's compiler, every query sent to a worker. Reads only. */
export class ReadPoolDialect implements Dialect {
  readonly #pool: ReadPool;
  constructor(pool: ReadPool) {
    this.#pool = pool;
  }
  createAdapter(): DialectAdapter {
    return new SqliteAdapter();
  }
  createDriver(): Driver {
    return new ReadPoolDriver(this.#pool);
  }
  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }
  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}

/**
 * One shared connection: queries do not depend on each other (no transactions, no session
 * state), so each goes to whichever worker is free.
 */
class ReadPoolDriver implements Driver {
  readonly #pool: ReadPool;
  readonly #connection: DatabaseConnection;
  constructor(pool: ReadPool) {
    this.#pool = pool;
    this.#connection = {
      executeQuery: <R>(query: CompiledQuery) => pool.run(query) as Promise<QueryResult<R>>,
      async *streamQuery<R>(query: CompiledQuery, chunkSize = 100): AsyncIterableIterator<QueryResult<R>> {
        const { rows } = (await pool.run(query)) as QueryResult<R>;
        for (let i = 0; i < rows.length; i += chunkSize) yield { rows: rows.slice(i, i + chunkSize) };
      },
    };
  }
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    return this.#connection;
  }
  async releaseConnection(): Promise<void> {}
  async beginTransaction(): Promise<void> {
    throw new Error('the read pool runs no transactions: use the main database handle');
  }
  async commitTransaction(): Promise<void> {}
  async rollbackTransaction(): Promise<void> {}
  async destroy(): Promise<void> {
    await this.#pool.close();
  }
}
