// The bench's child processes (servers, the CLI, the load generator), cleaned up whatever
// happens, also on Ctrl-C; their peak memory; and the bench's login. Shared by bench/run.ts
// and bench/cold-run.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import net from 'node:net';
import type { LoadJob, LoadResult } from './loadgen.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const NODE = process.execPath;
const CLI = path.join(ROOT, 'bin', 'content-site.js');
const LOADGEN = path.join(import.meta.dirname, 'loadgen.ts');

export function log(msg: string): void {
  process.stdout.write(`${msg}\n`);
}

const children = new Set<ChildProcess>();
/** Run in reverse order at the end of the bench, and on Ctrl-C. */
export const cleanups: (() => Promise<void> | void)[] = [];

function track(proc: ChildProcess): ChildProcess {
  children.add(proc);
  proc.once('exit', () => children.delete(proc));
  return proc;
}

export function killChildren(): void {
  for (const proc of children) if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
}

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (interrupted) return;
    interrupted = true;
    log(`\n${signal}: cleaning up…`);
    killChildren();
    void (async () => {
      for (const fn of cleanups.reverse()) await Promise.resolve(fn()).catch(() => {});
      process.exit(130);
    })();
  });
}
process.on('exit', killChildren);

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Runs the content-site CLI (asynchronously, so Ctrl-C still reaches our handler). */
export function cli(env: NodeJS.ProcessEnv, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const proc = track(spawn(NODE, [CLI, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] }));
    let out = '';
    let err = '';
    proc.stdout!.on('data', (d) => (out += d));
    proc.stderr!.on('data', (d) => (err += d));
    proc.on('exit', (code) =>
      code === 0
        ? resolve(out)
        : reject(new Error(`content-site ${args.join(' ')} failed (${code}): ${err.trim() || out.trim()}`)),
    );
  });
}

/** A new administrator "bench" with an application password: its HTTP Basic authorization header. */
export async function createBenchLogin(env: NodeJS.ProcessEnv): Promise<string> {
  await cli(env, 'user', 'create', 'bench', '--email', 'bench@example.test', '--role', 'administrator');
  const created = JSON.parse(await cli(env, 'app-password', 'create', 'bench', 'bench', '--json')) as {
    password: string;
  };
  return `Basic ${Buffer.from(`bench:${created.password}`).toString('base64')}`;
}

/** Peak resident memory of a process since the last reset (VmHWM), in MB. */
export function peakRssMb(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
  } catch {
    return 0;
  }
}

/** Starts a new peak-RSS window (Linux: writing 5 to clear_refs resets VmHWM). */
export function resetPeakRss(pid: number | undefined): void {
  if (!pid) return;
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    /* not Linux or not allowed: the peak then covers the process's life so far */
  }
}

export interface Server {
  url: string;
  proc: ChildProcess;
  stop(): Promise<void>;
}

function stopper(proc: ChildProcess, graceMs: number): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
      const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
      proc.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      proc.kill('SIGTERM');
    });
}

/** `content-site serve` on a free port; `profileDir`: with --cpu-prof into it. */
export async function startServer(env: NodeJS.ProcessEnv, profileDir?: string | null): Promise<Server> {
  const port = await freePort();
  const args = profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [];
  const proc = track(
    spawn(NODE, [...args, CLI, 'serve'], {
      env: { ...env, PORT: String(port), HOST: '127.0.0.1', SITE_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  let output = '';
  proc.stdout!.on('data', (d) => (output += d));
  proc.stderr!.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  let up = false;
  for (let i = 0; i < 600 && !up; i++) {
    if (proc.exitCode !== null) throw new Error(`server exited: ${output}`);
    try {
      up = (await fetch(`${url}/en/cms-json/`)).ok;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  if (!up) throw new Error(`server did not start: ${output}`);
  return { url, proc, stop: stopper(proc, 15_000) };
}

/** A bare node:http server sending exactly the bytes and headers of our GET /. */
export async function startBareServer(body: Buffer, headers: Record<string, string>): Promise<Server> {
  const port = await freePort();
  // The body comes on stdin: the index is too big for a command line (E2BIG).
  const script = `
    const http = require('node:http');
    const headers = ${JSON.stringify(headers)};
    const chunks = [];
    process.stdin.on('data', (d) => chunks.push(d));
    process.stdin.on('end', () => {
      const body = Buffer.concat(chunks);
      http.createServer((req, res) => { res.writeHead(200, { ...headers, 'Content-Length': body.length }); res.end(body); })
        .listen(${port}, '127.0.0.1', () => process.stdout.write('ready'));
    });
    process.on('SIGTERM', () => process.exit(0));`;
  const proc = track(spawn(NODE, ['-e', script], { stdio: ['pipe', 'pipe', 'inherit'] }));
  proc.stdin!.end(body);
  await new Promise<void>((resolve) => proc.stdout!.once('data', () => resolve()));
  return { url: `http://127.0.0.1:${port}`, proc, stop: stopper(proc, 15_000) };
}

/** Runs one load job in the load-generator process (the job goes through a file in `tmp`: a cold list is megabytes). */
export function runLoad(job: LoadJob, tmp: string): Promise<LoadResult> {
  const jobFile = path.join(fs.mkdtempSync(path.join(tmp, 'job-')), 'job.json');
  fs.writeFileSync(jobFile, JSON.stringify(job));
  return new Promise<LoadResult>((resolve, reject) => {
    const proc = track(
      spawn(NODE, [LOADGEN, `@${jobFile}`], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, BENCH_TMP: tmp },
      }),
    );
    let out = '';
    let err = '';
    proc.stdout!.on('data', (d) => (out += d));
    proc.stderr!.on('data', (d) => (err += d));
    proc.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`load generator failed (${code}): ${err}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').pop()!) as LoadResult);
      } catch (e) {
        reject(e as Error);
      }
    });
  }).finally(() => fs.rmSync(path.dirname(jobFile), { recursive: true, force: true }));
}
