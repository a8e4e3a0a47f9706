// The login page: form, language, session cookie, CSRF, throttling, redirect_to, logout,
// sessions shared through the database. Runs on every database target.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { pino } from 'pino';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { openApp } from '../../src/app.ts';
import { setUserStatus } from '../../src/auth/users.ts';
import { MAX_FAILURES } from '../../src/auth/throttle.ts';
import { buildServer } from '../../src/server/http.ts';
import { dbTargets, type TestApp } from '../support/db.ts';
import {
  WebClient,
  assertSecurityHeaders,
  csrfOf,
  fieldOf,
  logIn,
  makeUser,
  pathOf,
  createWebTestApp,
} from './support.ts';

const PASSWORD = 'correct horse battery staple';

async function events(t: TestApp, messageKey: string) {
  const rows = await t.app.db
    .selectFrom('history_events as e')
    .innerJoin('history_event_contexts as x', 'x.event_id', 'e.id')
    .select(['e.id', 'e.logger', 'e.message_key', 'e.initiator', 'e.user_id', 'x.context'])
    .where('e.message_key', '=', messageKey)
    .orderBy('e.id')
    .execute();
  return rows.map(({ context, ...row }) => ({ ...row, context: JSON.parse(context) as Record<string, string | null> }));
}

function cookieAttrs(setCookies: string[], name: string): string[] {
  const c = setCookies.find((s) => s.startsWith(`${name}=`));
  assert.ok(c, `Set-Cookie ${name}`);
  return c.split(';').map((p) => p.trim());
}

for (const target of dbTargets()) {
  describe(`login page (${target.name})`, () => {
    let t: TestApp;
    let server: FastifyInstance;
    before(async () => {
      t = await createWebTestApp(target);
      server = await buildServer(t.app);
      await makeUser(t.app, 'alice', PASSWORD);
      await makeUser(t.app, 'bob', PASSWORD, 'subscriber');
    });
    after(async () => {
      await server.close();
      await t.close();
    });

    test('GET shows an accessible, English form with a CSRF token and a login-nonce cookie', async () => {
      const c = new WebClient(server);
      const res = await c.get('/cms-login.php');
      assert.equal(res.status, 200);
      assert.match(String(res.headers['content-type']), /^text\/html; charset=utf-8/);
      assertSecurityHeaders(res, 'login page');
      assert.match(String(res.headers['content-security-policy']), /form-action 'self'/);
      assert.match(res.body, /<html lang="en">/);
      assert.match(res.body, /<h1>Log in to <strong>Content Site<\/strong><\/h1>/);
      assert.match(res.body, /<label for="user_login">Username or Email Address<\/label>/);
      assert.match(res.body, /<input type="text" id="user_login" name="log"[^>]*autocomplete="username"/);
      assert.match(res.body, /<label for="user_pass">Password<\/label>/);
      assert.match(res.body, /<input type="password" id="user_pass" name="pwd"[^>]*autocomplete="current-password"/);
      assert.match(res.body, /<link rel="stylesheet" href="\/cms-includes\/web\.css">/);
      assert.equal(csrfOf(res.body).length, 43);
      const attrs = cookieAttrs(res.setCookies, 'cms_login_nonce');
      assert.ok(attrs.includes('HttpOnly') && attrs.includes('SameSite=Lax') && attrs.includes('Path=/'));
      assert.ok(!attrs.includes('Secure'), 'no Secure on an http site');
      // A second visit keeps the nonce (and thus the token).
      const again = await c.get('/cms-login.php');
      assert.equal(again.setCookies.length, 0);
      assert.equal(csrfOf(again.body), csrfOf(res.body));
    });

    test('language from ?lang or Accept-Language', async () => {
      const c = new WebClient(server);
      const de = await c.get('/cms-login.php?lang=de');
      assert.match(de.body, /<html lang="de">/);
      assert.match(de.body, /Benutzername oder E-Mail-Adresse/);
      assert.match(de.body, /action="http:\/\/localhost:8080\/cms-login\.php\?lang=de"/);
      const header = await c.get('/cms-login.php', { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' });
      assert.match(header.body, /<html lang="de">/);
      const wins = await c.get('/cms-login.php?lang=en', { 'accept-language': 'de' });
      assert.match(wins.body, /<html lang="en">/);
      const other = await c.get('/cms-login.php', { 'accept-language': 'fr-FR' });
      assert.match(other.body, /<html lang="en">/);
      assert.match(other.body, /hreflang="de" lang="de">Deutsch<\/a>/);
    });

    test('a good login starts a session: cookie attributes, stored hashed, logged, default redirect', async () => {
      const c = new WebClient(server);
      const res = await logIn(c, 'alice', PASSWORD);
      assert.equal(res.location, 'http://localhost:8080/cms-admin/');
      assertSecurityHeaders(res, 'login redirect');
      const attrs = cookieAttrs(res.setCookies, 'cms_session');
      assert.ok(attrs.includes('HttpOnly'));
      assert.ok(attrs.includes('SameSite=Lax'));
      assert.ok(attrs.includes('Path=/'));
      assert.ok(!attrs.includes('Secure'));
      const value = c.cookies.get('cms_session')!;
      assert.match(value, /^[A-Za-z0-9_-]{43}$/);
      assert.ok(!c.cookies.has('cms_login_nonce'), 'login nonce cleared');
      const rows = await t.app.db.selectFrom('web_sessions').selectAll().execute();
      assert.ok(
        rows.every((r) => r.id_hash !== value),
        'the cookie value itself is not stored',
      );
      assert.ok(rows.some((r) => r.id_hash === crypto.createHash('sha256').update(value).digest('hex')));
      const page = await c.get(res.location!);
      assert.equal(page.status, 200);
      assert.match(page.body, /class="me">[\s\S]*?<span>alice<\/span>/);
      const logged = (await events(t, 'user_logged_in')).filter((e) => e.context.user_login === 'alice');
      assert.ok(logged.length >= 1);
      assert.equal(logged.at(-1)!.logger, 'SimpleUserLogger');
    });

    test('login by e-mail address; every login gets a new session id and ends the previous one', async () => {
      const c = new WebClient(server);
      await logIn(c, 'alice@example.test', PASSWORD);
      const first = c.cookies.get('cms_session')!;
      const stale = new WebClient(server);
      stale.cookies.set('cms_session', first);
      const page = await c.get('/cms-login.php?reauth=1');
      assert.equal(page.status, 200, 'reauth=1 shows the form to a logged-in user');
      assert.equal(
        (await c.post('/cms-login.php', { _csrf: csrfOf(page.body), log: 'alice', pwd: PASSWORD })).status,
        302,
      );
      const second = c.cookies.get('cms_session')!;
      assert.notEqual(first, second);
      const res = await stale.get('/cms-admin/profile.php');
      assert.equal(res.status, 302, 'the replaced session no longer works');
    });

    test('https sites mark the cookies Secure', async () => {
      const secure = await createWebTestApp(target, { SITE_URL: 'https://portal.example.com' });
      const s = await buildServer(secure.app);
      try {
        await makeUser(secure.app, 'carol', PASSWORD);
        const c = new WebClient(s, undefined, 'https://portal.example.com');
        const page = await c.get('/cms-login.php');
        assert.ok(cookieAttrs(page.setCookies, 'cms_login_nonce').includes('Secure'));
        const res = await logIn(c, 'carol', PASSWORD);
        assert.ok(cookieAttrs(res.setCookies, 'cms_session').includes('Secure'));
        assert.equal(res.location, 'https://portal.example.com/cms-admin/');
      } finally {
        await s.close();
        await secure.close();
      }
    });

    test('bad logins fail without a session, are logged without the password', async () => {
      const c = new WebClient(server, '10.0.0.1');
      const page = await c.get('/cms-login.php');
      const wrong = await c.post('/cms-login.php', { _csrf: csrfOf(page.body), log: 'alice', pwd: 'WrongPassw0rd!' });
      assert.equal(wrong.status, 200);
      assert.match(wrong.body, /role="alert"><p>Unknown username or incorrect password\.<\/p>/);
      assert.equal(fieldOf(wrong.body, 'log'), 'alice', 'the login is kept');
      assert.match(wrong.body, /name="pwd" value=""/);
      assert.ok(!wrong.setCookies.some((s) => s.startsWith('cms_session=')));
      const unknown = await c.post('/cms-login.php', {
        _csrf: csrfOf(page.body),
        log: 'nobody<b>',
        pwd: 'Secret-Unknown-1',
      });
      assert.equal(unknown.status, 200);
      assert.match(unknown.body, /Unknown username or incorrect password\./);
      assert.match(unknown.body, /value="nobody&lt;b&gt;"/);
      const empty = await c.post('/cms-login.php', { _csrf: csrfOf(page.body), log: '', pwd: '' });
      assert.match(empty.body, /Please enter your username and password\./);

      const failed = (await events(t, 'user_login_failed')).at(-1)!;
      assert.equal(failed.logger, 'SimpleUserLogger');
      assert.equal(failed.context.login, 'alice');
      assert.equal(failed.initiator, 'web_user');
      const unknownEvent = (await events(t, 'user_unknown_login_failed')).at(-1)!;
      assert.equal(unknownEvent.context.failed_username, 'nobody<b>');
      const allContext = await t.app.db.selectFrom('history_event_contexts').select('context').execute();
      assert.ok(
        !allContext.some((r) => r.context.includes('WrongPassw0rd!') || r.context.includes('Secret-Unknown-1')),
        'no password in the log',
      );
    });

    test('users without an interactive password or disabled users cannot log in', async () => {
      const { createUser } = await import('../../src/auth/users.ts');
      await createUser(t.app, { login: 'apponly', email: 'apponly@example.test', role: 'editor' });
      const dis = await makeUser(t.app, 'disabled1', PASSWORD);
      await setUserStatus(t.app, dis.id, 'disabled');
      const c = new WebClient(server, '10.0.0.2');
      const page = await c.get('/cms-login.php');
      for (const login of ['apponly', 'disabled1']) {
        const res = await c.post('/cms-login.php', { _csrf: csrfOf(page.body), log: login, pwd: PASSWORD });
        assert.equal(res.status, 200, login);
        assert.match(res.body, /Unknown username or incorrect password/);
      }
    });

    test('CSRF: a missing, wrong or foreign token, or no nonce cookie → 403', async () => {
      const c = new WebClient(server, '10.0.0.3');
      const page = await c.get('/cms-login.php');
      const token = csrfOf(page.body);
      const missing = await c.post('/cms-login.php', { log: 'alice', pwd: PASSWORD });
      assert.equal(missing.status, 403);
      assertSecurityHeaders(missing, 'csrf page');
      assert.match(missing.body, /<h1>Security check failed<\/h1>/);
      const wrong = await c.post('/cms-login.php', { _csrf: 'A'.repeat(43), log: 'alice', pwd: PASSWORD });
      assert.equal(wrong.status, 403);
      const other = new WebClient(server, '10.0.0.3');
      const otherPage = await other.get('/cms-login.php');
      const foreign = await c.post('/cms-login.php', { _csrf: csrfOf(otherPage.body), log: 'alice', pwd: PASSWORD });
      assert.equal(foreign.status, 403, "another visitor's token");
      const noCookie = await new WebClient(server, '10.0.0.3').post('/cms-login.php', {
        _csrf: token,
        log: 'alice',
        pwd: PASSWORD,
      });
      assert.equal(noCookie.status, 403, 'token without its cookie');
      assert.ok(
        ![missing, wrong, foreign, noCookie].some((r) => r.setCookies.some((s) => s.startsWith('cms_session='))),
      );
      const de = await c.post('/cms-login.php?lang=de', { log: 'alice', pwd: PASSWORD });
      assert.match(de.body, /Sicherheitsprüfung fehlgeschlagen/);
    });

    test(`throttling: after ${MAX_FAILURES} failures from one address even the right password is refused (429)`, async () => {
      const c = new WebClient(server, '10.9.9.9');
      const token = csrfOf((await c.get('/cms-login.php')).body);
      for (let i = 0; i < MAX_FAILURES; i++) {
        const res = await c.post('/cms-login.php', { _csrf: token, log: 'bob', pwd: `wrong-${i}` });
        assert.equal(res.status, 200);
      }
      const blocked = await c.post('/cms-login.php', { _csrf: token, log: 'bob', pwd: PASSWORD });
      assert.equal(blocked.status, 429);
      assert.match(String(blocked.headers['retry-after']), /^\d+$/);
      assert.match(blocked.body, /Too many failed login attempts\. Please try again in \d+ seconds\./);
      assert.ok(!blocked.setCookies.some((s) => s.startsWith('cms_session=')));
      // Another address is not affected.
      const elsewhere = new WebClient(server, '10.9.9.8');
      await logIn(elsewhere, 'bob', PASSWORD);
    });

    test('redirect_to: same-site targets are followed, off-site ones refused', async () => {
      const c = new WebClient(server, '10.0.0.4');
      const same = await logIn(c, 'alice', PASSWORD, '/cms-admin/authorize-application.php?app_name=X');
      assert.equal(same.location, 'http://localhost:8080/cms-admin/authorize-application.php?app_name=X');
      for (const evil of [
        'https://evil.example/steal',
        '//evil.example/x',
        '/\\evil.example',
        'javascript:alert(1)',
        'http://localhost:8080@evil.example/',
      ]) {
        const d = new WebClient(server, '10.0.0.4');
        const page = await d.get(`/cms-login.php?redirect_to=${encodeURIComponent(evil)}`);
        assert.equal(fieldOf(page.body, 'redirect_to'), '', `not carried: ${evil}`);
        const res = await d.post('/cms-login.php', {
          _csrf: csrfOf(page.body),
          log: 'alice',
          pwd: PASSWORD,
          redirect_to: evil,
        });
        assert.equal(res.status, 302);
        assert.equal(res.location, 'http://localhost:8080/cms-admin/', evil);
      }
      // Already logged in: the login page forwards at once (same-site only).
      assert.equal(
        (await c.get('/cms-login.php?redirect_to=%2Fcms-admin%2Fapplication-passwords.php%3Flang%3Dde')).location,
        'http://localhost:8080/cms-admin/application-passwords.php?lang=de',
      );
      assert.equal(
        (await c.get('/cms-login.php?redirect_to=https%3A%2F%2Fevil.example%2F')).location,
        'http://localhost:8080/cms-admin/',
      );
    });

    test('logout: POST with CSRF ends the session; without it → 403', async () => {
      const c = new WebClient(server, '10.0.0.5');
      await logIn(c, 'alice', PASSWORD);
      const page = await c.get('/cms-admin/profile.php');
      const logoutForm =
        /<form method="post" action="([^"]+)"[^>]*>\s*<input type="hidden" name="_csrf" value="([^"]+)">\s*<button type="submit" class="button-link">Log Out/.exec(
          page.body,
        );
      assert.ok(logoutForm, 'logout form in the header');
      const action = logoutForm[1]!.replace(/&amp;/g, '&');
      const forged = await c.post(action, {});
      assert.equal(forged.status, 403);
      const wrong = await c.post(action, { _csrf: 'x'.repeat(43) });
      assert.equal(wrong.status, 403);
      assert.equal((await c.get('/cms-admin/profile.php')).status, 200, 'still logged in');
      const cookieValue = c.cookies.get('cms_session')!;
      const res = await c.post(action, { _csrf: logoutForm[2]! });
      assert.equal(res.status, 303);
      assert.equal(res.location, 'http://localhost:8080/cms-login.php?loggedout=true&lang=en');
      assert.ok(cookieAttrs(res.setCookies, 'cms_session').includes('Max-Age=0'));
      const replay = new WebClient(server);
      replay.cookies.set('cms_session', cookieValue);
      assert.equal((await replay.get('/cms-admin/profile.php')).status, 302, 'the old cookie is dead');
      const done = await c.get(res.location!);
      assert.match(done.body, /You are now logged out\./);
      assert.ok((await events(t, 'user_logged_out')).length >= 1);
      // Logging out without a session just goes to the login page.
      const again = await new WebClient(server).post(action, {});
      assert.equal(again.status, 303);
    });

    test('sessions live in the database: another process accepts them; expired ones are refused', async () => {
      const c = new WebClient(server, '10.0.0.6');
      await logIn(c, 'alice', PASSWORD);
      const other = await openApp(t.config, { pgSchema: t.pgSchema, logger: pino({ level: 'silent' }) });
      const otherServer = await buildServer(other);
      try {
        const res = await new WebClient(otherServer).get('/cms-admin/profile.php', { cookie: c.cookieHeader()! });
        assert.equal(res.status, 200);
        assert.match(res.body, /class="me">[\s\S]*?<span>alice<\/span>/);
        // The CSRF key is shared too: a token from one process is accepted by the other.
        const token = csrfOf((await c.get('/cms-admin/profile.php')).body);
        assert.equal(csrfOf(res.body), token);
      } finally {
        await otherServer.close();
        await other.close();
      }
      await t.app.db.updateTable('web_sessions').set({ expires_at: '2000-01-01 00:00:00' }).execute();
      const expiredHash = crypto.createHash('sha256').update(c.cookies.get('cms_session')!).digest('hex');
      const expired = await c.get('/cms-admin/profile.php');
      assert.equal(expired.status, 302);
      assert.ok(cookieAttrs(expired.setCookies, 'cms_session').includes('Max-Age=0'), 'the dead cookie is dropped');
      assert.equal(
        (await t.app.db.selectFrom('web_sessions').select('id_hash').where('id_hash', '=', expiredHash).execute())
          .length,
        0,
        'an expired row is deleted when seen',
      );
      assert.match(expired.location!, /\/cms-login\.php\?redirect_to=/);
      assert.equal(pathOf(expired.location!).startsWith('/cms-login.php'), true);
    });

    test('a disabled user loses their session', async () => {
      const u = await makeUser(t.app, 'dave', PASSWORD);
      const c = new WebClient(server, '10.0.0.7');
      await logIn(c, 'dave', PASSWORD);
      await setUserStatus(t.app, u.id, 'disabled');
      assert.equal((await c.get('/cms-admin/profile.php')).status, 302);
    });

    test('an unexpected failure is a 500 HTML page with the security headers, no details', async () => {
      const broken = await createWebTestApp(target);
      const s = await buildServer(broken.app);
      try {
        await sql`DROP TABLE web_sessions`.execute(broken.app.db);
        const c = new WebClient(s);
        c.cookies.set('cms_session', 'A'.repeat(43));
        const res = await c.get('/cms-login.php?lang=de');
        assert.equal(res.status, 500);
        assertSecurityHeaders(res, '500 page');
        assert.match(res.body, /<html lang="de">/);
        assert.doesNotMatch(res.body, /web_sessions|at |Error:/);
      } finally {
        await s.close();
        await broken.close();
      }
    });

    test('the style sheet is served', async () => {
      const res = await new WebClient(server).get('/cms-includes/web.css');
      assert.equal(res.status, 200);
      assert.match(String(res.headers['content-type']), /^text\/css/);
      assert.match(res.body, /:focus-visible/);
      assert.match(res.body, /@media \(max-width: 40rem\)/);
    });
  });
}
