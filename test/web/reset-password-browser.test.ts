// The set-password link in a real browser (Debian's Chromium driven by playwright-core): the
// link `content-site user reset-password` prints opens the page, the new password is saved,
// and the user logs in with it; at phone width nothing scrolls sideways. A screenshot of the
// page goes to test-artifacts/web/. Only 127.0.0.1 is ever contacted.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM_SKIP, launchChromium, localPage } from '../support/browser.ts';
import { dbTargets, type TestApp } from '../support/db.ts';
import { runCli } from '../cli/run.ts';
import { listenWebTestApp } from './support.ts';

const SKIP = CHROMIUM_SKIP;
const ARTIFACTS = path.resolve('test-artifacts', 'web');

for (const [index, target] of dbTargets().entries()) {
  describe(`set-password link in Chromium (${target.name})`, { skip: SKIP }, () => {
    let t: TestApp;
    let server: FastifyInstance;
    let siteUrl: string;
    let browser: Browser;
    let page: Page;
    const cspViolations: string[] = [];

    before(async () => {
      fs.mkdirSync(ARTIFACTS, { recursive: true });
      ({ t, server, siteUrl } = await listenWebTestApp(target));
      browser = await launchChromium();
      page = await localPage(
        await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' }),
        cspViolations,
      );
    });

    after(async () => {
      await browser?.close();
      await server?.close();
      await t?.close();
    });

    test('the printed link sets the password; the user logs in with it', async () => {
      const env = { SITE_URL: siteUrl };
      assert.equal(
        (await runCli(t, ['user', 'create', 'carla', '--email', 'carla@example.com', '--role', 'editor'], env)).code,
        0,
      );
      const printed = await runCli(t, ['user', 'reset-password', 'carla'], env);
      const link = /(http:\/\/127\.0\.0\.1:\d+\/cms-login\.php\?action=rp&\S+)/.exec(printed.stdout)?.[1];
      assert.ok(link, printed.stdout + printed.stderr);

      await page.goto(link);
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Set a password for carla');
      // At phone width nothing may overflow sideways.
      await page.setViewportSize({ width: 375, height: 740 });
      assert.ok(
        ((await page.evaluate(
          'document.documentElement.scrollWidth - document.documentElement.clientWidth',
        )) as number) <= 0,
        'no horizontal scrolling at 375 px',
      );
      if (index === 0) await page.screenshot({ path: path.join(ARTIFACTS, 'set-password-phone.png'), fullPage: true });
      await page.setViewportSize({ width: 1280, height: 800 });

      // Different passwords: the browser's own check (minlength) passes, ours refuses.
      await page.getByLabel('New password', { exact: true }).fill('carla password 1');
      await page.getByLabel('Confirm new password').fill('carla password 2');
      await page.getByRole('button', { name: 'Save Password' }).click();
      await page.getByText('The passwords do not match.').waitFor();

      await page.getByLabel('New password', { exact: true }).fill('carla password 1');
      await page.getByLabel('Confirm new password').fill('carla password 1');
      await page.getByRole('button', { name: 'Save Password' }).click();
      await page.waitForURL(/\/cms-login\.php\?password=reset/);
      await page.getByText('Your password has been reset. You can now log in with it.').waitFor();

      await page.getByLabel('Username or Email Address').fill('carla');
      await page.getByLabel('Password', { exact: true }).fill('carla password 1');
      await page.getByRole('button', { name: 'Log In' }).click();
      await page.waitForURL(`${siteUrl}/cms-admin/`);

      // The link worked once.
      await page.goto(link);
      await page.getByText('Your password reset link appears to be invalid.').waitFor();
      assert.deepEqual(cspViolations, []);
    });
  });
}
