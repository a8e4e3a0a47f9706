// Security headers of every kind of HTML page the server answers with, and the attributes of
// every cookie it sets: a Content-Security-Policy with default-src 'none', base-uri and
// frame-ancestors (only the oEmbed embed view may be framed by other sites, by design) and
// without unsafe script sources; X-Content-Type-Options nosniff; a Referrer-Policy; framing
// refused by X-Frame-Options too where the CSP does; cookies HttpOnly and SameSite.
// The page-specific values are tested with each page (test/web, test/pages); this test
// makes sure no HTML page kind goes without them.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildServer } from '../../src/server/http.ts';
import { createUser } from '../../src/auth/users.ts';
import { seedDemo } from '../../src/cli/seed.ts';
import { createTestApp, type TestApp } from '../support/db.ts';
import { userWithRole } from '../support/http.ts';
import { WebClient, csrfOf, logIn, type WebResponse } from '../web/support.ts';

let t: TestApp;
let server: FastifyInstance;
let admin: string;

before(async () => {
  t = await createTestApp({ name: 'sqlite' });
  server = await buildServer(t.app);
  await seedDemo(t.app);
  admin = (await userWithRole(t.app, 'administrator')).authorization;
  await createUser(t.app, {
    login: 'hdr',
    email: 'hdr@example.test',
    role: 'administrator',
    password: 'header test password',
  });
});
after(async () => {
  await server.close();
  await t.close();
});

type Headers = LightMyRequestResponse['headers'] | WebResponse['headers'];

function assertHtmlSecurityHeaders(headers: Headers, what: string, opts: { embeddable?: boolean } = {}): void {
  assert.match(String(headers['content-type']), /^text\/html/i, `${what}: an HTML page`);
  const csp = String(headers['content-security-policy'] ?? '');
  assert.match(csp, /(^|;\s*)default-src 'none'/, `${what}: CSP default-src 'none' (${csp})`);
  assert.match(csp, /(^|;\s*)base-uri 'none'/, `${what}: CSP base-uri`);
  const frameAncestors = /frame-ancestors ([^;]+)/.exec(csp)?.[1]?.trim();
  assert.ok(frameAncestors, `${what}: CSP frame-ancestors`);
  if (opts.embeddable) assert.equal(frameAncestors, '*', `${what}: the embed view is embeddable`);
  else {
    assert.match(frameAncestors, /^'(none|self)'$/, `${what}: framing by other sites refused`);
    assert.match(String(headers['x-frame-options'] ?? ''), /^(DENY|SAMEORIGIN)$/, `${what}: X-Frame-Options`);
  }
  const scripts = /script-src ([^;]+)/.exec(csp)?.[1] ?? '';
  assert.doesNotMatch(
    scripts,
    /unsafe-inline|unsafe-eval|\*|https?:|data:/,
    `${what}: script-src allows only hashed scripts (${scripts})`,
  );
  assert.equal(headers['x-content-type-options'], 'nosniff', `${what}: nosniff`);
  assert.match(
    String(headers['referrer-policy'] ?? ''),
    /^(no-referrer|strict-origin-when-cross-origin|same-origin)$/,
    `${what}: Referrer-Policy`,
  );
}

function assertCookies(setCookies: string[], what: string): void {
  for (const cookie of setCookies) {
    const attrs = cookie.split(';').map((a) => a.trim().toLowerCase());
    assert.ok(attrs.includes('httponly'), `${what}: cookie ${cookie} is HttpOnly`);
    assert.ok(
      attrs.some((a) => /^samesite=(lax|strict)$/.test(a)),
      `${what}: cookie ${cookie} has SameSite`,
    );
    assert.ok(
      attrs.some((a) => a.startsWith('path=')),
      `${what}: cookie ${cookie} has a Path`,
    );
  }
}

test('public pages: front page, page, posts page, post, author archive, redirects, 404', async () => {
  const paths = [
    '/en/',
    '/de/',
    '/en/about/',
    '/en/about',
    '/en/news/',
    '/en/?p=1',
    '/en/nope/',
    '/nope',
    '/xx/',
    '/en/author/admin/',
  ];
  const kinds = new Set<number>();
  for (const path of paths) {
    const res = await server.inject({ method: 'GET', url: path });
    if (res.statusCode === 302 || !String(res.headers['content-type'] ?? '').startsWith('text/html')) continue;
    kinds.add(res.statusCode);
    assertHtmlSecurityHeaders(res.headers, `GET ${path} (${res.statusCode})`);
  }
  assert.deepEqual([...kinds].sort(), [200, 301, 404], 'pages, redirects and the 404 page were all seen');
  // Any published post of the demo content.
  const list = await server.inject({ method: 'GET', url: '/en/news/' });
  const post = /<h2><a href="http:\/\/localhost:8080(\/en\/[^"]+)">/.exec(list.body)?.[1];
  if (post) assertHtmlSecurityHeaders((await server.inject({ method: 'GET', url: post })).headers, `GET ${post}`);
});

test('the oEmbed embed view may be framed by any site, and is otherwise locked down', async () => {
  const res = await server.inject({ method: 'GET', url: '/en/about/embed/' });
  assert.equal(res.statusCode, 200);
  assertHtmlSecurityHeaders(res.headers, 'embed view', { embeddable: true });
  assert.match(String(res.headers['content-security-policy']), /script-src 'sha256-[^']+'/);
});

test('HTML from the REST API: the email report preview', async () => {
  const res = await server.inject({
    method: 'GET',
    url: '/en/cms-json/history/v1/email-report/preview/html',
    headers: { authorization: admin },
  });
  assert.equal(res.statusCode, 200);
  assertHtmlSecurityHeaders(res.headers, 'email report preview');
});

test('the API reference pages', async () => {
  for (const path of ['/cms-api/en/', '/cms-api/de/']) {
    const res = await server.inject({ method: 'GET', url: path });
    assert.equal(res.statusCode, 200);
    assertHtmlSecurityHeaders(res.headers, `GET ${path}`);
  }
});

test('web pages: login (form, failure, throttled), authorize, created, list, CSRF error; their cookies', async () => {
  const c = new WebClient(server, '10.20.30.40');
  const seen: [string, WebResponse][] = [];
  const login = await c.get('/cms-login.php');
  seen.push(['login form', login]);
  seen.push(['failed login', await c.post('/cms-login.php', { _csrf: csrfOf(login.body), log: 'hdr', pwd: 'wrong' })]);
  seen.push(['CSRF error', await c.post('/cms-login.php', { _csrf: 'forged', log: 'hdr', pwd: 'wrong' })]);
  const ok = await logIn(c, 'hdr', 'header test password');
  assertCookies(ok.setCookies, 'login');
  assert.ok(
    ok.setCookies.some((x) => x.startsWith('cms_session=')),
    'the session cookie is set',
  );
  const authorize = await c.get('/cms-admin/authorize-application.php?app_name=Headers');
  seen.push(['authorize', authorize]);
  seen.push([
    'authorize, bad request',
    await c.get('/cms-admin/authorize-application.php?success_url=javascript%3Aalert(1)'),
  ]);
  seen.push([
    'password created',
    await c.post('/cms-admin/authorize-application.php', {
      _csrf: csrfOf(authorize.body),
      action: 'approve',
      app_name: 'Headers',
    }),
  ]);
  seen.push(['profile with application passwords', await c.get('/cms-admin/profile.php')]);
  const throttled = new WebClient(server, '10.20.30.41');
  const form = await throttled.get('/cms-login.php');
  let last: WebResponse = form;
  for (let i = 0; i < 12 && last.status !== 429; i++)
    last = await throttled.post('/cms-login.php', { _csrf: csrfOf(form.body), log: 'hdr', pwd: `wrong ${i}` });
  assert.equal(last.status, 429);
  assert.ok(Number(last.headers['retry-after']) > 0);
  seen.push(['throttled login', last]);
  for (const [what, res] of seen) {
    assert.ok(res.status < 500, `${what}: ${res.status}`);
    assertHtmlSecurityHeaders(res.headers, `${what} (${res.status})`);
    assertCookies(res.setCookies, what);
  }
  // Redirects of the web pages carry the headers too (they may have a body in some clients).
  const out = await c.post('/cms-login.php?action=logout', {
    _csrf: csrfOf((await c.get('/cms-admin/profile.php')).body),
  });
  assert.equal(out.status, 303);
  assert.equal(out.headers['x-content-type-options'], 'nosniff');
  assertCookies(out.setCookies, 'logout');
});
