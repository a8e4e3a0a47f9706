// The authorize-application page (reference rest-core §6.5): login requirement, parameter
// validation, approve, reject, CSRF, escaping, headers, and the created password working
// against the REST API (its list is the console's profile, test/console). Every database target.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { listAppPasswords } from '../../src/auth/app-passwords.ts';
import { authenticateRequest } from '../../src/auth/authenticate.ts';
import { buildServer } from '../../src/server/http.ts';
import { dbTargets, type TestApp } from '../support/db.ts';
import { basicAuth } from '../support/http.ts';
import {
  WebClient,
  assertSecurityHeaders,
  csrfOf,
  decodeEntities,
  fieldOf,
  logIn,
  makeUser,
  type WebResponse,
  createWebTestApp,
} from './support.ts';

const PASSWORD = 'a long interactive password';
const AUTHORIZE = '/cms-admin/authorize-application.php';
// The application passwords are listed in the console's profile.
const LIST = '/cms-admin/profile.php';
const APP_ID = '7d0b1c2e-5a3f-4b6c-8d9e-0f1a2b3c4d5e';
const XSS_NAME = `"><script>alert('x')</script><img src=x onerror=alert(1)>`;

function q(params: Record<string, string>): string {
  return new URLSearchParams(params).toString();
}

/** Fields of the authorize form as the page rendered them. */
function formOf(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ['_csrf', 'app_name', 'app_id', 'success_url', 'reject_url'])
    out[name] = decodeEntities(fieldOf(html, name) ?? '');
  return out;
}

async function restStatus(server: FastifyInstance, path: string, authorization: string): Promise<number> {
  return (await server.inject({ method: 'GET', url: path, headers: { authorization } })).statusCode;
}

function assertNoMarkupInjection(res: WebResponse): void {
  assert.doesNotMatch(
    res.body,
    /<script(?! type="module" src="\/cms-admin\/assets\/)/i,
    'no script element but the console’s own',
  );
  assert.doesNotMatch(res.body, /<img/i, 'no injected img');
  assert.doesNotMatch(res.body, /onerror=alert\(1\)>/, 'no live attribute');
}

for (const target of dbTargets()) {
  describe(`authorize application (${target.name})`, () => {
    let t: TestApp;
    let server: FastifyInstance;
    let c: WebClient;
    before(async () => {
      t = await createWebTestApp(target);
      server = await buildServer(t.app);
      await makeUser(t.app, 'alice', PASSWORD);
      c = new WebClient(server);
      await logIn(c, 'alice', PASSWORD);
    });
    after(async () => {
      await server.close();
      await t.close();
    });

    test('requires login: redirect to the login page with redirect_to back', async () => {
      const anon = new WebClient(server);
      const url = `${AUTHORIZE}?${q({ app_name: 'My App', success_url: 'https://app.example/cb' })}`;
      const res = await anon.get(url);
      assert.equal(res.status, 302);
      assertSecurityHeaders(res, 'redirect');
      const loc = new URL(res.location!);
      assert.equal(loc.pathname, '/cms-login.php');
      assert.equal(loc.searchParams.get('redirect_to'), `http://localhost:8080${url}`);
      const back = await logIn(anon, 'alice', PASSWORD, loc.searchParams.get('redirect_to')!);
      assert.equal(back.location, `http://localhost:8080${url}`);
      const page = await anon.get(back.location!);
      assert.equal(page.status, 200);
      // A form post without a session goes to the login page too (303, back to the GET form).
      const post = await new WebClient(server).post(AUTHORIZE, { app_name: 'My App', action: 'approve' });
      assert.equal(post.status, 303);
      assert.match(post.location!, /^http:\/\/localhost:8080\/cms-login\.php\?redirect_to=/);
    });

    test('the page: app name, acting user, approve/reject with their destinations, headers', async () => {
      const res = await c.get(
        `${AUTHORIZE}?${q({ app_name: 'My App', app_id: APP_ID, success_url: 'https://app.example/cb?state=s1', reject_url: 'https://app.example/no' })}`,
      );
      assert.equal(res.status, 200);
      assertSecurityHeaders(res, 'authorize page');
      assert.doesNotMatch(
        String(res.headers['content-security-policy']),
        /form-action/,
        'the post redirects to the app',
      );
      assert.match(res.body, /<title>Authorize Application ‹ Content Site<\/title>/);
      assert.match(res.body, /<h2>An application would like to connect to your account\.<\/h2>/);
      assert.match(res.body, /the application called <strong>My App<\/strong> access/);
      assert.match(res.body, /act as <strong>alice<\/strong>/);
      assert.match(res.body, /<label for="app_name">New Application Password Name<\/label>/);
      assert.deepEqual(formOf(res.body), {
        _csrf: csrfOf(res.body),
        app_name: 'My App',
        app_id: APP_ID,
        success_url: 'https://app.example/cb?state=s1',
        reject_url: 'https://app.example/no',
      });
      assert.match(res.body, /name="action" value="approve"[^>]*>Yes, I approve of this connection</);
      assert.match(res.body, /name="action" value="reject"[^>]*>No, I do not approve of this connection</);
      assert.match(
        res.body,
        /https:\/\/app\.example\/cb\?state=s1&amp;site_url=http%3A%2F%2Flocalhost%3A8080&amp;user_login=alice&amp;password=\[------\]/,
      );
      assert.match(res.body, /https:\/\/app\.example\/no\?success=false/);
      const plain = await c.get(`${AUTHORIZE}?${q({ app_name: 'Desk' })}`);
      assert.match(plain.body, /You will be given a password to manually enter into the application in question\./);
      assert.match(plain.body, /You will be returned to your list of application passwords\./);
      const de = await c.get(`${AUTHORIZE}?${q({ app_name: 'Desk', lang: 'de' })}`);
      assert.match(de.body, /<html lang="de">/);
      assert.match(de.body, /Ja, ich stimme dieser Verbindung zu/);
      const onlyId = await c.get(`${AUTHORIZE}?${q({ app_id: APP_ID })}`);
      assert.equal(onlyId.status, 200, 'app_name may be missing when app_id is given');
      assert.match(onlyId.body, /Would you like to give this application access/);
    });

    test('invalid parameters: HTTP 400 page listing every problem, escaped, no redirect', async () => {
      const cases: [Record<string, string>, RegExp[]][] = [
        [{}, [/<code>app_name<\/code>: An application name is required/]],
        [{ app_name: 'A', app_id: 'not-a-uuid' }, [/<code>app_id<\/code>: The application ID must be a UUID\./]],
        [{ app_name: 'A', app_id: APP_ID.toUpperCase() }, [/The application ID must be a UUID\./]],
        [{ app_name: 'A', success_url: 'app.example/cb' }, [/<code>success_url<\/code>: Invalid URL format\./]],
        [{ app_name: 'A', success_url: 'https:///cb' }, [/<code>success_url<\/code>: Invalid URL format\./]],
        [{ app_name: 'A', success_url: 'myapp:cb' }, [/<code>success_url<\/code>: Invalid URL format\./]],
        [
          { app_name: 'A', success_url: 'javascript://x/%0aalert(1)' },
          [/<code>success_url<\/code>: Invalid URL format\./],
        ],
        [
          { app_name: 'A', reject_url: 'data://text/html,<script>alert(1)</script>' },
          [/<code>reject_url<\/code>: Invalid URL format\./],
        ],
        [
          { app_id: 'X', success_url: '<script>alert(1)</script>', reject_url: 'javascript:alert(1)' },
          [
            /<code>app_id<\/code>/,
            /<code>success_url<\/code>: Invalid URL format\./,
            /<code>reject_url<\/code>: Invalid URL format\./,
            /&lt;script&gt;alert\(1\)&lt;\/script&gt;/,
          ],
        ],
      ];
      for (const [params, patterns] of cases) {
        const res = await c.get(`${AUTHORIZE}?${q(params)}`);
        assert.equal(res.status, 400, JSON.stringify(params));
        assert.equal(res.location, undefined);
        assertSecurityHeaders(res, 'error page');
        assert.match(res.body, /<h1>The Authorize Application request is not allowed\.<\/h1>/);
        for (const p of patterns) assert.match(res.body, p, JSON.stringify(params));
        assert.doesNotMatch(res.body, /<script>/);
        assert.doesNotMatch(res.body, /name="action"/, 'no approve form');
      }
      const de = await c.get(`${AUTHORIZE}?${q({ app_name: 'A', success_url: 'nope', lang: 'de' })}`);
      assert.match(de.body, /Ungültiges URL-Format\./);
      assert.match(
        de.body,
        /href="http:\/\/localhost:8080\/cms-admin\/authorize-application\.php\?app_name=A&amp;success_url=nope&amp;lang=en" hreflang="en"/,
        'language links keep the parameters',
      );
      const arr = await c.get(`${AUTHORIZE}?app_name[]=a&success_url[x]=b`);
      assert.equal(arr.status, 400);
      assert.match(arr.body, /<code>app_name<\/code>: The parameter must be given once, as text\./);
    });

    test('plain http redirect URLs only on a local site; custom schemes with a host are fine', async () => {
      const local = await c.get(
        `${AUTHORIZE}?${q({ app_name: 'A', success_url: 'http://127.0.0.1:9/cb', reject_url: 'myapp://callback/no' })}`,
      );
      assert.equal(local.status, 200, 'localhost site: http allowed');
      const pub = await createWebTestApp(target, { SITE_URL: 'https://portal.example.com' });
      const s = await buildServer(pub.app);
      try {
        await makeUser(pub.app, 'erin', PASSWORD);
        const e = new WebClient(s, undefined, 'https://portal.example.com');
        await logIn(e, 'erin', PASSWORD);
        const refused = await e.get(
          `${AUTHORIZE}?${q({ app_name: 'A', success_url: 'http://app.example/cb', reject_url: 'https://app.example/no' })}`,
        );
        assert.equal(refused.status, 400);
        assert.match(refused.body, /<code>success_url<\/code>: The URL must be served over a secure connection\./);
        assert.doesNotMatch(refused.body, /<code>reject_url<\/code>/);
        const ok = await e.get(
          `${AUTHORIZE}?${q({ app_name: 'A', success_url: 'com.example.app://auth', reject_url: 'https://app.example/no' })}`,
        );
        assert.equal(ok.status, 200);
      } finally {
        await s.close();
        await pub.close();
      }
    });

    test('approve → 302 to success_url with site_url, user_login, password; the password works', async () => {
      const page = await c.get(
        `${AUTHORIZE}?${q({ app_name: 'Phone App', app_id: APP_ID, success_url: 'https://app.example/cb?state=abc#frag' })}`,
      );
      const res = await c.post(`${AUTHORIZE}?lang=en`, { ...formOf(page.body), action: 'approve' });
      assert.equal(res.status, 302);
      assertSecurityHeaders(res, 'approve redirect');
      const loc = res.location!;
      assert.match(
        loc,
        /^https:\/\/app\.example\/cb\?state=abc&site_url=http%3A%2F%2Flocalhost%3A8080&user_login=alice&password=[A-Za-z0-9]{24}#frag$/,
      );
      const password = new URL(loc).searchParams.get('password')!;
      assert.equal(new URL(loc).searchParams.get('site_url'), 'http://localhost:8080');
      // The password works against the REST API, also for a logged-in-only route.
      const auth = basicAuth('alice', password);
      assert.equal(await restStatus(server, '/en/cms-json/', auth), 200);
      const events = await restStatus(server, '/en/cms-json/history/v1/events', auth);
      assert.notEqual(events, 401);
      assert.equal(events, 200);
      const who = await authenticateRequest(t.app, auth, '127.0.0.1');
      assert.equal(who?.user.login, 'alice');
      assert.equal(
        await restStatus(
          server,
          '/en/cms-json/',
          basicAuth('alice', password.slice(0, 23) + (password[23] === 'a' ? 'b' : 'a')),
        ),
        401,
      );
      // Stored with its name and app id; the creation is in the activity log.
      const items = await listAppPasswords(
        t.app,
        (await t.app.db.selectFrom('users').select('id').where('login', '=', 'alice').executeTakeFirstOrThrow()).id,
      );
      const item = items.find((i) => i.name === 'Phone App')!;
      assert.equal(item.app_id, APP_ID);
      const logged = await t.app.db
        .selectFrom('history_events')
        .select(['logger', 'message_key'])
        .where('message_key', '=', 'user_application_password_created')
        .execute();
      assert.ok(logged.some((e) => e.logger === 'SimpleUserLogger'));
    });

    test('approve without success_url shows the password once, chunked, with instructions', async () => {
      const page = await c.get(`${AUTHORIZE}?${q({ app_name: 'Desktop Client' })}`);
      const res = await c.post(`${AUTHORIZE}?lang=en`, { ...formOf(page.body), action: 'approve' });
      assert.equal(res.status, 200);
      assertSecurityHeaders(res, 'password page');
      assert.match(String(res.headers['cache-control']), /no-store/);
      const m = /id="new_password" class="password-field" value="((?:[A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4})"/.exec(
        res.body,
      );
      assert.ok(m, 'chunked password shown');
      assert.match(res.body, /Your new password for <strong>Desktop Client<\/strong> is:/);
      assert.match(res.body, /Be sure to save this in a safe location\. You will not be able to retrieve it\./);
      assert.match(res.body, /copy it \(Ctrl\+C/);
      assert.equal(
        await restStatus(server, '/en/cms-json/history/v1/events', basicAuth('alice', m[1]!)),
        200,
        'chunked form works',
      );
      assert.equal(
        await restStatus(server, '/en/cms-json/', basicAuth('alice', m[1]!.replace(/ /g, ''))),
        200,
        'raw form works',
      );
      const list = await c.get(LIST);
      assert.ok(!list.body.includes(m[1]!) && !list.body.includes(m[1]!.replace(/ /g, '')), 'never shown again');
      assert.match(list.body, /Desktop Client/);
    });

    test('reject → reject_url (or success_url) with success=false, or back to the list; nothing created', async () => {
      const count = async () => (await t.app.db.selectFrom('app_passwords').select('uuid').execute()).length;
      const before = await count();
      const page = await c.get(
        `${AUTHORIZE}?${q({ app_name: 'Nope', success_url: 'https://app.example/cb', reject_url: 'https://app.example/rejected?x=1' })}`,
      );
      const withReject = await c.post(AUTHORIZE, { ...formOf(page.body), action: 'reject' });
      assert.equal(withReject.status, 302);
      assert.equal(withReject.location, 'https://app.example/rejected?x=1&success=false');
      const onlySuccess = await c.post(AUTHORIZE, { ...formOf(page.body), reject_url: '', action: 'reject' });
      assert.equal(onlySuccess.location, 'https://app.example/cb?success=false');
      const custom = await c.post(AUTHORIZE, {
        ...formOf(page.body),
        success_url: '',
        reject_url: 'myapp://callback',
        action: 'reject',
      });
      assert.equal(custom.location, 'myapp://callback?success=false');
      const neither = await c.post(AUTHORIZE, {
        ...formOf(page.body),
        success_url: '',
        reject_url: '',
        action: 'reject',
      });
      assert.equal(neither.location, 'http://localhost:8080/cms-admin/profile.php?rejected=1');
      assert.match(
        (await c.get(neither.location!)).body,
        /You did not approve the connection; no application password was created\./,
      );
      // Rejecting needs no name.
      const noName = await c.post(AUTHORIZE, { ...formOf(page.body), app_name: '', action: 'reject' });
      assert.equal(noName.status, 302);
      assert.equal(await count(), before);
    });

    test('CSRF: missing, wrong or foreign token → 403, nothing created', async () => {
      const count = async () => (await t.app.db.selectFrom('app_passwords').select('uuid').execute()).length;
      const before = await count();
      const page = await c.get(`${AUTHORIZE}?${q({ app_name: 'Forged', success_url: 'https://app.example/cb' })}`);
      const form = formOf(page.body);
      const { _csrf: _omit, ...withoutToken } = form;
      const missing = await c.post(AUTHORIZE, { ...withoutToken, action: 'approve' });
      assert.equal(missing.status, 403);
      assert.match(missing.body, /Security check failed/);
      assert.equal(missing.location, undefined);
      const wrong = await c.post(AUTHORIZE, {
        ...form,
        _csrf: form._csrf.slice(0, -1) + (form._csrf.endsWith('A') ? 'B' : 'A'),
        action: 'approve',
      });
      assert.equal(wrong.status, 403);
      const other = new WebClient(server);
      await logIn(other, 'alice', PASSWORD);
      const foreignToken = csrfOf((await other.get(LIST)).body);
      const foreign = await c.post(AUTHORIZE, { ...form, _csrf: foreignToken, action: 'approve' });
      assert.equal(foreign.status, 403, "another session's token");
      const rejectForged = await c.post(AUTHORIZE, { ...withoutToken, action: 'reject' });
      assert.equal(rejectForged.status, 403);
      assert.equal(await count(), before);
    });

    test('tampered posts: invalid URLs → 400 page; empty name → form again with an error; unknown action → 400', async () => {
      const page = await c.get(`${AUTHORIZE}?${q({ app_name: 'Good', success_url: 'https://app.example/cb' })}`);
      const form = formOf(page.body);
      const bad = await c.post(AUTHORIZE, { ...form, success_url: 'javascript:alert(1)', action: 'approve' });
      assert.equal(bad.status, 400);
      assert.equal(bad.location, undefined);
      assert.match(bad.body, /Invalid URL format\./);
      const empty = await c.post(AUTHORIZE, { ...form, app_name: '   ', action: 'approve' });
      assert.equal(empty.status, 400);
      assert.match(
        empty.body,
        /role="alert"><p>An application name is required to create an application password\.<\/p>/,
      );
      assert.match(empty.body, /name="action" value="approve"/, 'the form is shown again');
      const unknown = await c.post(AUTHORIZE, { ...form, action: 'maybe' });
      assert.equal(unknown.status, 400);
    });

    test('approving a name the user already has: 409, the form again with WordPress’s message, nothing created', async () => {
      const count = async () => (await t.app.db.selectFrom('app_passwords').select('uuid').execute()).length;
      const page = await c.get(`${AUTHORIZE}?${q({ app_name: 'Test', success_url: 'https://app.example/cb' })}`);
      assert.equal((await c.post(AUTHORIZE, { ...formOf(page.body), action: 'approve' })).status, 302);
      const before = await count();
      const again = await c.post(`${AUTHORIZE}?lang=en`, { ...formOf(page.body), action: 'approve' });
      assert.equal(again.status, 409);
      assert.equal(again.location, undefined);
      assert.match(again.body, /role="alert"><p>Each application name should be unique\.<\/p>/);
      assert.match(again.body, /name="action" value="approve"/, 'the form is shown again');
      const german = await c.post(`${AUTHORIZE}?lang=de`, { ...formOf(page.body), action: 'approve' });
      assert.equal(german.status, 409);
      assert.match(german.body, /Jeder Anwendungsname sollte eindeutig sein\./);
      assert.equal(await count(), before);
    });

    test('XSS payloads in every parameter render as text', async () => {
      const res = await c.get(
        `${AUTHORIZE}?${q({ app_name: XSS_NAME, success_url: `https://app.example/cb?x="><script>alert(1)</script>`, reject_url: `myapp://cb/'onmouseover='alert(1)` })}`,
      );
      assert.equal(res.status, 200);
      assertNoMarkupInjection(res);
      assert.match(res.body, /&lt;script&gt;alert\(&#039;x&#039;\)&lt;\/script&gt;/);
      assert.equal(formOf(res.body).app_name, XSS_NAME, 'round-trips exactly through the escaped attribute');
      assert.equal(formOf(res.body).reject_url, `myapp://cb/'onmouseover='alert(1)`);
      // Approving it: the name is stored (tags stripped by the auth code) and shown escaped.
      const created = await c.post(AUTHORIZE, { ...formOf(res.body), success_url: '', action: 'approve' });
      assert.equal(created.status, 200);
      assertNoMarkupInjection(created);
      const list = await c.get(LIST);
      assertNoMarkupInjection(list);
      const err = await c.get(`${AUTHORIZE}?${q({ app_name: XSS_NAME, success_url: `<img src=x onerror=alert(1)>` })}`);
      assert.equal(err.status, 400);
      assertNoMarkupInjection(err);
      assert.match(err.body, /&lt;img src=x onerror=alert\(1\)&gt;/);
    });
  });
}
