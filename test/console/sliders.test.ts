// The sliders page over HTTP (Fastify inject) on every database target: administrators only;
// the list and one slider's slides in both languages as the public API answers them; the order
// of slides changed through its form (ids kept, the public answer follows, the activity log has
// it); export and import in the CLI's format round-trip; a refused file changes nothing; German.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { seedDemo as seedSliders } from '../../src/namespaces/sliderx/seed.ts';
import { sliderxLogger } from '../../src/namespaces/sliderx/logger.ts';
import { dbTargets, type TestApp } from '../support/db.ts';
import { csrfOf, type WebClient } from '../web/support.ts';
import { api, consoleClient, closeConsoleSite, openConsoleSite, textOf, type SiteUser } from './support.ts';

const SLIDERS = '/cms-admin/admin.php?page=sliderx-sliders';

for (const target of dbTargets()) {
  describe(`sliders page (${target.name})`, () => {
    let t: TestApp;
    let server: FastifyInstance;
    let users: Record<string, SiteUser>;
    let ada: WebClient;

    before(async () => ({ t, server, users, ada } = await openConsoleSite(target, 10, seedSliders)));
    after(() => closeConsoleSite({ t, server }));

    const publicSlides = async (lang: 'en' | 'de') =>
      (await server.inject({ method: 'GET', url: `/${lang}/cms-json/sliderx/sliders/home` })).json().slides as {
        id: number;
        title: string;
      }[];

    test('administrators see the list and a slider in both languages; other roles are refused', async () => {
      for (const login of ['emil', 'tom', 'sina'])
        assert.equal((await (await consoleClient(server, login)).get(SLIDERS)).status, 403, login);
      const page = await ada.get(`${SLIDERS}&slider=home`);
      assert.equal(page.status, 200);
      assert.match(page.body, /<h1>Sliders<\/h1>/);
      assert.match(textOf(page.body), /Home slider home 3 .*partners/);
      const shown = [...page.body.matchAll(/<div lang="(en|de)">\s*<h3>([^<]*) <span/g)].map((m) => `${m[1]}:${m[2]}`);
      const [en, de] = [await publicSlides('en'), await publicSlides('de')];
      assert.deepEqual(
        shown,
        en.flatMap((s, i) => [`en:${s.title}`, `de:${de[i]!.title}`]),
      );
      assert.match(textOf(page.body), /text: Wachsen Sie mit unserem Partnerprogramm/);
      assert.equal((await ada.get(`${SLIDERS}&slider=nope`)).status, 200);
    });

    test('the order of slides: moved through the form, ids kept, the public answer follows', async () => {
      const before = await publicSlides('en');
      const page = await ada.get(`${SLIDERS}&slider=home`);
      const moved = await ada.post(`${SLIDERS}&slider=home`, {
        _csrf: csrfOf(page.body),
        action: 'move',
        slider: 'home',
        slide: String(before[0]!.id),
        direction: 'down',
      });
      assert.equal(moved.status, 303, textOf(moved.body).slice(0, 400));
      assert.match(textOf((await ada.get(moved.location!)).body), /The order of the slides has been saved\./);
      const after = await publicSlides('en');
      assert.deepEqual(
        after.map((s) => s.id),
        [before[1]!.id, before[0]!.id, before[2]!.id],
      );
      const events = await api(server, users.ada!, '/history/v1/events', 'per_page=5');
      const logged = events.body.find((e: { logger: string }) => e.logger === sliderxLogger.slug);
      assert.deepEqual(
        [logged.message_key, logged.initiator, logged.initiator_data.user_login],
        ['slider_updated', 'cms_user', 'ada'],
      );
      const top = await ada.post(`${SLIDERS}&slider=home`, {
        _csrf: csrfOf(page.body),
        action: 'move',
        slider: 'home',
        slide: String(after[0]!.id),
        direction: 'up',
      });
      assert.equal(top.status, 400, 'the first slide cannot move up');
    });

    test("export and import round-trip in the CLI's format; a refused file changes nothing", async () => {
      const file = await ada.get(`${SLIDERS}&download=export&slider=home`);
      assert.equal(file.status, 200);
      assert.match(String(file.headers['content-disposition']), /filename="slider-home\.json"/);
      const doc = JSON.parse(file.body);
      assert.equal(doc.version, 1);
      doc.sliders[0].alias = 'home-copy';
      doc.sliders[0].title = { en: 'Copy', de: 'Kopie' };
      const page = await ada.get(SLIDERS);
      const imported = await ada.post(SLIDERS, {
        _csrf: csrfOf(page.body),
        action: 'import',
        content: JSON.stringify(doc),
      });
      assert.equal(imported.status, 303, textOf(imported.body).slice(0, 400));
      const copy = (await server.inject({ method: 'GET', url: '/de/cms-json/sliderx/sliders/home-copy' })).json();
      assert.equal(copy.title, 'Kopie');
      assert.deepEqual(
        copy.slides.map((s: { title: string }) => s.title),
        (await publicSlides('de')).map((s) => s.title),
      );
      const all = JSON.parse((await ada.get(`${SLIDERS}&download=export`)).body);
      assert.deepEqual(all.sliders.map((s: { alias: string }) => s.alias).sort(), ['home', 'home-copy', 'partners']);

      const bad = await ada.post(SLIDERS, {
        _csrf: csrfOf(page.body),
        action: 'import',
        content: JSON.stringify({ version: 1, sliders: [{ alias: 'home', title: 'X', slides: [{ image: 5 }] }] }),
      });
      assert.equal(bad.status, 400);
      assert.match(textOf(bad.body), /The file was refused; nothing was changed: sliders\[0\]\.slides\[0\]\.image/);
      assert.match(bad.body, /&quot;alias&quot;:&quot;home&quot;/, 'the text stays in the form');
      assert.equal(
        (await server.inject({ method: 'GET', url: '/en/cms-json/sliderx/sliders/home' })).json().title,
        'Home slider',
      );
      const notJson = await ada.post(SLIDERS, { _csrf: csrfOf(page.body), action: 'import', content: '{' });
      assert.equal(notJson.status, 400);
      assert.match(textOf(notJson.body), /The text is not valid JSON/);
    });

    test('in German', async () => {
      const de = await consoleClient(server, 'ada');
      await de.post('/cms-admin/profile.php', {
        _csrf: csrfOf((await de.get('/cms-admin/profile.php')).body),
        action: 'language',
        locale: 'de',
        return_to: 'http://localhost:8080/cms-admin/',
      });
      const page = await de.get(`${SLIDERS}&slider=home`);
      assert.match(page.body, /<h1>Slider<\/h1>/);
      assert.match(textOf(page.body), /Startseiten-Slider/);
      assert.match(textOf(page.body), /Nach unten/);
    });
  });
}
