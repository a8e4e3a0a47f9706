// The API reference page (/cms-api/<lang>/) in real Chromium (Debian's, driven by playwright-core)
// (SQLite): Swagger UI loads from the server itself, renders every operation of
// the OpenAPI document, shows the German descriptions under /de/, and the page requests nothing
// outside the server, breaks no CSP rule and throws no error.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { CHROMIUM_SKIP, launchChromium } from '../support/browser.ts';
import { buildServer } from '../../src/server/http.ts';
import { dbTargets, createTestApp, type TestApp } from '../support/db.ts';
import { freePort } from '../support/net.ts';

// In CI a missing browser fails the run (the launch throws); elsewhere the tests are skipped.
const SKIP = CHROMIUM_SKIP;

// The page reads nothing from the database but the site's name: one target is enough.
for (const target of dbTargets().slice(0, 1)) {
  describe(`API reference page in Chromium (${target.name})`, { skip: SKIP }, () => {
    let t: TestApp;
    let server: FastifyInstance;
    let site: string;
    let browser: Browser;
    let context: BrowserContext;
    const outside: string[] = [];
    const requested: string[] = [];
    const cspViolations: string[] = [];
    const pageErrors: string[] = [];

    async function open(path: string): Promise<Page> {
      const page = await context.newPage();
      page.on('console', (msg) => {
        if (/Content.Security.Policy|Refused to/i.test(msg.text())) cspViolations.push(msg.text());
      });
      page.on('pageerror', (err) => pageErrors.push(err.message));
      const res = await page.goto(site + path);
      assert.equal(res?.status(), 200);
      // Swagger UI has fetched and rendered the document (its namespaces folded).
      await page.locator('.opblock-tag').first().waitFor();
      return page;
    }

    before(async () => {
      const port = await freePort();
      site = `http://127.0.0.1:${port}`;
      t = await createTestApp(target, { SITE_URL: site, PORT: String(port) });
      server = await buildServer(t.app);
      await server.listen({ port, host: '127.0.0.1' });
      browser = await launchChromium();
      context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      context.setDefaultTimeout(15_000);
      await context.route('**/*', (route) => {
        const url = route.request().url();
        requested.push(url);
        if (new URL(url).hostname === '127.0.0.1') return route.continue();
        outside.push(url);
        return route.abort();
      });
    });

    after(async () => {
      await browser?.close();
      await server?.close();
      await t?.close();
    });

    test('the English page lists every operation of the document, one namespace unfolded at a time', async () => {
      const page = await open('/cms-api/en/');
      const doc = (await server.inject({ method: 'GET', url: '/cms-api/en/openapi.json' })).json() as {
        tags: { name: string }[];
        paths: Record<string, Record<string, unknown>>;
      };
      const expected = Object.entries(doc.paths)
        .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
        .sort();
      assert.deepEqual(
        await page
          .locator('.opblock-tag')
          .evaluateAll((els: { dataset: { tag?: string } }[]) => els.map((el) => el.dataset.tag)),
        doc.tags.map((t) => t.name),
      );
      const shown: string[] = [];
      for (const { name } of doc.tags) {
        const tag = page.locator(`.opblock-tag[data-tag="${name}"]`);
        await tag.click();
        const section = page.locator('.opblock-tag-section', { has: tag });
        await section.locator('.opblock').first().waitFor();
        shown.push(
          ...(await section
            .locator('.opblock-summary')
            .evaluateAll((els: { querySelector(s: string): { textContent: string | null } | null }[]) =>
              els.map(
                (el) =>
                  `${el.querySelector('.opblock-summary-method')?.textContent} ${el.querySelector('.opblock-summary-path')?.textContent?.replace(/\u200b/g, '')}`,
              ),
            )),
        );
        await tag.click();
      }
      assert.deepEqual(shown.sort(), expected);
      assert.equal(await page.locator('html').getAttribute('lang'), 'en');
      await page.close();
    });

    test('the German page shows German descriptions', async () => {
      const page = await open('/cms-api/de/');
      assert.equal(await page.locator('html').getAttribute('lang'), 'de');
      await page.locator('.opblock-tag[data-tag="history/v1"]').click();
      await page.locator('.opblock-summary', { hasText: '/history/v1/stats/summary' }).first().click();
      await page.getByText('Erfordert die Berechtigung').first().waitFor();
      assert.ok(await page.getByText('Sprache der Antwort').first().isVisible());
      await page.close();
    });

    test('nothing but the server is contacted; no CSP violation, no script error', () => {
      assert.deepEqual(outside, []);
      assert.ok(
        requested.some((url) => url.endsWith('/cms-api/en/openapi.json')),
        'the document was fetched from the server',
      );
      assert.ok(requested.some((url) => url.endsWith('/cms-api/assets/swagger-ui-bundle.js')));
      assert.deepEqual(cspViolations, []);
      assert.deepEqual(pageErrors, []);
    });
  });
}
