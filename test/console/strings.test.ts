// The string translation page over HTTP (Fastify inject) on every database target: who may
// open it, its filters against the API's answer for the same query, saving a translation
// through its form (the public German page shows it), a translator's own strings only, bulk
// actions, the settings, German texts.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/server/http.ts';
import { seedDemo as seedPages } from '../../src/pages/seed.ts';
import { LABELS_DOMAIN } from '../../src/pages/labels.ts';
import { seedDemo as seedStrings } from '../../src/namespaces/i18n-st/seed.ts';
import { findStringId } from '../../src/namespaces/i18n-st/string-lookup.ts';
import { dbTargets, type TestApp } from '../support/db.ts';
import { createWebTestApp, csrfOf, decodeEntities, type WebClient } from '../web/support.ts';
import { STRINGS, api, consoleClient, seedConsoleSite, textOf, type SiteUser } from './support.ts';
import { insertStringJob } from '../i18n-tm/fixtures.ts';

/** Ids of the strings a page lists, in order. */
function listedStrings(html: string): number[] {
  return [...html.matchAll(/<li class="string-item" id="string-(\d+)">/g)].map((m) => Number(m[1]));
}

for (const target of dbTargets()) {
  describe(`string translation page (${target.name})`, () => {
    let t: TestApp;
    let server: FastifyInstance;
    let users: Record<string, SiteUser>;
    let ada: WebClient;
    let tom: WebClient;
    let menuId: number;

    before(async () => {
      t = await createWebTestApp(target);
      server = await buildServer(t.app);
      users = await seedConsoleSite(t.app, 20);
      await seedPages(t.app);
      await seedStrings(t.app);
      ada = await consoleClient(server, 'ada');
      tom = await consoleClient(server, 'tom');
      menuId = (await findStringId(t.app, { domain: LABELS_DOMAIN, name: 'menu' }))!;
    });
    after(async () => {
      await server?.close();
      await t?.close();
    });

    test('managers and translators open it; other roles are refused', async () => {
      for (const login of ['emil', 'sina']) {
        const res = await (await consoleClient(server, login)).get(STRINGS);
        assert.equal(res.status, 403, login);
      }
      const page = await ada.get(STRINGS);
      assert.equal(page.status, 200);
      assert.match(page.body, /<h1>String Translation<\/h1>/);
      assert.match(page.body, /id="st-settings"/, 'managers see the settings');
      const mine = await tom.get(STRINGS);
      assert.equal(mine.status, 200);
      assert.doesNotMatch(mine.body, /id="st-settings"/);
      assert.deepEqual(listedStrings(mine.body), [], 'nothing is assigned to Tom yet');
    });

    test("the filters in the address give the API's answer for the same query, paged", async () => {
      const cases: [string, string][] = [
        ['', 'limit=20'],
        ['&domain=sched', 'limit=20&domain=sched'],
        ['&status=3&language=de', 'limit=20&translationStatuses[]=3&targetLanguageCode=de'],
        ['&search=open&context=button', 'limit=20&title=open&context=button'],
        ['&paged=2', 'limit=20&offset=20'],
      ];
      for (const [query, apiQuery] of cases) {
        const page = await ada.get(STRINGS + query);
        assert.equal(page.status, 200, query);
        const answer = await api(server, users.ada!, '/i18n/st/v1/strings/translations', apiQuery);
        assert.deepEqual(
          listedStrings(page.body),
          answer.body.items.map((i: { id: number }) => i.id),
          query,
        );
        assert.match(textOf(page.body), new RegExp(`${answer.body.totalCount} strings`), query);
      }
      const first = await ada.get(STRINGS);
      assert.match(first.body, /aria-label="Pages of strings"/);
      const next = /<a href="([^"]*)" rel="next">/.exec(first.body)![1]!;
      assert.deepEqual(Object.fromEntries(new URL(decodeEntities(next)).searchParams), {
        page: 'i18n-st/menu/string-translation.php',
        paged: '2',
      });
      const bad = await ada.get(`${STRINGS}&search=${'x'.repeat(1001)}`);
      assert.equal(bad.status, 400);
      assert.match(textOf(bad.body), /title must be at most 1000 characters long/);
    });

    test('saving a translation through the form (no script): the public German page shows it and the activity log has it', async () => {
      const page = await ada.get(`${STRINGS}&domain=${LABELS_DOMAIN}&search=Menu`);
      assert.ok(listedStrings(page.body).includes(menuId));
      const saved = await ada.post(STRINGS, {
        _csrf: csrfOf(page.body),
        action: 'save',
        string_id: String(menuId),
        language: 'de',
        value: 'Seitenmenü',
        status: '10',
        return_to: `http://localhost:8080${STRINGS}&domain=${LABELS_DOMAIN}`,
      });
      assert.equal(saved.status, 303, saved.body);
      const location = new URL(saved.location!);
      assert.deepEqual(Object.fromEntries(location.searchParams), {
        page: 'i18n-st/menu/string-translation.php',
        domain: LABELS_DOMAIN,
        done: 'saved',
      });
      assert.equal(location.hash, `#string-${menuId}`);
      const back = await ada.get(saved.location!);
      assert.match(textOf(back.body), /The translation has been saved\./);
      assert.match(back.body, />Seitenmenü<\/textarea>/);
      const publicPage = await server.inject({ method: 'GET', url: '/de/neuigkeiten/' });
      assert.match(publicPage.body, /<nav aria-label="Seitenmenü">/);
      const events = await api(server, users.ada!, '/history/v1/events', 'per_page=1');
      assert.match(events.body[0].message, /Translated the string "Menu" .* into de: "Seitenmenü"/);
      const badCsrf = await ada.post(STRINGS, {
        _csrf: 'nope',
        action: 'save',
        string_id: String(menuId),
        language: 'de',
        value: 'x',
        status: '10',
      });
      assert.equal(badCsrf.status, 403);
      const empty = await ada.post(STRINGS, {
        _csrf: csrfOf(page.body),
        action: 'save',
        string_id: String(menuId),
        language: 'de',
        value: '',
        status: '10',
      });
      assert.equal(empty.status, 400);
      assert.match(textOf(empty.body), /A complete translation, or one that needs an update, needs a text\./);
    });

    test('a translator sees and saves only the strings assigned to them', async () => {
      await insertStringJob(t.app, users.tom!.id, { type: 'string', stringId: menuId });
      const page = await tom.get(STRINGS);
      assert.deepEqual(listedStrings(page.body), [menuId]);
      const ok = await tom.post(STRINGS, {
        _csrf: csrfOf(page.body),
        action: 'save',
        string_id: String(menuId),
        language: 'de',
        value: 'Menü',
        status: '3',
      });
      assert.equal(ok.status, 303);
      const other = (await findStringId(t.app, { domain: LABELS_DOMAIN, name: 'posts' }))!;
      const refused = await tom.post(STRINGS, {
        _csrf: csrfOf(page.body),
        action: 'save',
        string_id: String(other),
        language: 'de',
        value: 'Artikel',
        status: '10',
      });
      assert.equal(refused.status, 403);
      assert.match(textOf(refused.body), /You may only translate strings assigned to you/);
    });

    test('bulk actions and the settings through their forms', async () => {
      const page = await ada.get(`${STRINGS}&domain=${LABELS_DOMAIN}`);
      const ids = listedStrings(page.body).slice(0, 3).map(String);
      const done = await ada.post(STRINGS, {
        _csrf: csrfOf(page.body),
        action: 'bulk',
        bulk_action: 'status:3',
        'ids[]': ids,
        return_to: `http://localhost:8080${STRINGS}`,
      });
      assert.equal(done.status, 303, done.body);
      assert.match(textOf((await ada.get(done.location!)).body), /3 translations changed\./);
      const statuses = await t.app.db
        .selectFrom('i18n_st_translations')
        .select('status')
        .where('string_id', 'in', ids.map(Number))
        .where('language', '=', 'de')
        .execute();
      assert.deepEqual(
        statuses.map((s) => s.status),
        [3, 3, 3],
      );
      const none = await ada.post(STRINGS, { _csrf: csrfOf(page.body), action: 'bulk', bulk_action: 'delete' });
      assert.equal(none.status, 400);

      const settings = await ada.post(STRINGS, {
        _csrf: csrfOf(page.body),
        action: 'settings',
        autoregisterType: '1',
        setDetectStringsInJS: '1',
      });
      assert.equal(settings.status, 303);
      const stored = await api(server, users.ada!, '/i18n/st/v1/strings/settings');
      assert.deepEqual(
        [stored.body.autoregisterType, stored.body.shouldRegisterBackendStrings, stored.body.detectStringsInJS],
        [1, 0, 1],
      );
      const shown = await ada.get(settings.location!);
      assert.match(shown.body, /<option value="1" selected>From pages viewed by everyone<\/option>/);
      const tomSettings = await tom.post(STRINGS, {
        _csrf: csrfOf((await tom.get(STRINGS)).body),
        action: 'settings',
        autoregisterType: '2',
      });
      assert.equal(tomSettings.status, 400, 'translators have no settings action');
    });

    test('in German', async () => {
      const de = await consoleClient(server, 'tom');
      await de.post('/cms-admin/profile.php', {
        _csrf: csrfOf((await de.get('/cms-admin/profile.php')).body),
        action: 'language',
        locale: 'de',
        return_to: 'http://localhost:8080/cms-admin/',
      });
      const page = await de.get(STRINGS);
      assert.match(page.body, /<html lang="de">/);
      assert.match(page.body, /<h1>String-Übersetzung<\/h1>/);
      assert.match(textOf(page.body), /Übersetzung nach Deutsch/);
      assert.match(textOf(page.body), /Status der Übersetzung nach Deutsch/);
    });
  });
}
