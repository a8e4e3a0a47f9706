// End to end in a real browser (Debian's Chromium driven by playwright-core): log in,
// approve, follow the redirect to a local "application", use the password against the REST
// API; reject; bad parameters; a tampered CSRF token; the password shown once; revoking.
// Screenshots of every page at desktop and phone widths go to test-artifacts/web/.
// Only 127.0.0.1 is ever contacted: every other request of the browser is aborted.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { CHROMIUM_SKIP, launchChromium, localPage } from '../support/browser.ts';
import { dbTargets, type TestApp } from '../support/db.ts';
import { basicAuth } from '../support/http.ts';
import { listenWebTestApp, makeUser } from './support.ts';

const SKIP = CHROMIUM_SKIP;
const ARTIFACTS = path.resolve('test-artifacts', 'web');
const PASSWORD = 'browser test password 1';
const APP_ID = '0e5b7c1a-2f3d-4e5f-8a9b-0c1d2e3f4a5b';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 740 };

/** The "application": records every request it receives and answers with a small page. */
function startApplication(): Promise<{
  server: http.Server;
  base: string;
  received: { url: string; referer: string | undefined }[];
}> {
  const received: { url: string; referer: string | undefined }[] = [];
  const server = http.createServer((req, res) => {
    received.push({ url: req.url ?? '', referer: req.headers.referer });
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(
      '<!doctype html><html lang="en"><head><title>Example App</title></head><body><h1>Example App received the answer</h1></body></html>',
    );
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, base: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`, received }),
    );
  });
}

async function shoot(page: Page, name: string, enabled: boolean): Promise<void> {
  // At phone width nothing may overflow sideways.
  await page.setViewportSize(PHONE);
  const overflow = (await page.evaluate(
    'document.documentElement.scrollWidth - document.documentElement.clientWidth',
  )) as number;
  assert.ok(overflow <= 0, `${name}: no horizontal scrolling at 375 px (overflow ${overflow}px)`);
  if (enabled) await page.screenshot({ path: path.join(ARTIFACTS, `${name}-phone.png`), fullPage: true });
  await page.setViewportSize(DESKTOP);
  if (enabled) await page.screenshot({ path: path.join(ARTIFACTS, `${name}-desktop.png`), fullPage: true });
}

for (const [index, target] of dbTargets().entries()) {
  describe(`authorize flow in Chromium (${target.name})`, { skip: SKIP }, () => {
    const screenshots = index === 0;
    let t: TestApp;
    let server: FastifyInstance;
    let siteUrl: string;
    let appServer: Awaited<ReturnType<typeof startApplication>>;
    let browser: Browser;
    let context: BrowserContext;
    let page: Page;
    const cspViolations: string[] = [];

    before(async () => {
      fs.mkdirSync(ARTIFACTS, { recursive: true });
      ({ t, server, siteUrl } = await listenWebTestApp(target));
      await makeUser(t.app, 'alice', PASSWORD);
      appServer = await startApplication();
      browser = await launchChromium();
      context = await browser.newContext({ viewport: DESKTOP, locale: 'en-US' });
      page = await localPage(context, cspViolations);
    });

    after(async () => {
      await browser?.close();
      await new Promise((r) => appServer?.server.close(r));
      await server?.close();
      await t?.close();
    });

    test('log in, approve, the application receives a working password (and no Referer)', async () => {
      const successUrl = `${appServer.base}/callback?state=xyz`;
      const rejectUrl = `${appServer.base}/rejected`;
      const authorize = `${siteUrl}/cms-admin/authorize-application.php?${new URLSearchParams({ app_name: 'Example App', app_id: APP_ID, success_url: successUrl, reject_url: rejectUrl })}`;
      await page.goto(authorize);
      assert.match(page.url(), /\/cms-login\.php\?redirect_to=/);
      assert.equal(await page.locator('html').getAttribute('lang'), 'en');
      await shoot(page, 'login', screenshots);

      await page.getByLabel('Username or Email Address').fill('alice');
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Log In' }).click();
      await page.waitForURL(/authorize-application\.php/);
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Authorize Application');
      assert.match((await page.locator('main').textContent()) ?? '', /the application called Example App access/);
      assert.equal(await page.getByLabel('New Application Password Name').inputValue(), 'Example App');
      await shoot(page, 'authorize', screenshots);

      // The first tab stop is the skip link, and focus is visible.
      await page.keyboard.press('Tab');
      assert.equal(await page.evaluate('document.activeElement && document.activeElement.className'), 'skip-link');

      await page.getByRole('button', { name: 'Yes, I approve of this connection' }).click();
      await page.waitForURL(`${appServer.base}/callback**`);
      const hit = appServer.received.find((r) => r.url.startsWith('/callback'))!;
      assert.ok(hit, 'the application was called');
      assert.equal(hit.referer, undefined, 'no Referer leaks the page to the application');
      const params = new URL(hit.url, appServer.base).searchParams;
      assert.deepEqual([...params.keys()], ['state', 'site_url', 'user_login', 'password']);
      assert.equal(params.get('site_url'), siteUrl);
      assert.equal(params.get('user_login'), 'alice');
      const password = params.get('password')!;
      assert.match(password, /^[A-Za-z0-9]{24}$/);
      const auth = { authorization: basicAuth('alice', password) };
      assert.equal((await fetch(`${siteUrl}/en/cms-json/`, { headers: auth })).status, 200);
      assert.equal((await fetch(`${siteUrl}/en/cms-json/history/v1/events`, { headers: auth })).status, 200);
      assert.equal((await fetch(`${siteUrl}/en/cms-json/history/v1/events`)).status, 401, 'and without it: 401');
    });

    test('reject sends the user to reject_url with success=false', async () => {
      const before = (await t.app.db.selectFrom('app_passwords').select('uuid').execute()).length;
      await page.goto(
        `${siteUrl}/cms-admin/authorize-application.php?${new URLSearchParams({ app_name: 'Example App', success_url: `${appServer.base}/callback`, reject_url: `${appServer.base}/rejected` })}`,
      );
      await page.getByRole('button', { name: 'No, I do not approve of this connection' }).click();
      await page.waitForURL(`${appServer.base}/rejected**`);
      assert.equal(new URL(page.url()).search, '?success=false');
      assert.equal((await t.app.db.selectFrom('app_passwords').select('uuid').execute()).length, before);
    });

    test('bad parameters show a 400 page listing the problems', async () => {
      const res = await page.goto(
        `${siteUrl}/cms-admin/authorize-application.php?${new URLSearchParams({ app_name: '<b>Bad</b>', app_id: 'nope', success_url: 'javascript:alert(1)', reject_url: 'ftp:/no-host' })}`,
      );
      assert.equal(res?.status(), 400);
      assert.equal(
        await page.getByRole('heading', { level: 1 }).textContent(),
        'The Authorize Application request is not allowed.',
      );
      const items = await page.locator('.problems li').allTextContents();
      assert.equal(items.length, 3);
      assert.match(items[0]!, /app_id: The application ID must be a UUID\./);
      assert.match(items[1]!, /success_url: Invalid URL format\./);
      assert.match(items[2]!, /reject_url: Invalid URL format\./);
      assert.equal(await page.locator('b').count(), 0, 'markup in parameters is not rendered');
      await shoot(page, 'authorize-invalid', screenshots);
    });

    test('a tampered CSRF token is refused with 403', async () => {
      await page.goto(
        `${siteUrl}/cms-admin/authorize-application.php?${new URLSearchParams({ app_name: 'Tampered', success_url: `${appServer.base}/callback` })}`,
      );
      await page
        .locator('form:has([name=action]) input[name=_csrf]')
        .evaluate((el) => el.setAttribute('value', 'tampered-token'));
      const [response] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === 'POST'),
        page.getByRole('button', { name: 'Yes, I approve of this connection' }).click(),
      ]);
      assert.equal(response.status(), 403);
      await page.waitForLoadState();
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Security check failed');
      assert.equal(
        (await t.app.db.selectFrom('app_passwords').select('uuid').where('name', '=', 'Tampered').execute()).length,
        0,
      );
      await shoot(page, 'csrf-refused', screenshots);
      // And with the field removed altogether.
      await page.goto(`${siteUrl}/cms-admin/authorize-application.php?app_name=Tampered`);
      await page.locator('form:has([name=action]) input[name=_csrf]').evaluate((el) => el.remove());
      const [again] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === 'POST'),
        page.getByRole('button', { name: 'Yes, I approve of this connection' }).click(),
      ]);
      assert.equal(again.status(), 403);
    });

    test('without success_url the password is shown once, in German too', async () => {
      await page.goto(`${siteUrl}/cms-admin/authorize-application.php?app_name=Desktop%20Client&lang=de`);
      assert.equal(await page.locator('html').getAttribute('lang'), 'de');
      await shoot(page, 'authorize-de', screenshots);
      await page.getByRole('button', { name: 'Ja, ich stimme dieser Verbindung zu' }).click();
      await page.waitForLoadState();
      const field = page.getByLabel('Dein neues Passwort für Desktop Client lautet:');
      const shown = await field.inputValue();
      assert.match(shown, /^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/);
      assert.match((await page.locator('main').textContent()) ?? '', /Bewahre es an einem sicheren Ort auf/);
      await shoot(page, 'password-shown-de', screenshots);
      const res = await fetch(`${siteUrl}/en/cms-json/history/v1/events`, {
        headers: { authorization: basicAuth('alice', shown) },
      });
      assert.equal(res.status, 200);
      // The same name again is refused, as WordPress refuses it.
      await page.goto(`${siteUrl}/cms-admin/authorize-application.php?app_name=Desktop%20Client`);
      const [duplicate] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === 'POST'),
        page.getByRole('button', { name: 'Yes, I approve of this connection' }).click(),
      ]);
      assert.equal(duplicate.status(), 409);
      await page.waitForLoadState();
      assert.equal(await page.getByRole('alert').textContent(), 'Each application name should be unique.');
      await page.goto(`${siteUrl}/cms-admin/authorize-application.php?app_name=Laptop%20Client`);
      await page.getByRole('button', { name: 'Yes, I approve of this connection' }).click();
      await page.waitForLoadState();
      await shoot(page, 'password-shown', screenshots);
    });

    test('the profile lists and revokes passwords', async () => {
      await page.goto(`${siteUrl}/cms-admin/profile.php`);
      const rows = page.locator('tbody tr');
      const count = await rows.count();
      assert.ok(count >= 3);
      assert.match((await rows.first().textContent()) ?? '', /Example App/);
      await shoot(page, 'passwords', screenshots);
      await page.getByRole('button', { name: 'Revoke “Example App”' }).click();
      await page.waitForURL(/done=revoked/);
      assert.match((await page.getByRole('status').first().textContent()) ?? '', /has been revoked/);
      assert.equal(await page.locator('tbody tr').count(), count - 1);
    });

    test('log out', async () => {
      await page.goto(`${siteUrl}/cms-admin/profile.php`);
      await page.getByRole('button', { name: 'Log Out' }).click();
      await page.waitForURL(/loggedout=true/);
      assert.match((await page.getByRole('status').textContent()) ?? '', /You are now logged out\./);
      await shoot(page, 'logged-out', screenshots);
      await page.goto(`${siteUrl}/cms-admin/profile.php`);
      assert.match(page.url(), /cms-login\.php/);
    });

    test('no Content-Security-Policy violations on any page', () => {
      assert.deepEqual(cspViolations, []);
    });
  });
}
