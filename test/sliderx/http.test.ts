// sliderx over HTTP: the lead's pipeline (buildServer + inject), both language roots.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/server/http.ts';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { seedDemo } from '../../src/namespaces/sliderx/seed.ts';
import { getSlides } from '../../src/namespaces/sliderx/store.ts';

for (const target of dbTargets()) {
  describe(`sliderx over HTTP (${target.name})`, () => {
    let t: TestApp;
    let server: FastifyInstance;
    let homeId: number;
    let slideIds: number[];
    before(async () => {
      t = await createTestApp(target);
      const res = await seedDemo(t.app);
      homeId = res[0]!.id;
      slideIds = (await getSlides(t.app, homeId)).map((s) => s.id);
      server = await buildServer(t.app);
    });
    after(async () => {
      await server.close();
      await t.close();
    });

    const get = (url: string, headers: Record<string, string> = {}) => server.inject({ method: 'GET', url, headers });

    test('every route answers, anonymously, with the slider shape', async () => {
      const cases: [string, (b: Record<string, unknown>) => void][] = [
        ['/en/cms-json/sliderx/sliders?alias=home', (b) => assert.equal(b.alias, 'home')],
        [`/en/cms-json/sliderx/sliders?id=${homeId}`, (b) => assert.equal(b.alias, 'home')],
        ['/en/cms-json/sliderx/sliders', (b) => assert.equal((b.sliders as unknown[]).length, 2)],
        ['/en/cms-json/sliderx/sliders/home', (b) => assert.equal(b.title, 'Home slider')],
        [`/en/cms-json/sliderx/sliders/${homeId}`, (b) => assert.equal(b.alias, 'home')],
        ['/de/cms-json/sliderx/sliders/home', (b) => assert.equal(b.title, 'Startseiten-Slider')],
        ['/en/cms-json/sliderx/sliders/home?i18n_language=de', (b) => assert.equal(b.title, 'Startseiten-Slider')],
        [`/en/cms-json/sliderx/sliders/slides/${slideIds[1]}`, (b) => assert.equal(b.alias, 'home')],
        [
          `/en/cms-json/sliderx/sliders/stream/${slideIds[2]},${slideIds[0]}`,
          (b) =>
            assert.deepEqual(
              (b.data as { id: number }[]).map((s) => s.id),
              [slideIds[2], slideIds[0]],
            ),
        ],
        [
          '/en/cms-json/sliderx/sliders/modal/home',
          (b) => assert.match(String(b.html), /^<div id="sliderx-modal-home"/),
        ],
        ['/?rest_route=/sliderx/sliders/home', () => {}],
      ];
      for (const [url, check] of cases) {
        const res = url.startsWith('/?') ? await get(`/en${url}`) : await get(url);
        assert.equal(res.statusCode, 200, url);
        const body = res.json() as Record<string, unknown>;
        assert.equal(body.success, true, url);
        assert.equal(body.message, '', url);
        check(body);
        assert.match(String(res.headers.etag), /^"[A-Za-z0-9_-]{32}"$/, url);
        assert.equal(res.headers['cache-control'], 'public, max-age=300', url);
        assert.match(String(res.headers['content-type']), /^application\/json/);
      }
    });

    test('literal prefixes are not captured by /sliders/<slider>', async () => {
      // "slides", "stream" and "modal" alone are slider aliases (none exists → 404 from /sliders/<slider>)
      for (const alias of ['slides', 'stream', 'modal']) {
        const res = await get(`/en/cms-json/sliderx/sliders/${alias}`);
        assert.equal(res.statusCode, 404);
        assert.equal(res.json().code, 'sliderx_not_found');
      }
      const stream = await get(`/en/cms-json/sliderx/sliders/stream/${slideIds[0]}`);
      assert.ok(Array.isArray(stream.json().data));
    });

    test('304 on If-None-Match', async () => {
      const first = await get('/en/cms-json/sliderx/sliders/home');
      const etag = String(first.headers.etag);
      const second = await get('/en/cms-json/sliderx/sliders/home', { 'if-none-match': etag });
      assert.equal(second.statusCode, 304);
      assert.equal(second.body, '');
      assert.equal(second.headers.etag, etag);
      const other = await get('/en/cms-json/sliderx/sliders/home', { 'if-none-match': '"other"' });
      assert.equal(other.statusCode, 200);
    });

    test('errors: honest statuses in the slider shape', async () => {
      const cases: [string, number, string][] = [
        ['/en/cms-json/sliderx/sliders/nope', 404, 'sliderx_not_found'],
        ['/en/cms-json/sliderx/sliders?alias=nope', 404, 'sliderx_not_found'],
        ['/en/cms-json/sliderx/sliders?id=x1', 400, 'sliderx_invalid_id'],
        ['/en/cms-json/sliderx/sliders/slides/999999', 404, 'sliderx_slide_not_found'],
        ['/en/cms-json/sliderx/sliders/stream/1,,2', 400, 'sliderx_invalid_slide_ids'],
        ['/en/cms-json/sliderx/sliders/stream/999998,999999', 404, 'sliderx_slides_not_found'],
        ['/en/cms-json/sliderx/sliders/stream/99999999999999999999', 404, 'sliderx_slides_not_found'],
        ['/en/cms-json/sliderx/sliders/modal/nope', 404, 'sliderx_not_found'],
        ['/en/cms-json/sliderx/sliders/4294967296', 404, 'sliderx_not_found'],
      ];
      for (const [url, status, code] of cases) {
        const res = await get(url);
        assert.equal(res.statusCode, status, url);
        const body = res.json();
        assert.equal(body.success, false, url);
        assert.equal(body.code, code, url);
        assert.equal(body.data.status, status, url);
        assert.equal(res.headers.etag, undefined);
      }
      const de = await get('/de/cms-json/sliderx/sliders/nope');
      assert.equal(de.json().message, 'Slider nicht gefunden.');
      // path shapes outside the patterns are no route at all
      assert.equal((await get('/en/cms-json/sliderx/sliders/slides/abc')).statusCode, 404);
      assert.equal((await get('/en/cms-json/sliderx/sliders/slides/abc')).json().code, 'rest_no_route');
      assert.equal((await get('/en/cms-json/sliderx/sliders/a.b')).json().code, 'rest_no_route');
      const post = await server.inject({ method: 'POST', url: '/en/cms-json/sliderx/sliders/home' });
      assert.equal(post.statusCode, 404);
      assert.equal(post.json().code, 'rest_no_route');
    });

    test('namespace index lists the routes in order', async () => {
      const res = await get('/en/cms-json/sliderx');
      assert.equal(res.statusCode, 200);
      assert.deepEqual(Object.keys(res.json().routes), [
        '/sliderx',
        '/sliderx/sliders',
        '/sliderx/sliders/slides/(?P<slide_id>\\d+)',
        '/sliderx/sliders/stream/(?P<slide_ids>[\\d,]+)',
        '/sliderx/sliders/modal/(?P<slider>[a-zA-Z0-9_-]+)',
        '/sliderx/sliders/(?P<slider>[a-zA-Z0-9_-]+)',
      ]);
    });
  });
}
