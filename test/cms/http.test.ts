// cms/v2 pages and posts over HTTP on every database target: wp/v2's arguments and fields,
// paging headers, the permission rules per role, trash and force, language versions, the
// activity-log entry of each write and the public page showing an edit at once.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/server/http.ts';
import { seedDemo } from '../../src/pages/seed.ts';
import { getContentBySlug } from '../../src/pages/store.ts';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { userWithRole } from '../support/http.ts';
import type { Role } from '../../src/auth/roles.ts';

for (const target of dbTargets()) {
  describe(`cms/v2 pages and posts (${target.name})`, () => {
    let t: TestApp;
    let server: FastifyInstance;
    const auth = {} as Record<Role, { id: number; authorization: string }>;
    let aboutId: number;
    let ueberUnsId: number;

    const call = async (method: string, url: string, role?: Role, payload?: unknown) => {
      const headers: Record<string, string> = role ? { authorization: auth[role].authorization } : {};
      const res = await server.inject({
        method: method as 'GET',
        url: `/en/cms-json/cms/v2${url}`,
        headers,
        ...(payload ? { payload: payload as object } : {}),
      });
      return { status: res.statusCode, headers: res.headers, body: res.body ? res.json() : null };
    };
    const lastEvent = async () =>
      t.app.db
        .selectFrom('history_events')
        .select(['logger', 'message_key', 'user_id'])
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();

    before(async () => {
      t = await createTestApp(target);
      await seedDemo(t.app);
      server = await buildServer(t.app);
      for (const role of ['administrator', 'editor', 'author', 'contributor', 'subscriber'] as Role[]) {
        const u = await userWithRole(t.app, role);
        auth[role] = { id: u.user.id, authorization: u.authorization };
      }
      aboutId = (await getContentBySlug(t.app, 'en', 'about'))!.id;
      ueberUnsId = (await getContentBySlug(t.app, 'de', 'ueber-uns'))!.id;
    });
    after(async () => {
      await server.close();
      await t.close();
    });

    test('the index lists the routes with wp/v2 arguments', async () => {
      const index = (await call('GET', '')).body;
      const list = index.routes['/cms/v2/pages'].endpoints[0].args;
      for (const name of [
        'context',
        'page',
        'per_page',
        'search',
        'after',
        'author',
        'exclude',
        'include',
        'offset',
        'order',
        'orderby',
        'parent',
        'slug',
        'status',
        'menu_order',
        'lang',
      ])
        assert.ok(list[name], name);
      assert.equal(index.routes['/cms/v2/posts'].endpoints[0].args.parent, undefined);
      assert.deepEqual(index.routes['/cms/v2/pages/(?P<id>[\\d]+)'].methods, ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
    });

    test('a page has the reference fields, the raw texts only with context=edit, and its language version', async () => {
      const view = await call('GET', `/pages/${aboutId}`);
      assert.equal(view.status, 200);
      const p = view.body;
      for (const k of [
        'id',
        'date',
        'date_gmt',
        'guid',
        'modified',
        'modified_gmt',
        'slug',
        'status',
        'type',
        'link',
        'title',
        'content',
        'excerpt',
        'author',
        'featured_media',
        'parent',
        'menu_order',
        'comment_status',
        'ping_status',
        'template',
        'meta',
        'lang',
        'translations',
        '_links',
      ])
        assert.ok(k in p, k);
      assert.equal(p.type, 'page');
      assert.equal(p.link, 'http://localhost:8080/en/about/');
      assert.match(p.date_gmt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
      assert.equal(p.title.raw, undefined);
      assert.equal(p.content.protected, false);
      assert.match(p.content.rendered, /^<p>/);
      assert.equal(p.lang, 'en');
      assert.deepEqual(p.translations, { en: aboutId, de: ueberUnsId });
      assert.equal(p._links.self[0].href, `http://localhost:8080/en/cms-json/cms/v2/pages/${aboutId}`);
      assert.equal(p._links.translation[0].lang, 'de');
      // context=edit needs edit rights: anonymous 401, a subscriber 403, an editor the raw fields.
      assert.equal((await call('GET', `/pages/${aboutId}?context=edit`)).body.code, 'rest_forbidden_context');
      assert.equal((await call('GET', `/pages/${aboutId}?context=edit`, 'subscriber')).status, 403);
      const edit = (await call('GET', `/pages/${aboutId}?context=edit`, 'editor')).body;
      assert.equal(typeof edit.title.raw, 'string');
      assert.equal(typeof edit.content.raw, 'string');
      const embed = (await call('GET', `/pages/${aboutId}?context=embed`)).body;
      assert.equal(embed.content, undefined);
      assert.equal(embed.status, undefined);
      assert.ok(embed.title);
      // An id of the other type, or of nothing, is the reference's 404.
      const posts = (await call('GET', '/posts?per_page=1')).body;
      assert.equal((await call('GET', `/pages/${posts[0].id}`)).body.code, 'rest_post_invalid_id');
      assert.equal((await call('GET', '/pages/999999')).status, 404);
      const withEmbed = (await call('GET', `/pages/${aboutId}?_embed`)).body;
      assert.equal(withEmbed._embedded.translation[0].id, ueberUnsId);
    });

    test('lists: filters, order, paging headers and Link', async () => {
      const all = await call('GET', '/pages?per_page=100');
      const total = Number(all.headers['x-wp-total']);
      assert.equal(all.body.length, total);
      assert.ok(all.body.every((p: { status: string }) => p.status === 'publish'));
      const paged = await call('GET', '/pages?per_page=2&page=2&orderby=id&order=asc');
      assert.equal(paged.headers['x-wp-totalpages'], String(Math.ceil(total / 2)));
      assert.deepEqual(
        paged.body.map((p: { id: number }) => p.id),
        all.body
          .map((p: { id: number }) => p.id)
          .sort((a: number, b: number) => a - b)
          .slice(2, 4),
      );
      assert.match(String(paged.headers.link), /[?&]page=1[&>][^,]*rel="prev", .*[?&]page=3[&>][^,]*rel="next"/);
      assert.equal((await call('GET', '/pages?per_page=2&page=999')).body.code, 'rest_post_invalid_page_number');
      const de = (await call('GET', '/pages?lang=de&per_page=100')).body;
      assert.ok(de.length > 0 && de.every((p: { lang: string }) => p.lang === 'de'));
      assert.deepEqual(
        (await call('GET', '/pages?slug=about')).body.map((p: { id: number }) => p.id),
        [aboutId],
      );
      assert.deepEqual(
        (await call('GET', `/pages?include=${ueberUnsId},${aboutId}&orderby=include&order=asc`)).body.map(
          (p: { id: number }) => p.id,
        ),
        [ueberUnsId, aboutId],
      );
      assert.ok(
        !(await call('GET', `/pages?exclude=${aboutId}&per_page=100`)).body.some(
          (p: { id: number }) => p.id === aboutId,
        ),
      );
      const found = (await call('GET', '/pages?search=ABOUT')).body;
      assert.ok(found.some((p: { id: number }) => p.id === aboutId));
      assert.equal((await call('GET', '/pages?orderby=relevance')).body.code, 'rest_no_search_term_defined');
      assert.equal((await call('GET', '/pages?orderby=nonsense')).status, 400);
      assert.equal((await call('GET', '/pages?per_page=101')).status, 400);
      const titles = (await call('GET', '/pages?orderby=title&order=asc&lang=en&per_page=100')).body.map(
        (p: { title: { rendered: string } }) => p.title.rendered,
      );
      assert.deepEqual(titles, [...titles].sort());
      assert.equal((await call('GET', '/pages?parent=0&per_page=100')).body.length, total);
      // Date bounds: with a zone as given, without one in the site's; any valid date-time is a 200 or a 400, never a 500.
      assert.equal((await call('GET', '/pages?per_page=100&after=2000-01-01T00:00:00Z')).body.length, total);
      assert.equal((await call('GET', '/pages?per_page=100&before=2000-01-01T00:00:00')).body.length, 0);
      assert.equal(
        (await call('GET', `/pages?per_page=100&modified_before=${encodeURIComponent('2999-01-01T00:00:00-24:59')}`))
          .body.length,
        total,
      );
      assert.equal((await call('GET', '/pages?after=0999-01-01T00:00:00Z')).status, 400);
      assert.equal((await call('GET', '/pages?after=yesterday')).status, 400);
      // Ids beyond what the databases hold, and lists longer than one statement binds, are 400 (PostgreSQL's int4 and SQLite's bound values were a 500).
      for (const q of [
        'menu_order=99999999999',
        'author=99999999999',
        'include=99999999999',
        'parent=99999999999',
        `include=${Array.from({ length: 40_000 }, (_, i) => i + 1).join(',')}`,
      ]) {
        assert.equal((await call('GET', `/pages?${q}`, 'editor')).status, 400, q.slice(0, 30));
      }
      for (const body of [{ author: 99999999999 }, { menu_order: 99999999999 }, { parent: 99999999999 }]) {
        assert.equal(
          (await call('POST', '/pages', 'editor', { title: 'Bounds', ...body })).status,
          400,
          JSON.stringify(body),
        );
      }
    });

    test('drafts: hidden from visitors, status filter needs edit rights, authors see only their own', async () => {
      const own = await call('POST', '/posts', 'author', { title: 'Author draft', content: 'Hidden' });
      assert.equal(own.status, 201);
      assert.equal(own.body.status, 'draft');
      assert.equal(own.body.author, auth.author.id);
      assert.equal(own.headers.location, `http://localhost:8080/en/cms-json/cms/v2/posts/${own.body.id}`);
      const other = await call('POST', '/posts', 'editor', { title: 'Editor draft' });
      assert.equal((await call('GET', `/posts/${own.body.id}`)).status, 401);
      assert.equal((await call('GET', `/posts/${own.body.id}`, 'subscriber')).status, 403);
      const anon = await call('GET', '/posts?status=draft');
      assert.equal(anon.status, 400);
      assert.equal(anon.body.data.details.status.code, 'rest_forbidden_status');
      const authorDrafts = (await call('GET', '/posts?status=draft', 'author')).body.map((p: { id: number }) => p.id);
      assert.deepEqual(authorDrafts, [own.body.id]);
      const editorDrafts = (await call('GET', '/posts?status=draft,pending', 'editor')).body.map(
        (p: { id: number }) => p.id,
      );
      assert.deepEqual(editorDrafts.sort(), [own.body.id, other.body.id].sort());
      assert.ok(
        !(await call('GET', '/posts?status=any&per_page=100', 'author')).body.some(
          (p: { id: number }) => p.id === other.body.id,
        ),
      );
      assert.equal(own.body.link, `http://localhost:8080/en/?p=${own.body.id}`);
    });

    test("roles: contributors write drafts of their own posts, authors publish their own, editors all; pages are the editors'", async () => {
      const draft = await call('POST', '/posts', 'contributor', { title: 'Contribution', status: 'pending' });
      assert.equal(draft.status, 201);
      assert.equal(
        (await call('POST', '/posts', 'contributor', { title: 'Published?', status: 'publish' })).body.code,
        'rest_cannot_publish',
      );
      assert.equal((await call('POST', `/posts/${draft.body.id}`, 'contributor', { status: 'publish' })).status, 403);
      assert.equal((await call('POST', '/pages', 'author', { title: 'A page' })).body.code, 'rest_cannot_create');
      assert.equal((await call('POST', '/pages', 'contributor', { title: 'A page' })).status, 403);
      assert.equal((await call('POST', '/posts', 'subscriber', { title: 'No' })).status, 403);
      assert.equal((await call('POST', '/posts', undefined, { title: 'No' })).status, 401);
      // Authors: their own, published; not someone else's.
      const mine = await call('POST', '/posts', 'author', { title: 'Mine', status: 'publish' });
      assert.equal(mine.body.status, 'publish');
      assert.equal(
        (await call('POST', `/posts/${draft.body.id}`, 'author', { title: 'Taken over' })).body.code,
        'rest_cannot_edit',
      );
      assert.equal((await call('DELETE', `/posts/${draft.body.id}`, 'author')).body.code, 'rest_cannot_delete');
      assert.equal(
        (await call('POST', '/posts', 'author', { title: 'As someone else', author: auth.editor.id })).body.code,
        'rest_cannot_edit_others',
      );
      // Editors: everyone's, and pages.
      assert.equal(
        (await call('PUT', `/posts/${draft.body.id}`, 'editor', { status: 'publish' })).body.status,
        'publish',
      );
      assert.equal((await call('PATCH', `/pages/${aboutId}`, 'author', { title: 'x' })).status, 403);
      assert.equal((await call('POST', `/posts/999999`, 'editor', { title: 'x' })).status, 404);
    });

    test("an editor's edit shows on the public page at once and is in the activity log", async () => {
      const res = await call('POST', `/pages/${aboutId}`, 'editor', {
        title: 'About this portal',
        content: { raw: 'First paragraph.\n\nEdited through cms/v2.' },
      });
      assert.equal(res.status, 200);
      assert.equal(res.body.title.raw, 'About this portal');
      assert.equal(res.body.content.rendered, '<p>First paragraph.</p>\n<p>Edited through cms/v2.</p>');
      const page = await server.inject({ method: 'GET', url: '/en/about/' });
      assert.match(page.body, /About this portal/);
      assert.match(page.body, /Edited through cms\/v2\./);
      const event = await lastEvent();
      assert.deepEqual(event, { logger: 'ContentLogger', message_key: 'content_updated', user_id: auth.editor.id });
    });

    test('slugs, parents and language versions', async () => {
      const parent = await call('POST', '/pages', 'editor', { title: 'Über uns', status: 'publish', lang: 'de' });
      assert.equal(parent.body.slug, 'ueber-uns-2');
      assert.equal(parent.body.lang, 'de');
      const child = await call('POST', '/pages', 'editor', {
        title: 'Team',
        parent: parent.body.id,
        status: 'publish',
        lang: 'de',
      });
      assert.equal(child.body.parent, parent.body.id);
      assert.equal(child.body._links.up[0].href, `http://localhost:8080/en/cms-json/cms/v2/pages/${parent.body.id}`);
      assert.deepEqual(
        (await call('GET', `/pages?parent=${parent.body.id}`)).body.map((p: { id: number }) => p.id),
        [child.body.id],
      );
      assert.equal(
        (await call('POST', `/pages/${parent.body.id}`, 'editor', { parent: child.body.id })).body.code,
        'content_invalid',
      );
      assert.equal(
        (await call('POST', '/pages', 'editor', { title: 'Wrong', parent: aboutId, lang: 'de' })).body.code,
        'content_invalid',
      );
      // Through the German root a new page is German; translations links it to its English original.
      const en = await call('POST', '/pages', 'editor', { title: 'Team', status: 'publish', lang: 'en' });
      const viaDe = await server.inject({
        method: 'POST',
        url: '/de/cms-json/cms/v2/pages',
        headers: { authorization: auth.editor.authorization },
        payload: { title: 'Das Team', translations: { en: en.body.id } },
      });
      assert.equal(viaDe.statusCode, 201);
      assert.equal(viaDe.json().lang, 'de');
      assert.deepEqual(viaDe.json().translations, { de: viaDe.json().id, en: en.body.id });
      assert.deepEqual((await call('GET', `/pages/${en.body.id}`)).body.translations, {
        en: en.body.id,
        de: viaDe.json().id,
      });
      assert.equal((await call('POST', `/pages/${en.body.id}`, 'editor', { lang: 'de' })).status, 400);
      assert.equal((await call('POST', '/pages', 'editor', { title: '' })).body.code, 'content_invalid');
      const renamed = await call('POST', `/pages/${en.body.id}`, 'editor', { slug: 'About' });
      assert.equal(renamed.body.slug, 'about-2');
    });

    test('trash, restore and force delete, each logged; the public site follows', async () => {
      const page = await call('POST', '/pages', 'editor', { title: 'Short lived', status: 'publish' });
      assert.equal((await server.inject({ method: 'GET', url: '/en/short-lived/' })).statusCode, 200);
      const trashed = await call('DELETE', `/pages/${page.body.id}`, 'editor');
      assert.equal(trashed.status, 200);
      assert.equal(trashed.body.status, 'trash');
      assert.equal(typeof trashed.body.title.raw, 'string');
      assert.equal((await lastEvent()).message_key, 'content_trashed');
      assert.equal((await server.inject({ method: 'GET', url: '/en/short-lived/' })).statusCode, 404);
      assert.equal((await call('DELETE', `/pages/${page.body.id}`, 'editor')).body.code, 'rest_already_trashed');
      assert.deepEqual(
        (await call('GET', '/pages?status=trash', 'editor')).body.map((p: { id: number }) => p.id),
        [page.body.id],
      );
      assert.equal(
        (await call('POST', `/pages/${page.body.id}`, 'editor', { status: 'publish' })).body.status,
        'publish',
      );
      const gone = await call('DELETE', `/pages/${page.body.id}?force=true`, 'editor');
      assert.deepEqual([gone.body.deleted, gone.body.previous.id], [true, page.body.id]);
      assert.equal((await lastEvent()).message_key, 'content_deleted');
      assert.equal((await call('GET', `/pages/${page.body.id}`)).status, 404);
      // An author deletes their own post, not an editor's page.
      const post = await call('POST', '/posts', 'author', { title: 'Gone soon', status: 'publish' });
      assert.equal((await call('DELETE', `/posts/${post.body.id}?force=true`, 'author')).status, 200);
      assert.equal((await call('DELETE', `/pages/${aboutId}`, 'author')).status, 403);
    });
  });
}
