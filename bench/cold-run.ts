// The cold scenarios (bench/cold.ts) against one database: a log made by nothing but
// `content-site events generate` (no `events index`, no warm-up), one server, each scenario's
// seeded list of requests sent once in order on one connection (bench/loadgen-distinct.ts);
// then the mixed cold workload on one connection against eight, in alternating rounds. The
// scenarios start once the server is ready (GET /readyz 200: the log's columns read, as a
// balancer or the systemd unit of docs/deploy waits); the requests answered before are a row
// of their own.
//
// With a reuse directory the database is generated once and kept there (SQLite: sqlite.db;
// PostgreSQL: a schema named in postgres.json), so that a developer can measure repeatedly.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { coldRequests, COLD_SCENARIOS, type ColdLog } from './cold.ts';
import type { LoadResult, RequestShape } from './loadgen.ts';
import { percentiles } from './loadgen-distinct.ts';
import {
  cleanups,
  cli,
  createBenchLogin,
  log,
  peakRssMb,
  resetPeakRss,
  runLoad,
  startServer,
  type Server,
} from './processes.ts';
import { addRow, generation, keyRatios, median, notes, RSS_LIMIT_MB, type Row } from './results.ts';

export interface ColdSettings {
  events: number;
  /** `--scale 10m`: latency targets doubled, generation within 8 minutes per 10,000,000 events. */
  scaled: boolean;
  /** Keep (or find) the generated database here; null: a temporary one. */
  reuseDir: string | null;
  tmp: string;
  pgUrl: string | null;
  profileDir: string | null;
  selected: (name: string) => boolean;
  seed: number;
  /** Per scenario: at most this many requests, for at most this many seconds. */
  requests: number;
  seconds: number;
}

const DAYS = 365;
const MIXED_ROUNDS = 3;
const MIXED_SECONDS = Number(process.env.BENCH_COLD_MIXED_SECONDS ?? 10);
const MIXED_CONNECTIONS = 8;
/** At scale: 10,000,000 events generated within 8 minutes (issue 28). */
const SCALED_GENERATION_S_PER_EVENT = 480 / 10_000_000;

interface ColdDatabase extends ColdLog {
  databaseUrl: string;
  dataDir: string;
}

/** The "How it is measured" line of BENCHMARKS.md for the cold rows. */
export function coldMethod(s: ColdSettings): string {
  return [
    `- Cold rows (issue 28): ${s.events.toLocaleString('en')} events over ${DAYS} days made by \`content-site events generate\` alone (after \`migrate\`, \`seed --demo\` and the bench's login; no \`events index\`, no warm-up) in a database of their own. The scenarios start when the server says it is ready (GET /readyz 200 once it has read the log's columns, as a balancer or the systemd unit of docs/deploy waits); the one-word searches answered from its first answer until then are the "start-up" row, which has no target.`,
    `Every request is different, drawn from a seeded PRNG (mulberry32, seed ${s.seed}) out of the generator's vocabulary, the generated messages' words and words found nowhere (bench/cold.ts), and sent once on one connection: each scenario at most ${s.requests} requests or ${s.seconds} s, p50/p99 over every request (failed ones too), req/s counting 2xx answers only.`,
    `The mixed cold workload draws from all of them: ${MIXED_ROUNDS} alternating rounds of ${MIXED_SECONDS} s on 1 and on ${MIXED_CONNECTIONS} connections, each round with requests of its own.`,
    `Alone: \`npm run bench -- --only cold [--sqlite-only] [--reuse <dir>] [--scale 10m] [--events <n>]\` (\`--reuse\` generates once into <dir> and measures it again on later runs; a partial run leaves this file as it is).`,
  ].join(' ');
}

export const coldLabel = (events: number) =>
  `cold ${events >= 1e6 && events % 1e6 === 0 ? `${events / 1e6}M` : events.toLocaleString('en')}`;

/** A PostgreSQL URL whose connections use `schema`. */
function inSchema(pgUrl: string, schema: string): string {
  const url = new URL(pgUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

async function pgQuery(pgUrl: string, text: string): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** The generated log: found in the reuse directory, or made now by `events generate` alone. */
async function coldDatabase(db: string, s: ColdSettings): Promise<ColdDatabase> {
  const dir = s.reuseDir ?? path.join(s.tmp, 'cold');
  fs.mkdirSync(dir, { recursive: true });
  const stateFile = path.join(dir, `${db}.json`);
  if (fs.existsSync(stateFile)) {
    const state = JSON.parse(fs.readFileSync(stateFile, 'utf8')) as ColdDatabase;
    if (state.events === s.events) {
      log(
        `\n== ${db}: reusing the ${s.events.toLocaleString('en')} events generated ${new Date(state.endMs).toISOString()} (${stateFile})`,
      );
      return state;
    }
    log(
      `\n== ${db}: ${stateFile} holds ${state.events.toLocaleString('en')} events, not ${s.events.toLocaleString('en')}: generating anew (${state.databaseUrl} is left as it is)`,
    );
    fs.rmSync(stateFile);
  }
  let databaseUrl = `sqlite:${path.join(dir, 'sqlite.db')}`;
  if (db === 'postgres') {
    const schema = `cold_${process.pid}_${Date.now().toString(36)}`;
    await pgQuery(s.pgUrl!, `CREATE SCHEMA ${schema}`);
    // Kept when reused and complete (drop it with DROP SCHEMA … CASCADE); else dropped at the end.
    cleanups.push(() =>
      fs.existsSync(stateFile) && s.reuseDir ? undefined : pgQuery(s.pgUrl!, `DROP SCHEMA IF EXISTS ${schema} CASCADE`),
    );
    databaseUrl = inSchema(s.pgUrl!, schema);
  } else {
    fs.rmSync(path.join(dir, 'sqlite.db'), { force: true });
  }
  const dataDir = path.join(dir, `${db}-data`);
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  log(`\n== ${db}: generating ${s.events.toLocaleString('en')} events for the cold scenarios`);
  await cli(env, 'migrate');
  await cli(env, 'seed', '--demo');
  const authorization = await createBenchLogin(env);
  const args = ['events', 'generate', '--count', String(s.events), '--days', String(DAYS)];
  const endMs = Date.now();
  const started = performance.now();
  await cli(env, ...args);
  const seconds = (performance.now() - started) / 1000;
  const target = s.scaled ? Math.round(SCALED_GENERATION_S_PER_EVENT * s.events * 10) / 10 : undefined;
  generation.push({
    db,
    what: `${s.events.toLocaleString('en')} events for the cold scenarios (nothing else, no \`events index\`)`,
    command: `content-site ${args.join(' ')}`,
    seconds,
    ...(target ? { target } : {}),
  });
  log(`generated in ${seconds.toFixed(1)} s`);
  const state: ColdDatabase = { databaseUrl, dataDir, authorization, endMs, days: DAYS, events: s.events };
  fs.writeFileSync(stateFile, JSON.stringify(state, null, 2));
  return state;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

function resultRow(db: string, scenario: string, connections: number, r: LoadResult, rssMb: number): Row {
  return {
    db,
    scenario,
    connections,
    rps: round2(r.rps),
    p50: r.p50,
    p99: r.p99,
    errors: r.errors,
    non2xx: r.non2xx,
    rssMb,
  };
}

/** The per-tag percentiles, slowest requests and failures of a result, for the console (where an optimisation starts). */
function logDetails(r: LoadResult): void {
  const tags = Object.entries(r.byTag ?? {}).sort((a, b) => b[1].p99 - a[1].p99);
  if (tags.length > 1)
    log(`           by tag: ${tags.map(([t, p]) => `${t} ${p.p50}/${p.p99} ms (${p.n})`).join('; ')}`);
  for (const s of r.slowest?.slice(0, 3) ?? []) log(`           slow: ${s.ms} ms ${s.path}`);
  for (const f of r.failures ?? []) log(`           FAILED: ${f}`);
}

/**
 * From the server's first answer until it says it is ready: one-word searches one after another
 * (each followed by a look at /readyz), then the wait for readiness if they ran out.
 */
async function untilReady(server: Server, requests: RequestShape[]) {
  const started = performance.now();
  const ready = async () => {
    const res = await fetch(`${server.url}/readyz`);
    await res.arrayBuffer();
    return res.ok;
  };
  const ms: number[] = [];
  let failed = 0;
  for (const r of requests) {
    if (await ready()) break;
    const sent = performance.now();
    const res = await fetch(server.url + r.path, { headers: r.headers });
    await res.arrayBuffer();
    ms.push(performance.now() - sent);
    if (!res.ok) failed++;
  }
  while (!(await ready())) {
    // The server's own bound is 30 s (src/server/health.ts): past twice that it is not starting.
    if (performance.now() - started > 60_000) throw new Error(`${server.url}/readyz: not ready after 60 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { ms, failed, seconds: (performance.now() - started) / 1000 };
}

export async function benchCold(db: string, s: ColdSettings): Promise<void> {
  const label = coldLabel(s.events);
  const names = [...COLD_SCENARIOS.map((sc) => `${label}: ${sc.name}`), `${label}: mixed workload`];
  if (!names.some(s.selected)) return;
  const data = await coldDatabase(db, s);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: data.databaseUrl,
    DATA_DIR: data.dataDir,
    LOG_LEVEL: 'warn',
  };
  const server: Server = await startServer(env, s.profileDir);
  // The machine is shared: the load beside the bench says how far to trust the times.
  log(
    `${db}: ${label} scenarios; load average ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(', ')}`,
  );
  const pid = server.proc.pid;
  // VmHWM is reset per scenario: the whole run's peak is the largest of theirs (and the start's).
  let overall = peakRssMb(pid);
  const peakNow = () => {
    const mb = peakRssMb(pid);
    overall = Math.max(overall, mb);
    return mb;
  };
  // Every request of the whole cold run different (not only within one scenario's list).
  const sent = new Set<string>();
  const run = (key: string, connections: number, count: number, seconds: number) =>
    runLoad(
      {
        urls: [server.url],
        requests: coldRequests(key, data, s.seed, count, sent),
        connections,
        seconds,
        distinct: true,
      },
      s.tmp,
    );
  try {
    // Its own seed: the scenarios' lists stay what they are without it.
    const window = await untilReady(server, coldRequests('search1', data, s.seed + 1, 1_000, sent));
    const { p50, p99 } = percentiles(window.ms);
    addRow({
      db,
      scenario: `${label}: start-up, one word until ready`,
      connections: 1,
      rps: round2(window.ms.length / window.seconds),
      p50,
      p99,
      errors: 0,
      non2xx: window.failed,
      rssMb: peakNow(),
      note: `${window.ms.length} requests in the ${window.seconds.toFixed(1)} s from the server's first answer until /readyz said ready (no target)`,
    });
    for (const sc of COLD_SCENARIOS) {
      const name = `${label}: ${sc.name}`;
      if (!s.selected(name)) continue;
      resetPeakRss(pid);
      const r = await run(sc.key, 1, s.requests, s.seconds);
      const row = resultRow(db, name, 1, r, peakNow());
      const p50 = sc.p50 * (s.scaled ? 2 : 1);
      const p99 = sc.p99 && sc.p99 * (s.scaled ? 2 : 1);
      row.target = `p50 ≤ ${p50} ms${p99 ? `, p99 ≤ ${p99} ms` : ''}, RSS ≤ ${RSS_LIMIT_MB} MB`;
      row.met =
        row.p50 <= p50 && (!p99 || row.p99 <= p99) && row.rssMb <= RSS_LIMIT_MB && row.errors === 0 && row.non2xx === 0;
      const worst = Object.entries(r.byTag ?? {}).sort((a, b) => b[1].p99 - a[1].p99)[0];
      row.note = `${r.requests} request${r.requests === 1 ? '' : 's'}${worst && Object.keys(r.byTag!).length > 1 ? `; slowest kind: ${worst[0]} (p50 ${worst[1].p50}, p99 ${worst[1].p99} ms)` : ''}`;
      addRow(row);
      logDetails(r);
      if (r.failures?.length)
        notes.push(`${db} ${name}: ${r.errors} errors, ${r.non2xx} non-2xx, e.g. ${r.failures[0]}`);
    }

    // One connection against eight, in alternating rounds (each round its own requests): on 2
    // cores, eight readers should not queue behind one slow query.
    const mixedName = `${label}: mixed workload`;
    if (s.selected(mixedName)) {
      const results: LoadResult[][] = [[], []];
      const peaks = [0, 0];
      for (let round = 0; round < MIXED_ROUNDS; round++) {
        for (const [i, c] of [1, MIXED_CONNECTIONS].entries()) {
          resetPeakRss(pid);
          const r = await run(`mixed-${round}-c${c}`, c, 50_000, MIXED_SECONDS);
          log(`         mixed round ${round + 1}, c=${c}: ${r.rps.toFixed(1)} req/s`);
          logDetails(r);
          results[i]!.push(r);
          peaks[i] = Math.max(peaks[i]!, peakNow());
        }
      }
      // Rounds where one connection got no 2xx answer at all (every request timed out) give no ratio.
      const ratios = results[1]!.map((r, i) => r.rps / results[0]![i]!.rps).filter(Number.isFinite);
      const ratio = ratios.length ? median(ratios) : NaN;
      const [one, eight] = results.map((rs, i) => {
        const sum = (f: (r: LoadResult) => number) => rs.reduce((t, r) => t + f(r), 0);
        const merged: LoadResult = {
          tool: rs[0]!.tool,
          requests: sum((r) => r.requests),
          rps: sum((r) => r.rps) / rs.length,
          p50: median(rs.map((r) => r.p50)),
          p99: Math.max(...rs.map((r) => r.p99)),
          errors: sum((r) => r.errors),
          non2xx: sum((r) => r.non2xx),
        };
        return resultRow(
          db,
          `${mixedName}, ${MIXED_ROUNDS} alternating rounds of ${MIXED_SECONDS} s`,
          i ? MIXED_CONNECTIONS : 1,
          merged,
          peaks[i]!,
        );
      });
      eight!.target = `≥ 1.5 × the requests/s of c=1 (median of per-round ratios), RSS ≤ ${RSS_LIMIT_MB} MB`;
      eight!.met = ratio >= 1.5 && eight!.rssMb <= RSS_LIMIT_MB && eight!.errors === 0 && eight!.non2xx === 0;
      const shown = ratios.length
        ? `${ratio.toFixed(2)} ×`
        : 'no ratio: one connection got no 2xx answer in any round;';
      eight!.note = `${shown} c=1 (rounds: ${ratios.map((x) => x.toFixed(2)).join(', ')})`;
      addRow(one!);
      addRow(eight!);
      keyRatios.push(
        `${db}: the mixed cold workload (${label.slice(5)} events) on eight connections runs at ${shown} the requests/s of one (median of ${MIXED_ROUNDS} alternating rounds; target ≥ 1.5 ×).`,
      );
    }
    keyRatios.push(
      `${db}: the server's peak RSS over the cold scenarios (${label.slice(5)} events): ${overall} MB (target ≤ ${RSS_LIMIT_MB} MB: ${overall <= RSS_LIMIT_MB ? 'met' : '**missed**'}).`,
    );
    log(
      `${db}: peak RSS over the cold run ${overall} MB; load average ${os
        .loadavg()
        .map((x) => x.toFixed(1))
        .join(', ')}`,
    );
  } finally {
    await server.stop();
  }
}
