import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { dbTargets, createTestApp, type TestApp } from '../support/db.ts';
import { basicAuth } from '../support/http.ts';
import { BIN, ROOT, runCli, type CliResult } from './run.ts';
import { authenticateRequest } from '../../src/auth/authenticate.ts';
import { findUserByLogin, listUsers } from '../../src/auth/user-rows.ts';
import { listAppPasswords } from '../../src/auth/app-passwords.ts';
import { utcToZone } from '../../src/site/time.ts';
import { RestError } from '../../src/rest/types.ts';

/** A user mistake: exit 1, exactly one line on stderr, nothing on stdout. */
function assertOneLineError(r: CliResult, pattern: RegExp): void {
  assert.equal(r.code, 1, r.stderr);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /^content-site: [^\n]+\n$/);
  assert.match(r.stderr, pattern);
}

describe('content-site command (no database)', () => {
  const noDb = { databaseUrl: 'sqlite::memory:', config: { dataDir: ROOT } };

  test('the bin shim runs with the pinned Node first on PATH', async () => {
    const out = await new Promise<string>((resolve, reject) => {
      const env = { PATH: `${path.join(ROOT, 'node_modules/.bin')}:${process.env.PATH}` };
      execFile(BIN, ['--help'], { cwd: ROOT, env }, (err, stdout) => (err ? reject(err) : resolve(stdout)));
    });
    assert.match(out, /^usage: content-site <command>/);
  });

  test('--help lists every command; <command> --help shows its usage', async () => {
    const help = await runCli(noDb, ['--help']);
    assert.equal(help.code, 0);
    for (const name of [
      'serve',
      'migrate',
      'user create',
      'user list',
      'user set-role',
      'user disable',
      'user enable',
      'user delete',
      'app-password create',
      'app-password list',
      'app-password revoke',
      'seed',
      'events purge',
      'events clear',
      'user set-password',
      'user reset-password',
    ]) {
      assert.match(help.stdout, new RegExp(`\\n  ${name}`), name);
    }
    const one = await runCli(noDb, ['user', 'create', '--help']);
    assert.equal(one.code, 0);
    assert.match(one.stdout, /\nSYNOPSIS\n\n  content-site user create <login> --email <address> --role <role>/);
  });

  test('unknown commands and incomplete ones', async () => {
    assertOneLineError(await runCli(noDb, ['frobnicate']), /unknown command "frobnicate"/);
    assertOneLineError(
      await runCli(noDb, ['user']),
      /"user" needs one of: create, list, set-role, disable, enable, delete, set-password, reset-password \(see content-site help user\)/,
    );
    const none = await runCli(noDb, []);
    assert.equal(none.code, 1);
    assert.match(none.stderr, /^usage: content-site/);
  });
});

for (const target of dbTargets()) {
  describe(`content-site command (${target.name})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(target);
    });
    after(() => t.close());

    test('user create, with every kind of bad input refused without writing', async () => {
      const ok = await runCli(t, [
        'user',
        'create',
        'hanna',
        '--email',
        'hanna@example.com',
        '--role',
        'editor',
        '--display-name',
        'Hanna H.',
        '--password',
        'pw-123',
      ]);
      assert.equal(ok.code, 0, ok.stderr);
      assert.match(ok.stdout, /^Created user hanna \(id \d+, role editor\)\.\n$/);
      const row = await findUserByLogin(t.app, 'hanna');
      assert.equal(row?.display_name, 'Hanna H.');
      assert.ok(row?.password_hash?.startsWith('$scrypt$'));

      assertOneLineError(
        await runCli(t, ['user', 'create', 'hanna', '--email', 'other@example.com', '--role', 'editor']),
        /The login "hanna" is already taken\./,
      );
      assertOneLineError(
        await runCli(t, ['user', 'create', 'ivan', '--email', 'hanna@example.com', '--role', 'editor']),
        /e-mail address "hanna@example.com" is already used/,
      );
      assertOneLineError(
        await runCli(t, ['user', 'create', 'ivan', '--email', 'nope', '--role', 'editor']),
        /Invalid e-mail address "nope"/,
      );
      assertOneLineError(
        await runCli(t, ['user', 'create', 'ivan', '--email', 'ivan@example.com', '--role', 'emperor']),
        /Unknown role "emperor"/,
      );
      assertOneLineError(
        await runCli(t, ['user', 'create', 'ivan', '--role', 'editor']),
        /missing --email \(usage: content-site user create/,
      );
      assertOneLineError(
        await runCli(t, ['user', 'create', '--email', 'ivan@example.com', '--role', 'editor']),
        /missing <login>/,
      );
      assertOneLineError(
        await runCli(t, ['user', 'create', 'ivan', 'extra', '--email', 'ivan@example.com', '--role', 'editor']),
        /unexpected argument "extra"/,
      );
      assertOneLineError(
        await runCli(t, [
          'user',
          'create',
          'ivan',
          '--email',
          'ivan@example.com',
          '--role',
          'editor',
          '--colour',
          'red',
        ]),
        /Unknown option '--colour'\. \(usage/,
      );
      assert.deepEqual(
        (await listUsers(t.app)).map((u) => u.login),
        ['hanna'],
      );
    });

    test('user list, plain and --json', async () => {
      const plain = await runCli(t, ['user', 'list']);
      assert.equal(plain.code, 0);
      assert.match(
        plain.stdout,
        /^ID +LOGIN +EMAIL +ROLE +STATUS +DISPLAY NAME\n\d+ +hanna +hanna@example.com +editor +active +Hanna H\.\n$/,
      );
      const json = await runCli(t, ['user', 'list', '--json']);
      const users = JSON.parse(json.stdout);
      assert.equal(users.length, 1);
      assert.deepEqual(Object.keys(users[0]), ['id', 'login', 'email', 'display_name', 'role', 'status', 'created']);
      assert.equal(users[0].login, 'hanna');
      assert.equal(
        (await runCli(t, ['user', 'list', '--format', 'json'])).stdout,
        json.stdout,
        '--json is --format json',
      );
      const csv = await runCli(t, ['user', 'list', '--format', 'csv']);
      assert.equal(csv.code, 0, csv.stderr);
      assert.equal(
        csv.stdout,
        `id,login,email,display_name,role,status,created\n${users[0].id},hanna,hanna@example.com,Hanna H.,editor,active,${users[0].created}\n`,
      );
      assert.equal((await runCli(t, ['user', 'list', '--format', 'table'])).stdout, plain.stdout);
      assertOneLineError(
        await runCli(t, ['user', 'list', '--json', '--format', 'csv']),
        /--json and --format csv contradict each other/,
      );
    });

    test('app-password create / list / revoke; the printed password logs in', async () => {
      const plain = await runCli(t, ['app-password', 'create', 'hanna', 'Laptop']);
      assert.equal(plain.code, 0, plain.stderr);
      const shown = /\n {2}([A-Za-z0-9]{4}(?: [A-Za-z0-9]{4}){5})\n/.exec(plain.stdout)?.[1];
      assert.ok(shown, plain.stdout);
      assert.equal((await authenticateRequest(t.app, basicAuth('hanna', shown), '192.0.2.10'))?.user.login, 'hanna');

      const json = await runCli(t, ['app-password', 'create', 'hanna', 'Phone', '--json']);
      assert.equal(json.code, 0, json.stderr);
      const created = JSON.parse(json.stdout);
      for (const key of ['uuid', 'name', 'password', 'app_id', 'created']) assert.ok(key in created, key);
      assert.equal(created.name, 'Phone');
      assert.match(created.password, /^[A-Za-z0-9]{4}( [A-Za-z0-9]{4}){5}$/);

      const listed = JSON.parse((await runCli(t, ['app-password', 'list', 'hanna', '--json'])).stdout);
      assert.deepEqual(listed.map((p: { name: string }) => p.name).sort(), ['Laptop', 'Phone']);
      assert.ok(!JSON.stringify(listed).includes(created.password.slice(0, 4) + ' '), 'no secrets in the list');
      // CSV: every field as the API shows it, a name quoted where it needs quotes.
      await runCli(t, ['app-password', 'create', 'hanna', 'Tablet, "new"']);
      const csv = await runCli(t, ['app-password', 'list', 'hanna', '--format', 'csv']);
      assert.match(csv.stdout, /^uuid,app_id,name,created,last_used,last_ip\n/);
      assert.ok(csv.stdout.includes(',"Tablet, ""new""",'), csv.stdout);
      assert.equal(csv.stdout.trim().split('\n').length, 4);
      const tablet = JSON.parse((await runCli(t, ['app-password', 'list', 'hanna', '--format', 'json'])).stdout).find(
        (p: { name: string }) => p.name.startsWith('Tablet'),
      );
      await runCli(t, ['app-password', 'revoke', 'hanna', tablet.uuid]);
      const table = await runCli(t, ['app-password', 'list', 'hanna']);
      // Times in the site's zone, which the header names (the pages show times in it too).
      assert.match(table.stdout, /^UUID +NAME +CREATED \(Europe\/Berlin\) +LAST USED \(Europe\/Berlin\) +LAST IP\n/);
      const phone = (await listAppPasswords(t.app, (await findUserByLogin(t.app, 'hanna'))!.id)).find(
        (p) => p.name === 'Phone',
      )!;
      assert.ok(table.stdout.includes(utcToZone(phone.created.replace('T', ' '), 'Europe/Berlin')), table.stdout);

      const revoked = await runCli(t, ['app-password', 'revoke', 'hanna', created.uuid]);
      assert.equal(revoked.code, 0, revoked.stderr);
      assert.match(revoked.stdout, /Revoked application password "Phone"/);
      await assert.rejects(
        authenticateRequest(t.app, basicAuth('hanna', created.password), '192.0.2.10'),
        (err: unknown) => err instanceof RestError && err.code === 'incorrect_password',
      );
      assertOneLineError(
        await runCli(t, ['app-password', 'revoke', 'hanna', created.uuid]),
        /Application password not found\./,
      );
      assertOneLineError(await runCli(t, ['app-password', 'create', 'nobody', 'x']), /unknown user "nobody"/);
      assertOneLineError(
        await runCli(t, ['app-password', 'create', 'hanna', '   ']),
        /An application name is required/,
      );
      assertOneLineError(await runCli(t, ['app-password', 'create', 'hanna']), /missing <app-name>/);
      assertOneLineError(
        await runCli(t, ['app-password', 'create', 'hanna', 'Laptop']),
        /^content-site: Each application name should be unique\.\n$/,
      );
      assert.equal((await listAppPasswords(t.app, (await findUserByLogin(t.app, 'hanna'))!.id)).length, 1);
    });

    test('user set-role, disable, enable, delete', async () => {
      const role = await runCli(t, ['user', 'set-role', 'hanna', 'translator']);
      assert.equal(role.stdout, 'User hanna now has the role translator.\n');
      assertOneLineError(await runCli(t, ['user', 'set-role', 'hanna', 'pope']), /Unknown role "pope"/);
      assertOneLineError(await runCli(t, ['user', 'set-role', 'ghost', 'editor']), /unknown user "ghost"/);
      assert.equal((await findUserByLogin(t.app, 'hanna'))?.role, 'translator');

      assert.equal((await runCli(t, ['user', 'disable', 'hanna'])).stdout, 'User hanna is disabled.\n');
      assert.equal((await findUserByLogin(t.app, 'hanna'))?.status, 'disabled');
      assert.equal((await runCli(t, ['user', 'enable', 'hanna'])).stdout, 'User hanna is active.\n');
      assert.equal((await findUserByLogin(t.app, 'hanna'))?.status, 'active');

      assert.equal((await runCli(t, ['user', 'delete', 'hanna'])).stdout, 'Deleted user hanna.\n');
      assert.equal(await findUserByLogin(t.app, 'hanna'), undefined);
      assertOneLineError(await runCli(t, ['user', 'delete', 'hanna']), /unknown user "hanna"/);
    });

    test('seed --demo adds one demo user per role, once', async () => {
      assertOneLineError(await runCli(t, ['seed']), /missing --demo/);
      for (let i = 0; i < 2; i++) {
        const r = await runCli(t, ['seed', '--demo']);
        assert.equal(r.code, 0, r.stderr);
      }
      const demo = (await listUsers(t.app)).filter((u) => u.login.startsWith('demo-'));
      assert.deepEqual(demo.map((u) => u.role).sort(), [
        'administrator',
        'author',
        'contributor',
        'editor',
        'subscriber',
        'translator',
      ]);
    });

    test('every CLI write is in the activity log with the initiator cms_cli', async () => {
      const events = await t.app.db
        .selectFrom('history_events')
        .select(['logger', 'message_key', 'initiator'])
        .orderBy('id')
        .execute();
      const keys = (initiator: string) =>
        events.filter((e) => e.initiator === initiator && e.logger === 'SimpleUserLogger').map((e) => e.message_key);
      assert.deepEqual(keys('cms_cli'), [
        'user_created',
        'user_application_password_created',
        'user_application_password_created',
        'user_application_password_created',
        'user_application_password_revoked',
        'user_application_password_revoked',
        'user_role_updated',
        'user_disabled',
        'user_enabled',
        'user_deleted',
        ...Array(6).fill('user_created'), // seed --demo: one demo user per role
      ]);
    });

    test('migrate on an up-to-date database', async () => {
      const r = await runCli(t, ['migrate']);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 'The database is up to date.\n');
    });
  });
}
