// Cookie authentication of the REST API over HTTP (WordPress's rest_cookie_check_errors): the
// web login cookie counts only with a `wp_rest` nonce of its session; without one the request
// is anonymous; a wrong one is 403 rest_cookie_invalid_nonce. Runs on every database target,
// with a second process on the same database and a restart.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { pino } from 'pino';
import type { FastifyInstance } from 'fastify';
import { openApp } from '../../src/app.ts';
import { setUserStatus } from '../../src/auth/users.ts';
import { buildServer } from '../../src/server/http.ts';
import { restNonce } from '../../src/web/rest-cookie-auth.ts';
import { csrfToken } from '../../src/web/session.ts';
import { dbTargets, type TestApp } from '../support/db.ts';
import { basicAuth, userWithRole } from '../support/http.ts';
import { WebClient, createWebTestApp, logIn, makeUser } from '../web/support.ts';

const PASSWORD = 'cookie nonce password 1';
const HOUR = 3600 * 1000;

function idHashOf(client: WebClient): string {
  return crypto.createHash('sha256').update(client.cookies.get('cms_session')!).digest('hex');
}

for (const target of dbTargets()) {
  describe(`REST cookie authentication with nonces (${target.name})`, () => {
    let t: TestApp;
    let server: FastifyInstance;
    let alice: WebClient;
    let nonce: string;

    before(async () => {
      t = await createWebTestApp(target);
      server = await buildServer(t.app);
      await makeUser(t.app, 'alice', PASSWORD);
      alice = new WebClient(server, '10.1.0.1');
      await logIn(alice, 'alice', PASSWORD);
      nonce = await restNonce(t.app, { idHash: idHashOf(alice) });
    });
    after(async () => {
      await server?.close();
      await t?.close();
    });

    const rest = (
      client: WebClient | null,
      path: string,
      opts: { method?: 'GET' | 'POST'; headers?: Record<string, string>; payload?: string; lang?: string } = {},
    ) =>
      server.inject({
        method: opts.method ?? 'GET',
        url: `/${opts.lang ?? 'en'}/cms-json${path}`,
        headers: { ...(client?.cookieHeader() ? { cookie: client.cookieHeader()! } : {}), ...opts.headers },
        payload: opts.payload,
        remoteAddress: '10.1.0.1',
      });

    test('the cookie alone is ignored: the request is anonymous', async () => {
      const res = await rest(alice, '/history/v1/events');
      assert.equal(res.statusCode, 401, res.body);
      assert.equal(res.json().code, 'rest_forbidden_context');
      assert.equal(res.headers['x-wp-nonce'], undefined);
    });

    test('the cookie with its nonce in X-WP-Nonce runs as the user and refreshes the nonce', async () => {
      const res = await rest(alice, '/history/v1/events', { headers: { 'x-wp-nonce': nonce } });
      assert.equal(res.statusCode, 200, res.body);
      assert.match(String(res.headers['cache-control']), /no-store/, 'a logged-in answer is never cached');
      const fresh = String(res.headers['x-wp-nonce']);
      assert.match(fresh, /^[A-Za-z0-9_-]{43}$/);
      assert.equal(
        (await rest(alice, '/history/v1/search-options', { headers: { 'x-wp-nonce': fresh } })).statusCode,
        200,
        'the refreshed nonce works',
      );
    });

    test('the nonce as _wpnonce in the query or a form body works too (POST as the user)', async () => {
      assert.equal((await rest(alice, `/history/v1/events?_wpnonce=${nonce}`)).statusCode, 200);
      const res = await rest(alice, '/history/v1/events', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ _wpnonce: nonce, message: 'Entry through the cookie' }).toString(),
      });
      assert.equal(res.statusCode, 201, res.body);
      const row = await t.app.db
        .selectFrom('history_events')
        .select(['user_id', 'initiator'])
        .where('message_key', '=', 'custom_entry_added')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      const user = await t.app.db
        .selectFrom('users')
        .select('id')
        .where('login', '=', 'alice')
        .executeTakeFirstOrThrow();
      assert.equal(row.user_id, user.id, 'recorded as alice');
      assert.equal(row.initiator, 'cms_user');
    });

    test('a wrong nonce is 403 rest_cookie_invalid_nonce, in the root language, never cached', async () => {
      for (const bad of ['0123456789', nonce.slice(0, -1) + (nonce.endsWith('A') ? 'B' : 'A'), '']) {
        const res = await rest(alice, '/history/v1/events', { headers: { 'x-wp-nonce': bad } });
        assert.equal(res.statusCode, 403, `nonce ${JSON.stringify(bad)}`);
        assert.deepEqual(res.json(), {
          code: 'rest_cookie_invalid_nonce',
          message: 'Cookie check failed',
          data: { status: 403 },
        });
        assert.match(String(res.headers['cache-control']), /no-store/);
      }
      const de = await rest(alice, '/history/v1/events?_wpnonce=nope', { lang: 'de' });
      assert.equal(de.statusCode, 403);
      assert.equal(de.json().message, 'Cookie-Prüfung fehlgeschlagen');
      // Even on public routes (the check runs before routing, as the reference's).
      assert.equal((await rest(alice, '/?_wpnonce=nope')).statusCode, 403);
      // A _wpnonce given twice (an array) is no nonce.
      assert.equal((await rest(alice, `/history/v1/events?_wpnonce[]=${nonce}`)).statusCode, 403);
    });

    test('a nonce without the session cookie, or of another session, is refused', async () => {
      assert.equal((await rest(null, '/history/v1/events', { headers: { 'x-wp-nonce': nonce } })).statusCode, 403);
      const other = new WebClient(server, '10.1.0.2');
      await logIn(other, 'alice', PASSWORD);
      assert.notEqual(idHashOf(other), idHashOf(alice));
      assert.equal(
        (await rest(other, '/history/v1/events', { headers: { 'x-wp-nonce': nonce } })).statusCode,
        403,
        'a nonce belongs to one session',
      );
      const own = await restNonce(t.app, { idHash: idHashOf(other) });
      assert.equal((await rest(other, '/history/v1/events', { headers: { 'x-wp-nonce': own } })).statusCode, 200);
    });

    test('a nonce lives 12 to 24 hours: the previous tick is accepted, older ones are not', async () => {
      const idHash = idHashOf(alice);
      const yesterdayHalf = await restNonce(t.app, { idHash }, new Date(Date.now() - 12 * HOUR));
      assert.equal(
        (await rest(alice, '/history/v1/events', { headers: { 'x-wp-nonce': yesterdayHalf } })).statusCode,
        200,
      );
      const old = await restNonce(t.app, { idHash }, new Date(Date.now() - 25 * HOUR));
      assert.equal((await rest(alice, '/history/v1/events', { headers: { 'x-wp-nonce': old } })).statusCode, 403);
    });

    test('HTTP Basic credentials decide alone: a wrong nonce beside them does not matter', async () => {
      const editor = await userWithRole(t.app, 'editor');
      const res = await rest(alice, '/history/v1/events', {
        headers: { authorization: editor.authorization, 'x-wp-nonce': 'wrong' },
      });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['x-wp-nonce'], undefined);
      assert.equal(
        (
          await rest(null, '/history/v1/events', {
            headers: { authorization: basicAuth(editor.user.login, 'wrong password') },
          })
        ).statusCode,
        401,
      );
    });

    test('batch items run as the cookie user', async () => {
      const res = await rest(alice, '/batch/v1', {
        method: 'POST',
        headers: { 'x-wp-nonce': nonce, 'content-type': 'application/json' },
        payload: JSON.stringify({
          requests: [{ path: '/history/v1/events', body: { message: 'Batched through the cookie' } }],
        }),
      });
      assert.equal(res.statusCode, 207, res.body);
      assert.equal(res.json().responses[0].status, 201, JSON.stringify(res.json()));
    });

    test('the cookie and nonce work in another process on the same database (so after a restart too)', async () => {
      // A fresh process holds nothing of the session in memory: what it accepts, a restarted one does.
      const other = await openApp(t.config, { pgSchema: t.pgSchema, logger: pino({ level: 'silent' }) });
      const otherServer = await buildServer(other);
      try {
        const res = await otherServer.inject({
          method: 'GET',
          url: '/en/cms-json/history/v1/events',
          headers: { cookie: alice.cookieHeader()!, 'x-wp-nonce': nonce },
        });
        assert.equal(res.statusCode, 200, res.body);
      } finally {
        await otherServer.close();
        await other.close();
      }
    });

    test('disabling the user and logging out end the nonce with the session', async () => {
      const u = await makeUser(t.app, 'carol', PASSWORD);
      const carol = new WebClient(server, '10.1.0.3');
      await logIn(carol, 'carol', PASSWORD);
      const carolNonce = await restNonce(t.app, { idHash: idHashOf(carol) });
      assert.equal(
        (await rest(carol, '/history/v1/events', { headers: { 'x-wp-nonce': carolNonce } })).statusCode,
        200,
      );
      await setUserStatus(t.app, u.id, 'disabled');
      assert.equal(
        (await rest(carol, '/history/v1/events', { headers: { 'x-wp-nonce': carolNonce } })).statusCode,
        403,
      );

      const dave = new WebClient(server, '10.1.0.4');
      await makeUser(t.app, 'dave', PASSWORD);
      await logIn(dave, 'dave', PASSWORD);
      const daveNonce = await restNonce(t.app, { idHash: idHashOf(dave) });
      const cookie = dave.cookieHeader()!;
      const csrf = await csrfToken(t.app, { kind: 'session', idHash: idHashOf(dave) });
      assert.equal((await dave.post('/cms-login.php?action=logout', { _csrf: csrf })).status, 303);
      const res = await server.inject({
        method: 'GET',
        url: '/en/cms-json/history/v1/events',
        headers: { cookie, 'x-wp-nonce': daveNonce },
      });
      assert.equal(res.statusCode, 403, 'the old cookie and nonce after logout');
    });
  });
}
