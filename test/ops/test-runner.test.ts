// `npm test` (scripts/test.ts) ends with a summary naming every skipped group and why, and a
// closing count line; under CI a test skipped for want of the machine (needs()) or a missing
// TEST_DATABASE_URL fails the run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { NODE, ROOT } from '../cli/run.ts';

function runTests(file: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      NODE,
      ['scripts/test.ts', path.join('test/ops/fixtures', file)],
      { cwd: ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, timeout: 120_000 },
      (_err, stdout) => resolve({ code: child.exitCode, stdout }),
    );
  });
}

/** The part after the spec reporter's own summary. */
function summaryOf(stdout: string): string {
  return stdout.slice(stdout.lastIndexOf('\nSkipped:'));
}

test('the summary names each skipped group with its reason and file; the last line counts', async () => {
  const r = await runTests('skips.fixture.ts', {});
  assert.equal(r.code, 0, r.stdout);
  const summary = summaryOf(r.stdout);
  assert.match(summary, /^\nSkipped:\n {2}PostgreSQL runs of every storage test: TEST_DATABASE_URL is not set\n/);
  assert.match(
    summary,
    /\n {2}1 × needs a browser: apt-get install -y chromium\n {6}in test\/ops\/fixtures\/skips\.fixture\.ts: browser tests\n/,
  );
  assert.match(
    summary,
    /\n {2}1 × PostgreSQL reads in one statement\n {6}in test\/ops\/fixtures\/skips\.fixture\.ts: only on the other database\n/,
  );
  assert.match(r.stdout, /\n1 passed, 0 failed, \d+ skipped\n$/);
});

test('under CI, a test skipped for want of the machine fails the run', async () => {
  const r = await runTests('skips.fixture.ts', { CI: 'true', TEST_DATABASE_URL: 'postgres://unused@127.0.0.1:1/x' });
  assert.equal(r.code, 1);
  assert.match(
    r.stdout,
    /CI must skip nothing for want of the machine \(1 test group\(s\) skipped with "needs …"\): failing the run\./,
  );
});

test('under CI, a missing TEST_DATABASE_URL fails the run; other skips are fine', async () => {
  const without = await runTests('plain.fixture.ts', { CI: 'true' });
  assert.equal(without.code, 1);
  assert.match(without.stdout, /TEST_DATABASE_URL is not set; 0 test group\(s\)/);
  const withPg = await runTests('plain.fixture.ts', {
    CI: 'true',
    TEST_DATABASE_URL: 'postgres://unused@127.0.0.1:1/x',
  });
  assert.equal(withPg.code, 0, withPg.stdout);
  assert.match(summaryOf(withPg.stdout), /1 × PostgreSQL reads in one statement/);
});
