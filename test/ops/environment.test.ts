// Problems of the environment — configuration, database, network — are one line on stderr each:
// what is wrong and how to fix it, exit code 1, no stack trace; and `.env` is read, the real
// environment winning.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { environmentProblem, runCli } from '../../src/cli/main.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { createUser } from '../../src/auth/users.ts';
import { createTestApp, PG_URL, type TestApp } from '../support/db.ts';
import { needs } from '../support/environment.ts';
import { BIN, NODE } from '../cli/run.ts';
import { capture } from './support.ts';

/** Runs the command in this process with exactly the given environment. */
async function run(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = capture();
  const err = capture();
  const code = await runCli(args, { stdout: out.stream, stderr: err.stream, env: { LOG_LEVEL: 'silent', ...env } });
  return { code, stdout: out.text(), stderr: err.text() };
}

function assertOneLine(r: { code: number; stderr: string }, pattern: RegExp): void {
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /^content-site: [^\n]+\n$/, `one line, no stack trace: ${r.stderr}`);
  assert.match(r.stderr, pattern);
}

describe('configuration mistakes', () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ PORT: 'abc' }, /^content-site: PORT must be a port number from 0 to 65535, e\.g\. 8080 \(got "abc"\)\n$/],
    [{ PORT: '70000' }, /PORT must be a port number/],
    [
      { SITE_URL: 'not-a-url' },
      /SITE_URL must be the public address of the site, e\.g\. https:\/\/portal\.example\.com .*\(got "not-a-url"\)/,
    ],
    [{ SITE_URL: 'ftp://example.com' }, /SITE_URL must be/],
    [
      { LOG_LEVEL: 'verbose' },
      /LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent \(got "verbose"\)/,
    ],
    [
      { DATABASE_URL: 'mysql://root:hunter2@db/site' },
      /DATABASE_URL must be sqlite:<file> .* or postgres:\/\/.*\(got "mysql:\/\/root:\*\*\*@db\/site"\)/,
    ],
    [{ LOG_FORMAT: 'xml' }, /LOG_FORMAT must be one of auto, json, pretty/],
    [{ ACCESS_LOG: 'maybe' }, /ACCESS_LOG must be one of on, off/],
    [{ TRUST_PROXY: 'everyone' }, /TRUST_PROXY must list the addresses of your reverse proxies/],
    [{ HTTP_HEADERS_TIMEOUT_MS: '-5' }, /HTTP_HEADERS_TIMEOUT_MS must be a positive whole number of milliseconds/],
  ];
  for (const [env, pattern] of cases) {
    test(`${Object.entries(env)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}: one line, exit 1`, async () => {
      assertOneLine(await run(['migrate'], env), pattern);
    });
  }

  test('the database password is never printed', async () => {
    const r = await run(['migrate'], { DATABASE_URL: 'mariadb://root:hunter2@db/site' });
    assert.doesNotMatch(r.stderr, /hunter2/);
  });

  test('defaults: SITE_URL follows HOST and PORT, so the printed address is the site', () => {
    assert.equal(loadConfig({}).siteUrl, 'http://localhost:8080');
    assert.equal(loadConfig({ HOST: '0.0.0.0', PORT: '9000' }).siteUrl, 'http://localhost:9000');
    assert.equal(loadConfig({ HOST: '192.0.2.7', PORT: '9000' }).siteUrl, 'http://192.0.2.7:9000');
    assert.equal(loadConfig({ HOST: '2001:db8::7', PORT: '9000' }).siteUrl, 'http://[2001:db8::7]:9000');
    assert.equal(loadConfig({ SITE_URL: 'https://portal.example.com/' }).siteUrl, 'https://portal.example.com');
    assert.equal(loadConfig({}).siteUrlConfigured, false);
    assert.equal(loadConfig({ SITE_URL: 'https://portal.example.com' }).siteUrlConfigured, true);
    assert.equal(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8' }).trustProxy, 'loopback,10.0.0.0/8');
    assert.equal(loadConfig({ ACCESS_LOG: 'on' }).accessLog, true);
  });

  test('a bug keeps its stack trace', () => {
    assert.equal(environmentProblem(new TypeError('x is undefined'), loadConfig({})), null);
    assert.equal(environmentProblem(new ConfigError('PORT must …'), null), 'PORT must …');
  });
});

describe('database problems', () => {
  test('PostgreSQL refusing connections', async () => {
    assertOneLine(
      await run(['migrate'], { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/site' }),
      /^content-site: cannot connect to PostgreSQL at 127\.0\.0\.1:1 \(connection refused\)\. Start PostgreSQL, or fix the host and port in DATABASE_URL/,
    );
  });

  test('a PostgreSQL host that does not resolve', async () => {
    assertOneLine(
      await run(['migrate'], { DATABASE_URL: 'postgres://postgres@nohost.invalid/site' }),
      /the PostgreSQL host "nohost\.invalid" of DATABASE_URL .* cannot be resolved/,
    );
  });

  test('a PostgreSQL database that does not exist', {
    skip: needs('PostgreSQL', !!PG_URL, 'set TEST_DATABASE_URL=postgres://…'),
  }, async () => {
    const url = new URL(PG_URL!);
    url.pathname = '/content_site_no_such_database';
    assertOneLine(
      await run(['migrate'], { DATABASE_URL: url.toString() }),
      /the PostgreSQL database "content_site_no_such_database" does not exist\. Create it, e\.g\. createdb --template=template0 --locale=C\.UTF-8 content_site_no_such_database/,
    );
  });
});

describe('listening problems', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ name: 'sqlite' });
    // Not a first start: serve goes straight to listening.
    await createUser(t.app, { login: 'someone', email: 'someone@example.test', role: 'administrator' });
  });
  after(() => t.close());
  const env = () => ({ DATABASE_URL: t.databaseUrl, DATA_DIR: t.config.dataDir });

  test('HOST that does not resolve', async () => {
    assertOneLine(
      await run(['serve'], { ...env(), HOST: 'nohost.invalid', PORT: '0' }),
      /^content-site: HOST "nohost\.invalid" cannot be resolved to an address\. Set HOST to an address of this machine/,
    );
  });

  test('HOST that is not an address of this machine', async () => {
    assertOneLine(
      await run(['serve'], { ...env(), HOST: '192.0.2.1', PORT: '0' }),
      /cannot listen on 192\.0\.2\.1:0: HOST is not an address of this machine/,
    );
  });

  test('a port in use: one line, exit 1, and the process ends', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = execFile(
          NODE,
          [BIN, 'serve'],
          { env: { PATH: process.env.PATH, ...env(), PORT: String(port), LOG_LEVEL: 'silent' }, timeout: 120_000 },
          (_err, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr }),
        );
      });
      assert.equal(r.code, 1, r.stderr);
      assert.equal(
        r.stderr,
        `content-site: cannot listen on 127.0.0.1:${port}: the port is already in use (another server?). Stop that process or set PORT to a free port.\n`,
      );
    } finally {
      blocker.close();
    }
  });
});

test('.env in the working directory is read; the real environment wins', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'content-site-dotenv-'));
  try {
    fs.writeFileSync(
      path.join(dir, '.env'),
      `# settings\nDATABASE_URL=sqlite:${path.join(dir, 'from-dotenv.db')}\nLOG_LEVEL=verbose\n`,
    );
    const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(
        NODE,
        [BIN, 'migrate'],
        { cwd: dir, env: { PATH: process.env.PATH, LOG_LEVEL: 'warn' }, timeout: 120_000 },
        (_err, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr }),
      );
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Applied migrations: /);
    assert.ok(fs.existsSync(path.join(dir, 'from-dotenv.db')), 'DATABASE_URL came from .env');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
