// The template box: every template a request brings is checked and rendered in a small pool of
// worker threads (template-worker.ts), each with a capped heap, and killed when a job outlasts
// its time. A runaway that gets past the sandbox's own bounds (twig.ts) costs one worker, which
// is replaced; the server and the other requests never notice. Workers start on first use and
// do not keep the process alive while idle.
import { Worker } from 'node:worker_threads';
import { toSandboxData, type ValidationResult } from './twig.ts';
import { TemplateError, TemplateLimitError, type TemplateLimit } from './twig-errors.ts';
import { RENDER_TIME_MS } from './twig-sandbox.ts';

/** The box's limits (read when a job starts or a worker is spawned; tests shorten them). */
export const BOX = {
  /** Workers in the pool: jobs beyond that wait their turn. */
  workers: 2,
  /** A job is killed (with its worker) after this long: twice the sandbox's own time limit. */
  killMs: 2 * RENDER_TIME_MS,
  /** Heap of one worker (old generation; the young generation gets a quarter of it). */
  heapMb: 64,
};

export type BoxJob =
  | { kind: 'validate'; source: string }
  | { kind: 'render'; source: string; context: Record<string, unknown>; lang: 'en' | 'de' };
export type BoxReply =
  | { ready: true }
  | { ok: true; value: unknown }
  | {
      ok: false;
      error: { kind: TemplateError['kind']; message: string; line: number | null; limit: TemplateLimit | null };
    };

interface Task {
  job: BoxJob;
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
}
interface Slot {
  worker: Worker;
  ready: boolean;
  task: Task | null;
  timer: NodeJS.Timeout | null;
  timedOut: boolean;
  error: (Error & { code?: string }) | null;
}

const slots = new Set<Slot>();
const queue: Task[] = [];

function spawn(): void {
  const worker = new Worker(new URL('./template-worker.ts', import.meta.url), {
    resourceLimits: { maxOldGenerationSizeMb: BOX.heapMb, maxYoungGenerationSizeMb: BOX.heapMb / 4, stackSizeMb: 4 },
  });
  const slot: Slot = { worker, ready: false, task: null, timer: null, timedOut: false, error: null };
  slots.add(slot);
  worker.on('message', (message: BoxReply) => {
    if ('ready' in message) slot.ready = true;
    else finish(slot, message);
    pump();
  });
  worker.on('error', (err) => {
    slot.error = err;
  });
  worker.on('exit', () => {
    slots.delete(slot);
    if (slot.timer) clearTimeout(slot.timer);
    const task = slot.task;
    slot.task = null;
    if (task) task.reject(deathOf(slot));
    else if (!slot.ready) {
      // A worker that cannot even start would fail every replacement too.
      for (const waiting of queue.splice(0))
        waiting.reject(new Error(`the template worker could not start: ${slot.error?.message ?? 'it exited'}`));
    }
    pump();
  });
}

function deathOf(slot: Slot): Error {
  if (slot.timedOut) return new TemplateLimitError('time', `The template takes too long (more than ${BOX.killMs} ms).`);
  if (slot.error?.code === 'ERR_WORKER_OUT_OF_MEMORY')
    return new TemplateLimitError('memory', `The template needs too much memory (more than ${BOX.heapMb} MB).`);
  return new Error(`the template worker stopped: ${slot.error?.message ?? 'it exited'}`);
}

function finish(slot: Slot, reply: Exclude<BoxReply, { ready: true }>): void {
  const task = slot.task;
  if (!task) return;
  if (slot.timer) clearTimeout(slot.timer);
  slot.timer = null;
  slot.task = null;
  if (reply.ok) task.resolve(reply.value);
  else {
    const { kind, message, line, limit } = reply.error;
    task.reject(limit ? new TemplateLimitError(limit, message, line) : new TemplateError(kind, message, line));
  }
}

/**
 * Hands waiting jobs to idle workers and starts workers (up to BOX.workers) while jobs wait.
 * Runs after every change of state.
 */
function pump(): void {
  for (const slot of slots) {
    if (!queue.length) break;
    if (!slot.ready || slot.task) continue;
    const task = queue.shift()!;
    slot.task = task;
    slot.timedOut = false;
    slot.timer = setTimeout(() => {
      slot.timedOut = true;
      void slot.worker.terminate();
    }, BOX.killMs);
    slot.worker.postMessage(task.job);
  }
  const starting = [...slots].filter((s) => !s.ready).length;
  if (queue.length > starting && slots.size < BOX.workers) spawn();
  // Only workers with a job, or starting while jobs wait, keep the process alive.
  for (const slot of slots) {
    if (slot.task || (!slot.ready && queue.length)) slot.worker.ref();
    else slot.worker.unref();
  }
}

function run(job: BoxJob): Promise<unknown> {
  return new Promise((resolve, reject) => {
    queue.push({ job, resolve, reject });
    pump();
  });
}

/** templates/validate in the box (twig.ts validateTemplate). Throws TemplateLimitError. */
export async function validateInBox(source: string): Promise<ValidationResult> {
  return (await run({ kind: 'validate', source })) as ValidationResult;
}

/** renderTemplate in the box. Throws TemplateError (TemplateLimitError for limits). */
export async function renderInBox(
  source: string,
  context: Record<string, unknown>,
  lang: 'en' | 'de',
): Promise<string> {
  return (await run({
    kind: 'render',
    source,
    context: toSandboxData(context) as Record<string, unknown>,
    lang,
  })) as string;
}
