import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { XMLParser } from 'fast-xml-parser';
import { buildServer } from '../../src/server/http.ts';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { seedDemo } from '../../src/pages/seed.ts';
import { createContent } from '../../src/pages/service.ts';
import { embedSize, getLocalOembed, oembedXml } from '../../src/namespaces/oembed/embed.ts';
import { handleEmbed, oembedNamespace } from '../../src/namespaces/oembed/routes.ts';
import { RestError, RestResponse } from '../../src/rest/types.ts';
import { fakeRequest } from '../sliderx/fake-request.ts';

const BASE = 'http://localhost:8080';

test('embedSize clamps as the reference', () => {
  assert.deepEqual(embedSize(600), { width: 600, height: 338 });
  assert.deepEqual(embedSize(200), { width: 200, height: 200 });
  assert.deepEqual(embedSize(356), { width: 356, height: 201 });
  assert.deepEqual(embedSize(10), { width: 200, height: 200 });
  assert.deepEqual(embedSize(5000), { width: 600, height: 338 });
  assert.deepEqual(embedSize(0), { width: 200, height: 200 });
});

test('route declarations follow contract §4.4', () => {
  const [embed, proxy] = oembedNamespace.routes;
  assert.equal(embed!.path, '/embed');
  assert.deepEqual(Object.keys(embed!.endpoints[0]!.args), ['url', 'format', 'maxwidth']);
  assert.equal(embed!.endpoints[0]!.args.url!.required, true);
  assert.equal(embed!.endpoints[0]!.args.url!.format, 'uri');
  assert.equal(embed!.endpoints[0]!.args.maxwidth!.default, 600);
  assert.equal(embed!.endpoints[0]!.permission.kind, 'public');
  assert.equal(proxy!.path, '/proxy');
  const a = proxy!.endpoints[0]!.args;
  assert.deepEqual(Object.keys(a), ['url', 'format', 'maxwidth', 'maxheight', 'discover']);
  assert.deepEqual(a.format!.enum, ['json', 'xml']);
  assert.equal(a.maxwidth!.type, 'integer');
  assert.equal(a.maxheight!.type, 'integer');
  assert.equal(a.maxheight!.default, undefined);
  assert.equal(a.discover!.type, 'boolean');
  assert.equal(a.discover!.default, true);
  assert.deepEqual(proxy!.endpoints[0]!.permission, { kind: 'cap', cap: 'edit_posts' });
  assert.equal(
    proxy!.endpoints[0]!.forbiddenMessage!.en,
    'Sorry, you are not allowed to make proxied oEmbed requests.',
  );
  for (const r of oembedNamespace.routes)
    for (const e of r.endpoints)
      for (const [name, arg] of Object.entries(e.args)) {
        const d = arg.description as { en: string; de: string };
        assert.ok(d.en && d.de && d.en !== d.de, name);
      }
});

for (const target of dbTargets()) {
  describe(`oembed/1.0/embed (${target.name})`, () => {
    let t: TestApp;
    let seeded: Awaited<ReturnType<typeof seedDemo>>;
    before(async () => {
      t = await createTestApp(target);
      await t.app.db
        .insertInto('users')
        .values({
          login: 'anna',
          email: 'anna@example.org',
          display_name: 'Anna Admin',
          role: 'administrator',
          password_hash: null,
          status: 'active',
          created_at: '2026-01-01 00:00:00',
        })
        .execute();
      seeded = await seedDemo(t.app);
    });
    after(async () => t.close());

    test('response in the reference key order with iframe, blockquote and secret', async () => {
      const data = await getLocalOembed(t.app, `${BASE}/en/about/`, 600, 'en');
      assert.deepEqual(Object.keys(data), [
        'version',
        'provider_name',
        'provider_url',
        'author_name',
        'author_url',
        'title',
        'type',
        'width',
        'height',
        'html',
        'thumbnail_url',
        'thumbnail_width',
        'thumbnail_height',
      ]);
      assert.equal(data.version, '1.0');
      assert.equal(data.provider_name, 'Content Site');
      assert.equal(data.provider_url, `${BASE}/en`);
      assert.equal(data.author_name, 'Anna Admin');
      assert.equal(data.author_url, `${BASE}/en/author/anna/`);
      assert.equal(data.title, 'About us');
      assert.equal(data.type, 'rich');
      assert.equal(data.width, 600);
      assert.equal(data.height, 338);
      assert.equal(data.thumbnail_url, 'https://images.example.org/team.jpg');
      assert.equal(data.thumbnail_width, 600);
      assert.equal(data.thumbnail_height, 400);
      const html = String(data.html);
      const secret = /data-secret="([A-Za-z0-9]{10})"/.exec(html)![1]!;
      assert.match(
        html,
        new RegExp(
          `^<blockquote class="wp-embedded-content" data-secret="${secret}"><a href="${BASE}/en/about/">About us</a></blockquote>`,
        ),
      );
      assert.ok(
        html.includes(
          `<iframe sandbox="allow-scripts" security="restricted" src="${BASE}/en/about/embed/#?secret=${secret}" width="600" height="338" title="&#8220;About us&#8221; &#8212; Content Site" data-secret="${secret}" frameborder="0" marginwidth="0" marginheight="0" scrolling="no" class="wp-embedded-content"></iframe>`,
        ),
      );
      assert.match(html, /<script>.*<\/script>$/s);
      const again = await getLocalOembed(t.app, `${BASE}/en/about/`, 600, 'en');
      assert.notEqual(/data-secret="([^"]+)"/.exec(String(again.html))![1], secret, 'fresh secret per response');
    });

    test('URL resolution: front page, de, ?p=, www, embed URL, no thumbnail', async () => {
      const front = await getLocalOembed(t.app, `${BASE}/en/`, 400, 'en');
      assert.equal(front.title, 'Welcome to our partner portal');
      assert.equal(front.width, 400);
      assert.equal(front.height, 225);
      assert.ok(!('thumbnail_url' in front));
      assert.match(String(front.html), /src="http:\/\/localhost:8080\/en\/embed\/#\?secret=/);
      const de = await getLocalOembed(t.app, `${BASE}/de/ueber-uns/`, 600, 'de');
      assert.equal(de.title, 'Über uns');
      assert.equal(de.provider_url, `${BASE}/de`);
      const byId = await getLocalOembed(t.app, `${BASE}/?p=${seeded.en.contact!.id}`, 600, 'en');
      assert.equal(byId.title, 'Contact');
      const www = await getLocalOembed(t.app, `http://www.localhost:8080/en/contact?utm=1#x`, 600, 'en');
      assert.equal(www.title, 'Contact');
      const embedUrl = await getLocalOembed(t.app, `${BASE}/en/contact/embed/`, 600, 'en');
      assert.equal(embedUrl.title, 'Contact');
    });

    test('unknown, foreign, draft and malformed URLs are 404 oembed_invalid_url', async () => {
      await createContent(t.app, { type: 'page', lang: 'en', slug: 'draft-page', title: 'Draft', status: 'draft' });
      for (const url of [
        `${BASE}/en/nope/`,
        'https://example.org/en/about/',
        `${BASE}/en/draft-page/`,
        'not a url',
        '',
        `${BASE}/fr/about/`,
        `${BASE}/?p=99999999999`,
        `${BASE}/?p=0`,
        `${BASE}/en/about/x/y/`,
        'javascript:alert(1)',
      ]) {
        await assert.rejects(
          getLocalOembed(t.app, url, 600, 'en'),
          (err: RestError) => err.code === 'oembed_invalid_url' && err.status === 404 && err.message === 'Not Found',
          url,
        );
      }
      await assert.rejects(getLocalOembed(t.app, `${BASE}/en/nope/`, 600, 'de'), { message: 'Nicht gefunden' });
    });

    test('handler: JSON, XML and XML errors', async () => {
      const json = await handleEmbed(
        fakeRequest(t.app, { params: { url: `${BASE}/en/about/`, format: 'json', maxwidth: 300 } }),
      );
      assert.equal((json as Record<string, unknown>).width, 300);
      const xml = (await handleEmbed(
        fakeRequest(t.app, { params: { url: `${BASE}/en/about/`, format: 'xml', maxwidth: 600 } }),
      )) as RestResponse;
      assert.ok(xml instanceof RestResponse);
      assert.equal(xml.status, 200);
      assert.equal(xml.raw!.contentType, 'text/xml; charset=UTF-8');
      const text = String(xml.raw!.content);
      assert.match(
        text,
        /^<\?xml version="1.0"\?>\n<oembed><version>1.0<\/version><provider_name>Content Site<\/provider_name>/,
      );
      const parsed = new XMLParser({ parseTagValue: false }).parse(text).oembed;
      assert.equal(parsed.title, 'About us');
      assert.match(parsed.html, /^<blockquote class="wp-embedded-content"/);
      assert.equal(parsed.width, '600');
      // Errors are XML too with format=xml — from the handler and from validation alike.
      const server = await buildServer(t.app);
      const err = await server.inject({
        method: 'GET',
        url: `/en/cms-json/oembed/1.0/embed?format=xml&url=${encodeURIComponent(`${BASE}/en/nope/`)}`,
      });
      assert.equal(err.statusCode, 404);
      assert.equal(err.headers['content-type'], 'text/xml; charset=UTF-8');
      assert.equal(
        err.body,
        '<?xml version="1.0"?>\n<oembed><code>oembed_invalid_url</code><message>Not Found</message><data><status>404</status></data></oembed>\n',
      );
      const missing = await server.inject({ method: 'GET', url: '/en/cms-json/oembed/1.0/embed?format=xml' });
      assert.equal(missing.statusCode, 400);
      assert.match(missing.body, /^<\?xml version="1.0"\?>\n<oembed><code>rest_missing_callback_param<\/code>/);
      const missingJson = await server.inject({ method: 'GET', url: '/en/cms-json/oembed/1.0/embed' });
      assert.equal(missingJson.json().code, 'rest_missing_callback_param');
      await server.close();
      await assert.rejects(
        handleEmbed(fakeRequest(t.app, { params: { url: `${BASE}/en/nope/`, format: 'json', maxwidth: 600 } })),
        { status: 404, code: 'oembed_invalid_url' },
      );
    });

    test('titles with markup are escaped in html and XML', async () => {
      const evil = `"><script>alert(1)</script>&amp;`;
      await createContent(t.app, { type: 'post', lang: 'en', slug: 'evil', title: evil });
      const data = await getLocalOembed(t.app, `${BASE}/en/evil/`, 600, 'en');
      assert.equal(data.title, evil);
      const html = String(data.html);
      assert.ok(!html.includes('<script>alert'));
      assert.ok(html.includes('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;amp;'));
      const xml = oembedXml(data);
      assert.ok(!xml.includes('<script>alert'));
      const parsed = new XMLParser({ parseTagValue: false, processEntities: true }).parse(xml).oembed;
      assert.equal(parsed.title, evil.replace('&amp;', '&amp;'));
    });
  });
}
