// Every failed login costs the same password work whatever the reason, so that the answer's time
// tells no account apart: one scrypt on the web login (unknown login, no interactive password,
// disabled, wrong password), one application-password hash on HTTP Basic authentication (unknown
// user, no application password, disabled, wrong password). Counted, not timed: crypto.scrypt
// and crypto.createHmac are spied on before the server code is loaded (passwords.ts keeps the
// scrypt function it found at load time).
import { test, describe, before, after, mock } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';

const scrypt = mock.method(crypto, 'scrypt');
const hmac = mock.method(crypto, 'createHmac');
const { buildServer } = await import('../../src/server/http.ts');
const { authenticateRequest } = await import('../../src/auth/authenticate.ts');
const { createAppPassword } = await import('../../src/auth/app-passwords.ts');
const { createUser, setUserStatus } = await import('../../src/auth/users.ts');
const { dbTargets } = await import('../support/db.ts');
const { basicAuth } = await import('../support/http.ts');
const { WebClient, createWebTestApp, csrfOf, makeUser } = await import('../web/support.ts');

const PASSWORD = 'correct horse battery staple';

/** How often `spy` was called while `run` ran. */
async function callsDuring(spy: { mock: { callCount(): number } }, run: () => Promise<unknown>): Promise<number> {
  const before = spy.mock.callCount();
  await run().catch(() => {});
  return spy.mock.callCount() - before;
}

for (const target of dbTargets()) {
  describe(`every failed login costs one password hash (${target.name})`, () => {
    let t: Awaited<ReturnType<typeof createWebTestApp>>;
    let server: Awaited<ReturnType<typeof buildServer>>;
    before(async () => {
      t = await createWebTestApp(target);
      server = await buildServer(t.app);
      await makeUser(t.app, 'active', PASSWORD);
      await createUser(t.app, { login: 'apponly', email: 'apponly@example.test', role: 'editor' });
      const disabled = await makeUser(t.app, 'disabled', PASSWORD);
      await setUserStatus(t.app, disabled.id, 'disabled');
    });
    after(async () => {
      await server.close();
      await t.close();
    });

    test('web login: unknown login or e-mail, no interactive password, disabled, wrong password — one scrypt each, as a success', async () => {
      const cases: [string, string, string][] = [
        ['unknown login', 'nobody', PASSWORD],
        ['unknown e-mail address', 'nobody@example.test', PASSWORD],
        ['a login too long to exist', 'x'.repeat(101), PASSWORD],
        ['no interactive password (app passwords only)', 'apponly', PASSWORD],
        ['disabled account, right password', 'disabled', PASSWORD],
        ['wrong password', 'active', 'not the password'],
      ];
      let n = 0;
      for (const [what, log, pwd] of cases) {
        const c = new WebClient(server, `192.0.2.${++n}`);
        const token = csrfOf((await c.get('/cms-login.php')).body);
        let status = 0;
        const hashes = await callsDuring(scrypt, async () => {
          status = (await c.post('/cms-login.php', { _csrf: token, log, pwd })).status;
        });
        assert.equal(status, 200, what);
        assert.equal(hashes, 1, what);
      }
      const c = new WebClient(server, '192.0.2.99');
      const token = csrfOf((await c.get('/cms-login.php')).body);
      assert.equal(
        await callsDuring(scrypt, () => c.post('/cms-login.php', { _csrf: token, log: 'active', pwd: PASSWORD })),
        1,
        'a success',
      );
    });

    test('Basic authentication: unknown user or e-mail, no application password, disabled, wrong password — one hash each', async () => {
      t.app.activity = { log: async () => 0 };
      const { password } = await createAppPassword(
        t.app,
        (await createUser(t.app, { login: 'api', email: 'api@example.test', role: 'editor' })).id,
        { name: 'tests' },
      );
      const { password: disabledPassword } = await createAppPassword(
        t.app,
        (await makeUser(t.app, 'api-disabled', PASSWORD)).id,
        { name: 'tests' },
      );
      const disabled = await t.app.db
        .selectFrom('users')
        .select('id')
        .where('login', '=', 'api-disabled')
        .executeTakeFirstOrThrow();
      await setUserStatus(t.app, disabled.id, 'disabled');
      const cases: [string, string, string][] = [
        ['unknown login', 'nobody', password],
        ['unknown e-mail address', 'nobody@example.test', password],
        ['no application password', 'active', password],
        ['disabled account, right password', 'api-disabled', disabledPassword],
        ['wrong password', 'api', password.replace(/.$/, (ch) => (ch === 'a' ? 'b' : 'a'))],
        ['empty password', 'api', ''],
      ];
      let n = 0;
      for (const [what, login, pwd] of cases) {
        const ip = `198.18.0.${++n}`;
        await assert.rejects(authenticateRequest(t.app, basicAuth(login, pwd), ip), what);
        assert.equal(await callsDuring(hmac, () => authenticateRequest(t.app, basicAuth(login, pwd), ip)), 1, what);
      }
    });
  });
}
