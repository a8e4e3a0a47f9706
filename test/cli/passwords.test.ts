// Passwords for people: `user set-password` (asked twice without echo at a terminal, a line of
// standard input, --password), `user reset-password` and the set-password page its one-time
// link opens (/cms-login.php?action=rp), the first start's link, and `user create` without a
// password saying how to set one. Through the real command and HTTP, on every database target.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { FastifyInstance } from 'fastify';
import { createPasswordResetKey } from '../../src/auth/password-reset.ts';
import { findUserByLogin } from '../../src/auth/user-rows.ts';
import { firstStart } from '../../src/cli/seed.ts';
import { buildServer } from '../../src/server/http.ts';
import { dbTargets, type TestApp } from '../support/db.ts';
import { capture } from '../ops/support.ts';
import {
  WebClient,
  assertSecurityHeaders,
  createWebTestApp,
  csrfOf,
  decodeEntities,
  fieldOf,
  logIn,
  pathOf,
} from '../web/support.ts';
import { BIN, NODE, ROOT, cliEnv, runCli, type CliResult } from './run.ts';

/** The link a command printed. */
function linkIn(text: string): string {
  const m = /(http:\/\/localhost:8080\/cms-login\.php\?action=rp&key=[A-Za-z0-9_-]{43}&login=[\w.@-]+)/.exec(text);
  assert.ok(m, text);
  return m[1]!;
}

/** A login attempt through the form: 302 when it succeeds. */
async function loginStatus(server: FastifyInstance, login: string, password: string): Promise<number> {
  const c = new WebClient(server);
  const page = await c.get('/cms-login.php');
  return (await c.post('/cms-login.php', { _csrf: csrfOf(page.body), log: login, pwd: password })).status;
}

/**
 * The command at a terminal (script(1) gives it a pseudo-terminal): each answer is typed once
 * its prompt has appeared, as a person would.
 */
function runAtTerminal(t: TestApp, args: string[], answers: [prompt: string, typed: string][]): Promise<CliResult> {
  return new Promise((resolve) => {
    const command = [NODE, BIN, ...args].map((a) => `'${a}'`).join(' ');
    const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: ROOT, env: cliEnv(t) });
    let stdout = '';
    let stderr = '';
    let next = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      while (
        next < answers.length &&
        stdout.includes(answers[next]![0], next ? stdout.indexOf(answers[next - 1]![0]) + 1 : 0)
      ) {
        child.stdin.write(`${answers[next]![1]}\r`);
        next++;
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

for (const target of dbTargets()) {
  describe(`passwords for people (${target.name})`, () => {
    let t: TestApp;
    let server: FastifyInstance;
    before(async () => {
      t = await createWebTestApp(target);
      server = await buildServer(t.app);
    });
    after(async () => {
      await server.close();
      await t.close();
    });

    test('user create without --password says how to set one', async () => {
      const r = await runCli(t, ['user', 'create', 'alice', '--email', 'alice@example.com', '--role', 'editor']);
      assert.equal(r.code, 0, r.stderr);
      assert.match(
        r.stdout,
        /^Created user alice \(id \d+, role editor\)\.\nalice has no password for the web pages yet: set one with npx content-site user set-password alice,\nor make a one-time link for them with npx content-site user reset-password alice\.\n$/,
      );
      const withPassword = await runCli(t, [
        'user',
        'create',
        'bob',
        '--email',
        'bob@example.com',
        '--role',
        'editor',
        '--password',
        'bob password 1',
      ]);
      assert.doesNotMatch(withPassword.stdout, /no password/);
    });

    test('set-password from a line of standard input or --password; the web login works; bad input refused', async () => {
      const r = await runCli(t, ['user', 'set-password', 'alice'], {}, 'first password 1\nignored second line\n');
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 'Set the password of alice; they log in at http://localhost:8080/cms-login.php\n');
      assert.equal(await loginStatus(server, 'alice', 'first password 1'), 302);
      assert.equal(await loginStatus(server, 'alice', 'ignored second line'), 200);

      assert.equal((await runCli(t, ['user', 'set-password', 'alice', '--password', 'second password 2'])).code, 0);
      assert.equal(await loginStatus(server, 'alice', 'second password 2'), 302);
      assert.equal(await loginStatus(server, 'alice', 'first password 1'), 200);

      for (const [args, input, pattern] of [
        [
          ['user', 'set-password', 'alice'],
          '',
          /^content-site: no password: give --password, type it at a terminal, or pass it as a line on standard input\n$/,
        ],
        [
          ['user', 'set-password', 'alice', '--password', 'short'],
          '',
          /^content-site: Passwords must be at least 8 characters long\.\n$/,
        ],
        [['user', 'set-password', 'nobody'], 'a long password\n', /^content-site: unknown user "nobody"\n$/],
      ] as const) {
        const bad = await runCli(t, [...args], {}, input);
        assert.equal(bad.code, 1, args.join(' '));
        assert.match(bad.stderr, pattern);
      }
      assert.equal(await loginStatus(server, 'alice', 'second password 2'), 302, 'unchanged by the refused attempts');
    });

    test('set-password at a terminal: asked twice without echo; different answers change nothing', async () => {
      const ok = await runAtTerminal(
        t,
        ['user', 'set-password', 'alice'],
        [
          ['New password for alice: ', 'typed password 3'],
          ['Type it again: ', 'typed password 3'],
        ],
      );
      assert.equal(ok.code, 0, ok.stdout + ok.stderr);
      assert.match(ok.stdout, /New password for alice: \r?\nType it again: \r?\nSet the password of alice/);
      assert.doesNotMatch(ok.stdout, /typed password 3/, 'not echoed');
      assert.equal(await loginStatus(server, 'alice', 'typed password 3'), 302);
      const differ = await runAtTerminal(
        t,
        ['user', 'set-password', 'alice'],
        [
          ['New password for alice: ', 'one password 4'],
          ['Type it again: ', 'another password 4'],
        ],
      );
      assert.equal(differ.code, 1);
      assert.match(differ.stdout, /content-site: the two passwords differ; nothing was changed/);
      assert.equal(await loginStatus(server, 'alice', 'typed password 3'), 302);
    });

    test('reset-password: the one-time link opens the set-password page; it works once; logged', async () => {
      const r = await runCli(t, ['user', 'reset-password', 'alice']);
      assert.equal(r.code, 0, r.stderr);
      assert.match(
        r.stdout,
        /^One-time link for alice to set a password \(works once, until \d{4}-\d\d-\d\d \d\d:\d\d:\d\d Europe\/Berlin\):\n\n {2}http:/,
      );
      const link = linkIn(r.stdout);
      const c = new WebClient(server);
      const page = await c.get(link);
      assert.equal(page.status, 200);
      assertSecurityHeaders(page, 'set-password page');
      assert.match(page.body, /<h1>Set a password for alice<\/h1>/);
      assert.match(page.body, /autocomplete="new-password"/);
      const form = {
        _csrf: csrfOf(page.body),
        login: fieldOf(page.body, 'login')!,
        key: decodeEntities(fieldOf(page.body, 'key')!),
      };

      const differ = await c.post('/cms-login.php?action=rp', {
        ...form,
        pass1: 'reset password 5',
        pass2: 'reset password 6',
      });
      assert.equal(differ.status, 400);
      assert.match(differ.body, /The passwords do not match\./);
      const short = await c.post('/cms-login.php?action=rp', { ...form, pass1: 'short', pass2: 'short' });
      assert.equal(short.status, 400);
      assert.match(short.body, /at least 8 characters/);
      const forged = await new WebClient(server).post('/cms-login.php?action=rp', {
        ...form,
        pass1: 'reset password 5',
        pass2: 'reset password 5',
      });
      assert.equal(forged.status, 403, 'the token belongs to the cookie of the page that showed the form');

      const done = await c.post('/cms-login.php?action=rp', {
        ...form,
        pass1: 'reset password 5',
        pass2: 'reset password 5',
      });
      assert.equal(done.status, 303);
      assert.equal(done.location, 'http://localhost:8080/cms-login.php?password=reset');
      assert.match(
        (await c.get(pathOf(done.location!))).body,
        /Your password has been reset\. You can now log in with it\./,
      );
      assert.equal(await loginStatus(server, 'alice', 'reset password 5'), 302);

      const again = await new WebClient(server).get(link);
      assert.equal(again.status, 400, 'used up');
      assert.match(
        again.body,
        /Your password reset link appears to be invalid\. Ask an administrator for a new link\./,
      );
      const reuse = await c.post('/cms-login.php?action=rp', {
        ...form,
        pass1: 'reset password 7',
        pass2: 'reset password 7',
      });
      assert.equal(reuse.status, 400);
      assert.equal(await loginStatus(server, 'alice', 'reset password 5'), 302);

      const events = await t.app.db
        .selectFrom('history_events')
        .select(['message_key', 'initiator', 'user_id'])
        .where('message_key', 'in', ['user_requested_password_reset_link', 'user_password_reseted'])
        .orderBy('id')
        .execute();
      const alice = (await findUserByLogin(t.app, 'alice'))!;
      assert.deepEqual(events.slice(-2), [
        { message_key: 'user_requested_password_reset_link', initiator: 'cms_cli', user_id: null },
        { message_key: 'user_password_reseted', initiator: 'cms_user', user_id: alice.id },
      ]);
    });

    test('a newer link replaces the older; expired, tampered and unknown links; German; the site address', async () => {
      const first = linkIn((await runCli(t, ['user', 'reset-password', 'alice', '--hours', '2'])).stdout);
      const second = linkIn((await runCli(t, ['user', 'reset-password', 'alice'])).stdout);
      assert.equal((await new WebClient(server).get(first)).status, 400, 'replaced');
      assert.equal((await new WebClient(server).get(second)).status, 200);
      const key = new URL(second).searchParams.get('key')!;
      for (const url of [
        `/cms-login.php?action=rp&key=${key}&login=bob`,
        `/cms-login.php?action=rp&key=${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}&login=alice`,
        '/cms-login.php?action=rp&key=x&login=alice',
        '/cms-login.php?action=rp',
      ]) {
        assert.equal((await new WebClient(server).get(url)).status, 400, url);
      }
      const alice = (await findUserByLogin(t.app, 'alice'))!;
      const old = await createPasswordResetKey(t.app, alice, { now: new Date(Date.now() - 25 * 3600_000) });
      const expired = await new WebClient(server).get(`/cms-login.php?action=rp&key=${old.key}&login=alice&lang=de`);
      assert.equal(expired.status, 400);
      assert.match(expired.body, /Dein Link zum Zurücksetzen des Passworts ist abgelaufen\./);
      const fresh = await createPasswordResetKey(t.app, alice);
      const german = await new WebClient(server).get(`/cms-login.php?action=rp&key=${fresh.key}&login=alice&lang=de`);
      assert.match(german.body, /<h1>Passwort für alice festlegen<\/h1>/);
      assert.match(german.body, /Passwort speichern/);
      // Reached at another address, the page is shown at the site's, as the login form.
      const elsewhere = await new WebClient(server, '127.0.0.1', 'http://127.0.0.1:8080').get(
        `/cms-login.php?action=rp&key=${fresh.key}&login=alice`,
      );
      assert.equal(elsewhere.status, 302);
      assert.equal(elsewhere.location, `http://localhost:8080/cms-login.php?action=rp&key=${fresh.key}&login=alice`);
      const bad = await runCli(t, ['user', 'reset-password', 'alice', '--hours', '0']);
      assert.match(bad.stderr, /^content-site: --hours must be a whole number from 1 to 720, got "0"\n$/);
    });

    test('a disabled user gets no link', async () => {
      await runCli(t, ['user', 'disable', 'bob']);
      const r = await runCli(t, ['user', 'reset-password', 'bob']);
      assert.equal(r.code, 1);
      assert.equal(r.stderr, 'content-site: The user "bob" is disabled: enable the account first.\n');
    });
  });

  describe(`the first start prints a set-password link for admin (${target.name})`, () => {
    test('the link lets admin choose a password and log in', async () => {
      const t = await createWebTestApp(target);
      const server = await buildServer(t.app);
      try {
        const out = capture();
        assert.equal(await firstStart(t.app, out.stream), true);
        const printed = out.text();
        assert.match(
          printed,
          /To log in to the web pages, choose admin's password with this one-time link:\n {2}http\S+\n {2}\(works once, until \d{4}-\d\d-\d\d \d\d:\d\d:\d\d Europe\/Berlin; or: npx content-site user set-password admin\)\n/,
        );
        assert.match(
          printed,
          /More passwords and users: npx content-site app-password create <login> <app-name>, npx content-site help user\n/,
        );
        const c = new WebClient(server);
        const page = await c.get(linkIn(printed));
        const done = await c.post('/cms-login.php?action=rp', {
          _csrf: csrfOf(page.body),
          login: 'admin',
          key: decodeEntities(fieldOf(page.body, 'key')!),
          pass1: 'admin password 1',
          pass2: 'admin password 1',
        });
        assert.equal(done.status, 303);
        const res = await logIn(new WebClient(server), 'admin', 'admin password 1');
        assert.equal(res.location, 'http://localhost:8080/cms-admin/');
      } finally {
        await server.close();
        await t.close();
      }
    });
  });
}
