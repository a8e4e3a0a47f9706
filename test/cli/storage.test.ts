// The site's files, through the real command in child processes (SQLite): a start that cannot
// write refuses in one line before creating anything, and the next one is a whole first start;
// the data folder is 0700 and the database files 0600, and a start on wider ones warns once;
// commands other than serve and migrate refuse a database file that does not exist.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN, NODE, ROOT, runCli, type CliResult } from './run.ts';

const EXPOSED_WARNING = 'others than the owner may open the data folder or the database files';

/** `serve` until it listens (then SIGTERM) or exits by itself; what it printed and its exit code. */
function serveOnce(env: Record<string, string>): Promise<CliResult & { whileListening: Record<string, number> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(NODE, [BIN, 'serve'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: '0', LOG_LEVEL: 'info', ...env },
    });
    let stdout = '';
    let stderr = '';
    let whileListening: Record<string, number> = {};
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not listen or exit: ${stdout}${stderr}`));
    }, 60_000);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
      if (/Listening on /.test(stdout) && !child.killed) {
        whileListening = modes(env);
        child.kill('SIGTERM');
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 1, stdout, stderr, whileListening });
    });
  });
}

/** Permission bits of DATA_DIR and the database files that exist. */
function modes(env: Record<string, string>): Record<string, number> {
  const db = env.DATABASE_URL!.slice('sqlite:'.length);
  const out: Record<string, number> = {};
  for (const [name, file] of [
    ['data', env.DATA_DIR!],
    ['db', db],
    ['wal', `${db}-wal`],
    ['shm', `${db}-shm`],
  ] as const) {
    if (fs.existsSync(file)) out[name] = fs.statSync(file).mode & 0o777;
  }
  return out;
}

/** A failure in one line on stderr (no stack trace), a non-zero exit code. */
function assertOneLine(r: CliResult, pattern: RegExp): void {
  assert.notEqual(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stderr, /^content-site: [^\n]+\n$/, r.stderr);
  assert.match(r.stderr, pattern);
}

describe('the files of a site (SQLite, child processes)', () => {
  let tmp: string;
  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'content-site-storage-'));
    // A regular file: nothing can be created below it, whoever runs the test (root too).
    fs.writeFileSync(path.join(tmp, 'file'), 'x');
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  test('an unwritable DATA_DIR or database folder: one line, nothing created; the next start is a whole first start', async () => {
    const dbDir = path.join(tmp, 'site');
    const env = { DATABASE_URL: `sqlite:${path.join(dbDir, 'site.db')}`, DATA_DIR: path.join(tmp, 'file', 'data') };
    const refused = await serveOnce(env);
    assertOneLine(refused, new RegExp(`DATA_DIR ${path.join(tmp, 'file', 'data')} is not writable`));
    assert.equal(fs.existsSync(dbDir), false, 'no database was created');

    const noDbFolder = await serveOnce({
      DATABASE_URL: `sqlite:${path.join(tmp, 'file', 'db', 'site.db')}`,
      DATA_DIR: path.join(tmp, 'data'),
    });
    assertOneLine(noDbFolder, /the database folder .*file\/db is not writable/);
    assert.equal(fs.existsSync(path.join(tmp, 'data')), false, 'nor the data folder');

    const started = await serveOnce({ ...env, DATA_DIR: path.join(tmp, 'data') });
    assert.equal(started.code, 0, started.stderr);
    assert.match(started.stdout, /Application password for admin \(shown only this once\): [A-Za-z0-9 ]{29}\n/);
    const users = await runCli({ databaseUrl: env.DATABASE_URL, config: { dataDir: path.join(tmp, 'data') } }, [
      'user',
      'list',
      '--json',
    ]);
    assert.equal(users.code, 0, users.stderr);
    const logins = (JSON.parse(users.stdout) as { login: string }[]).map((u) => u.login);
    assert.ok(logins.includes('admin') && logins.includes('demo-editor'), logins.join(', '));
  });

  test('the data folder is created 0700, the database and its -wal and -shm 0600; wider ones are warned about once', async () => {
    const env = {
      DATABASE_URL: `sqlite:${path.join(tmp, 'private', 'db', 'site.db')}`,
      DATA_DIR: path.join(tmp, 'private', 'data'),
    };
    const first = await serveOnce(env);
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(first.whileListening, { data: 0o700, db: 0o600, wal: 0o600, shm: 0o600 });
    assert.equal(
      fs.statSync(path.dirname(env.DATABASE_URL.slice('sqlite:'.length))).mode & 0o777,
      0o700,
      'a new database folder too',
    );
    assert.ok(!first.stderr.includes(EXPOSED_WARNING), 'nothing to warn about');

    fs.chmodSync(env.DATA_DIR, 0o755);
    fs.chmodSync(env.DATABASE_URL.slice('sqlite:'.length), 0o644);
    const again = await serveOnce(env);
    assert.equal(again.code, 0, again.stderr);
    // The server's log goes to stderr (JSON lines when it is not a terminal).
    const warnings = again.stderr.split('\n').filter((line) => line.includes(EXPOSED_WARNING));
    assert.equal(warnings.length, 1, again.stderr);
    const files = JSON.parse(warnings[0]!).files as string[];
    assert.ok(
      files.includes(env.DATA_DIR) && files.includes(env.DATABASE_URL.slice('sqlite:'.length)),
      files.join(', '),
    );
  });

  test('migrate creates the database owner-only too', async () => {
    const db = path.join(tmp, 'migrated', 'site.db');
    const r = await runCli({ databaseUrl: `sqlite:${db}`, config: { dataDir: path.join(tmp, 'migrated-data') } }, [
      'migrate',
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fs.statSync(db).mode & 0o777, 0o600);
  });

  test('other commands refuse a database file that does not exist, naming it, and create nothing', async () => {
    const missing = path.join(tmp, 'nonexistent', 'dir', 'site.db');
    for (const args of [
      ['user', 'list'],
      ['seed', '--demo'],
    ]) {
      const r = await runCli({ databaseUrl: `sqlite:${missing}`, config: { dataDir: path.join(tmp, 'data') } }, args);
      assertOneLine(r, new RegExp(`no database at ${missing}`));
      assert.equal(r.stdout, '');
    }
    assert.equal(fs.existsSync(path.join(tmp, 'nonexistent')), false);
  });
});
