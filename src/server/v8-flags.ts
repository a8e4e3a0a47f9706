import v8 from 'node:v8';
import { isPostgresUrl } from '../util.ts';

// The server's V8 memory settings (and the C allocator's), which can only be set when the process starts. On a machine with
// plenty of memory V8 lets the young generation grow past 130 MiB under load (measured on
// Node 24) and lets the old generation reach four times the live data (~30 MiB here) before
// collecting it; either alone breaks the server's 250 MB RSS budget. With these caps the
// collector works a little more often and RSS stays near 200 MB under sustained load
// (RELIABILITY.md). On PostgreSQL the young generation gets 16 MB, not 8: a request waiting
// for a PostgreSQL group commit (a 25-item batch 10–40 ms) outlived a scavenge at 8 MB (one
// every ≈ 25 ms under batch load), so its objects were copied and then promoted (≈ 20 MB/s, a
// mark-compact every ≈ 200 ms): up to a third of the main thread's busy time was the collector.
// At 16 MB half as much is promoted, a third as many mark-compacts run and the server's CPU per
// batch event nearly halves, for ≈ 15–20 MB more RSS (bench/profiling.md, row 26). SQLite's
// writes do not wait so, and its read workers and the log's columns hold more memory of their
// own: it keeps 4 MB (eight clients of the cold mixed workload: peak RSS 268 → 244 MB at 8 MB
// against 16; 298 → 287 MB at 4 against 8, each scenario 10–20 MB lower, the same latencies,
// RELIABILITY.md). `serve` re-executes
// itself once with them through process.execve: the same process id, so supervisors, signals
// and `kill` still reach the server. A value given in NODE_OPTIONS or on the node command line
// wins.
export function serverV8Flags(databaseUrl: string | undefined): string[] {
  const youngMb = isPostgresUrl(databaseUrl ?? '') ? 16 : 4;
  return [`--max-semi-space-size=${youngMb}`, '--max-old-space-size=160'];
}

/**
 * The C allocator's settings, read only when the process starts. glibc gives every thread that
 * allocates its own arena, and the SQLite read workers' queries (FTS5 doclists, sorters) left
 * them holding memory it does not hand back: with two arenas the cold benchmark's peak RSS on
 * SQLite fell from 323 to 277 MB at the same latencies (bench/cold.ts, 1,000,000 events, side by
 * side on one log). And glibc raises its threshold for serving a large block by mmap each time
 * such a block is freed (up to 32 MB), after which large blocks come from the arenas and stay
 * there: a fixed threshold of 128 KiB hands every large block back when it is freed (each cold
 * scenario's peak 10–20 MB lower, the same latencies). A value in the environment wins.
 */
export const SERVER_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '131072',
};

/** Variables of SERVER_ENV the environment does not set. */
export function missingServerEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(SERVER_ENV).filter(([name]) => env[name] === undefined));
}

const APPLIED = 'CONTENT_SITE_V8_FLAGS_APPLIED';

/** Flags of serverV8Flags the process was not started with (the user's own values win). */
export function missingServerFlags(execArgv: string[], nodeOptions: string, databaseUrl?: string): string[] {
  const given = [...execArgv, ...nodeOptions.split(/\s+/)].map((f) => f.split('=')[0].replace(/_/g, '-'));
  return serverV8Flags(databaseUrl).filter((flag) => !given.includes(flag.split('=')[0]));
}

/**
 * The young generation set by flag is the serving thread's. V8 reads the flag as each isolate
 * starts and lets it override a worker thread's own limit (resourceLimits), so every thread got
 * the serving thread's 16 MB semi-spaces on PostgreSQL: the thread reading the log's columns
 * grew a 32 MB young generation, which V8 keeps pooled for 8 s after the thread ends (peak RSS
 * of the first cold scenario 277 MB, 58 MB of it such pages). Cleared once this thread's heap is
 * configured, threads started later size theirs by their own limits.
 */
export function threadsSizeTheirYoungGeneration(): void {
  v8.setFlagsFromString('--max-semi-space-size=0');
}

/**
 * Replaces this process with one started with the server's V8 flags and allocator setting
 * (no-op when set or unsupported); the process that goes on lets its threads size their own
 * young generation.
 */
export function reexecWithServerFlags(): void {
  if (process.env[APPLIED] || typeof process.execve !== 'function') return threadsSizeTheirYoungGeneration();
  const flags = missingServerFlags(process.execArgv, process.env.NODE_OPTIONS ?? '', process.env.DATABASE_URL);
  const env = missingServerEnv(process.env);
  if (!flags.length && !Object.keys(env).length) return threadsSizeTheirYoungGeneration();
  process.execve(process.execPath, [process.execPath, ...flags, ...process.execArgv, ...process.argv.slice(1)], {
    ...process.env,
    ...env,
    [APPLIED]: '1',
  });
}
