// `npm run bench`: measures the server as users feel it, side by side with a bare node:http
// server in the same run, and writes BENCHMARKS.md. Load comes from autocannon in this
// process; every server runs in its own child process on 127.0.0.1.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import autocannon from 'autocannon';

const ROOT = path.resolve(import.meta.dirname, '..');
const NODE = process.execPath;
const CLI = path.join(ROOT, 'bin', 'content-site.js');
const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const STRINGS = Number(process.env.BENCH_STRINGS ?? 100_000);
const JOBS = Number(process.env.BENCH_JOBS ?? 10_000);
const PG_URL = process.env.BENCH_DATABASE_URL || null;

interface Row {
  db: string;
  scenario: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  rssMb: number;
  note?: string;
}
const rows: Row[] = [];
const notes: string[] = [];

function log(msg: string): void {
  process.stdout.write(`${msg}\n`);
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

function cli(env: NodeJS.ProcessEnv, ...args: string[]): string {
  const r = spawnSync(NODE, [CLI, ...args], { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`content-site ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

/** Peak resident memory of a process so far (VmHWM), in MB. */
function peakRssMb(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return Math.round(kb / 1024);
  } catch {
    return 0;
  }
}

interface Server {
  url: string;
  proc: ChildProcess;
  stop(): Promise<void>;
}

async function startServer(env: NodeJS.ProcessEnv, extraArgs: string[] = []): Promise<Server> {
  const port = await freePort();
  const proc = spawn(NODE, [...extraArgs, CLI, 'serve'], {
    env: { ...env, PORT: String(port), HOST: '127.0.0.1', SITE_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  proc.stdout!.on('data', (d) => (output += d));
  proc.stderr!.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    try {
      const res = await fetch(`${url}/en/cms-json/`);
      if (res.ok) break;
    } catch {
      /* not up yet */
    }
    if (proc.exitCode !== null) throw new Error(`server exited: ${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    proc,
    stop: () =>
      new Promise((resolve) => {
        if (proc.exitCode !== null) return resolve();
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
      }),
  };
}

/** A bare node:http server sending exactly the bytes and headers of our GET /. */
async function startBareServer(body: Buffer, headers: Record<string, string>): Promise<{ url: string; proc: ChildProcess; stop(): Promise<void> }> {
  const port = await freePort();
  const script = `
    const http = require('node:http');
    const body = Buffer.from(${JSON.stringify(body.toString('base64'))}, 'base64');
    const headers = ${JSON.stringify(headers)};
    http.createServer((req, res) => { res.writeHead(200, { ...headers, 'Content-Length': body.length }); res.end(body); })
      .listen(${port}, '127.0.0.1', () => process.stdout.write('ready'));`;
  const proc = spawn(NODE, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve) => proc.stdout!.once('data', () => resolve()));
  return { url: `http://127.0.0.1:${port}`, proc, stop: async () => void proc.kill('SIGTERM') };
}

interface Load {
  path: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
  /** Several request shapes cycled per connection (mixed scenario). */
  requests?: { method: string; path: string; headers?: Record<string, string>; body?: string }[];
}

async function load(urls: string[], spec: Load, seconds: number): Promise<autocannon.Result[]> {
  const connections = spec.connections ?? 10;
  return Promise.all(
    urls.map((url) =>
      autocannon({
        url: url + spec.path,
        method: (spec.method ?? 'GET') as autocannon.Request['method'],
        headers: spec.headers,
        body: spec.body,
        connections: Math.max(1, Math.round(connections / urls.length)),
        duration: seconds,
        ...(spec.requests ? { requests: spec.requests as autocannon.Request[] } : {}),
      }),
    ),
  );
}

async function measure(db: string, scenario: string, urls: string[], pids: (number | undefined)[], spec: Load, note?: string): Promise<Row> {
  await load(urls, spec, WARMUP);
  const results = await load(urls, spec, DURATION);
  const row: Row = {
    db,
    scenario,
    rps: Math.round(results.reduce((s, r) => s + r.requests.average, 0)),
    p50: Math.max(...results.map((r) => r.latency.p50)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    errors: results.reduce((s, r) => s + r.errors + r.timeouts, 0),
    non2xx: results.reduce((s, r) => s + r.non2xx, 0),
    rssMb: Math.max(...pids.map(peakRssMb)),
    ...(note ? { note } : {}),
  };
  rows.push(row);
  log(`${db.padEnd(8)} ${scenario.padEnd(52)} ${String(row.rps).padStart(7)} req/s  p50 ${row.p50} ms  p99 ${row.p99} ms  errors ${row.errors}  non-2xx ${row.non2xx}  rss ${row.rssMb} MB`);
  return row;
}

async function available(url: string, pathName: string, headers: Record<string, string>): Promise<boolean> {
  const res = await fetch(url + pathName, { headers });
  return res.status < 400;
}

async function benchDatabase(db: string, databaseUrl: string): Promise<void> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' };
  log(`\n== ${db}: preparing data`);
  cli(env, 'migrate');
  cli(env, 'user', 'create', 'bench', '--email', 'bench@example.test', '--role', 'administrator');
  const app = JSON.parse(cli(env, 'app-password', 'create', 'bench', 'bench', '--json')) as { password: string };
  const auth = { authorization: `Basic ${Buffer.from(`bench:${app.password}`).toString('base64')}` };
  for (const [what, args] of [
    ['events', ['events', 'generate', '--count', String(EVENTS), '--days', '365']],
    ['strings', ['strings', 'generate', '--count', String(STRINGS)]],
    ['jobs', ['jobs', 'generate', '--count', String(JOBS)]],
    ['sliders', ['seed', '--demo']],
  ] as const) {
    const started = Date.now();
    try {
      cli(env, ...args);
      const seconds = (Date.now() - started) / 1000;
      notes.push(`${db}: generating ${what} (\`content-site ${args.join(' ')}\`) took ${seconds.toFixed(1)} s.`);
      log(`${what}: ${seconds.toFixed(1)} s`);
    } catch (err) {
      notes.push(`${db}: could not generate ${what}: ${(err as Error).message.split('\n')[0]}`);
    }
  }

  const server = await startServer(env);
  const pid = [server.proc.pid];
  try {
    // Baseline: the bare runtime sending our index bytes, measured right beside ours.
    const index = await fetch(`${server.url}/en/cms-json/`);
    const body = Buffer.from(await index.arrayBuffer());
    const headers: Record<string, string> = {};
    index.headers.forEach((v, k) => {
      if (!['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(k)) headers[k] = v;
    });
    const bare = await startBareServer(body, headers);
    const bareRow = await measure(db, 'bare node:http, same bytes as GET /', [bare.url], [bare.proc.pid], { path: '/en/cms-json/' });
    const enRow = await measure(db, 'GET /en/cms-json/', [server.url], pid, { path: '/en/cms-json/' });
    await bare.stop();
    enRow.note = `${(enRow.rps / bareRow.rps).toFixed(2)} × bare`;
    const deRow = await measure(db, 'GET /de/cms-json/', [server.url], pid, { path: '/de/cms-json/' });
    deRow.note = `${(deRow.rps / bareRow.rps).toFixed(2)} × bare`;
    await measure(db, 'GET /en/cms-json/history/v1 (namespace index)', [server.url], pid, { path: '/en/cms-json/history/v1' });
    const anonSimple = await measure(db, 'GET /sliderx/sliders/<slider> (validated, public)', [server.url], pid, { path: '/en/cms-json/sliderx/sliders/home' });
    const authSimple = await measure(db, 'same, with application-password auth', [server.url], pid, { path: '/en/cms-json/sliderx/sliders/home', headers: auth });
    authSimple.note = `auth overhead ≈ ${(1000 / authSimple.rps - 1000 / anonSimple.rps).toFixed(3)} ms/request (at c=10)`;

    const scenarios: [string, string, Load][] = [
      ['history', 'GET /history/v1/events (default, grouped)', { path: '/en/cms-json/history/v1/events', headers: auth }],
      ['history', 'GET /history/v1/events loglevels+loggers', { path: '/en/cms-json/history/v1/events?loglevels=warning,error&loggers=SimpleUserLogger,SimplePostLogger', headers: auth }],
      ['history', 'GET /history/v1/events user + dates', { path: '/en/cms-json/history/v1/events?user=1&dates=lastdays:30', headers: auth }],
      ['history', 'GET /history/v1/events search (one word)', { path: '/en/cms-json/history/v1/events?search=updated', headers: auth }],
      ['history', 'GET /history/v1/events/has-updates', { path: '/en/cms-json/history/v1/events/has-updates?since_id=999999', headers: auth }],
      ['history', 'GET /history/v1/stats/summary', { path: '/en/cms-json/history/v1/stats/summary', headers: auth }],
      ['history', 'POST /history/v1/events (single)', { path: '/en/cms-json/history/v1/events', method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ message: 'bench event', level: 'info' }) }],
      ['history', 'POST /batch/v1 (25 event creations)', {
        path: '/en/cms-json/batch/v1', method: 'POST', headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ requests: Array.from({ length: 25 }, (_, i) => ({ path: '/history/v1/events', body: { message: `bench batch ${i}` } })) }),
      }],
      ['strings', 'GET /i18n/st/v1/strings with filters', { path: '/en/cms-json/i18n/st/v1/strings?domain=admin_texts&targetLanguageCode=de&translationStatuses=0,10&limit=20', headers: auth }],
      ['jobs', 'GET /i18n/tm/v1/jobs', { path: '/en/cms-json/i18n/tm/v1/jobs?limit=20', headers: auth }],
    ];
    for (const [, name, spec] of scenarios) {
      const probe = spec.method === 'POST' ? true : await available(server.url, spec.path, spec.headers ?? {});
      if (!probe) {
        notes.push(`${db}: skipped "${name}" — the route is not available yet.`);
        continue;
      }
      const row = await measure(db, name, [server.url], pid, spec);
      if (name.includes('25 event')) row.note = `${row.rps * 25} events/s`;
    }
    const mixed: Load = {
      path: '/',
      connections: 50,
      requests: [
        { method: 'GET', path: '/en/cms-json/history/v1/events', headers: auth },
        { method: 'GET', path: '/de/cms-json/sliderx/sliders/home', headers: auth },
        { method: 'POST', path: '/en/cms-json/history/v1/events', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ message: 'mixed' }) },
        { method: 'GET', path: '/en/cms-json/', headers: auth },
      ],
    };
    const single = await measure(db, 'mixed read/write, 50 authenticated clients', [server.url], pid, mixed);
    if (db === 'postgres') {
      const second = await startServer(env);
      try {
        const both = await measure(db, 'mixed, two processes, round-robin', [server.url, second.url], [server.proc.pid, second.proc.pid], mixed);
        both.note = `${(both.rps / single.rps).toFixed(2)} × one process (2 cores shared with the load generator)`;
      } finally {
        await second.stop();
      }
    }
  } finally {
    await server.stop();
  }
}

function writeReport(startedAt: Date, seconds: number): void {
  const cpus = os.cpus();
  const lines = [
    '# Benchmarks',
    '',
    `Written by \`npm run bench\` on ${startedAt.toISOString()} (took ${Math.round(seconds)} s).`,
    `Machine: ${cpus.length} × ${cpus[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB memory, Node ${process.version}.`,
    '',
    '> These machines are shared and noisy: absolute numbers move from run to run. Compare the',
    '> ratios measured side by side in one run (ours against the bare node:http server, one process',
    '> against two, anonymous against authenticated), not absolute times across runs.',
    '',
    `Load: autocannon from the bench process, ${WARMUP} s warm-up then ${DURATION} s per scenario, 10 connections unless noted; servers are child processes on 127.0.0.1. Data: ${EVENTS.toLocaleString('en')} events, ${STRINGS.toLocaleString('en')} strings, ${JOBS.toLocaleString('en')} jobs.`,
    '',
    '| database | scenario | req/s | p50 ms | p99 ms | errors | non-2xx | peak RSS MB | note |',
    '|---|---|---:|---:|---:|---:|---:|---:|---|',
    ...rows.map((r) => `| ${r.db} | ${r.scenario} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.non2xx} | ${r.rssMb} | ${r.note ?? ''} |`),
    '',
    ...(notes.length ? ['## Notes', '', ...notes.map((n) => `- ${n}`), ''] : []),
  ];
  fs.writeFileSync(path.join(ROOT, 'BENCHMARKS.md'), lines.join('\n'));
}

const startedAt = new Date();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'content-site-bench-'));
try {
  await benchDatabase('sqlite', `sqlite:${path.join(tmp, 'bench.db')}`);
  if (PG_URL) {
    const schema = `bench_${process.pid}`;
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE; CREATE SCHEMA ${schema}`);
    const url = new URL(PG_URL);
    url.searchParams.set('options', `-c search_path=${schema}`);
    try {
      await benchDatabase('postgres', url.toString());
    } finally {
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    }
  } else {
    notes.push('PostgreSQL not measured: set BENCH_DATABASE_URL=postgres://… to include it.');
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
  writeReport(startedAt, (Date.now() - startedAt.getTime()) / 1000);
  log('\nwrote BENCHMARKS.md');
}
