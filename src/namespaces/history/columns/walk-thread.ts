// The walks over a large log's columns (columns/walk.ts) in a thread of their own, over the same
// shared arrays. A walk of a million rows takes the serving thread 5–30 ms; there, under eight
// connections of the mixed cold workload it was about half the serving thread's busy time, which
// was near all of its time, while the read workers and half of the two cores were idle: the
// requests queued behind it. Walked in this thread, the other requests' work goes on meanwhile.
import { Worker } from 'node:worker_threads';
import { walk, type CountWalked, type PageWalked, type WalkJob } from './walk.ts';
import type { ColumnsView } from './store.ts';

/** Runs a walk over a view of the columns (here, or in the walk thread). */
export type Walker = (view: ColumnsView, job: WalkJob) => Promise<CountWalked | PageWalked>;

/** Walks on the calling thread. */
export const walkHere: Walker = async ({ cols }, job) => walk(cols.arrays(), job);

/** The thread's heap: a walk's sets (125 KB a million ids) and page pass through it, nothing stays. */
const WALK_HEAP = { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 2 };

type WalkAnswer = { id: number; result: CountWalked | PageWalked } | { id: number; error: string };

interface Pending {
  view: ColumnsView;
  job: WalkJob;
  resolve(result: CountWalked | PageWalked): void;
  reject(err: unknown): void;
}

/**
 * The walk thread, started on its first walk. When it fails (or ends), the walks under way and
 * every later one are walked here instead; `failed` hears why, once.
 */
export class WalkThread {
  #worker: Worker | null = null;
  #next = 0;
  readonly #pending = new Map<number, Pending>();
  #gone = false;
  readonly #failed: (err: Error) => void;

  constructor(failed: (err: Error) => void) {
    this.#failed = failed;
  }

  walk: Walker = (view, job) => {
    if (this.#gone) return walkHere(view, job);
    const worker = this.#worker ?? this.#start();
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { view, job, resolve, reject });
      // Only a thread with walks under way keeps the process alive.
      worker.ref();
      // The arrays are in shared memory (store.ts): sent, not copied.
      worker.postMessage({ id, cols: view.cols.arrays(), job });
    });
  };

  #start(): Worker {
    const worker = new Worker(new URL('./walk-worker.ts', import.meta.url), { resourceLimits: WALK_HEAP });
    worker.on('message', (answer: WalkAnswer) => {
      const pending = this.#pending.get(answer.id);
      if (!pending) return;
      this.#pending.delete(answer.id);
      if (!this.#pending.size) worker.unref();
      if ('error' in answer) pending.reject(new Error(answer.error));
      else pending.resolve(answer.result);
    });
    const gone = (err: Error) => {
      if (this.#gone) return;
      this.#end();
      this.#failed(err);
    };
    worker.on('error', gone);
    worker.on('exit', (code) => gone(new Error(`the walk thread ended (exit code ${code})`)));
    this.#worker = worker;
    return worker;
  }

  /** Ends the thread; walks asked later are walked here. */
  async stop(): Promise<void> {
    await this.#end()?.terminate();
  }

  /** Marks the thread gone and walks here those it had not answered; returns it (null when none was started). */
  #end(): Worker | null {
    const worker = this.#worker;
    this.#gone = true;
    this.#worker = null;
    for (const { view, job, resolve, reject } of this.#pending.values()) walkHere(view, job).then(resolve, reject);
    this.#pending.clear();
    return worker;
  }
}
