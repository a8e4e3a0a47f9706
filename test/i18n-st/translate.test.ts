// Translating strings over HTTP (the i18n/st/v1 routes beyond the contract's list): the index
// declarations, managers and translators (their own assignments only), saving with a status,
// bulk actions (also inside batch/v1), the filters of strings/translations, the activity-log
// entries, and the public German page showing a saved label at once — on every database target.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/server/http.ts';
import { seedDemo as seedPages } from '../../src/pages/seed.ts';
import { LABELS_DOMAIN } from '../../src/pages/labels.ts';
import { seedDemo as seedStrings } from '../../src/namespaces/i18n-st/seed.ts';
import { findStringId } from '../../src/namespaces/i18n-st/string-lookup.ts';
import { i18nStLogger } from '../../src/namespaces/i18n-st/logger.ts';
import type { ActivityEntry } from '../../src/site/activity.ts';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { insertStringJob } from '../i18n-tm/fixtures.ts';
import { callRoute, userWithRole } from '../support/http.ts';
import type { AuthUser } from '../../src/auth/types.ts';

const NS = '/en/cms-json/i18n/st/v1';

for (const target of dbTargets()) {
  describe(`i18n/st/v1 translating strings (${target.name})`, () => {
    let t: TestApp;
    let server: FastifyInstance;
    const auth: Record<string, string> = {};
    const users: Record<string, AuthUser> = {};
    const ids: Record<string, number> = {};
    const all: ActivityEntry[] = [];
    /** The string translation logger's entries (others, e.g. logins, are left out). */
    const logged = {
      get entries() {
        return all.filter((e) => e.logger === i18nStLogger.slug);
      },
      clear: () => void (all.length = 0),
    };
    let menuId: number;

    before(async () => {
      t = await createTestApp(target);
      await seedPages(t.app);
      await seedStrings(t.app);
      const real = t.app.activity;
      t.app.activity = {
        async log(entry, origin) {
          all.push(entry);
          return real.log(entry, origin);
        },
      };
      server = await buildServer(t.app);
      for (const who of ['administrator', 'translator', 'subscriber', 'editor'] as const) {
        const u = await userWithRole(t.app, who);
        auth[who] = u.authorization;
        users[who] = u.user;
        ids[who] = u.user.id;
      }
      const other = await userWithRole(t.app, 'translator');
      auth.other = other.authorization;
      users.other = other.user;
      ids.other = other.user.id;
      menuId = (await findStringId(t.app, { domain: LABELS_DOMAIN, name: 'menu' }))!;
    });
    after(async () => {
      await server.close();
      await t.close();
    });

    const call = (
      method: 'GET' | 'POST',
      path: string,
      who: string | null = 'administrator',
      payload?: unknown,
      root = NS,
    ) => callRoute(t.app, method, `${root}${path}`, { user: who ? users[who] : null, body: payload });
    const germanNav = async () =>
      /<nav aria-label="([^"]*)">/.exec((await server.inject({ method: 'GET', url: '/de/neuigkeiten/' })).body)?.[1];

    test('the index declares the new routes with typed arguments in English and German', async () => {
      const en = (await call('GET', '', null)).body.routes;
      const de = (await call('GET', '', null, undefined, '/de/cms-json/i18n/st/v1')).body.routes;
      const save = en['/i18n/st/v1/strings/(?P<id>[\\d]+)/translations'].endpoints[0];
      assert.deepEqual(save.methods, ['POST']);
      assert.deepEqual(
        [save.args.language.type, save.args.language.enum, save.args.language.required],
        ['string', ['en', 'de'], true],
      );
      assert.deepEqual(
        [save.args.status.type, save.args.status.enum, save.args.status.default],
        ['integer', [0, 3, 10], 10],
      );
      const bulk = en['/i18n/st/v1/strings/translations/bulk'].endpoints[0];
      assert.deepEqual(
        [bulk.args.ids.type, bulk.args.ids.items.type, bulk.args.ids.required],
        ['array', 'integer', true],
      );
      assert.deepEqual(bulk.args.action.enum, ['set_status', 'delete']);
      const list = en['/i18n/st/v1/strings/translations'].endpoints[0];
      for (const name of ['domain', 'title', 'translationStatuses', 'limit', 'offset', 'context', 'package'])
        assert.ok(list.args[name], name);
      for (const [route, i] of [
        ['/i18n/st/v1/strings/translations/bulk', 0],
        ['/i18n/st/v1/strings/(?P<id>[\\d]+)/translations', 0],
      ] as const) {
        for (const [name, arg] of Object.entries<{ description: string }>(en[route].endpoints[i].args)) {
          if (name !== 'i18n_language')
            assert.notEqual(
              arg.description,
              de[route].endpoints[i].args[name].description,
              `${route} ${name} in German`,
            );
        }
      }
    });

    test('a manager saves a German label: the public German page shows it at once, and the activity log records it', async () => {
      assert.equal(await germanNav(), 'Menü');
      logged.clear();
      const saved = await call('POST', `/strings/${menuId}/translations`, 'administrator', {
        language: 'de',
        value: 'Hauptmenü',
        status: 10,
      });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      assert.deepEqual(saved.body, { id: menuId, language: 'de', value: 'Hauptmenü', status: 10, stringStatus: 10 });
      assert.equal(await germanNav(), 'Hauptmenü');
      assert.equal(logged.entries.length, 1);
      assert.equal(logged.entries[0]!.messageKey, 'string_translated');
      assert.equal(logged.entries[0]!.context!.translation, 'Hauptmenü');
      const events = await call('GET', '/history/v1/events?per_page=1', 'administrator', undefined, '/de/cms-json');
      assert.equal(events.body[0].message, `String „Menu“ (${LABELS_DOMAIN}) nach de übersetzt: „Hauptmenü“`);
      // "Not translated" keeps the text but the pages fall back to the source.
      const unfinished = await call('POST', `/strings/${menuId}/translations`, 'administrator', {
        language: 'de',
        value: 'Hauptmenü',
        status: 0,
      });
      assert.equal(unfinished.status, 200);
      assert.equal(await germanNav(), 'Menu');
      assert.equal(logged.entries.at(-1)!.messageKey, 'string_translation_unfinished');
      // A form post (strings, as a browser sends them) is the same.
      const form = await server.inject({
        method: 'POST',
        url: `${NS}/strings/${menuId}/translations`,
        headers: { authorization: auth.administrator!, 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'language=de&value=Men%C3%BC&status=10',
      });
      assert.equal(form.statusCode, 200, form.body);
      assert.equal(await germanNav(), 'Menü');
    });

    test('bad input is a clear 4xx', async () => {
      const cases: [string, unknown, number, string][] = [
        [`/strings/${menuId}/translations`, { language: 'fr', value: 'x' }, 400, 'rest_invalid_param'],
        [`/strings/${menuId}/translations`, { language: 'de', value: 'x', status: 2 }, 400, 'rest_invalid_param'],
        [`/strings/${menuId}/translations`, { value: 'x' }, 400, 'rest_missing_callback_param'],
        [
          `/strings/${menuId}/translations`,
          { language: 'de', value: '  ', status: 10 },
          400,
          'i18n_st_empty_translation',
        ],
        [`/strings/${menuId}/translations`, { language: 'en', value: 'Menu' }, 400, 'i18n_st_invalid_language'],
        [`/strings/${menuId}/translations`, { language: 'de', value: 'x'.repeat(65537) }, 400, 'rest_invalid_param'],
        ['/strings/99999999/translations', { language: 'de', value: 'x' }, 404, 'i18n_st_string_not_found'],
        ['/strings/2147483648/translations', { language: 'de', value: 'x' }, 404, 'i18n_st_string_not_found'],
        ['/strings/translations/bulk', { ids: [2147483648], action: 'delete' }, 404, 'i18n_st_string_not_found'],
        ['/strings/translations/bulk', { ids: [], action: 'delete' }, 400, 'rest_invalid_param'],
        ['/strings/translations/bulk', { ids: [menuId], action: 'set_status' }, 400, 'rest_missing_callback_param'],
        ['/strings/translations/bulk', { ids: [menuId], action: 'publish' }, 400, 'rest_invalid_param'],
        ['/strings/translations/bulk', { ids: [menuId, 99999999], action: 'delete' }, 404, 'i18n_st_string_not_found'],
        [
          '/strings/translations/bulk',
          { ids: Array.from({ length: 501 }, (_, i) => i + 1), action: 'delete' },
          400,
          'rest_invalid_param',
        ],
      ];
      for (const [path, body, status, code] of cases) {
        const res = await call('POST', path, 'administrator', body);
        assert.equal(res.status, status, `${path} ${JSON.stringify(body).slice(0, 80)}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.code, code, `${path} ${JSON.stringify(body).slice(0, 80)}`);
      }
      for (const pkg of ['abc', '2147483648'])
        assert.equal((await call('GET', `/strings/translations?package=${pkg}`)).status, 400, pkg);
    });

    test('translators work on the strings assigned to them only; others are refused', async () => {
      for (const [method, path, body] of [
        ['GET', '/strings/translations', undefined],
        ['POST', `/strings/${menuId}/translations`, { language: 'de', value: 'x' }],
        ['POST', '/strings/translations/bulk', { ids: [menuId], action: 'delete' }],
      ] as const) {
        assert.equal((await call(method, path, null, body)).status, 401, `${method} ${path} anonymous`);
        for (const role of ['subscriber', 'editor'])
          assert.equal((await call(method, path, role, body)).status, 403, `${method} ${path} ${role}`);
      }
      const none = await call('GET', '/strings/translations', 'translator');
      assert.deepEqual(none.body, { totalCount: 0, items: [] });
      const refused = await call('POST', `/strings/${menuId}/translations`, 'translator', {
        language: 'de',
        value: 'Navigation',
      });
      assert.deepEqual([refused.status, refused.body.code], [403, 'i18n_st_not_assigned']);

      // A string job for the label, and a batch job with two more strings.
      const posts = (await findStringId(t.app, { domain: LABELS_DOMAIN, name: 'posts' }))!;
      const by = (await findStringId(t.app, { domain: LABELS_DOMAIN, name: 'by' }))!;
      await insertStringJob(t.app, ids.translator!, { type: 'string', stringId: menuId });
      await insertStringJob(t.app, ids.translator!, { type: 'st-batch_strings', stringIds: [posts, by] });
      await insertStringJob(
        t.app,
        ids.translator!,
        { type: 'string', stringId: (await findStringId(t.app, { domain: LABELS_DOMAIN, name: 'languages' }))! },
        0,
      ); // cancelled
      const mine = await call('GET', '/strings/translations?limit=50', 'translator');
      assert.equal(mine.status, 200);
      assert.deepEqual(
        mine.body.items.map((i: { id: number }) => i.id).sort((a: number, b: number) => a - b),
        [menuId, posts, by].sort((a, b) => a - b),
      );
      assert.equal(mine.body.totalCount, 3);
      const menu = mine.body.items.find((i: { id: number }) => i.id === menuId);
      assert.deepEqual(menu.editable, ['de']);
      assert.equal(menu.translations.de.value, 'Menü');
      assert.equal((await call('GET', '/strings/translations?limit=50', 'other')).body.totalCount, 0);

      const saved = await call('POST', `/strings/${menuId}/translations`, 'translator', {
        language: 'de',
        value: 'Navigation',
        status: 3,
      });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      assert.equal(await germanNav(), 'Navigation', 'a translation that needs an update still shows');
      const row = await t.app.db
        .selectFrom('i18n_st_translations')
        .select(['translator_id', 'status'])
        .where('string_id', '=', menuId)
        .where('language', '=', 'de')
        .executeTakeFirstOrThrow();
      assert.deepEqual(row, { translator_id: ids.translator, status: 3 });
      const otherSave = await call('POST', `/strings/${menuId}/translations`, 'other', {
        language: 'de',
        value: 'Nope',
      });
      assert.equal(otherSave.status, 403);
      const notTheirs = (await findStringId(t.app, { domain: 'content-site', context: 'button', name: 'Open' }))!;
      const bulkMixed = await call('POST', '/strings/translations/bulk', 'translator', {
        ids: [posts, by, menuId, notTheirs],
        action: 'set_status',
        status: 10,
      });
      assert.equal(bulkMixed.status, 403, 'all or nothing: one string is not theirs');
      assert.deepEqual(bulkMixed.body.data.ids, [notTheirs]);
      const bulkOwn = await call('POST', '/strings/translations/bulk', 'translator', {
        ids: [posts, by],
        action: 'set_status',
        status: 3,
      });
      assert.equal(bulkOwn.status, 200, JSON.stringify(bulkOwn.body));
      assert.equal(bulkOwn.body.updated, 2);
    });

    test('bulk: set a status, delete translations, all inside one batch request', async () => {
      const names = ['notFound', 'notFoundText', 'toHome'];
      const stringIds = await Promise.all(
        names.map(async (name) => (await findStringId(t.app, { domain: LABELS_DOMAIN, name }))!),
      );
      logged.clear();
      const batch = await server.inject({
        method: 'POST',
        url: '/en/cms-json/batch/v1',
        headers: { authorization: auth.administrator!, 'content-type': 'application/json' },
        payload: JSON.stringify({
          requests: [
            {
              method: 'POST',
              path: '/i18n/st/v1/strings/translations/bulk',
              body: { ids: stringIds, action: 'set_status', status: 3 },
            },
            {
              method: 'POST',
              path: '/i18n/st/v1/strings/translations/bulk',
              body: { ids: stringIds.slice(0, 2), action: 'delete', language: 'de' },
            },
            {
              method: 'POST',
              path: '/i18n/st/v1/strings/translations/bulk',
              body: { ids: stringIds, action: 'set_status', status: 10 },
            },
          ],
        }),
      });
      assert.equal(batch.statusCode, 207, batch.body);
      const [first, second, third] = batch.json().responses;
      assert.deepEqual([first.status, first.body.updated, first.body.skipped], [200, 3, []]);
      assert.deepEqual([second.status, second.body.updated], [200, 2]);
      assert.deepEqual(
        [third.status, third.body.updated, third.body.skipped.map((s: { id: number }) => s.id)],
        [200, 1, stringIds.slice(0, 2)],
      );
      const rows = await t.app.db
        .selectFrom('i18n_st_translations')
        .select(['string_id', 'value', 'status'])
        .where('string_id', 'in', stringIds)
        .where('language', '=', 'de')
        .orderBy('string_id')
        .execute();
      const byId = new Map(rows.map((r) => [r.string_id, r]));
      assert.deepEqual(byId.get(stringIds[0]!), { string_id: stringIds[0], value: null, status: 0 });
      assert.equal(byId.get(stringIds[2]!)!.status, 10);
      assert.deepEqual(
        logged.entries.map((e) => e.messageKey),
        ['string_translations_need_update', 'string_translations_deleted', 'string_translations_completed'],
      );
      // The German 404 page falls back to the English source of the deleted label.
      const missing = await server.inject({ method: 'GET', url: '/de/gibt-es-nicht/' });
      assert.match(missing.body, /<h1>Page not found<\/h1>/);
      // The skipped translations come in the order asked for, whatever the rows' order.
      const reversed = await server.inject({
        method: 'POST',
        url: '/en/cms-json/i18n/st/v1/strings/translations/bulk',
        headers: { authorization: auth.administrator!, 'content-type': 'application/json' },
        payload: JSON.stringify({ ids: [...stringIds].reverse(), action: 'set_status', status: 10, language: 'de' }),
      });
      assert.equal(reversed.statusCode, 200, reversed.body);
      assert.deepEqual(
        reversed.json().skipped.map((s: { id: number }) => s.id),
        stringIds.slice(0, 2).reverse(),
      );
    });

    test('strings/translations filters by context, package, status and text, and pages', async () => {
      const open = await call('GET', '/strings/translations?context=button&limit=50');
      assert.deepEqual(
        open.body.items.map((i: { name: string; context: string }) => [i.name, i.context]),
        [['Open', 'button']],
      );
      assert.equal(open.body.items[0].translations.de.value, 'Öffnen');
      const pkg = (await call('GET', '/string-packages?limit=1&sorting[by]=id&sorting[order]=asc')).body[0];
      const inPackage = await call('GET', `/strings/translations?package=${pkg.id}&limit=50`);
      assert.ok(inPackage.body.totalCount > 0);
      assert.ok(inPackage.body.items.every((i: { packageId: number }) => i.packageId === pkg.id));
      const needsUpdate = await call(
        'GET',
        '/strings/translations?translationStatuses[]=3&targetLanguageCode=de&limit=50',
      );
      assert.ok(needsUpdate.body.items.length > 0);
      assert.ok(
        needsUpdate.body.items.every(
          (i: { translations: Record<string, { status: number }> }) => i.translations.de!.status === 3,
        ),
      );
      const count = (await call('GET', '/strings/itemscount')).body.totalCount;
      const page2 = await call('GET', '/strings/translations?limit=5&offset=5');
      assert.equal(page2.body.totalCount, count);
      assert.deepEqual(
        page2.body.items.map((i: { id: number }) => i.id),
        (await call('GET', '/strings?limit=5&offset=5')).body.map((i: { id: number }) => i.id),
      );
      const search = await call('GET', '/strings/translations?title=appointment&limit=50');
      assert.ok(
        search.body.items.length > 0 && search.body.items.every((i: { title: string }) => /appointment/i.test(i.title)),
      );
    });
  });
}
