// Credentials never leak: the real server (child process, logging at `trace`) is asked every
// route of the registry in both roots — as administrator, as subscriber, anonymously, with
// wrong passwords until it throttles — and the web pages (login with a wrong and the right
// password, the profile with its application passwords). No response body or header and nothing the
// process prints may contain an application password (raw or chunked), a stored hash of
// one, a user's password hash, the CSRF key, the sched site secret, a session id (outside
// its own Set-Cookie), a valid Authorization header, or the database password.
// Timing-safe comparison and throttling (429 + Retry-After) are tested in test/auth.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { sql } from 'kysely';
import { buildServer } from '../../src/server/http.ts';
import { chunkPassword, createAppPassword } from '../../src/auth/app-passwords.ts';
import { createUser } from '../../src/auth/users.ts';
import { MAX_FAILURES } from '../../src/auth/throttle.ts';
import { seedDemo } from '../../src/cli/seed.ts';
import { PG_URL, type DbTarget } from '../support/db.ts';
import { basicAuth } from '../support/http.ts';
import { samplePath } from '../support/registry.ts';
import { freePort, killChild, seededDb, startChild, type ChildServer } from '../reliability/child-server.ts';

/** Routes that reach outside the process (network, mail) are asked nothing here. */
const SKIP = new Set(['/oembed/1.0/proxy', '/history/v1/email-report/preview/email']);
const USER_PASSWORD = 'Interactive-Login-Secret-42';
const LICENSE_KEY = 'LICENSE-CANARY-7f3a9c21';

/** A PostgreSQL URL whose password is a canary (when the server accepts any password), else the given one. */
async function pgUrlWithSecret(): Promise<{ url: string; secret: string | null }> {
  const url = new URL(PG_URL!);
  if (url.password) return { url: PG_URL!, secret: decodeURIComponent(url.password) };
  url.password = 'db-canary-Pw-9137';
  const client = new pg.Client({ connectionString: url.toString() });
  try {
    await client.connect();
    return { url: url.toString(), secret: 'db-canary-Pw-9137' };
  } catch {
    return { url: PG_URL!, secret: null };
  } finally {
    await client.end().catch(() => {});
  }
}

const targets: DbTarget[] = PG_URL ? [{ name: 'sqlite' }, { name: 'postgres' }] : [{ name: 'sqlite' }];

for (const target of targets) {
  test(`no secret in any response, header or log line (${target.name})`, async (ctx) => {
    let dbSecret: string | null = null;
    let env: Record<string, string> = {};
    if (target.name === 'postgres') {
      const withSecret = await pgUrlWithSecret();
      dbSecret = withSecret.secret;
      env = { DATABASE_URL: withSecret.url };
    }
    const seeded = await seededDb(target, env);
    const { t } = seeded;
    let server: ChildServer | null = null;
    try {
      await seedDemo(t.app);
      const alice = await createUser(t.app, {
        login: 'alice',
        email: 'alice@example.test',
        role: 'administrator',
        password: USER_PASSWORD,
      });
      const aliceApp = await createAppPassword(t.app, alice.id, { name: 'second' });
      const sub = await createUser(t.app, { login: 'sub', email: 'sub@example.test', role: 'subscriber' });
      const subApp = await createAppPassword(t.app, sub.id, { name: 'sub app' });
      const registry = await buildServer(t.app);
      const routes = registry.restApi.registry.routes.filter((r) => !SKIP.has(r.pattern));
      await registry.close();

      // The login form is shown at the site's address (SITE_URL) only: the child's own.
      const port = await freePort();
      server = await startChild(t, {
        LOG_LEVEL: 'trace',
        PORT: String(port),
        SITE_URL: `http://127.0.0.1:${port}`,
        ...env,
      });
      const seen: string[] = [];
      let requests = 0;
      const call = async (path: string, init: RequestInit = {}) => {
        const res = await fetch(server!.url + path, { redirect: 'manual', ...init });
        const body = await res.text();
        const headers = [...res.headers]
          .filter(([k]) => k !== 'set-cookie')
          .map(([k, v]) => `${k}: ${v}`)
          .join('\n');
        seen.push(`${init.method ?? 'GET'} ${path} → ${res.status}\n${headers}\n${body}`);
        return { res, body };
      };

      // Web pages: a wrong, then the right interactive password; the list of application passwords.
      const login = await call('/cms-login.php');
      const nonce = /cms_login_nonce=([^;]+)/.exec(login.res.headers.get('set-cookie') ?? '')?.[1] ?? '';
      const csrf = /name="_csrf" value="([^"]*)"/.exec(login.body)?.[1] ?? '';
      const form = (pwd: string) => new URLSearchParams({ _csrf: csrf, log: 'alice', pwd }).toString();
      const formHeaders = { 'content-type': 'application/x-www-form-urlencoded', cookie: `cms_login_nonce=${nonce}` };
      const failed = await call('/cms-login.php', {
        method: 'POST',
        headers: formHeaders,
        body: form('wrong password'),
      });
      assert.equal(failed.res.status, 200);
      const ok = await call('/cms-login.php', { method: 'POST', headers: formHeaders, body: form(USER_PASSWORD) });
      assert.equal(ok.res.status, 302, ok.body.slice(0, 300));
      const sessionId = /cms_session=([^;]+)/.exec(ok.res.headers.get('set-cookie') ?? '')?.[1] ?? '';
      assert.ok(sessionId, 'a session cookie');
      const list = await call('/cms-admin/profile.php', { headers: { cookie: `cms_session=${sessionId}` } });
      assert.equal(list.res.status, 200);
      requests += 4;
      // A write-only secret of the sched settings.
      const license = await call('/en/cms-json/sched/v1/settings/license', {
        method: 'POST',
        headers: { authorization: seeded.authorization, 'content-type': 'application/json' },
        body: JSON.stringify({ license_key: LICENSE_KEY }),
      });
      assert.ok(license.res.status < 300, license.body.slice(0, 300));

      const identities: Record<string, string | undefined> = {
        admin: seeded.authorization,
        subscriber: basicAuth('sub', subApp.password),
        anonymous: undefined,
      };
      for (const route of routes) {
        for (const endpoint of route.endpoints) {
          const method = endpoint.methods[0]!;
          for (const lang of ['en', 'de']) {
            for (const [, authorization] of Object.entries(identities)) {
              const headers: Record<string, string> = { 'content-type': 'application/json' };
              if (authorization) headers.authorization = authorization;
              await call(`/${lang}/cms-json${samplePath(route.pattern)}`, {
                method,
                headers,
                body: method === 'GET' ? undefined : '{}',
              });
              requests++;
            }
          }
        }
      }
      // Wrong passwords of every kind, until the address is throttled.
      const wrong = [
        basicAuth(seeded.login, 'abcd efgh ijkl mnop qrst uvwx'),
        basicAuth(seeded.login, subApp.password),
        basicAuth('alice', USER_PASSWORD),
        basicAuth('nobody', seeded.password),
        basicAuth('nobody@example.test', aliceApp.password),
      ];
      let throttled = false;
      for (let i = 0; i < MAX_FAILURES + 2; i++) {
        const { res } = await call('/en/cms-json/history/v1/events', {
          headers: { authorization: wrong[i % wrong.length]! },
        });
        requests++;
        assert.ok(res.status === 401 || res.status === 429, `wrong credentials answered ${res.status}`);
        if (res.status === 429) {
          throttled = true;
          assert.ok(Number(res.headers.get('retry-after')) > 0, 'Retry-After');
        }
      }
      assert.ok(throttled, 'repeated wrong passwords are throttled');

      const rows = {
        apps: await t.app.db.selectFrom('app_passwords').select('password_hash').execute(),
        users: await t.app.db
          .selectFrom('users')
          .select('password_hash')
          .where('password_hash', 'is not', null)
          .execute(),
        keys: await t.app.db.selectFrom('web_keys').select('value').execute(),
        sched: (
          await sql<{ v: string }>`select value as v from sched_settings`
            .execute(t.app.db)
            .catch(() => ({ rows: [] as { v: string }[] }))
        ).rows,
      };
      const secrets: [string, string][] = [];
      for (const [name, p] of [
        ['admin', seeded.password],
        ['alice', aliceApp.password],
        ['subscriber', subApp.password],
      ] as const) {
        secrets.push([`${name} application password`, p], [`${name} application password (chunked)`, chunkPassword(p)]);
      }
      secrets.push(['admin Authorization header', seeded.authorization.slice('Basic '.length)]);
      secrets.push(['alice interactive password', USER_PASSWORD]);
      for (const r of rows.apps)
        secrets.push(
          ['application password hash', r.password_hash],
          ['application password digest', r.password_hash.split('$').pop()!],
        );
      for (const r of rows.users)
        secrets.push(
          ['user password hash', r.password_hash!],
          ['user password digest', r.password_hash!.split('$').pop()!],
        );
      for (const r of rows.keys) secrets.push(['CSRF key', r.value]);
      for (const r of rows.sched) {
        const m = /"site_secret":"([0-9a-f]{48})"/.exec(r.v);
        if (m) secrets.push(['sched site secret', m[1]!]);
      }
      if (dbSecret) secrets.push(['database password', dbSecret]);
      secrets.push(['sched licence key (write-only)', LICENSE_KEY], ['web session id', sessionId]);
      assert.ok(
        rows.apps.length >= 3 && rows.users.length >= 1 && rows.keys.length >= 1,
        'the secrets to look for exist',
      );

      await killChild(server, 'SIGTERM');
      const output = server.output();
      server = null;
      assert.ok(output.length > 0, 'the server logged something at trace level');
      const responses = seen.join('\n');
      for (const [name, secret] of secrets) {
        assert.ok(secret.length >= 12, `${name} is long enough to search for`);
        assert.ok(!responses.includes(secret), `${name} appears in a response`);
        assert.ok(!output.includes(secret), `${name} appears in the server's output`);
      }
      ctx.diagnostic(
        `${requests} requests, ${secrets.length} secrets searched in ${responses.length} bytes of responses and ${output.length} bytes of log output`,
      );
    } finally {
      if (server) await killChild(server);
      await t.close();
    }
  });
}
