// The console in real Chromium (Debian's, driven by playwright-core) on every database target:
// signing in per role and what each role sees, the activity log's filters against the API's
// answer, similar events, sticky events, a custom entry, live news of events another client
// posts, the export, `#history/event/<id>`, the statistics' charts and tables, string
// translation, a translation job done end to end (assigned, reassigned, its XLIFF downloaded,
// translated and uploaded, then corrected in place), the custom XML configuration's problems
// at their lines, German
// throughout, keyboard-only use, and axe-core on every page (no serious or critical
// violations). Only 127.0.0.1 is ever contacted: any other request fails the test.
// CONSOLE_SCREENSHOTS=1 writes the documented screenshots to docs/screenshots/ (SQLite run);
// otherwise they go to test-artifacts/console/.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { CHROMIUM_SKIP, launchChromium } from '../support/browser.ts';
import qs from 'qs';
import { buildServer } from '../../src/server/http.ts';
import { listArgs, readLogQuery } from '../../src/console/history/query.ts';
import { dbTargets, type TestApp } from '../support/db.ts';
import { createWebTestApp } from '../web/support.ts';
import { JOBS, PASSWORD, STRINGS, seedConsoleSite, type SiteUser } from './support.ts';
import { insertStringJob } from '../i18n-tm/fixtures.ts';
import { seedDemo as seedPages } from '../../src/pages/seed.ts';
import { LABELS_DOMAIN } from '../../src/pages/labels.ts';
import { seedDemo as seedStrings } from '../../src/namespaces/i18n-st/seed.ts';
import { findStringId } from '../../src/namespaces/i18n-st/string-lookup.ts';
import { freePort } from '../support/net.ts';
import { seedDemo as seedSched } from '../../src/namespaces/sched/seed.ts';
import { seedDemo as seedSliders } from '../../src/namespaces/sliderx/seed.ts';

// In CI a missing browser fails the run (the launch throws); elsewhere the tests are skipped.
const SKIP = CHROMIUM_SKIP;
const AXE = fs.readFileSync(path.resolve('node_modules/axe-core/axe.min.js'), 'utf8');
const SHOTS =
  process.env.CONSOLE_SCREENSHOTS === '1'
    ? path.resolve('docs', 'screenshots')
    : path.resolve('test-artifacts', 'console');
const LOG = '/cms-admin/admin.php?page=history_admin_menu_page';
const STATS = '/cms-admin/admin.php?page=history_stats_page';
const XML_CONFIG = '/cms-admin/admin.php?page=i18n/menu/custom-xml-config.php';
const SCHED = '/cms-admin/admin.php?page=sched-settings';
const SLIDERS = '/cms-admin/admin.php?page=sliderx-sliders';

/** axe-core's serious and critical violations of the page (its script evaluated over the debugging protocol, which the page's CSP does not govern). */
function isFocused(locator: Locator): Promise<boolean> {
  // (Runs in the page: `document` is the page's; the test's own TypeScript has no DOM types.)
  return locator.evaluate(
    (el: unknown) => el === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement,
  );
}

async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const result = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] })`)) as {
    violations: { id: string; impact: string; nodes: { target: string[] }[] }[];
  };
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(', ')}`,
    );
}

for (const [index, target] of dbTargets().entries()) {
  describe(`console in Chromium (${target.name})`, { skip: SKIP }, () => {
    const screenshots = index === 0;
    let t: TestApp;
    let server: FastifyInstance;
    let site: string;
    let users: Record<string, SiteUser>;
    let browser: Browser;
    const outside: string[] = [];
    const cspViolations: string[] = [];
    const pageErrors: string[] = [];

    async function newContext(locale = 'en-US'): Promise<BrowserContext> {
      const context = await browser.newContext({
        viewport: { width: 1280, height: 900 },
        locale,
        acceptDownloads: true,
      });
      context.setDefaultTimeout(15_000);
      await context.route('**/*', (route) => {
        const url = route.request().url();
        if (new URL(url).hostname === '127.0.0.1') return route.continue();
        outside.push(url);
        return route.abort();
      });
      context.on('page', watch);
      return context;
    }

    function watch(page: Page): void {
      page.on('console', (msg) => {
        if (/Content.Security.Policy|Refused to/i.test(msg.text())) cspViolations.push(msg.text());
      });
      page.on('pageerror', (err) => pageErrors.push(err.message));
    }

    /** Signs in through the login form the console sends an anonymous visitor to. */
    async function signIn(page: Page, login: string, path = '/cms-admin/', { script = true } = {}): Promise<void> {
      await page.goto(site + path);
      assert.match(page.url(), /\/cms-login\.php\?redirect_to=/);
      await page.locator('#user_login').fill(login);
      await page.locator('#user_pass').fill(PASSWORD);
      await page.locator('#user_pass').press('Enter');
      await page.waitForURL((url) => url.pathname.startsWith('/cms-admin/'));
      // The page's own module loads after `load`: a key pressed before it listens is the
      // browser's (Enter submitted the settings form natively on a busy machine).
      if (script) await page.waitForFunction(() => performance.getEntriesByName('console-ready').length > 0);
    }

    async function apiIds(user: SiteUser, args: Record<string, unknown>): Promise<number[]> {
      const res = await server.inject({
        method: 'GET',
        url: `/en/cms-json/history/v1/events?${qs.stringify(args)}`,
        headers: { authorization: user.authorization },
      });
      assert.equal(res.statusCode, 200, res.body);
      return (res.json() as { id: number; sticky_appended: boolean }[])
        .filter((e) => !e.sticky_appended)
        .map((e) => e.id);
    }

    /** The API's arguments for the list a page shows: its filters, cut at the newest id it read (using the API may log a login). */
    async function argsOf(page: Page): Promise<Record<string, unknown>> {
      const newest = Number(await page.locator('#event-list').getAttribute('data-newest-id'));
      return {
        ...listArgs(readLogQuery(qs.parse(new URL(page.url()).search.slice(1)))),
        ...(newest ? { max_id_first_page: newest } : {}),
      };
    }

    async function listedIds(page: Page): Promise<number[]> {
      return page
        .locator('section[aria-labelledby="events-heading"] li.event')
        .evaluateAll((els: { dataset: { eventId: string } }[]) => els.map((el) => Number(el.dataset.eventId)));
    }

    async function shoot(page: Page, name: string): Promise<void> {
      // Nothing may scroll sideways at phone width.
      await page.setViewportSize({ width: 375, height: 800 });
      const overflow = (await page.evaluate(
        'document.documentElement.scrollWidth - document.documentElement.clientWidth',
      )) as number;
      assert.ok(overflow <= 0, `${name}: no horizontal scrolling at 375 px (overflow ${overflow}px)`);
      await page.setViewportSize({ width: 1280, height: 900 });
      if (screenshots)
        await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: name.startsWith('stats') });
    }

    before(async () => {
      fs.mkdirSync(SHOTS, { recursive: true });
      const port = await freePort();
      site = `http://127.0.0.1:${port}`;
      t = await createWebTestApp(target, { SITE_URL: site, PORT: String(port) });
      await t.app.options.set('blogname', 'Partner Portal');
      users = await seedConsoleSite(t.app, 400);
      server = await buildServer(t.app);
      await server.listen({ port, host: '127.0.0.1' });
      browser = await launchChromium();
    });

    after(async () => {
      await browser?.close();
      await server?.close();
      await t?.close();
    });

    test('each role signs in and sees only what it may', async () => {
      const expected: Record<string, { nav: string[]; stats: boolean }> = {
        ada: {
          nav: [
            'Dashboard',
            'Activity Log',
            'Activity Statistics',
            'Pages and posts',
            'String Translation',
            'Translation Management',
            'Custom XML Configuration',
            'Appointment Settings',
            'Sliders',
            'Users',
            'Profile',
          ],
          stats: true,
        },
        emil: { nav: ['Dashboard', 'Activity Log', 'Pages and posts', 'Profile'], stats: false },
        tom: {
          nav: ['Dashboard', 'Activity Log', 'String Translation', 'Translation Management', 'Profile'],
          stats: false,
        },
        sina: { nav: ['Dashboard', 'Activity Log', 'Profile'], stats: false },
      };
      for (const [login, want] of Object.entries(expected)) {
        const context = await newContext();
        const page = await context.newPage();
        await signIn(page, login, LOG);
        assert.equal(
          new URL(page.url()).search,
          '?page=history_admin_menu_page',
          `${login} is back where they wanted to go`,
        );
        assert.deepEqual(await page.locator('nav.main-nav a').allTextContents(), want.nav, login);
        assert.equal(await page.locator('nav.main-nav a[aria-current="page"]').textContent(), 'Activity Log');
        assert.deepEqual(
          await listedIds(page),
          await apiIds(users[login]!, await argsOf(page)),
          `${login}: the list is the API's`,
        );
        assert.equal(
          await page.locator('#add-entry-form').count(),
          login === 'ada' ? 1 : 0,
          `${login}: custom entries`,
        );
        const stats = await page.goto(site + STATS);
        assert.equal(stats?.status(), want.stats ? 200 : 403, `${login}: statistics`);
        if (!want.stats) assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Access denied');
        await context.close();
      }
    });

    test('the activity log: filters in the address match the API; occasions expand in place; stick; a custom entry', async () => {
      const context = await newContext();
      const page = await context.newPage();
      await signIn(page, 'ada', LOG);
      await shoot(page, 'activity-log-en');

      // Levels and a date range, chosen in the form: the address holds just the filters.
      await page.getByRole('checkbox', { name: 'Warning' }).check();
      await page.getByLabel('Date range').selectOption('lastdays:14');
      await page.getByRole('button', { name: 'Show events' }).click();
      await page.waitForURL(/loglevels/);
      const query = new URL(page.url()).search;
      assert.equal(query, '?page=history_admin_menu_page&dates=lastdays%3A14&loglevels%5B%5D=warning');
      assert.deepEqual(await listedIds(page), await apiIds(users.ada!, await argsOf(page)));
      // More filters: an initiator excluded and a user picked from the suggestions.
      await page.getByText('More filters').click();
      await page.locator('#mode-initiator').selectOption('exclude');
      await page.getByRole('checkbox', { name: 'Anonymous web user' }).check();
      await page.getByLabel('Add a user').fill('emi');
      await page.locator('#user-suggestions option').first().waitFor({ state: 'attached' });
      const suggestion = await page.locator('#user-suggestions option').first().getAttribute('value');
      assert.equal(suggestion, 'Emil Editor (emil)');
      await page.getByLabel('Add a user').fill(suggestion!);
      await page.locator('#chosen-users input[value="' + users.emil!.id + '"]').waitFor();
      await page.getByRole('button', { name: 'Show events' }).click();
      await page.waitForURL(/users/);
      const filtered = qs.parse(new URL(page.url()).search.slice(1));
      assert.deepEqual(filtered.users, [String(users.emil!.id)]);
      assert.equal(filtered.initiator_mode, 'exclude');
      assert.deepEqual(await listedIds(page), await apiIds(users.ada!, await argsOf(page)));
      await page.getByRole('link', { name: 'Reset filters' }).click();
      await page.waitForURL((url) => url.search === '?page=history_admin_menu_page');

      // Similar events expand under their group and fold again.
      const toggle = page.locator('a.occasions-toggle').first();
      const count = Number(await toggle.getAttribute('data-count'));
      await toggle.click();
      const group = page.locator('.occasions-list').first();
      await group
        .locator('li.event')
        .nth(count - 1)
        .waitFor();
      assert.equal(await group.locator('li.event').count(), count);
      assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
      assert.equal(await toggle.textContent(), 'Hide similar events');
      await toggle.click();
      assert.equal(await page.locator('.occasions-list').count(), 0);

      // Stick an event through the REST API: it goes on top, without leaving the page.
      const id = (await listedIds(page))[3]!;
      const item = page.locator(`li#event-${id}`);
      await item.locator('summary').click();
      await item.getByRole('button', { name: `Stick event ${id} to the top` }).click();
      await page.locator(`li#event-${id}-sticky`).waitFor();
      assert.match((await page.locator('#new-events').textContent()) ?? '', /The event is now sticky\./);
      await shoot(page, 'activity-log-sticky-en');
      await page.locator(`li#event-${id}-sticky summary`).click();
      await page
        .locator(`li#event-${id}-sticky`)
        .getByRole('button', { name: `Unstick event ${id}` })
        .click();
      await page.locator(`li#event-${id}-sticky`).waitFor({ state: 'detached' });

      // A custom entry with a note, through the REST API.
      await page.getByLabel('Message', { exact: true }).fill('Console release 1.0');
      await page.getByLabel('Note', { exact: true }).fill('Shipped with the activity log.');
      await page.getByLabel('Level', { exact: true }).selectOption('notice');
      await page.getByRole('button', { name: 'Add entry' }).click();
      await page
        .locator('section[aria-labelledby="events-heading"] li.event')
        .first()
        .filter({ hasText: 'Console release 1.0' })
        .waitFor();
      const row = await t.app.db
        .selectFrom('history_events')
        .select(['level', 'user_id'])
        .where('message_key', '=', 'custom_entry_added')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      assert.deepEqual(row, { level: 'notice', user_id: users.ada!.id });
      assert.deepEqual(await axeViolations(page), []);
      await context.close();
    });

    test('live: an event another client posts is announced, and shown on request', async () => {
      const context = await newContext();
      const page = await context.newPage();
      await signIn(page, 'ada', LOG);
      const res = await fetch(`${site}/en/cms-json/history/v1/events`, {
        method: 'POST',
        headers: { authorization: users.ada!.authorization, 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'Posted by another client' }),
      });
      assert.equal(res.status, 201);
      // The page polls has-updates every 10 s, as the original's screen does.
      const live = page.locator('#new-events');
      await live.getByRole('button', { name: 'Show them' }).waitFor({ timeout: 25_000 });
      assert.match((await live.textContent()) ?? '', /1 new event since the list was loaded\./);
      await live.getByRole('button', { name: 'Show them' }).click();
      await page
        .locator('section[aria-labelledby="events-heading"] li.event')
        .first()
        .filter({ hasText: 'Posted by another client' })
        .waitFor();
      assert.equal(
        await page.evaluate('document.activeElement.id'),
        'events-summary',
        'focus moves to the refreshed list',
      );
      await context.close();
    });

    test('export: CSV and JSON of the filtered view, with progress, every event', async () => {
      const context = await newContext();
      const page = await context.newPage();
      await signIn(page, 'ada', `${LOG}&loglevels[]=info`);
      const total = (await apiIds(users.ada!, { loglevels: ['info'], ungrouped: true, per_page: 100 })).length;
      for (const format of ['csv', 'json'] as const) {
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          page.locator(`a[data-export="${format}"]`).click(),
        ]);
        const file = await download.path();
        const text = fs.readFileSync(file, 'utf8');
        const expected = Number(
          (
            await server.inject({
              method: 'GET',
              url: '/en/cms-json/history/v1/events?loglevels[]=info&ungrouped=1&per_page=1',
              headers: { authorization: users.ada!.authorization },
            })
          ).headers['x-wp-total'],
        );
        const rows = format === 'json' ? (JSON.parse(text) as unknown[]).length : text.trim().split('\r\n').length - 1;
        assert.equal(rows, expected, format);
        assert.ok(expected >= total);
        assert.match(download.suggestedFilename(), new RegExp(`^activity-log-\\d{12}\\.${format}$`));
        assert.equal(await page.locator('#export-status').textContent(), `Export complete: ${expected} events.`);
      }
      await context.close();
    });

    test('#history/event/<id> opens that event; unknown ids say so; Escape closes', async () => {
      const context = await newContext();
      const page = await context.newPage();
      await signIn(page, 'ada');
      const events = (
        await server.inject({
          method: 'GET',
          url: '/en/cms-json/history/v1/events?per_page=3',
          headers: { authorization: users.ada!.authorization },
        })
      ).json() as { id: number; link: string; message: string }[];
      const event = events[1]!;
      await page.goto(event.link);
      const dialog = page.getByRole('dialog');
      await dialog.getByText('Context of the event').waitFor();
      assert.equal(await dialog.getByRole('heading', { level: 2 }).textContent(), `Event ${event.id}`);
      assert.match(
        (await dialog.textContent()) ?? '',
        new RegExp(event.message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
      );
      assert.deepEqual(await axeViolations(page), []);
      await shoot(page, 'event-en');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      // The dialog's close event (which drops the hash) is dispatched a task after it hides.
      await page.waitForFunction('window.location.hash === ""', undefined, { timeout: 5000 });
      await page.goto(`${site}${LOG}#history/event/99999999`);
      await dialog.getByText('There is no event with the ID 99999999.').waitFor();
      await context.close();
    });

    test('statistics: the chart and a table behind every chart, text alternatives', async () => {
      const context = await newContext();
      const page = await context.newPage();
      await signIn(page, 'ada', STATS);
      await page.locator('[data-chart="activity"] canvas').first().waitFor();
      assert.equal(
        await page.locator('details[data-chart-table]').getAttribute('open'),
        null,
        'with the chart drawn, its table folds away',
      );
      assert.equal(await page.locator('main table:not(.u-legend)').count(), 8);
      assert.match(
        (await page.locator('#activity-alt').textContent()) ?? '',
        /^Events per day from .+: \d[\d,]* in total, most on .+ \(\d[\d,]*\)\.$/,
      );
      assert.equal(await page.locator('[data-chart="activity"]').getAttribute('aria-describedby'), 'activity-alt');
      assert.deepEqual(await axeViolations(page), []);
      await shoot(page, 'stats-en');
      await context.close();
    });

    test('keyboard only: sign in, reach the log, search, open details and similar events', async () => {
      const context = await newContext();
      const page = await context.newPage();
      await page.goto(`${site}/cms-admin/`);
      // Login form: the skip link, then (in the header) the language links, then the fields.
      await page.locator('#user_login').focus();
      await page.keyboard.type('emil');
      await page.keyboard.press('Tab');
      await page.keyboard.type(PASSWORD);
      await page.keyboard.press('Enter');
      await page.waitForURL(`${site}/cms-admin/`);
      await page.keyboard.press('Tab');
      assert.equal(
        await page.evaluate('document.activeElement.className'),
        'skip-link',
        'the first stop is the skip link',
      );
      // Through the header to the navigation's "Activity Log".
      for (let i = 0; i < 20 && (await page.evaluate('document.activeElement.textContent')) !== 'Activity Log'; i++)
        await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await page.waitForURL(/history_admin_menu_page/);
      for (let i = 0; i < 20 && (await page.evaluate('document.activeElement.id')) !== 'f-search'; i++)
        await page.keyboard.press('Tab');
      assert.equal(await page.evaluate('document.activeElement.id'), 'f-search', 'the search field is reachable');
      await page.keyboard.type('Updated');
      await page.keyboard.press('Enter');
      await page.waitForURL(/search=Updated/);
      // The first event's details open with the keyboard.
      const firstSummary = page.locator('section[aria-labelledby="events-heading"] li.event summary').first();
      for (let i = 0; i < 80 && !(await isFocused(firstSummary)); i++) await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      assert.equal(
        await page.locator('section[aria-labelledby="events-heading"] li.event details').first().getAttribute('open'),
        '',
      );
      // Similar events expand with the space bar, on the unfiltered list.
      await page.goto(`${site}${LOG}`);
      const toggle = page.locator('a.occasions-toggle').first();
      for (let i = 0; i < 200 && !(await isFocused(toggle)); i++) await page.keyboard.press('Tab');
      await page.keyboard.press(' ');
      await page.locator('.occasions-list li.event').first().waitFor();
      // Focus is always visible.
      const outline = await page.evaluate('getComputedStyle(document.activeElement).outlineStyle');
      assert.notEqual(outline, 'none');
      await context.close();
    });

    test('German throughout, and axe finds nothing serious on any page in either language', async () => {
      for (const lang of ['en', 'de'] as const) {
        const context = await newContext(lang === 'de' ? 'de-DE' : 'en-US');
        const page = await context.newPage();
        await signIn(page, 'ada');
        const pages: [string, string, string][] = [
          ['dashboard', '/cms-admin/', lang === 'de' ? 'Übersicht' : 'Dashboard'],
          ['activity-log', LOG, lang === 'de' ? 'Aktivitätsprotokoll' : 'Activity Log'],
          ['stats', STATS, lang === 'de' ? 'Aktivitätsstatistik' : 'Activity Statistics'],
          ['profile', '/cms-admin/profile.php', lang === 'de' ? 'Profil' : 'Profile'],
          ['users', '/cms-admin/users.php', lang === 'de' ? 'Benutzer' : 'Users'],
          [
            'user-edit',
            `/cms-admin/user-edit.php?user_id=${users.emil!.id}`,
            lang === 'de' ? 'Benutzer bearbeiten: Emil Editor' : 'Edit User: Emil Editor',
          ],
          ['jobs', JOBS, lang === 'de' ? 'Übersetzungsverwaltung' : 'Translation Management'],
          [
            'xml-config',
            XML_CONFIG,
            lang === 'de' ? 'Benutzerdefinierte XML-Konfiguration' : 'Custom XML Configuration',
          ],
        ];
        for (const [name, url, heading] of pages) {
          await page.goto(site + url);
          assert.equal(await page.locator('html').getAttribute('lang'), lang, url);
          assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), heading, url);
          if (lang === 'de') {
            const text = (await page.locator('body').innerText()).replace(/\s+/g, ' ');
            for (const english of [
              'Activity Log',
              'Show events',
              'Log Out',
              'Filter events',
              'Profile',
              'Dashboard',
              'Events',
              'Save',
              'Last 30 days',
            ]) {
              assert.ok(!new RegExp(`\\b${english}\\b`).test(text), `${url}: "${english}" in German`);
            }
          }
          if (name === 'stats') await page.locator('[data-chart="activity"] canvas').first().waitFor();
          assert.deepEqual(await axeViolations(page), [], `${lang} ${url}`);
          if (name !== 'activity-log' || lang === 'de') await shoot(page, `${name}-${lang}`);
        }
        if (lang === 'de') {
          // The user's own choice: switched in the header, remembered for every page.
          await page.getByRole('button', { name: 'English' }).click();
          await page.waitForLoadState();
          assert.equal(await page.locator('html').getAttribute('lang'), 'en');
          await page.getByRole('button', { name: 'Deutsch' }).click();
          await page.waitForLoadState();
          assert.equal(await page.locator('html').getAttribute('lang'), 'de');
          const event = (
            await server.inject({
              method: 'GET',
              url: '/en/cms-json/history/v1/events?per_page=1',
              headers: { authorization: users.ada!.authorization },
            })
          ).json()[0];
          await page.goto(event.link);
          await page.getByRole('dialog').getByText('Kontext des Ereignisses').waitFor();
          await shoot(page, 'event-de');
        }
        await context.close();
      }
    });

    test('string translation: a translator filters, edits a German translation in place with the keyboard, saves, and the German page shows it', async () => {
      await seedPages(t.app);
      await seedStrings(t.app);
      const menuId = (await findStringId(t.app, { domain: LABELS_DOMAIN, name: 'menu' }))!;
      await insertStringJob(t.app, users.tom!.id, { type: 'string', stringId: menuId });
      const context = await newContext();
      const page = await context.newPage();
      await signIn(page, 'tom', STRINGS);
      assert.equal(await page.locator('nav.main-nav a[aria-current="page"]').textContent(), 'String Translation');
      // Filter with the keyboard: the search field, then Enter.
      const search = page.getByLabel('Search in the texts');
      for (let i = 0; i < 40 && !(await isFocused(search)); i++) await page.keyboard.press('Tab');
      await page.keyboard.type('Menu');
      await page.keyboard.press('Enter');
      await page.waitForURL(/search=Menu/);
      assert.deepEqual(
        await page.locator('li.string-item').evaluateAll((els: { id: string }[]) => els.map((el) => el.id)),
        [`string-${menuId}`],
      );
      // Edit in place: the translation, its status (the last choice, "Complete"), then Save.
      const field = page.getByLabel('Translation into German', { exact: true });
      for (let i = 0; i < 40 && !(await isFocused(field)); i++) await page.keyboard.press('Tab');
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type('Hauptnavigation');
      await page.keyboard.press('Tab');
      assert.ok(await isFocused(page.getByLabel('Status of the translation into German', { exact: true })));
      await page.keyboard.press('End');
      await page.keyboard.press('Tab');
      const url = page.url();
      await page.keyboard.press('Enter');
      await page.locator('.save-state', { hasText: 'Saved.' }).waitFor();
      assert.equal(page.url(), url, 'saved without leaving the page');
      assert.deepEqual(await axeViolations(page), []);
      await shoot(page, 'strings-en');
      await page.goto(`${site}/de/neuigkeiten/`);
      assert.equal(await page.locator('header nav').first().getAttribute('aria-label'), 'Hauptnavigation');
      const row = await t.app.db
        .selectFrom('i18n_st_translations')
        .select(['value', 'status', 'translator_id'])
        .where('string_id', '=', menuId)
        .where('language', '=', 'de')
        .executeTakeFirstOrThrow();
      assert.deepEqual(row, { value: 'Hauptnavigation', status: 10, translator_id: users.tom!.id });
      await context.close();

      // The manager's page in German (her own choice, whatever earlier tests chose), and its forms without the script.
      const { locale } = await t.app.db
        .selectFrom('users')
        .select('locale')
        .where('login', '=', 'ada')
        .executeTakeFirstOrThrow();
      await t.app.db.updateTable('users').set({ locale: 'de' }).where('login', '=', 'ada').execute();
      const de = await newContext('de-DE');
      const dePage = await de.newPage();
      await signIn(dePage, 'ada', `${STRINGS}&domain=${LABELS_DOMAIN}`);
      assert.equal(await dePage.getByRole('heading', { level: 1 }).textContent(), 'String-Übersetzung');
      assert.deepEqual(await axeViolations(dePage), []);
      await shoot(dePage, 'strings-de');
      // Bulk through the REST API: every string of the page, marked as needing an update.
      const rows = await dePage.locator('li.string-item').count();
      await dePage.getByLabel('Alle Strings dieser Seite auswählen').check();
      await dePage.getByLabel('Aktion für die ausgewählten Strings').selectOption('status:3');
      await dePage.getByRole('button', { name: 'Anwenden' }).click();
      await dePage.waitForURL(/done=bulk/);
      assert.equal(await dePage.locator('.notice-success').textContent(), `${rows} Übersetzungen geändert.`);
      await de.close();
      const noScript = await browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: false });
      const plain = await noScript.newPage();
      await signIn(plain, 'ada', `${STRINGS}&search=Menu`, { script: false });
      await plain.getByLabel('Übersetzung nach Deutsch', { exact: true }).fill('Menü');
      await plain.getByRole('button', { name: /^Die Übersetzung nach Deutsch von „Menu“ speichern/ }).click();
      await plain.waitForURL(/done=saved/);
      assert.match((await plain.locator('.notice-success').textContent()) ?? '', /Die Übersetzung wurde gespeichert\./);
      await noScript.close();
      await t.app.db.updateTable('users').set({ locale }).where('login', '=', 'ada').execute();
    });

    test('translation jobs: a manager sends a page and reassigns it; the translator downloads the XLIFF, uploads it translated, then corrects it in place; the German page shows it', async () => {
      await seedPages(t.app);
      const { locale } = await t.app.db
        .selectFrom('users')
        .select('locale')
        .where('login', '=', 'ada')
        .executeTakeFirstOrThrow();
      await t.app.db.updateTable('users').set({ locale: 'en' }).where('login', 'in', ['ada', 'tom']).execute();
      const manager = await newContext();
      const admin = await manager.newPage();
      await signIn(admin, 'ada', JOBS);
      assert.equal(await admin.getByRole('heading', { level: 1 }).textContent(), 'Translation Management');
      assert.deepEqual(await axeViolations(admin), []);
      // Send the Partners page to translation into German, to nobody yet.
      const send = admin.locator('#tm-send');
      await send.getByLabel('Partners (English, page)').check();
      await send.getByLabel('Translate into').selectOption('de');
      await send.getByRole('button', { name: 'Send to translation' }).click();
      await admin.waitForURL(/done=sent/);
      assert.equal(await admin.locator('.notice-success').textContent(), 'Translation jobs created: 1.');
      const jobId = Number((await admin.locator('table.jobs tbody tr').first().getAttribute('id'))!.slice(4));
      const row = admin.locator(`#job-${jobId}`);
      // Assigned to Ada, then reassigned to Tom.
      for (const name of ['Ada Admin', 'Tom Translator']) {
        await admin.locator(`#job-${jobId}`).getByLabel(`Translator of job ${jobId}`).selectOption({ label: name });
        await admin.locator(`#job-${jobId}`).getByRole('button', { name: 'Assign' }).click();
        await admin.waitForURL(/done=assigned/);
        assert.equal(await row.locator('.job-translator').textContent(), name);
      }
      await manager.close();

      const translator = await newContext();
      const page = await translator.newPage();
      await signIn(page, 'tom', JOBS);
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Translation Jobs');
      await page.getByRole('link', { name: `Open job ${jobId}: Partners` }).click();
      await page.waitForURL(new RegExp(`job_id=${jobId}$`));
      assert.deepEqual(await axeViolations(page), []);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Download the XLIFF file' }).click(),
      ]);
      assert.equal(download.suggestedFilename(), `job-${jobId}-en-de-partners.xliff`);
      const xliff = fs.readFileSync((await download.path())!, 'utf8');
      const translated = xliff
        .replace(/(<trans-unit id="title"[\s\S]*?<target>)<!\[CDATA\[[^\]]*\]\]>/, '$1<![CDATA[Unsere Partner]]>')
        .replace(
          /(<trans-unit id="body"[\s\S]*?<target>)<!\[CDATA\[[\s\S]*?\]\]>/,
          '$1<![CDATA[Werden Sie Partner.\n\nPartner lernen bei uns.]]>',
        );
      // A wrong file first: its error is shown, nothing changes.
      await page.locator('#job-xliff-file').setInputFiles({
        name: 'wrong.xliff',
        mimeType: 'application/x-xliff+xml',
        buffer: Buffer.from(translated.replace('target-language="de"', 'target-language="fr"')),
      });
      await page.getByRole('button', { name: 'Upload and complete the job' }).click();
      await page.locator('.notice-error', { hasText: 'translates en → fr' }).waitFor();
      assert.deepEqual(await axeViolations(page), []);
      await page.locator('#job-xliff-file').setInputFiles({
        name: 'partners.xliff',
        mimeType: 'application/x-xliff+xml',
        buffer: Buffer.from(translated),
      });
      await page.getByRole('button', { name: 'Upload and complete the job' }).click();
      await page.waitForURL(/done=completed/);
      assert.equal(await page.locator('#job-status').textContent(), 'Complete');
      await shoot(page, 'job-en');
      await page.goto(`${site}/de/partner/`);
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Unsere Partner');
      await translator.close();

      // In German: the same job corrected in place with the keyboard, completed again.
      await t.app.db.updateTable('users').set({ locale: 'de' }).where('login', '=', 'tom').execute();
      const de = await newContext('de-DE');
      const dePage = await de.newPage();
      await signIn(dePage, 'tom', `${JOBS}&job_id=${jobId}`);
      assert.equal(await dePage.getByRole('heading', { level: 1 }).textContent(), `Auftrag ${jobId}: Partners`);
      assert.deepEqual(await axeViolations(dePage), []);
      const title = dePage.getByLabel('Title auf Deutsch');
      for (let i = 0; i < 60 && !(await isFocused(title)); i++) await dePage.keyboard.press('Tab');
      assert.ok(await isFocused(title), 'the title field is reached with Tab');
      await dePage.keyboard.press('ControlOrMeta+A');
      await dePage.keyboard.type('Partner werden');
      const complete = dePage.getByRole('button', { name: 'Speichern und Auftrag abschließen' });
      for (let i = 0; i < 20 && !(await isFocused(complete)); i++) await dePage.keyboard.press('Tab');
      await dePage.keyboard.press('Enter');
      await dePage.waitForURL(/done=completed/);
      assert.equal(
        await dePage.locator('.notice-success').textContent(),
        'Der Auftrag ist abgeschlossen: seine Übersetzung ist jetzt auf der Website.',
      );
      await shoot(dePage, 'job-de');
      await dePage.goto(`${site}/de/partner/`);
      assert.equal(await dePage.getByRole('heading', { level: 1 }).textContent(), 'Partner werden');
      await de.close();
      await t.app.db.updateTable('users').set({ locale }).where('login', '=', 'ada').execute();
    });

    test('custom XML configuration: a check shows the problem at its line, and its link selects that line in the field', async () => {
      const { locale } = await t.app.db
        .selectFrom('users')
        .select('locale')
        .where('login', '=', 'ada')
        .executeTakeFirstOrThrow();
      await t.app.db.updateTable('users').set({ locale: 'en' }).where('login', '=', 'ada').execute();
      const context = await newContext();
      const page = await context.newPage();
      await signIn(page, 'ada', XML_CONFIG);
      const broken =
        '<wpml-config>\n  <custom-types>\n    <custom-type translate="1">book</custom-type>\n  </custom-typez>\n</wpml-config>';
      await page.getByLabel('XML configuration').fill(broken);
      await page.getByRole('button', { name: 'Check' }).click();
      await page.locator('#xml-issues').waitFor();
      assert.match((await page.locator('.notice-error').textContent()) ?? '', /^Problems found: \d+\.$/);
      const link = page.locator('.xml-issue-list a').first();
      const line = Number(await link.getAttribute('data-line'));
      assert.equal(line, 4);
      assert.match(
        (await page.locator('#xml-line-4 .xml-issue').first().textContent()) ?? '',
        /^Line 4, column 3: Expected closing tag/,
      );
      assert.equal(await page.locator('#xml-line-4 code').textContent(), '  </custom-typez>');
      assert.deepEqual(await axeViolations(page), []);
      await link.click();
      const selected = await page.locator('#xml-content').evaluate((el: unknown) => {
        const area = el as { value: string; selectionStart: number; selectionEnd: number };
        return area.value.slice(area.selectionStart, area.selectionEnd);
      });
      assert.equal(selected, '  </custom-typez>');
      assert.ok(await isFocused(page.locator('#xml-content')));
      await shoot(page, 'xml-config-en');
      await context.close();
      await t.app.db.updateTable('users').set({ locale }).where('login', '=', 'ada').execute();
    });

    test('appointment settings: an administrator changes a setting with the keyboard and previews a template with an error, in both languages, axe-clean', async () => {
      await seedSched(t.app);
      const settings = async () =>
        (
          await server.inject({
            method: 'GET',
            url: '/en/cms-json/sched/v1/settings',
            headers: { authorization: users.ada!.authorization },
          })
        ).json().data;
      for (const lang of ['en', 'de'] as const) {
        const de = lang === 'de';
        // Ada's own choice (an earlier test switched it in the header) is this run's language.
        await t.app.db.updateTable('users').set({ locale: lang }).where('id', '=', users.ada!.id).execute();
        const context = await newContext(de ? 'de-DE' : 'en-US');
        const page = await context.newPage();
        await signIn(page, 'ada', SCHED);
        assert.equal(
          await page.getByRole('heading', { level: 1 }).textContent(),
          de ? 'Termineinstellungen' : 'Appointment Settings',
        );
        // A setting, with the keyboard: type, Enter; the script saves through the REST API.
        const company = page.locator('#section-global').getByLabel(de ? 'Firmenname' : 'Company name', { exact: true });
        await company.fill(`Browser ${lang} GmbH`);
        await company.press('Enter');
        await page
          .locator('#section-global .save-state')
          .getByText(de ? 'Die Einstellungen wurden gespeichert.' : 'The settings have been saved.')
          .waitFor();
        assert.equal((await settings()).global.company_name, `Browser ${lang} GmbH`);
        assert.match(page.url(), /page=sched-settings$/, 'the page was not left');
        // A template: an error is shown at its line while typing, and the cursor goes there.
        const message = page.locator('#notifications-sc-f-notifications-0-message');
        await message.fill('Hello\n{{ Appointment.customer_information.Name }\nBye');
        const check = page.locator('#notifications-sc-f-notifications-0-message-check');
        await check
          .getByText(de ? /^Zeile 2: Unable to find closing bracket/ : /^Line 2: Unable to find closing bracket/)
          .waitFor();
        assert.equal(await message.getAttribute('aria-invalid'), 'true');
        await check.getByRole('button', { name: de ? 'Zu Zeile 2' : 'Go to line 2' }).press('Enter');
        assert.ok(await isFocused(message));
        assert.equal(
          await message.evaluate((el: unknown) => (el as { selectionStart: number }).selectionStart),
          'Hello\n'.length,
        );
        assert.deepEqual(await axeViolations(page), [], `${lang}: with the error shown`);
        // Fixed: the preview with example data, in a sandboxed frame.
        await message.fill('<p>Hi {{ Appointment.customer_information.Name }}</p>');
        await check
          .getByText(
            de
              ? 'Die Vorlage ist gültig. Vorschau mit Beispieldaten:'
              : 'The template is valid. Preview with example data:',
          )
          .waitFor();
        const frame = page.locator('#section-notifications iframe.template-preview');
        await frame.waitFor();
        assert.equal(await frame.getAttribute('sandbox'), '');
        assert.equal(
          await page.frameLocator('#section-notifications iframe.template-preview').locator('p').textContent(),
          de ? 'Hi Erika Mustermann' : 'Hi Alex Example',
          "example data in the page's language",
        );
        assert.equal(await message.getAttribute('aria-invalid'), null);
        assert.deepEqual(await axeViolations(page), [], `${lang}: with the preview`);
        await shoot(page, `sched-${lang}`);
        await context.close();
      }
    });

    test('sliders: both languages, a slide moved with the keyboard, axe-clean in English and German', async () => {
      await seedSliders(t.app);
      const slides = async () =>
        (await server.inject({ method: 'GET', url: '/en/cms-json/sliderx/sliders/home' })).json().slides as {
          id: number;
          title: string;
        }[];
      for (const lang of ['en', 'de'] as const) {
        const de = lang === 'de';
        await t.app.db.updateTable('users').set({ locale: lang }).where('id', '=', users.ada!.id).execute();
        const context = await newContext();
        const page = await context.newPage();
        await signIn(page, 'ada', `${SLIDERS}&slider=home`);
        assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), de ? 'Slider' : 'Sliders');
        await page.locator('[lang="de"] h3').getByText('Willkommen').first().waitFor();
        const before = await slides();
        const move = page.getByRole('button', {
          name: de ? `Nach unten: ${before[0]!.title}` : `Move down: ${before[0]!.title}`,
        });
        await move.focus();
        await page.keyboard.press('Enter');
        await page
          .getByText(de ? 'Die Reihenfolge der Slides wurde gespeichert.' : 'The order of the slides has been saved.')
          .waitFor();
        assert.deepEqual(
          (await slides()).map((x) => x.id),
          [before[1]!.id, before[0]!.id, before[2]!.id],
        );
        assert.deepEqual(await axeViolations(page), [], `${lang} sliders`);
        await shoot(page, `sliders-${lang}`);
        await context.close();
      }
    });

    test('pages and posts: an editor edits a page with the keyboard, it saves through cms/v2 in place, and the public site shows it', async () => {
      await seedPages(t.app);
      const partners = (
        await server.inject({ method: 'GET', url: '/en/cms-json/cms/v2/pages?slug=partners' })
      ).json()[0];
      const context = await newContext();
      const page = await context.newPage();
      await signIn(page, 'emil', '/cms-admin/edit.php?post_type=page');
      assert.equal(await page.locator('nav.main-nav a[aria-current="page"]').textContent(), 'Pages and posts');
      assert.deepEqual(await axeViolations(page), []);
      await shoot(page, 'pages-en');
      // To the page's Edit link with the keyboard alone, then into the text.
      const edit = page.getByRole('link', { name: `Edit “${partners.title.rendered}”` });
      for (let i = 0; i < 80 && !(await isFocused(edit)); i++) await page.keyboard.press('Tab');
      assert.ok(await isFocused(edit), 'the Edit link is reachable by Tab');
      await page.keyboard.press('Enter');
      await page.waitForURL(/post\.php\?post=\d+&action=edit/);
      const title = page.getByLabel('Title', { exact: true });
      for (let i = 0; i < 40 && !(await isFocused(title)); i++) await page.keyboard.press('Tab');
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type('Partners and resellers');
      await page.keyboard.press('Tab');
      await page.keyboard.press('ControlOrMeta+End');
      await page.keyboard.type('\n\nEdited in the console.');
      const url = page.url();
      await page.getByRole('button', { name: 'Save', exact: true }).focus();
      await page.keyboard.press('Enter');
      await page.locator('#ct-save-state', { hasText: 'Saved.' }).waitFor();
      assert.equal(page.url(), url, 'saved without leaving the page');
      assert.deepEqual(await axeViolations(page), []);
      await page.goto(`${site}/en/partners/`);
      assert.match(await page.locator('main').innerText(), /Partners and resellers[\s\S]*Edited in the console\./);
      await context.close();

      // German, preview and trash through the script (cookie + nonce), each checked by axe.
      await t.app.db.updateTable('users').set({ locale: 'de' }).where('login', '=', 'emil').execute();
      const de = await newContext('de-DE');
      const dePage = await de.newPage();
      await signIn(dePage, 'emil', `/cms-admin/post.php?post=${partners.translations.de}&action=preview`);
      const german = (
        await server.inject({
          method: 'GET',
          url: `/en/cms-json/cms/v2/pages/${partners.translations.de}?context=edit`,
          headers: { authorization: users.emil!.authorization },
        })
      ).json();
      assert.equal(await dePage.getByRole('heading', { level: 1 }).textContent(), german.title.raw);
      assert.deepEqual(await axeViolations(dePage), []);
      const draft = (
        await server.inject({
          method: 'POST',
          url: '/de/cms-json/cms/v2/posts',
          headers: { authorization: users.emil!.authorization },
          payload: { title: 'Entwurf' },
        })
      ).json();
      await dePage.goto(`${site}/cms-admin/edit.php?post_type=post&post_status=draft`);
      assert.equal(await dePage.getByRole('heading', { level: 1 }).textContent(), 'Beiträge');
      assert.deepEqual(await axeViolations(dePage), []);
      await shoot(dePage, 'posts-de');
      await dePage.getByRole('button', { name: '„Entwurf“ in den Papierkorb legen' }).click();
      await dePage.waitForURL(/done=trashed/);
      assert.equal(
        (
          await server.inject({
            method: 'GET',
            url: `/en/cms-json/cms/v2/posts/${draft.id}?context=edit`,
            headers: { authorization: users.emil!.authorization },
          })
        ).json().status,
        'trash',
      );
      const edited = await dePage.goto(`${site}/cms-admin/post.php?post=${partners.translations.de}&action=edit`);
      assert.equal(edited?.status(), 200);
      assert.deepEqual(await axeViolations(dePage), []);
      await de.close();
      await t.app.db.updateTable('users').set({ locale: '' }).where('login', '=', 'emil').execute();
    });

    test('no request left the machine, no CSP violation, no script error', () => {
      assert.deepEqual(outside, []);
      assert.deepEqual(cspViolations, []);
      assert.deepEqual(pageErrors, []);
    });
  });
}
