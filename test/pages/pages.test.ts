import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Parser } from 'htmlparser2';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { seedDemo } from '../../src/pages/seed.ts';
import { renderPublicPath } from '../../src/pages/public.ts';
import { getTranslations } from '../../src/pages/store.ts';
import { createContent, updateContent } from '../../src/pages/service.ts';
import { resolveContentUrl, permalink } from '../../src/pages/urls.ts';

/** Collects tags and text; proves that payloads stayed text (no injected element/attribute). */
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

const XSS = `<script>alert("x")</script><img src=x onerror=alert(1)> & "quoted" 'single'`;

for (const target of dbTargets()) {
  describe(`pages (${target.name})`, () => {
    let t: TestApp;
    let seeded: Awaited<ReturnType<typeof seedDemo>>;
    before(async () => {
      t = await createTestApp(target);
      seeded = await seedDemo(t.app);
    });
    after(async () => t.close());

    test('seed creates linked en/de pages and sets the front page options', async () => {
      const app = t.app;
      assert.equal(app.options.get('show_on_front'), 'page');
      assert.equal(app.options.get('page_on_front'), seeded.en.home!.id);
      assert.equal(app.options.get('page_for_posts'), seeded.en.news!.id);
      for (const slug of ['home', 'about', 'partners', 'contact', 'news', 'partner-portal-launched'])
        assert.ok(seeded.en[slug], slug);
      const tr = await getTranslations(app, seeded.en.about!);
      assert.deepEqual(
        tr.map((x) => [x.lang, x.slug]),
        [['de', 'ueber-uns']],
      );
      // idempotent
      const again = await seedDemo(app);
      assert.equal(again.en.home!.id, seeded.en.home!.id);
      const count = await app.db
        .selectFrom('posts')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      assert.equal(Number(count.n), 14);
    });

    test('writes are recorded in the activity log', async () => {
      const rows = await t.app.db
        .selectFrom('history_events')
        .select(['logger', 'message_key', 'initiator'])
        .where('logger', '=', 'ContentLogger')
        .execute();
      assert.equal(rows.filter((r) => r.message_key === 'content_created').length, 14);
      assert.equal(rows.filter((r) => r.message_key === 'front_page_set').length, 1);
      assert.ok(rows.every((r) => r.initiator === 'cms_cli'));
    });

    test('front page, pages, posts page and posts render with headers', async () => {
      const front = (await renderPublicPath(t.app, 'en', '/', {}))!;
      assert.equal(front.status, 200);
      assert.equal(front.headers['Content-Type'], 'text/html; charset=UTF-8');
      assert.equal(front.headers.Link, '<http://localhost:8080/en/cms-json/>; rel="https://api.w.org/"');
      assert.match(front.headers['Content-Security-Policy']!, /frame-ancestors 'self'/);
      assert.match(front.headers['Content-Security-Policy']!, /default-src 'none'/);
      assert.equal(front.headers['X-Content-Type-Options'], 'nosniff');
      assert.equal(front.headers['Referrer-Policy'], 'strict-origin-when-cross-origin');
      assert.equal(front.headers['X-Frame-Options'], 'SAMEORIGIN');
      assert.match(front.body, /Welcome to our partner portal/);
      const { tags } = parse(front.body);
      const links = tags.filter((x) => x.name === 'link');
      const json = links.find((x) => x.attrs.type === 'application/json+oembed')!;
      assert.equal(
        json.attrs.href,
        'http://localhost:8080/en/cms-json/oembed/1.0/embed?url=' + encodeURIComponent('http://localhost:8080/en/'),
      );
      assert.equal(json.attrs.title, 'oEmbed (JSON)');
      const xml = links.find((x) => x.attrs.type === 'text/xml+oembed')!;
      assert.equal(xml.attrs.href, json.attrs.href + '&format=xml');
      assert.ok(
        links.find(
          (x) => x.attrs.rel === 'https://api.w.org/' && x.attrs.href === 'http://localhost:8080/en/cms-json/',
        ),
      );
      assert.ok(
        links.find(
          (x) =>
            x.attrs.rel === 'alternate' && x.attrs.hreflang === 'de' && x.attrs.href === 'http://localhost:8080/de/',
        ),
      );

      const about = (await renderPublicPath(t.app, 'en', '/about/', {}))!;
      assert.equal(about.status, 200);
      assert.match(about.body, /<h1>About us<\/h1>/);
      assert.ok(
        parse(about.body).tags.find(
          (x) =>
            x.name === 'link' && x.attrs.hreflang === 'de' && x.attrs.href === 'http://localhost:8080/de/ueber-uns/',
        ),
      );

      const de = (await renderPublicPath(t.app, 'de', '/', {}))!;
      assert.equal(de.status, 200);
      assert.match(de.body, /<html lang="de">/);
      assert.match(de.body, /Willkommen im Partnerportal/);
      assert.equal(de.headers.Link, '<http://localhost:8080/de/cms-json/>; rel="https://api.w.org/"');

      const news = (await renderPublicPath(t.app, 'en', '/news/', {}))!;
      assert.equal(news.status, 200);
      assert.match(news.body, /href="http:\/\/localhost:8080\/en\/partner-portal-launched\/"/);
      const post = (await renderPublicPath(t.app, 'en', '/partner-portal-launched/', {}))!;
      assert.equal(post.status, 200);
      assert.match(post.body, /Today we launched/);
    });

    test('redirects and not-found paths', async () => {
      const noSlash = (await renderPublicPath(t.app, 'en', '/about', {}))!;
      assert.equal(noSlash.status, 301);
      assert.equal(noSlash.headers.Location, 'http://localhost:8080/en/about/');
      const homeSlug = (await renderPublicPath(t.app, 'en', '/home/', {}))!;
      assert.equal(homeSlug.status, 301);
      assert.equal(homeSlug.headers.Location, 'http://localhost:8080/en/');
      const byId = (await renderPublicPath(t.app, 'en', '/', { p: String(seeded.en.about!.id) }))!;
      assert.equal(byId.status, 301);
      assert.equal(byId.headers.Location, 'http://localhost:8080/en/about/');
      for (const path of [
        '/nope/',
        '/about/extra/',
        '/cms-json/',
        '/about/embed/x/',
        '//',
        '/%E0%A4%A/',
        '/author/nobody/',
      ]) {
        assert.equal(await renderPublicPath(t.app, 'en', path, {}), null, path);
      }
      assert.equal(await renderPublicPath(t.app, 'en', '/', { p: '99999999999' }), null);
      assert.equal(await renderPublicPath(t.app, 'en', '/', { p: 'abc' }), null);
      // a German slug is not an English page
      assert.equal(await renderPublicPath(t.app, 'en', '/ueber-uns/', {}), null);
    });

    test('drafts and private items are not public', async () => {
      const draft = await createContent(t.app, {
        type: 'page',
        lang: 'en',
        slug: 'secret-draft',
        title: 'Draft',
        status: 'draft',
      });
      assert.equal(await renderPublicPath(t.app, 'en', '/secret-draft/', {}), null);
      assert.equal(await renderPublicPath(t.app, 'en', '/secret-draft/embed/', {}), null);
      assert.equal(await resolveContentUrl(t.app, 'http://localhost:8080/en/secret-draft/'), null);
      await updateContent(t.app, draft.id, { status: 'publish' });
      assert.equal((await renderPublicPath(t.app, 'en', '/secret-draft/', {}))!.status, 200);
      await updateContent(t.app, draft.id, { status: 'private' });
      assert.equal(await renderPublicPath(t.app, 'en', '/secret-draft/', {}), null);
    });

    test('embed view is embeddable and carries the height script', async () => {
      const r = (await renderPublicPath(t.app, 'en', '/about/embed/', {}))!;
      assert.equal(r.status, 200);
      assert.match(r.headers['Content-Security-Policy']!, /frame-ancestors \*/);
      assert.match(r.headers['Content-Security-Policy']!, /script-src 'sha256-/);
      assert.equal(r.headers['X-Frame-Options'], undefined);
      assert.equal(r.headers['X-Content-Type-Options'], 'nosniff');
      assert.match(r.body, /postMessage/);
      assert.match(r.body, /target="_top"/);
      const home = (await renderPublicPath(t.app, 'en', '/embed/', {}))!;
      assert.equal(home.status, 200);
      assert.match(home.body, /Welcome to our partner portal/);
    });

    test('every text is escaped (XSS payloads in title, content, excerpt, author)', async () => {
      const user = await t.app.db
        .insertInto('users')
        .values({
          login: 'evil',
          email: 'evil@example.org',
          display_name: XSS,
          role: 'author',
          password_hash: null,
          status: 'active',
          created_at: '2026-01-01 00:00:00',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const item = await createContent(t.app, {
        type: 'post',
        lang: 'en',
        slug: 'xss-post',
        title: XSS,
        content: `${XSS}\n\nsecond ${XSS}`,
        excerpt: XSS,
        authorId: user.id,
        thumbnail: { url: 'https://img.example.org/a.jpg?x="><script>', width: 300, height: 200 },
      });
      for (const path of ['/xss-post/', '/xss-post/embed/', '/news/', '/author/evil/']) {
        const r = (await renderPublicPath(t.app, 'en', path, {}))!;
        assert.equal(r.status, 200, path);
        const { tags, text } = parse(r.body);
        const scripts = tags.filter((x) => x.name === 'script');
        assert.ok(scripts.length <= 1, path);
        assert.ok(!tags.some((x) => x.name === 'img' && x.attrs.src === 'x'), path);
        assert.ok(!tags.some((x) => Object.keys(x.attrs).some((a) => a.startsWith('on'))), path);
        assert.ok(text.includes('<script>alert("x")</script>'), path);
      }
      // the link to the item from the menu of pages stays escaped too
      const link = await permalink(t.app, item);
      assert.equal(link, 'http://localhost:8080/en/xss-post/');
    });

    test('content validation', async () => {
      await assert.rejects(createContent(t.app, { type: 'page', lang: 'en', slug: 'Bad Slug', title: 'x' }), {
        code: 'content_invalid',
        status: 400,
      });
      await assert.rejects(createContent(t.app, { type: 'page', lang: 'en', slug: 'embed', title: 'x' }), {
        code: 'content_invalid',
      });
      await assert.rejects(createContent(t.app, { type: 'page', lang: 'en', slug: 'about', title: 'x' }), {
        code: 'content_slug_exists',
        status: 409,
      });
      // a rename onto another item's slug is refused the same way; keeping one's own slug is not a clash
      await assert.rejects(updateContent(t.app, seeded.en.contact!.id, { slug: 'about' }), {
        code: 'content_slug_exists',
        status: 409,
      });
      assert.equal(
        (await updateContent(t.app, seeded.en.contact!.id, { slug: seeded.en.contact!.slug })).slug,
        seeded.en.contact!.slug,
      );
      await assert.rejects(
        createContent(t.app, {
          type: 'page',
          lang: 'en',
          slug: 'about-2',
          title: 'x',
          translationOf: seeded.en.contact!.id,
        }),
        { code: 'content_invalid' },
      );
      await assert.rejects(
        createContent(t.app, {
          type: 'page',
          lang: 'de',
          slug: 'kontakt-2',
          title: 'x',
          translationOf: seeded.en.contact!.id,
        }),
        { code: 'content_invalid' },
      );
    });
  });
}
