// `npm test`: every test file under test/, on SQLite, and on PostgreSQL too when
// TEST_DATABASE_URL is set. Ends with a summary naming every group that was skipped and why
// (collected by scripts/skip-reporter.ts). Under CI nothing that needs the machine may be
// skipped: no TEST_DATABASE_URL, or a test skipped through test/support/environment.ts needs(),
// fails the run.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NEEDS_PREFIX } from '../test/support/environment.ts';
import { enableCompileCache } from '../bin/compile-cache.js';

interface Skip {
  file: string;
  name: string;
  reason: string;
}

const ROOT = path.resolve(import.meta.dirname, '..');
const files = process.argv.slice(2);
const inCi = !!process.env.CI && process.env.CI !== 'false' && process.env.CI !== '0';
const withPostgres = !!process.env.TEST_DATABASE_URL;
if (!withPostgres) {
  console.log('note: TEST_DATABASE_URL is not set — PostgreSQL tests are skipped; storage tests run on SQLite only.');
  console.log('      To include them: TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm test');
}

// Every test file is a process of its own: with the types stripped once, not in each, the whole
// run takes about a minute less (a file importing the server starts in 0.9 s, not 1.4 s).
enableCompileCache();

const skipFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'content-site-test-')), 'skips.jsonl');
const result = spawnSync(
  process.execPath,
  [
    '--test',
    '--test-concurrency=2',
    '--test-timeout=300000',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    `--test-reporter=${path.join(ROOT, 'scripts/skip-reporter.ts')}`,
    `--test-reporter-destination=${skipFile}`,
    ...(files.length ? files : ['test/**/*.test.ts']),
  ],
  { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
);
const records = fs.existsSync(skipFile)
  ? fs
      .readFileSync(skipFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Skip & { counts?: Record<string, number> })
  : [];
fs.rmSync(path.dirname(skipFile), { recursive: true, force: true });
const skips = records.filter((r) => r.counts === undefined);
const counts = records.find((r) => r.counts)?.counts;

console.log('\nSkipped:');
if (!withPostgres) console.log('  PostgreSQL runs of every storage test: TEST_DATABASE_URL is not set');
const byReason = Map.groupBy(skips, (s) => s.reason);
for (const [reason, group] of [...byReason].sort((a, b) => b[1].length - a[1].length)) {
  const where = [...new Set(group.map((s) => path.relative(ROOT, s.file)))].join(', ');
  console.log(
    `  ${group.length} × ${reason}\n      in ${where}: ${group
      .map((s) => s.name)
      .slice(0, 3)
      .join('; ')}${group.length > 3 ? '; …' : ''}`,
  );
}
if (withPostgres && !skips.length) console.log('  nothing');

const missing = skips.filter((s) => s.reason.startsWith(NEEDS_PREFIX));
const failCi = inCi && (missing.length > 0 || !withPostgres);
if (failCi) {
  console.log(
    `\nCI must skip nothing for want of the machine (${!withPostgres ? 'TEST_DATABASE_URL is not set; ' : ''}${missing.length} test group(s) skipped with "${NEEDS_PREFIX}…"): failing the run.`,
  );
}
// The closing line: the counts of the whole run.
if (counts)
  console.log(`\n${counts.passed} passed, ${counts.failed + counts.cancelled} failed, ${counts.skipped} skipped`);
process.exit(failCi ? 1 : (result.status ?? 1));
