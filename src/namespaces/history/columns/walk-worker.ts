// The walk thread (columns/walk-thread.ts starts it): each message a walk over the columns'
// shared arrays, answered with its result.
import { parentPort } from 'node:worker_threads';
import { walk, type ColumnArrays, type WalkJob } from './walk.ts';

parentPort!.on('message', ({ id, cols, job }: { id: number; cols: ColumnArrays; job: WalkJob }) => {
  try {
    parentPort!.postMessage({ id, result: walk(cols, job) });
  } catch (err) {
    parentPort!.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
});
