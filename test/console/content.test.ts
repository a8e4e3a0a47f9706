// The pages-and-posts console pages over HTTP (Fastify inject) on every database target: who
// sees them, the list against cms/v2's answer for the same query, creating, editing (the
// public page shows the edit, the activity log has it), the German version, preview, trash,
// restore and delete through the forms, German texts.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/server/http.ts';
import { createUser } from '../../src/auth/users.ts';
import { seedDemo as seedPages } from '../../src/pages/seed.ts';
import { getContentBySlug } from '../../src/pages/store.ts';
import { dbTargets, type TestApp } from '../support/db.ts';
import { createWebTestApp, csrfOf, decodeEntities, type WebClient } from '../web/support.ts';
import { PASSWORD, api, consoleClient, navLabels, seedConsoleSite, textOf, type SiteUser } from './support.ts';

const LIST = '/cms-admin/edit.php';
const EDIT = '/cms-admin/post.php';
const NEW = '/cms-admin/post-new.php';

/** Ids of the rows a list page shows, in order. */
function listedItems(html: string): number[] {
  return [...html.matchAll(/<tr id="item-(\d+)">/g)].map((m) => Number(m[1]));
}

for (const target of dbTargets()) {
  describe(`pages and posts in the console (${target.name})`, () => {
    let t: TestApp;
    let server: FastifyInstance;
    let users: Record<string, SiteUser>;
    let emil: WebClient;
    let aboutId: number;

    before(async () => {
      t = await createWebTestApp(target);
      server = await buildServer(t.app);
      users = await seedConsoleSite(t.app, 5);
      await createUser(t.app, {
        login: 'carl',
        email: 'carl@example.test',
        role: 'contributor',
        displayName: 'Carl Contributor',
        password: PASSWORD,
      });
      await seedPages(t.app);
      emil = await consoleClient(server, 'emil');
      aboutId = (await getContentBySlug(t.app, 'en', 'about'))!.id;
    });
    after(async () => {
      await server?.close();
      await t?.close();
    });

    test('editors and contributors have it in the navigation; subscribers and translators are refused', async () => {
      const home = await emil.get('/cms-admin/');
      assert.ok(navLabels(home.body).includes('Pages and posts'));
      for (const login of ['sina', 'tom']) {
        const c = await consoleClient(server, login);
        assert.ok(!navLabels((await c.get('/cms-admin/')).body).includes('Pages and posts'), login);
        assert.equal((await c.get(LIST)).status, 403, login);
        assert.equal((await c.get(`${EDIT}?post=${aboutId}&action=edit`)).status, 403, login);
      }
      const carl = await consoleClient(server, 'carl');
      const posts = await carl.get(LIST);
      assert.equal(posts.status, 200);
      assert.match(posts.body, /<h1>Posts<\/h1>/, 'contributors get posts, not pages');
      assert.equal((await carl.get(`${LIST}?post_type=page`)).status, 403);
      assert.equal((await carl.get(`${EDIT}?post=${aboutId}&action=edit`)).status, 403);
    });

    test('the list shows what cms/v2 answers for the same filters, with status counts and paging', async () => {
      const cases: [string, string][] = [
        ['?post_type=page', 'status=any&per_page=20'],
        ['?post_type=page&lang=de', 'status=any&per_page=20&lang=de'],
        ['?post_type=page&s=about', 'status=any&per_page=20&search=about'],
        ['?post_type=post&post_status=publish', 'status=publish&per_page=20'],
      ];
      for (const [query, apiQuery] of cases) {
        const page = await emil.get(LIST + query);
        assert.equal(page.status, 200, query);
        const type = query.includes('post_type=post') ? 'posts' : 'pages';
        const answer = await api(server, users.emil!, `/cms/v2/${type}`, `${apiQuery}&context=edit`);
        assert.deepEqual(
          listedItems(page.body),
          answer.body.map((i: { id: number }) => i.id),
          query,
        );
        assert.match(textOf(page.body), new RegExp(`${answer.headers['x-wp-total']} items`), query);
      }
      const all = await emil.get(`${LIST}?post_type=page`);
      assert.match(textOf(all.body), /All \(\d+\) \| Published \(\d+\) \| Draft \(0\)/);
    });

    test('an editor creates a page, edits it through the form, and the public site shows it at once', async () => {
      const form = await emil.get(`${NEW}?post_type=page`);
      assert.equal(form.status, 200);
      assert.match(form.body, /<label for="ct-title">Title<\/label>/);
      const created = await emil.post(`${NEW}?post_type=page`, {
        _csrf: csrfOf(form.body),
        post_type: 'page',
        title: 'Opening hours',
        content: 'Mondays to Fridays.',
        status: 'draft',
        lang: 'en',
        slug: '',
        parent: '0',
      });
      assert.equal(created.status, 303, created.body);
      const id = Number(new URL(created.location!).searchParams.get('post'));
      assert.equal(
        (await server.inject({ method: 'GET', url: '/en/opening-hours/' })).statusCode,
        404,
        'a draft is not public',
      );
      const edit = await emil.get(created.location!);
      assert.match(textOf(edit.body), /Created\./);
      assert.match(edit.body, /value="opening-hours"/);
      const saved = await emil.post(EDIT, {
        _csrf: csrfOf(edit.body),
        post: String(id),
        action: 'save',
        title: 'Opening hours',
        content: 'Mondays to Fridays.\n\nClosed on holidays.',
        status: 'publish',
        slug: 'opening-hours',
        parent: String(aboutId),
        author: String(users.emil!.id),
      });
      assert.equal(saved.status, 303, saved.body);
      const publicPage = await server.inject({ method: 'GET', url: '/en/opening-hours/' });
      assert.equal(publicPage.statusCode, 200);
      assert.match(publicPage.body, /<p>Closed on holidays\.<\/p>/);
      const item = await api(server, users.emil!, `/cms/v2/pages/${id}`);
      assert.equal(item.body.parent, aboutId);
      const events = await api(server, users.ada!, '/history/v1/events', 'per_page=1&loggers=ContentLogger');
      assert.match(events.body[0].message, /Updated page "Opening hours" \(en\)/);
      assert.equal(events.body[0].initiator, 'cms_user');
      // A refused write shows the API's reason and keeps what was typed.
      const bad = await emil.post(EDIT, {
        _csrf: csrfOf(edit.body),
        post: String(id),
        action: 'save',
        title: '',
        content: 'kept text',
        status: 'publish',
      });
      assert.equal(bad.status, 400);
      assert.match(bad.body, />kept text<\/textarea>/);
      assert.equal((await emil.post(EDIT, { _csrf: 'nope', post: String(id), action: 'trash' })).status, 403);
    });

    test('the German version is created from the English one and linked', async () => {
      const edit = await emil.get(`${EDIT}?post=${aboutId}&action=edit`);
      const link = /<a href="([^"]*)">(Edit|Create) the German version<\/a>/.exec(edit.body);
      assert.ok(link, 'the language box links the German version');
      const news = await getContentBySlug(t.app, 'en', 'news');
      const newsDe = await getContentBySlug(t.app, 'de', 'neuigkeiten');
      const page = await emil.get(`${EDIT}?post=${news!.id}&action=edit`);
      assert.match(decodeEntities(page.body), new RegExp(`post=${newsDe!.id}&action=edit">Edit the German version`));
      const lone = await api(server, users.emil!, '/cms/v2/pages', 'search=Opening&context=edit');
      const create = await emil.get(`${EDIT}?post=${lone.body[0].id}&action=edit`);
      const url = decodeEntities(/<a href="([^"]*)">Create the German version<\/a>/.exec(create.body)![1]!);
      const form = await emil.get(url);
      assert.match(textOf(form.body), /This will be the German version of item \d+\./);
      const made = await emil.post(url, {
        _csrf: csrfOf(form.body),
        post_type: 'page',
        translation_of: String(lone.body[0].id),
        lang: 'de',
        title: 'Öffnungszeiten',
        content: 'Montags bis freitags.',
        status: 'publish',
        parent: '0',
      });
      assert.equal(made.status, 303, made.body);
      const de = await api(server, users.emil!, `/cms/v2/pages/${new URL(made.location!).searchParams.get('post')}`);
      assert.deepEqual(
        [de.body.lang, de.body.slug, de.body.translations.en],
        ['de', 'oeffnungszeiten', lone.body[0].id],
      );
      assert.equal((await server.inject({ method: 'GET', url: '/de/oeffnungszeiten/' })).statusCode, 200);
    });

    test('preview shows an unpublished text; trash, restore and delete through the list', async () => {
      const draft = await server.inject({
        method: 'POST',
        url: '/en/cms-json/cms/v2/posts',
        headers: { authorization: users.emil!.authorization },
        payload: { title: 'Draft <b>news</b>', content: 'Line one\nline two' },
      });
      const id = draft.json().id;
      const preview = await emil.get(`${EDIT}?post=${id}&action=preview`);
      assert.equal(preview.status, 200);
      assert.match(preview.body, /<h1>Draft &lt;b&gt;news&lt;\/b&gt;<\/h1>/);
      assert.match(preview.body, /<p>Line one<br>line two<\/p>/);
      assert.match(textOf(preview.body), /not on the public site \(status: Draft\)/);
      const offered = await (await consoleClient(server, 'ada')).get(
        '/cms-admin/admin.php?page=i18n-tm/menu/translations-queue.php',
      );
      assert.match(offered.body, /Draft &lt;b&gt;news/, 'a draft is offered for translation');
      const list = await emil.get(`${LIST}?post_type=post&post_status=draft`);
      assert.deepEqual(listedItems(list.body), [id]);
      const trashed = await emil.post(EDIT, {
        _csrf: csrfOf(list.body),
        post: String(id),
        action: 'trash',
        return_to: `http://localhost:8080${LIST}?post_type=post`,
      });
      assert.equal(trashed.status, 303);
      assert.equal(new URL(trashed.location!).searchParams.get('done'), 'trashed');
      // The translation management page offers no trashed item for translation.
      const ada = await consoleClient(server, 'ada');
      const jobs = await ada.get('/cms-admin/admin.php?page=i18n-tm/menu/translations-queue.php');
      assert.equal(jobs.status, 200);
      assert.doesNotMatch(jobs.body, /Draft &lt;b&gt;news/);
      const trash = await emil.get(`${LIST}?post_type=post&post_status=trash`);
      assert.deepEqual(listedItems(trash.body), [id]);
      assert.match(trash.body, /aria-label="Restore “Draft &lt;b&gt;news&lt;\/b&gt;”"/);
      assert.equal(
        (await emil.post(EDIT, { _csrf: csrfOf(trash.body), post: String(id), action: 'restore' })).status,
        303,
      );
      assert.equal((await api(server, users.emil!, `/cms/v2/posts/${id}`, 'context=edit')).body.status, 'draft');
      await emil.post(EDIT, { _csrf: csrfOf(trash.body), post: String(id), action: 'trash' });
      assert.equal(
        (await emil.post(EDIT, { _csrf: csrfOf(trash.body), post: String(id), action: 'delete' })).status,
        303,
      );
      assert.equal((await emil.get(`${EDIT}?post=${id}&action=edit`)).status, 404);
      assert.equal((await emil.get(`${EDIT}?post=abc`)).status, 404);
    });

    test('in German', async () => {
      const ada = await consoleClient(server, 'ada');
      const page = await ada.get('/cms-admin/');
      await ada.post('/cms-admin/profile.php', {
        _csrf: csrfOf(page.body),
        action: 'language',
        locale: 'de',
        return_to: 'http://localhost:8080/cms-admin/',
      });
      const list = await ada.get(`${LIST}?post_type=page`);
      assert.match(list.body, /<h1>Seiten<\/h1>/);
      assert.match(textOf(list.body), /Alle \(\d+\) \| Veröffentlicht/);
      const edit = await ada.get(`${EDIT}?post=${aboutId}&action=edit`);
      assert.match(edit.body, /<label for="ct-parent">Übergeordnete Seite<\/label>/);
    });
  });
}
