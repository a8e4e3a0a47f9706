// `npm run soak`: the hardening suites, longer and with a fresh random seed.
//
//   - fuzz (test/security/fuzz-http.test.ts) with a random FUZZ_SEED (printed: replay a failure
//     with FUZZ_SEED=<seed> FUZZ_RUNS=<runs> node --test test/security/fuzz-http.test.ts)
//     and FUZZ_RUNS (default 100);
//   - the permission matrix, the fault tests and the kill -9 durability tests;
//   - load (test/reliability/load.test.ts) and kill-under-load with SOAK=1: 100 writers +
//     100 readers for 60 s, 10 kill rounds of 48 writers;
//   - growth (test/reliability/growth.test.ts): every route, anonymously, each worst body shape
//     doubled from 1 KiB to 1 MiB; fails when time grows faster than linearly;
//   on SQLite, and on PostgreSQL too when TEST_DATABASE_URL is set.
//
// Test files as arguments run only those (`npm run soak -- test/reliability/growth.test.ts`).
// Options by environment: FUZZ_SEED, FUZZ_RUNS, LOAD_WRITERS, LOAD_READERS, LOAD_SECONDS,
// SERVER_NODE_OPTIONS (Node flags for the server child processes).
// Prints a summary (requests tried, faults injected, writes lost) from the figures the tests
// write to SOAK_REPORT; exits non-zero when a test failed.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const FILES = [
  'test/security/fuzz-http.test.ts',
  'test/security/permission-matrix.test.ts',
  'test/reliability/faults.test.ts',
  'test/storage/durability.test.ts',
  'test/reliability/kill-under-load.test.ts',
  'test/reliability/load.test.ts',
  'test/reliability/growth.test.ts',
];

const seed = process.env.FUZZ_SEED ?? String(crypto.randomInt(1, 2 ** 31 - 1));
const runs = process.env.FUZZ_RUNS ?? '100';
const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'content-site-soak-')), 'report.jsonl');
fs.writeFileSync(report, '');

console.log(`soak: FUZZ_SEED=${seed} FUZZ_RUNS=${runs} SOAK=1`);
console.log(
  `      databases: sqlite${process.env.TEST_DATABASE_URL ? ', postgres (TEST_DATABASE_URL)' : ' (set TEST_DATABASE_URL to include PostgreSQL)'}`,
);
console.log(
  `      replay the fuzz run: FUZZ_SEED=${seed} FUZZ_RUNS=${runs} ./node_modules/.bin/node --test test/security/fuzz-http.test.ts`,
);
const started = Date.now();
const files = process.argv.slice(2);
const result = spawnSync(
  process.execPath,
  ['--test', '--test-concurrency=1', '--test-timeout=900000', ...(files.length ? files : FILES)],
  {
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'test', SOAK: '1', FUZZ_SEED: seed, FUZZ_RUNS: runs, SOAK_REPORT: report },
  },
);
const minutes = ((Date.now() - started) / 60_000).toFixed(1);

interface Rec {
  suite: string;
  db: string;
  [k: string]: unknown;
}
const records = fs
  .readFileSync(report, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as Rec);
const num = (v: unknown) => (typeof v === 'number' ? v : 0);
const sum = (recs: Rec[], key: string) => recs.reduce((n, r) => n + num(r[key]), 0);
const load = records.filter((r) => r.suite === 'load');
const kills = records.filter((r) => r.suite === 'kill-under-load');
const growth = records.filter((r) => r.suite === 'growth');

console.log('\n──── soak summary ────');
console.log(
  `duration ${minutes} min, FUZZ_SEED=${seed}, FUZZ_RUNS=${runs}, tests ${result.status === 0 ? 'passed' : 'FAILED'}`,
);
for (const r of load) {
  const rss = r.rssKiB as { warm: number; end: number; max: number };
  console.log(
    `load (${r.db}): ${r.writers} writers + ${r.readers} readers, ${r.seconds} s: ${r.requests} requests ${JSON.stringify(r.statuses)}, ` +
      `${r.errors} errors, ${r.acknowledged} writes acknowledged, ${r.lost} lost, ${r.readingPasses} paging passes (${r.rowsRead} rows) checked, ` +
      `RSS ${Math.round(rss.warm / 1024)} → ${Math.round(rss.end / 1024)} MiB (max ${Math.round(rss.max / 1024)})`,
  );
}
for (const r of kills) {
  console.log(
    `kill -9 under load (${r.db}): ${r.kills} SIGKILLs (${r.writers} writers), ${r.writesAttempted} writes tried, ${r.acknowledged} acknowledged, ` +
      `${r.failedInFlightAtKill} cut off in flight, ${r.lost} acknowledged lost, database checks passed after every kill`,
  );
}
for (const r of growth) {
  const steepest = (r.steepest as { what: string; ratio: number; msAt1MiB: number }[])[0];
  const slowest = (r.slowestAt1MiB as { what: string; ms: number }[])[0];
  console.log(
    `growth (${r.db}): ${r.series} route × shape series, 1 KiB → 1 MiB, total ms by size ${JSON.stringify(r.totalMsBySize)}; ` +
      `steepest time per byte 1 MiB / 64 KiB ×${steepest?.ratio} (${steepest?.what}); slowest at 1 MiB ${slowest?.ms} ms (${slowest?.what}); ` +
      `faster than linear: ${(r.fasterThanLinear as string[]).length || 'none'}`,
  );
}
console.log(
  `total: ${sum(load, 'requests')} load requests, ${sum(kills, 'writesAttempted')} writes in kill rounds, ${sum(kills, 'kills')} kills, ` +
    `${sum(load, 'lost') + sum(kills, 'lost')} acknowledged writes lost, ${sum(load, 'errors')} errors under load`,
);
console.log('(the fuzz, permission, fault and sequential durability suites report in the test output above)');
process.exit(result.status ?? 1);
