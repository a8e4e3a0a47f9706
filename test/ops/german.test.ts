// The German site is German throughout: tagline and description, dates, the 404 page, the
// slider's links, and the authentication errors of the REST API under /de/.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/server/http.ts';
import { seedDemo } from '../../src/cli/seed.ts';
import { formatDate } from '../../src/pages/public.ts';
import { createAppPassword } from '../../src/auth/app-passwords.ts';
import { createUser } from '../../src/auth/users.ts';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { basicAuth } from '../support/http.ts';

const GERMAN_DATE =
  /\b\d{1,2}\. (Januar|Februar|März|April|Mai|Juni|Juli|August|September|Oktober|November|Dezember) \d{4}\b/;

for (const target of dbTargets()) {
  describe(`the German site (${target.name})`, () => {
    let t: TestApp;
    let server: FastifyInstance;
    before(async () => {
      t = await createTestApp(target);
      await seedDemo(t.app);
      server = await buildServer(t.app);
    });
    after(async () => {
      await server.close();
      await t.close();
    });
    const get = async (url: string) => server.inject({ method: 'GET', url });

    test('the tagline, and the description of pages without their own, are German under /de/', async () => {
      const de = await get('/de/neuigkeiten/');
      assert.match(de.body, /<p class="tagline">Partnerportal<\/p>/);
      assert.match(de.body, /<meta name="description" content="Partnerportal">/);
      assert.doesNotMatch(de.body, /Partner portal/);
      const en = await get('/en/news/');
      assert.match(en.body, /<p class="tagline">Partner portal<\/p>/);
    });

    test("news dates in each language's format", async () => {
      const de = await get('/de/neuigkeiten/');
      const deDate = /<p class="meta">([^<]*)<\/p>/.exec(de.body)![1]!;
      assert.match(deDate, GERMAN_DATE);
      const en = await get('/en/news/');
      assert.match(
        /<p class="meta">([^<]*)<\/p>/.exec(en.body)![1]!,
        /^(January|February|March|April|May|June|July|August|September|October|November|December) \d{1,2}, \d{4}$/,
      );
      assert.doesNotMatch(de.body + en.body, /class="meta">\d{4}-\d\d-\d\d/);
    });

    test("the 404 page under /de/ is German, in the site's layout; elsewhere English", async () => {
      const de = await get('/de/gibt-es-nicht/');
      assert.equal(de.statusCode, 404);
      assert.match(de.body, /<html lang="de">/);
      assert.match(de.body, /<h1>Seite nicht gefunden<\/h1>/);
      assert.match(de.body, /<style>/);
      assert.match(de.body, /<a class="site-title" href="http:\/\/localhost:8080\/de\/">/);
      assert.match(String(de.headers['content-security-policy']), /default-src 'none'/);
      for (const url of ['/en/nope/', '/nope', '/xx/']) {
        const en = await get(url);
        assert.equal(en.statusCode, 404, url);
        assert.match(en.body, /<html lang="en">[\s\S]*<h1>Page not found<\/h1>/, url);
      }
    });

    test('the slider links to the German pages under /de/, to the English ones under /en/', async () => {
      const links = (body: { slides: { link: string; layers: { link?: string }[] }[] }) =>
        body.slides.flatMap((s) => [s.link, ...s.layers.map((l) => l.link)]).filter(Boolean);
      const de = (await get('/de/cms-json/sliderx/sliders/home')).json();
      assert.deepEqual(links(de), ['/de/ueber-uns/', '/de/partner/', '/de/kontakt/']);
      const en = (await get('/en/cms-json/sliderx/sliders/home')).json();
      assert.deepEqual(links(en), ['/en/about/', '/en/partners/', '/en/contact/']);
      const modal = (await get('/de/cms-json/sliderx/sliders/modal/home')).json() as { html: string };
      assert.match(modal.html, /href="\/de\/ueber-uns\/"/);
      assert.doesNotMatch(modal.html, /href="\/en\//);
      const ids = (de.slides as { id: number }[]).map((s) => s.id).join(',');
      const stream = (await get(`/de/cms-json/sliderx/sliders/stream/${ids}`)).json() as { data: { link: string }[] };
      assert.deepEqual(stream.data.map((s) => s.link).filter(Boolean), ['/de/ueber-uns/', '/de/kontakt/']);
    });

    test('authentication errors in German under /de/ (codes unchanged), in English under /en/ or with i18n_language=en', async () => {
      const user = await createUser(t.app, { login: 'greta', email: 'greta@example.test', role: 'editor' });
      await createAppPassword(t.app, user.id, { name: 'laptop' });
      const call = (url: string, login: string) =>
        server.inject({
          method: 'GET',
          url,
          headers: { authorization: basicAuth(login, 'abcd abcd abcd abcd abcd abcd') },
        });
      const wrong = await call('/de/cms-json/', 'greta');
      assert.equal(wrong.statusCode, 401);
      assert.deepEqual(wrong.json(), {
        code: 'incorrect_password',
        message: 'Das angegebene Passwort ist kein gültiges Anwendungspasswort.',
        data: { status: 401 },
      });
      const unknown = await call('/de/cms-json/', 'niemand');
      assert.equal(unknown.json().code, 'invalid_username');
      assert.equal(
        unknown.json().message,
        '<strong>Fehler:</strong> Unbekannter Benutzername. Überprüfe ihn noch einmal oder versuche es mit deiner E-Mail-Adresse.',
      );
      assert.equal(
        (await call('/de/cms-json/', 'niemand@example.test')).json().message,
        '<strong>Fehler:</strong> Unbekannte E-Mail-Adresse. Überprüfe sie noch einmal oder versuche es mit deinem Benutzernamen.',
      );
      assert.equal(
        (await call('/en/cms-json/', 'greta')).json().message,
        'The provided password is an invalid application password.',
      );
      assert.equal(
        (await call('/de/cms-json/?i18n_language=en', 'greta')).json().message,
        'The provided password is an invalid application password.',
      );
      // A form body's i18n_language counts as for every other error of the request.
      const form = await server.inject({
        method: 'POST',
        url: '/de/cms-json/',
        headers: {
          authorization: basicAuth('greta', 'abcd abcd abcd abcd abcd abcd'),
          'content-type': 'application/x-www-form-urlencoded',
        },
        payload: 'i18n_language=en',
      });
      assert.equal(form.json().message, 'The provided password is an invalid application password.');
    });
  });
}

test("dates in the site's zone, written as each language writes them", async () => {
  const t = await createTestApp({ name: 'sqlite' });
  try {
    assert.equal(formatDate(t.app, 'de', '2026-11-25 10:00:00'), '25. November 2026');
    assert.equal(formatDate(t.app, 'en', '2026-11-25 10:00:00'), 'November 25, 2026');
    // 23:30 UTC on New Year's Eve is already the new year in Europe/Berlin.
    assert.equal(formatDate(t.app, 'de', '2026-12-31 23:30:00'), '1. Januar 2027');
  } finally {
    await t.close();
  }
});
