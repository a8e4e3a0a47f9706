import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Parser } from 'htmlparser2';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { seedDemo, DEMO_SLIDERS } from '../../src/namespaces/sliderx/seed.ts';
import { parseImport } from '../../src/namespaces/sliderx/import-check.ts';
import { exportSliders, getSlides, getSliderByAlias } from '../../src/namespaces/sliderx/store.ts';
import {
  getModal,
  getSlider,
  getSliderOfSlide,
  getSliders,
  getStream,
  importSliders,
  matchesIfNoneMatch,
} from '../../src/namespaces/sliderx/service.ts';
import { sliderxNamespace } from '../../src/namespaces/sliderx/routes.ts';
import { sliderExportCommand, sliderImportCommand } from '../../src/namespaces/sliderx/commands.ts';
import { CliError, type CliContext } from '../../src/cli/command.ts';
import { RestResponse, type RestError } from '../../src/rest/types.ts';
import { fakeRequest } from './fake-request.ts';

const XSS = `"><script>alert('x')</script><img src=x onerror=alert(1)>&amp;`;

function parse(html: string) {
  const tags: { name: string; attrs: Record<string, string> }[] = [];
  let text = '';
  const p = new Parser(
    {
      onopentag(name, attrs) {
        tags.push({ name, attrs });
      },
      ontext(t) {
        text += t;
      },
    },
    { decodeEntities: true },
  );
  p.write(html);
  p.end();
  return { tags, text };
}

function capture(): { stream: NodeJS.WritableStream; text: () => string } {
  let out = '';
  const stream = {
    write(chunk: string) {
      out += chunk;
      return true;
    },
  } as unknown as NodeJS.WritableStream;
  return { stream, text: () => out };
}

const rejectsWith = (code: string, status: number) => (e: RestError) => {
  assert.equal(e.code, code);
  assert.equal(e.status, status);
  return true;
};

test('route patterns and order: literal prefixes before /sliders/<slider>', () => {
  assert.deepEqual(
    sliderxNamespace.routes.map((r) => r.path),
    [
      '/sliders',
      '/sliders/slides/(?P<slide_id>\\d+)',
      '/sliders/stream/(?P<slide_ids>[\\d,]+)',
      '/sliders/modal/(?P<slider>[a-zA-Z0-9_-]+)',
      '/sliders/(?P<slider>[a-zA-Z0-9_-]+)',
    ],
  );
  for (const r of sliderxNamespace.routes) {
    assert.equal(r.endpoints.length, 1);
    assert.deepEqual(r.endpoints[0]!.methods, ['GET']);
    assert.equal(r.endpoints[0]!.permission.kind, 'public');
    // The query parameters the original reads are declared internal: the index lists none.
    assert.ok(Object.values(r.endpoints[0]!.args).every((arg) => arg.internal));
  }
});

test('import validation reports every problem with its path', () => {
  const { issues } = parseImport({
    sliders: [
      {
        alias: 'bad alias',
        title: '',
        settings: { layout: 'huge', delay: 5, modal: { bg: 'red;background:url(x)' }, extra: 1 },
        slides: [
          {
            image: 'javascript:alert(1)',
            params: { transition: 'spin' },
            layers: [
              { id: 'a', type: 'laser', content: 'x' },
              { id: 'a', type: 'image', content: 'data:text/html,x' },
            ],
          },
        ],
      },
      { alias: '123', title: { fr: 'x' } },
      { alias: 'dup', title: 'x' },
      { alias: 'dup', title: 'y' },
    ],
  });
  const expected = [
    'sliders[0].alias',
    'sliders[0].title',
    'sliders[0].settings.extra',
    'sliders[0].settings.modal.bg',
    'sliders[0].settings.layout',
    'sliders[0].settings.delay',
    'sliders[0].slides[0].image',
    'sliders[0].slides[0].params.transition',
    'sliders[0].slides[0].layers[0].type',
    'sliders[0].slides[0].layers[1].content',
    'sliders[0].slides[0].layers[1].id',
    'sliders[1].alias',
    'sliders[1].title.fr',
    'sliders[3].alias',
  ];
  for (const p of expected)
    assert.ok(
      issues.some((i) => i.startsWith(p + ':')),
      `${p} in ${issues.join('\n')}`,
    );
  assert.deepEqual(parseImport([]).issues, ['(file): must be a JSON object: {"sliders": [...]} or one slider']);
  assert.deepEqual(parseImport({ sliders: [] }).issues, ['sliders: is empty']);
  assert.deepEqual(parseImport(DEMO_SLIDERS).issues, []);
  const single = parseImport({ alias: 'one', title: 'One' });
  assert.deepEqual(single.issues, []);
  assert.equal(single.sliders[0]!.settings.layout, 'auto', 'defaults filled in');
});

test('If-None-Match matching', () => {
  assert.ok(matchesIfNoneMatch('"abc"', '"abc"'));
  assert.ok(matchesIfNoneMatch('W/"abc"', '"abc"'));
  assert.ok(matchesIfNoneMatch('"x", "abc"', '"abc"'));
  assert.ok(matchesIfNoneMatch('*', '"abc"'));
  assert.ok(!matchesIfNoneMatch('"abd"', '"abc"'));
  assert.ok(!matchesIfNoneMatch(undefined, '"abc"'));
});

for (const target of dbTargets()) {
  describe(`sliderx (${target.name})`, () => {
    let t: TestApp;
    let homeId: number;
    let slideIds: number[];
    let partnerSlideIds: number[];
    before(async () => {
      t = await createTestApp(target);
      const res = await seedDemo(t.app);
      assert.deepEqual(
        res.map((r) => [r.alias, r.action, r.slides]),
        [
          ['home', 'created', 3],
          ['partners', 'created', 2],
        ],
      );
      assert.deepEqual(await seedDemo(t.app), [], 'seeding twice changes nothing');
      homeId = res[0]!.id;
      slideIds = (await getSlides(t.app, homeId)).map((s) => s.id);
      partnerSlideIds = (await getSlides(t.app, res[1]!.id)).map((s) => s.id);
    });
    after(async () => t.close());

    test('imports are recorded in the activity log', async () => {
      const rows = await t.app.db
        .selectFrom('history_events')
        .select(['logger', 'message_key', 'initiator'])
        .where('logger', '=', 'SliderxLogger')
        .orderBy('id')
        .execute();
      assert.deepEqual(
        rows.slice(0, 2).map((r) => [r.message_key, r.initiator]),
        [
          ['slider_created', 'cms_cli'],
          ['slider_created', 'cms_cli'],
        ],
      );
    });

    test('GET /sliders by alias, by id, list, errors', async () => {
      const byAlias = await getSliders(t.app, { alias: 'home' }, 'en');
      assert.deepEqual(Object.keys(byAlias), [
        'success',
        'message',
        'id',
        'alias',
        'title',
        'settings',
        'slides',
        'static_slide',
      ]);
      assert.equal(byAlias.success, true);
      assert.equal(byAlias.message, '');
      assert.equal(byAlias.title, 'Home slider');
      const slides = byAlias.slides as Record<string, unknown>[];
      assert.deepEqual(
        slides.map((s) => s.id),
        slideIds,
      );
      assert.deepEqual(
        slides.map((s) => s.order),
        [0, 1, 2],
      );
      assert.deepEqual(Object.keys(slides[0]!), [
        'id',
        'slider_id',
        'order',
        'title',
        'image',
        'thumb',
        'link',
        'params',
        'layers',
      ]);
      assert.deepEqual(slides[0]!.layers, [
        { id: 'headline', type: 'text', content: 'Grow with our partner programme', position: { x: 80, y: 120 } },
        { id: 'cta', type: 'button', content: 'Learn more', link: '/en/partners/', position: { x: 80, y: 260 } },
      ]);
      const de = await getSliders(t.app, { id: String(homeId) }, 'de');
      assert.equal(de.title, 'Startseiten-Slider');
      assert.equal((de.slides as Record<string, unknown>[])[0]!.title, 'Willkommen');
      const list = await getSliders(t.app, {}, 'de');
      assert.deepEqual(list, {
        success: true,
        message: '',
        sliders: [
          { id: homeId, alias: 'home', title: 'Startseiten-Slider', slides: 3 },
          { id: homeId + 1, alias: 'partners', title: 'Partnerlogos', slides: 2 },
        ],
      });
      await assert.rejects(getSliders(t.app, { alias: 'nope' }, 'en'), rejectsWith('sliderx_not_found', 404));
      await assert.rejects(getSliders(t.app, { id: '999999' }, 'en'), rejectsWith('sliderx_not_found', 404));
      await assert.rejects(
        getSliders(t.app, { id: '99999999999999999999' }, 'en'),
        rejectsWith('sliderx_not_found', 404),
      );
      await assert.rejects(getSliders(t.app, { id: 'abc' }, 'en'), rejectsWith('sliderx_invalid_id', 400));
      const filtered = await getSliders(t.app, { alias: 'home', slideid: `${slideIds[2]},${slideIds[0]}` }, 'en');
      assert.deepEqual(
        (filtered.slides as { id: number }[]).map((s) => s.id),
        [slideIds[0], slideIds[2]],
      );
      await assert.rejects(
        getSliders(t.app, { alias: 'home', slideid: 'x' }, 'en'),
        rejectsWith('sliderx_invalid_slideid', 400),
      );
    });

    test('GET /sliders/<slider>: numeric id or alias', async () => {
      assert.equal((await getSlider(t.app, String(homeId), {}, 'en')).alias, 'home');
      assert.equal((await getSlider(t.app, 'partners', {}, 'en')).alias, 'partners');
      await assert.rejects(
        getSlider(t.app, String(homeId), { aliasFlag: true }, 'en'),
        rejectsWith('sliderx_not_found', 404),
      );
      await assert.rejects(getSlider(t.app, 'missing', {}, 'en'), rejectsWith('sliderx_not_found', 404));
      await assert.rejects(getSlider(t.app, '4294967296', {}, 'en'), rejectsWith('sliderx_not_found', 404));
    });

    test('GET /sliders/slides/<slide_id>: the parent slider', async () => {
      const r = await getSliderOfSlide(t.app, String(partnerSlideIds[1]), {}, 'en');
      assert.equal(r.alias, 'partners');
      await assert.rejects(getSliderOfSlide(t.app, '999999', {}, 'en'), rejectsWith('sliderx_slide_not_found', 404));
      await assert.rejects(
        getSliderOfSlide(t.app, '3000000000', {}, 'en'),
        rejectsWith('sliderx_slide_not_found', 404),
      );
    });

    test('GET /sliders/stream/<ids>: order kept, duplicates once, unknown listed', async () => {
      const [a, b, c] = slideIds as [number, number, number];
      const p = partnerSlideIds[0]!;
      const r = await getStream(t.app, `${c},${p},${a},${c},999999,${a}`, 'de');
      assert.deepEqual(Object.keys(r), ['success', 'message', 'data', 'missing', 'duplicates']);
      const data = r.data as Record<string, unknown>[];
      assert.deepEqual(
        data.map((s) => s.id),
        [c, p, a],
      );
      assert.deepEqual(
        data.map((s) => s.slider_alias),
        ['home', 'partners', 'home'],
      );
      assert.equal(data[0]!.title, 'Kontakt');
      assert.deepEqual(r.missing, [999999]);
      assert.deepEqual(r.duplicates, [c, a]);
      const one = await getStream(t.app, String(b), 'en');
      assert.deepEqual(
        (one.data as { id: number }[]).map((s) => s.id),
        [b],
      );
      assert.deepEqual(one.missing, []);
      await assert.rejects(getStream(t.app, '999998,999999', 'en'), rejectsWith('sliderx_slides_not_found', 404));
      await assert.rejects(
        getStream(t.app, '99999999999999999999', 'en'),
        rejectsWith('sliderx_slides_not_found', 404),
      );
      for (const bad of [',', '1,,2', ',1', '1,', ''])
        await assert.rejects(getStream(t.app, bad, 'en'), rejectsWith('sliderx_invalid_slide_ids', 400), bad);
      await assert.rejects(
        getStream(t.app, Array.from({ length: 101 }, (_, i) => i + 1).join(','), 'en'),
        rejectsWith('sliderx_too_many_slide_ids', 400),
      );
    });

    test('GET /sliders/modal/<slider>: modal data and escaped markup', async () => {
      const m = await getModal(t.app, 'home', {}, 'en');
      assert.deepEqual(Object.keys(m), ['success', 'message', 'id', 'alias', 'bg', 'sp', 'addons', 'htmlid', 'html']);
      assert.equal(m.bg, 'rgba(0,0,0,0.5)');
      assert.equal(m.sp, 1);
      assert.deepEqual(m.addons, []);
      assert.equal(m.htmlid, 'sliderx-modal-home');
      const { tags } = parse(String(m.html));
      assert.equal(tags[0]!.attrs.id, 'sliderx-modal-home');
      assert.equal(tags.filter((x) => x.name === 'li').length, 3);
      assert.ok(tags.some((x) => x.name === 'a' && x.attrs.href === '/en/partners/'));
      const noCover = await getModal(t.app, 'partners', {}, 'de');
      assert.equal(noCover.bg, '');
      assert.equal(noCover.sp, '');
      assert.ok(parse(String(noCover.html)).tags.some((x) => x.name === 'img' && x.attrs.class === 'sliderx-thumb'));
      assert.equal((await getModal(t.app, String(homeId), {}, 'en')).alias, 'home');
      await assert.rejects(getModal(t.app, 'missing', {}, 'en'), rejectsWith('sliderx_not_found', 404));
    });

    test('XSS payloads in every text stay text in the modal HTML', async () => {
      const { sliders, issues } = parseImport({
        alias: 'evil',
        title: { en: XSS, de: XSS },
        slides: [
          {
            title: XSS,
            image: `https://img.example/a.jpg?"><script>`,
            thumb: '/t.png?"onerror="x',
            link: `https://x.example/"><script>`,
            layers: [
              { id: 't', type: 'text', content: XSS },
              { id: 'b', type: 'button', content: XSS, link: 'https://x.example/?q="><b>' },
              { id: 'i', type: 'image', content: 'https://x.example/i.png', alt: XSS },
              { id: 'v', type: 'video', content: 'https://x.example/v.mp4?"><x>' },
            ],
          },
        ],
        settings: { navigation: { thumbnails: true } },
      });
      assert.deepEqual(issues, []);
      await importSliders(t.app, sliders);
      for (const lang of ['en', 'de'] as const) {
        const m = await getModal(t.app, 'evil', {}, lang);
        const { tags, text } = parse(String(m.html));
        assert.ok(!tags.some((x) => x.name === 'script'));
        assert.ok(
          !tags.some((x) => Object.keys(x.attrs).some((a) => a.startsWith('on'))),
          'no event handler attributes',
        );
        assert.ok(!tags.some((x) => x.name === 'img' && x.attrs.src === 'x'));
        assert.ok(!tags.some((x) => x.name === 'b' || x.name === 'x'));
        assert.ok(text.includes(`<script>alert('x')</script>`));
        assert.equal(tags[0]!.attrs['aria-label'], XSS);
      }
      const j = await getSliders(t.app, { alias: 'evil' }, 'en');
      assert.equal(j.title, XSS, 'JSON keeps the text as it is');
    });

    test('javascript: URLs cannot be imported', async () => {
      const { issues } = parseImport({
        alias: 'js',
        title: 'x',
        slides: [
          {
            link: 'javascript:alert(1)',
            layers: [{ id: 'b', type: 'button', content: 'x', link: 'JaVaScRiPt:alert(1)' }],
          },
        ],
      });
      assert.deepEqual(issues, [
        'slider.slides[0].link: must be an http(s) URL or a path starting with /',
        'slider.slides[0].layers[0].link: must be an http(s) URL or a path starting with /',
      ]);
    });

    test('a failed activity-log write after the import is reported in the server log, not thrown', async () => {
      const { sliders, issues } = parseImport({ alias: 'unlogged', title: 'Unlogged', slides: [] });
      assert.deepEqual(issues, []);
      const { activity, log } = t.app;
      const logWrite = activity.log;
      const logError = log.error;
      const reported: string[] = [];
      activity.log = async () => Promise.reject(new Error('activity log unavailable'));
      log.error = ((_obj: unknown, msg: string) => void reported.push(msg)) as typeof log.error;
      try {
        const [res] = await importSliders(t.app, sliders);
        assert.equal(res!.action, 'created');
      } finally {
        activity.log = logWrite;
        log.error = logError;
      }
      assert.ok(await getSliderByAlias(t.app, 'unlogged'), 'the slider was written');
      assert.deepEqual(reported, ['activity log write failed']);
    });

    test('handlers: ETag, Cache-Control, 304, error shape', async () => {
      const req = fakeRequest(t.app, { params: { slider: 'home' } });
      const route = sliderxNamespace.routes[4]!;
      const r = (await route.endpoints[0]!.handler(req)) as RestResponse;
      assert.ok(r instanceof RestResponse);
      assert.equal(r.status, 200);
      assert.match(r.headers.ETag!, /^"[A-Za-z0-9_-]{32}"$/);
      assert.equal(r.headers['Cache-Control'], 'public, max-age=300');
      assert.equal((r.body as Record<string, unknown>).alias, 'home');
      const again = (await route.endpoints[0]!.handler(
        fakeRequest(t.app, { params: { slider: 'home' }, headers: { 'if-none-match': r.headers.ETag! } }),
      )) as RestResponse;
      assert.equal(again.status, 304);
      assert.equal(again.body, null);
      assert.equal(again.headers.ETag, r.headers.ETag);
      const de = (await route.endpoints[0]!.handler(
        fakeRequest(t.app, { lang: 'de', params: { slider: 'home' }, headers: { 'if-none-match': r.headers.ETag! } }),
      )) as RestResponse;
      assert.equal(de.status, 200, 'another language, another ETag');
      assert.notEqual(de.headers.ETag, r.headers.ETag);
      const missing = (await route.endpoints[0]!.handler(
        fakeRequest(t.app, { params: { slider: 'nope' } }),
      )) as RestResponse;
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.body, {
        success: false,
        message: 'Slider not found.',
        code: 'sliderx_not_found',
        data: { status: 404 },
      });
      assert.equal(missing.headers.ETag, undefined);
      const missingDe = (await route.endpoints[0]!.handler(
        fakeRequest(t.app, { lang: 'de', params: { slider: 'nope' } }),
      )) as RestResponse;
      assert.equal((missingDe.body as { message: string }).message, 'Slider nicht gefunden.');
      const list = (await sliderxNamespace.routes[0]!.endpoints[0]!.handler(
        fakeRequest(t.app, { params: { alias: 'partners' } }),
      )) as RestResponse;
      assert.equal((list.body as Record<string, unknown>).alias, 'partners');
      const stream = (await sliderxNamespace.routes[2]!.endpoints[0]!.handler(
        fakeRequest(t.app, { params: { slide_ids: '1,,2' } }),
      )) as RestResponse;
      assert.equal(stream.status, 400);
    });

    test('re-import replaces a slider, keeps slide ids it names; export round-trips', async () => {
      const before = await exportSliders(t.app, [(await getSliderByAlias(t.app, 'home'))!]);
      const home = structuredClone(before.sliders[0]!);
      const keptId = home.slides[1]!.id!;
      home.title = { en: 'Home v2', de: 'Start v2' };
      home.slides = [
        home.slides[1]!,
        { title: 'New', image: '', thumb: '', link: '', params: { transition: 'none', duration: 0 }, layers: [] },
      ];
      const { sliders, issues } = parseImport({ version: 1, sliders: [home] });
      assert.deepEqual(issues, []);
      const [res] = await importSliders(t.app, sliders);
      assert.equal(res!.action, 'updated');
      const slides = await getSlides(t.app, res!.id);
      assert.equal(slides.length, 2);
      assert.equal(slides[0]!.id, keptId);
      assert.equal(slides[0]!.order, 0);
      assert.ok(!slideIds.includes(slides[1]!.id) || slides[1]!.id === keptId ? true : false);
      const after = await exportSliders(t.app, [(await getSliderByAlias(t.app, 'home'))!]);
      assert.deepEqual(after.sliders[0]!.title, { en: 'Home v2', de: 'Start v2' });
      const again = parseImport(after);
      assert.deepEqual(again.issues, []);
      assert.deepEqual(
        again.sliders[0]!.slides.map((s) => s.id),
        slides.map((s) => s.id),
      );
    });

    test('CLI import/export: validated, transactional, exit codes', async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sliderx-cli-'));
      const out = capture();
      const err = capture();
      const ctx: CliContext = { config: t.config, openApp: async () => t.app, stdout: out.stream, stderr: err.stream };
      const good = path.join(dir, 'good.json');
      fs.writeFileSync(
        good,
        JSON.stringify({
          sliders: [
            { alias: 'cli-a', title: 'A', slides: [{ title: 'one' }] },
            { alias: 'cli-b', title: { en: 'B', de: 'B de' } },
          ],
        }),
      );
      assert.equal(await sliderImportCommand.run([good], ctx), 0);
      assert.equal(
        out.text(),
        `created slider cli-a (id ${(await getSliderByAlias(t.app, 'cli-a'))!.id}, 1 slide)\ncreated slider cli-b (id ${(await getSliderByAlias(t.app, 'cli-b'))!.id}, 0 slides)\n`,
      );
      // invalid second slider: nothing is written
      const bad = path.join(dir, 'bad.json');
      fs.writeFileSync(
        bad,
        JSON.stringify({
          sliders: [
            { alias: 'cli-c', title: 'C' },
            { alias: 'cli d', title: 'D' },
          ],
        }),
      );
      await assert.rejects(
        sliderImportCommand.run([bad], ctx),
        (e: Error) => e instanceof CliError && /sliders\[1\]\.alias/.test(e.message),
      );
      assert.equal(await getSliderByAlias(t.app, 'cli-c'), null);
      const broken = path.join(dir, 'broken.json');
      fs.writeFileSync(broken, '{"sliders": [');
      await assert.rejects(
        sliderImportCommand.run([broken], ctx),
        (e: Error) => e instanceof CliError && /not valid JSON/.test(e.message),
      );
      await assert.rejects(
        sliderImportCommand.run([path.join(dir, 'missing.json')], ctx),
        (e: Error) => e instanceof CliError && /ENOENT/.test(e.message),
      );
      await assert.rejects(sliderImportCommand.run([], ctx), CliError);
      // a database failure in the middle rolls the whole import back
      const ok = parseImport({ alias: 'cli-e', title: 'E', slides: [{ title: 'e1' }] }).sliders[0]!;
      const broken2 = { ...parseImport({ alias: 'cli-f', title: 'F' }).sliders[0]!, alias: null as unknown as string };
      await assert.rejects(importSliders(t.app, [ok, broken2]));
      assert.equal(await getSliderByAlias(t.app, 'cli-e'), null, 'first slider rolled back');

      const exp = capture();
      assert.equal(await sliderExportCommand.run(['cli-b'], { ...ctx, stdout: exp.stream }), 0);
      const doc = JSON.parse(exp.text());
      assert.equal(doc.version, 1);
      assert.equal(doc.sliders.length, 1);
      assert.deepEqual(doc.sliders[0].title, { en: 'B', de: 'B de' });
      const all = capture();
      assert.equal(await sliderExportCommand.run([], { ...ctx, stdout: all.stream }), 0);
      assert.ok(JSON.parse(all.text()).sliders.length >= 4);
      await assert.rejects(
        sliderExportCommand.run(['nope'], ctx),
        (e: Error) => e instanceof CliError && /no slider/.test(e.message),
      );
      // export → import round trip through files
      const file = path.join(dir, 'all.json');
      fs.writeFileSync(file, all.text());
      assert.equal(await sliderImportCommand.run([file], { ...ctx, stdout: capture().stream }), 0);
      fs.rmSync(dir, { recursive: true, force: true });
    });
  });
}
