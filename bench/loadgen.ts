// The load generator of `npm run bench`, run as its own process so that it never shares an
// event loop with the servers or with the bench's bookkeeping. Input: one JSON argument
// (LoadJob); output: one JSON line (LoadResult) on stdout.
//
// Uses wrk when it is installed (BENCH_LOADGEN=wrk|autocannon overrides) for single-shape
// scenarios; scenarios cycling several request shapes always use autocannon; `distinct` jobs
// (the cold scenarios: each request once) use the client in loadgen-distinct.ts.
// Several URLs (scale-out) are loaded at once, the connections dealt round-robin over them.
// The argument is the job's JSON, or `@file` holding it.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { runDistinct } from './loadgen-distinct.ts';

export interface RequestShape {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Where `{seq}` starts counting down (default SEQ_START). */
  seqStart?: number;
  /** Latencies are also reported per tag (distinct jobs). */
  tag?: string;
}

export interface LoadJob {
  urls: string[];
  /** One request shape, or several cycled per connection. */
  requests: RequestShape[];
  connections: number;
  seconds: number;
  /** Send each request of the list once, in order, over all connections, until the list or the seconds run out. */
  distinct?: boolean;
}

export interface Percentiles {
  n: number;
  p50: number;
  p99: number;
}

export interface LoadResult {
  tool: string;
  requests: number;
  rps: number;
  /** Latency in milliseconds (the worst of the targets for percentiles). */
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** Distinct jobs: percentiles per request tag, the slowest requests, the first failures. */
  byTag?: Record<string, Percentiles>;
  slowest?: { ms: number; path: string }[];
  failures?: string[];
}

/** In a path, `{seq}` becomes a number different for every request (defeats result caches). */
export const SEQ = '{seq}';
const SEQ_START = 1_000_000_000;

/** autocannon cycles a fixed list: expand `{seq}` into enough distinct paths. */
function expandSeq(requests: RequestShape[]): RequestShape[] {
  if (!requests.some((r) => r.path.includes(SEQ))) return requests;
  const out: RequestShape[] = [];
  for (let i = 1; i <= 5000; i++)
    for (const r of requests) out.push({ ...r, path: r.path.replaceAll(SEQ, String((r.seqStart ?? SEQ_START) - i)) });
  return out;
}

function share(connections: number, urls: string[]): number[] {
  // Round-robin: connection i goes to urls[i % n].
  return urls
    .map((_, i) => Math.floor(connections / urls.length) + (i < connections % urls.length ? 1 : 0))
    .map((c) => Math.max(1, c));
}

async function runAutocannon(input: LoadJob): Promise<LoadResult> {
  const job = { ...input, requests: expandSeq(input.requests) };
  const counts = share(job.connections, job.urls);
  const results = await Promise.all(
    job.urls.map(
      (url, i) =>
        new Promise<autocannon.Result>((resolve, reject) => {
          const single = job.requests.length === 1 ? job.requests[0]! : null;
          // (several shapes: every connection cycles the list from its start)
          autocannon(
            {
              url: url + (single ? single.path : job.requests[0]!.path),
              connections: counts[i]!,
              duration: job.seconds,
              timeout: 60,
              ...(single
                ? { method: single.method as autocannon.Request['method'], headers: single.headers, body: single.body }
                : { requests: job.requests as autocannon.Request[] }),
            },
            (err, result) => (err ? reject(err) : resolve(result)),
          );
        }),
    ),
  );
  const requests = results.reduce((s, r) => s + r.requests.total, 0);
  return {
    tool: `autocannon ${autocannonVersion()}`,
    requests,
    rps: results.reduce((s, r) => s + r.requests.average, 0),
    p50: Math.max(...results.map((r) => r.latency.p50)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    errors: results.reduce((s, r) => s + r.errors + r.timeouts, 0),
    non2xx: results.reduce((s, r) => s + r.non2xx, 0),
  };
}

function autocannonVersion(): string {
  try {
    const pkg = path.join(import.meta.dirname, '..', 'node_modules', 'autocannon', 'package.json');
    return (JSON.parse(fs.readFileSync(pkg, 'utf8')) as { version: string }).version;
  } catch {
    return '';
  }
}

export function wrkAvailable(): boolean {
  const r = spawnSync('wrk', ['--version'], { encoding: 'utf8' });
  return !r.error && /wrk/i.test(`${r.stdout}${r.stderr}`);
}

const luaString = (s: string) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;

/** Latency text of wrk (`812.00us`, `1.23ms`, `2.01s`) in milliseconds. */
function wrkMs(value: string, unit: string): number {
  const n = Number(value);
  return unit === 'us' ? n / 1000 : unit === 's' ? n * 1000 : unit === 'm' ? n * 60_000 : n;
}

async function runWrk(job: LoadJob): Promise<LoadResult> {
  const shape = job.requests[0]!;
  // Inside the bench's own temp dir when run by the bench: removed even if we are killed.
  const dir = fs.mkdtempSync(path.join(process.env.BENCH_TMP || os.tmpdir(), 'content-site-wrk-'));
  try {
    const script = path.join(dir, 'request.lua');
    const lines = [`wrk.method = ${luaString(shape.method)}`];
    if (shape.body !== undefined) lines.push(`wrk.body = ${luaString(shape.body)}`);
    for (const [k, v] of Object.entries(shape.headers ?? {}))
      lines.push(`wrk.headers[${luaString(k)}] = ${luaString(v)}`);
    if (shape.path.includes(SEQ)) {
      // Every request its own path: {seq} counts down from SEQ_START.
      lines.push(
        `local n = ${shape.seqStart ?? SEQ_START}`,
        'request = function()',
        '  n = n - 1',
        `  local p = string.gsub(${luaString(shape.path)}, "{seq}", tostring(n))`,
        '  return wrk.format(nil, p)',
        'end',
      );
    }
    fs.writeFileSync(script, lines.join('\n') + '\n');
    const counts = share(job.connections, job.urls);
    const outputs = await Promise.all(
      job.urls.map(
        (url, i) =>
          new Promise<string>((resolve, reject) => {
            const p = spawn(
              'wrk',
              [
                '-t1',
                `-c${counts[i]}`,
                `-d${job.seconds}s`,
                '--timeout',
                '60s',
                '--latency',
                '-s',
                script,
                url + shape.path,
              ],
              { stdio: ['ignore', 'pipe', 'inherit'] },
            );
            let out = '';
            p.stdout.on('data', (d) => (out += d));
            p.on('error', reject);
            p.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`wrk exited with ${code}: ${out}`))));
          }),
      ),
    );
    let requests = 0;
    let rps = 0;
    let p50 = 0;
    let p99 = 0;
    let errors = 0;
    let non2xx = 0;
    for (const out of outputs) {
      requests += Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
      rps += Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0);
      const pct = (p: string) => {
        const m = new RegExp(`^\\s*${p}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, 'm').exec(out);
        return m ? wrkMs(m[1]!, m[2]!) : 0;
      };
      p50 = Math.max(p50, pct('50'));
      p99 = Math.max(p99, pct('99'));
      const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
      if (sock) errors += Number(sock[1]) + Number(sock[2]) + Number(sock[3]) + Number(sock[4]);
      non2xx += Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
    }
    const version = /wrk ([\d.]+)/.exec(spawnSync('wrk', ['--version'], { encoding: 'utf8' }).stdout ?? '')?.[1] ?? '';
    return { tool: `wrk ${version}`.trim(), requests, rps, p50, p99, errors, non2xx };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function runLoad(job: LoadJob): Promise<LoadResult> {
  if (job.distinct) return runDistinct(job);
  const choice = process.env.BENCH_LOADGEN;
  const useWrk = job.requests.length === 1 && choice !== 'autocannon' && (choice === 'wrk' || wrkAvailable());
  return useWrk ? runWrk(job) : runAutocannon(job);
}

if (import.meta.main) {
  const arg = process.argv[2]!;
  const job = JSON.parse(arg.startsWith('@') ? fs.readFileSync(arg.slice(1), 'utf8') : arg) as LoadJob;
  const result = await runLoad(job);
  process.stdout.write(JSON.stringify(result) + '\n');
}
