// The login works at whatever address the server is reached by: the form is shown at the site's
// own address (SITE_URL) — where its cookies and its `form-action 'self'` policy belong — and
// any other address of the server redirects there first.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.ts';
import { createUser } from '../../src/auth/users.ts';
import { buildServer } from '../../src/server/http.ts';
import { startServer } from '../../src/server/start.ts';
import { pino } from 'pino';
import { createTestApp, type TestApp } from '../support/db.ts';
import { freePort } from '../reliability/child-server.ts';

describe('the login form is shown at the site address only', () => {
  let t: TestApp;
  let server: FastifyInstance;
  let proxied: TestApp;
  let proxiedServer: FastifyInstance;
  before(async () => {
    t = await createTestApp({ name: 'sqlite' }); // SITE_URL http://localhost:8080
    server = await buildServer(t.app);
    proxied = await createTestApp({ name: 'sqlite' }, { SITE_URL: 'https://portal.example.com' });
    proxiedServer = await buildServer(proxied.app);
  });
  after(async () => {
    await server.close();
    await proxiedServer.close();
    await t.close();
    await proxied.close();
  });

  test('another address of the server (127.0.0.1 for localhost) redirects to the same page at the site address', async () => {
    const res = await server.inject({
      method: 'GET',
      url: '/cms-login.php?redirect_to=%2Fcms-admin%2Fapplication-passwords.php&lang=de',
      headers: { host: '127.0.0.1:8080' },
    });
    assert.equal(res.statusCode, 302);
    assert.equal(
      res.headers.location,
      'http://localhost:8080/cms-login.php?redirect_to=%2Fcms-admin%2Fapplication-passwords.php&lang=de',
    );
    assert.equal(
      (await server.inject({ method: 'GET', url: '/cms-login.php', headers: { host: 'localhost:9999' } })).statusCode,
      302,
      'another port',
    );
  });

  test('at the site address: the form, posting to that address', async () => {
    const res = await server.inject({ method: 'GET', url: '/cms-login.php', headers: { host: 'localhost:8080' } });
    assert.equal(res.statusCode, 200);
    assert.match(res.body, /<form [^>]*action="http:\/\/localhost:8080\/cms-login\.php\?lang=en"/);
  });

  test('behind a reverse proxy: the Host it passes on, or X-Forwarded-Host; default ports count as none', async () => {
    for (const headers of [
      { host: 'portal.example.com' },
      { host: 'portal.example.com:443' },
      { host: '127.0.0.1:8081', 'x-forwarded-host': 'portal.example.com' },
    ]) {
      assert.equal(
        (await proxiedServer.inject({ method: 'GET', url: '/cms-login.php', headers })).statusCode,
        200,
        JSON.stringify(headers),
      );
    }
    const direct = await proxiedServer.inject({
      method: 'GET',
      url: '/cms-login.php',
      headers: { host: '127.0.0.1:8081' },
    });
    assert.equal(direct.statusCode, 302);
    assert.equal(direct.headers.location, 'https://portal.example.com/cms-login.php');
  });
});

test('end to end: from the address the server listens on to a logged-in session (no SITE_URL set)', async () => {
  const t = await createTestApp({ name: 'sqlite' });
  await createUser(t.app, {
    login: 'olga',
    email: 'olga@example.test',
    role: 'administrator',
    password: 'Operator-Login-1',
  });
  const port = await freePort();
  const running = await startServer(
    loadConfig({ DATABASE_URL: t.databaseUrl, DATA_DIR: t.config.dataDir, PORT: String(port), HOST: '127.0.0.1' }),
    { logger: pino({ level: 'silent' }) },
  );
  try {
    assert.equal(running.address, `http://127.0.0.1:${port}`);
    const first = await fetch(`${running.address}/cms-login.php`, { redirect: 'manual' });
    assert.equal(first.status, 302);
    const form = first.headers.get('location')!;
    assert.equal(form, `http://localhost:${port}/cms-login.php`);
    const page = await fetch(form);
    assert.equal(page.status, 200);
    const html = await page.text();
    const nonce = /cms_login_nonce=([^;]+)/.exec(page.headers.get('set-cookie') ?? '')![1];
    const csrf = /name="_csrf" value="([^"]*)"/.exec(html)![1]!;
    const action = /<form [^>]*action="([^"]+)"/.exec(html)![1]!.replaceAll('&amp;', '&');
    assert.equal(new URL(action).origin, new URL(form).origin, "the form posts where it is shown (form-action 'self')");
    const login = await fetch(action, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `cms_login_nonce=${nonce}` },
      body: new URLSearchParams({ _csrf: csrf, log: 'olga', pwd: 'Operator-Login-1' }).toString(),
    });
    assert.equal(login.status, 302, await login.text());
    assert.match(login.headers.get('set-cookie') ?? '', /cms_session=/);
  } finally {
    await running.stop();
    await t.close();
  }
});
