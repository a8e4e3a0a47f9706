// i18n/st/v1 over HTTP: the index declarations (contract §4.7), permissions per role, every
// route with its filters and errors, and the activity-log entries of the writes — on every
// database target.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/server/http.ts';
import { i18nStLogger } from '../../src/namespaces/i18n-st/logger.ts';
import { seedDemo } from '../../src/namespaces/i18n-st/seed.ts';
import { queueAutoregisteredString } from '../../src/namespaces/i18n-st/capture.ts';
import type { ActivityEntry } from '../../src/site/activity.ts';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { callRoute, userWithRole } from '../support/http.ts';
import type { AuthUser } from '../../src/auth/types.ts';

const NS = '/en/cms-json/i18n/st/v1';
const PATTERNS = [
  '/i18n/st/v1/strings/settings',
  '/i18n/st/v1/strings/itemscount',
  '/i18n/st/v1/strings',
  '/i18n/st/v1/strings/filters',
  '/i18n/st/v1/string-packages',
  '/i18n/st/v1/strings/processstringsqueue',
];
/** Our routes beyond the contract's list (translate.test.ts). */
const TRANSLATION_PATTERNS = [
  '/i18n/st/v1/strings/translations',
  '/i18n/st/v1/strings/translations/bulk',
  '/i18n/st/v1/strings/(?P<id>[\\d]+)/translations',
];
const FILTERS = [
  'kind',
  'type',
  'source',
  'domain',
  'translationPriority',
  'title',
  'sourceLanguageCode',
  'targetLanguageCode',
  'translationStatuses',
  'limit',
  'offset',
  'sorting',
];

for (const target of dbTargets()) {
  describe(`i18n/st/v1 over HTTP (${target.name})`, () => {
    let t: TestApp;
    let server: FastifyInstance;
    const auth: Record<string, string> = {};
    const users: Record<string, AuthUser> = {};
    const logged: ActivityEntry[] = [];

    before(async () => {
      t = await createTestApp(target);
      await seedDemo(t.app);
      const real = t.app.activity;
      t.app.activity = {
        async log(entry, origin) {
          logged.push(entry);
          return real.log(entry, origin);
        },
      };
      server = await buildServer(t.app);
      for (const role of ['administrator', 'editor', 'translator', 'subscriber'] as const)
        ({ authorization: auth[role], user: users[role] } = await userWithRole(t.app, role));
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

    test('the namespace index declares exactly the parameters of contract §4.7', async () => {
      const body = (await call('GET', '', null)).body;
      assert.deepEqual(
        Object.keys(body.routes)
          .filter((r) => r !== '/i18n/st/v1')
          .sort(),
        [...PATTERNS, ...TRANSLATION_PATTERNS].sort(),
      );
      const args = (route: string, method: string) =>
        body.routes[route].endpoints.find((e: { methods: string[] }) => e.methods.includes(method)).args as Record<
          string,
          Record<string, unknown>
        >;
      for (const route of ['/i18n/st/v1/strings', '/i18n/st/v1/strings/itemscount']) {
        const a = args(route, 'GET');
        assert.deepEqual(
          Object.keys(a).filter((k) => k !== 'i18n_language'),
          FILTERS,
        );
        for (const name of FILTERS) {
          assert.equal(a[name]!.required, false);
          assert.ok(typeof a[name]!.description === 'string' && (a[name]!.description as string).length > 5);
        }
        assert.deepEqual([a.kind!.type, a.kind!.default], ['integer', null]);
        assert.equal(a.type!.type, 'string');
        assert.ok(!('default' in a.type!));
        assert.deepEqual([a.source!.type, a.source!.default], ['integer', null]);
        assert.deepEqual([a.domain!.type, a.domain!.default], ['string', null]);
        assert.deepEqual([a.translationPriority!.type, a.translationPriority!.default], ['string', null]);
        for (const s of ['title', 'sourceLanguageCode', 'targetLanguageCode']) assert.equal(a[s]!.type, 'string');
        assert.deepEqual(a.translationStatuses!.default, []);
        assert.ok(!('type' in a.translationStatuses!));
        assert.deepEqual([a.limit!.type, a.limit!.default], ['integer', 10]);
        assert.deepEqual([a.offset!.type, a.offset!.default], ['integer', 0]);
        assert.equal(a.sorting!.default, null);
        assert.ok(!('type' in a.sorting!));
      }
      const pk = args('/i18n/st/v1/string-packages', 'GET');
      assert.deepEqual(
        Object.keys(pk).filter((k) => k !== 'i18n_language'),
        [
          'type',
          'title',
          'sourceLanguageCode',
          'targetLanguageCode',
          'translationStatuses',
          'limit',
          'offset',
          'sorting',
        ],
      );
      const settings = args('/i18n/st/v1/strings/settings', 'POST');
      for (const name of [
        'autoregisterType',
        'shouldRegisterBackendStrings',
        'setNoticeThatCachePluginCanBlockAutoregisterAsDismissed',
        'setDetectStringsInJS',
      ]) {
        assert.deepEqual(
          [settings[name]!.type, settings[name]!.default, settings[name]!.required],
          ['integer', 0, false],
        );
      }
      assert.deepEqual(Object.keys(settings).filter((k) => k !== 'i18n_language').length, 4);
      for (const [route, method] of [
        ['/i18n/st/v1/strings/settings', 'GET'],
        ['/i18n/st/v1/strings/filters', 'GET'],
        ['/i18n/st/v1/strings/processstringsqueue', 'POST'],
      ] as const) {
        assert.deepEqual(
          Object.keys(args(route, method)).filter((k) => k !== 'i18n_language'),
          [],
          `${method} ${route}`,
        );
      }
      const de = (await call('GET', '', null, undefined, '/de/cms-json/i18n/st/v1')).body;
      const deKind = de.routes['/i18n/st/v1/strings'].endpoints[0].args.kind.description;
      assert.notEqual(deKind, args('/i18n/st/v1/strings', 'GET').kind!.description);
    });

    test('permissions: manage_translations only', async () => {
      for (const [method, path] of [
        ['GET', '/strings'],
        ['GET', '/strings/itemscount'],
        ['GET', '/strings/filters'],
        ['GET', '/string-packages'],
        ['GET', '/strings/settings'],
        ['POST', '/strings/settings'],
        ['POST', '/strings/processstringsqueue'],
      ] as const) {
        const anon = await call(method, path, null);
        assert.equal(anon.status, 401, `${method} ${path} anonymous`);
        assert.equal(anon.body.code, 'rest_forbidden');
        for (const role of ['subscriber', 'editor', 'translator'])
          assert.equal((await call(method, path, role)).status, 403, `${method} ${path} ${role}`);
        assert.equal((await call(method, path)).status, 200, `${method} ${path} administrator`);
      }
    });

    test('GET strings with query-string filters, sorting and paging', async () => {
      const all = await call('GET', '/strings?limit=100');
      assert.equal(all.status, 200);
      assert.ok(all.body.length > 30);
      const count = await call('GET', '/strings/itemscount');
      assert.deepEqual(count.body, { totalCount: all.body.length });
      const kind1 = await call('GET', '/strings?kind=1&limit=100');
      assert.ok(kind1.body.length >= 3 && kind1.body.every((s: { kind: number }) => s.kind === 1));
      const sched = await call('GET', '/strings?domain=sched&type=1&source=1');
      assert.deepEqual(
        sched.body.map((s: { name: string }) => s.name),
        ['admin.timezone_warning', 'admin.settings_saved'],
      );
      const complete = await call('GET', '/strings?targetLanguageCode=de&translationStatuses[]=10&limit=100');
      assert.ok(complete.body.length >= 10);
      for (const s of complete.body) {
        assert.deepEqual(Object.keys(s.translations), ['de']);
        assert.equal(s.translations.de.status, 10);
      }
      const csv = await call('GET', '/strings/itemscount?translationStatuses=3,1');
      const arr = await call('GET', '/strings/itemscount?translationStatuses[]=3&translationStatuses[]=1');
      assert.equal(csv.body.totalCount, arr.body.totalCount);
      assert.ok(csv.body.totalCount >= 3);
      const sorted = await call('GET', '/strings?kind=0&sorting[by]=title&sorting[order]=asc&limit=5&offset=1');
      const titles = sorted.body.map((s: { title: string }) => s.title.toLowerCase());
      assert.deepEqual(titles, [...titles].sort());
      assert.equal(sorted.body.length, 5);
      const search = await call('GET', '/strings?title=PASSWORD');
      assert.deepEqual(
        search.body.map((s: { title: string }) => s.title),
        ['Password'],
      );
      const german = await call('GET', '/strings?sourceLanguageCode=de&translationPriority=optional&limit=100');
      assert.ok(german.body.length >= 3 && german.body.every((s: { language: string }) => s.language === 'de'));
      // Localized language names follow the effective language.
      const deRoot = await call('GET', '/strings?limit=1', 'administrator', undefined, '/de/cms-json/i18n/st/v1');
      assert.equal(deRoot.body[0].languageFullName, 'Englisch');
      const override = await call('GET', '/strings?limit=1&i18n_language=de');
      assert.equal(override.body[0].languageFullName, 'Englisch');
    });

    test('invalid filters are 400 rest_invalid_param, never 500', async () => {
      for (const q of [
        'kind=5',
        'kind=abc',
        'source=2',
        'type=9',
        'limit=0',
        'limit=5000',
        'offset=-1',
        'sourceLanguageCode=fr',
        'targetLanguageCode=xx',
        'translationStatuses[]=abc',
        'sorting[by]=password',
        'sorting[by]=title&sorting[order]=up',
      ]) {
        for (const path of ['/strings', '/strings/itemscount']) {
          const res = await call('GET', `${path}?${q}`);
          assert.equal(res.status, 400, `${path}?${q}`);
          assert.equal(res.body.code, 'rest_invalid_param', `${path}?${q}`);
        }
      }
      // Messages follow the effective language.
      const de = await call('GET', '/strings?kind=5', 'administrator', undefined, '/de/cms-json/i18n/st/v1');
      assert.equal(de.status, 400);
      assert.match(de.body.message, /Ungültige/);
      assert.match(de.body.data.params.kind, /muss einer der Werte 0, 1 sein/);
      const deFilters = await call('GET', '/strings/filters?kind=7&i18n_language=de');
      assert.equal(deFilters.status, 400);
      assert.match(deFilters.body.data.params.kind, /muss/);
      const deSettings = await call('POST', '/strings/settings?i18n_language=de', 'administrator', {
        autoregisterType: 9,
      });
      assert.equal(deSettings.status, 400);
      assert.match(deSettings.body.data.params.autoregisterType, /muss einer der Werte 0, 1, 2 sein/);
      assert.equal((await call('GET', '/strings/filters?kind=7')).status, 400);
      assert.equal((await call('GET', '/string-packages?sorting[by]=domain')).status, 400);
      assert.equal((await call('GET', '/string-packages?limit=abc')).status, 400);
    });

    test('GET strings/filters and string-packages', async () => {
      const f = await call('GET', '/strings/filters');
      assert.deepEqual(Object.keys(f.body), ['domains', 'translationPriorities']);
      assert.ok(f.body.domains.includes('content-site') && f.body.domains.includes('sched'));
      assert.deepEqual(f.body.translationPriorities, ['not-needed', 'optional', 'required']);
      const auto = await call('GET', '/strings/filters?kind=1');
      assert.deepEqual(auto.body.domains, ['content-site', 'sched']);
      const pk = await call('GET', '/string-packages');
      assert.equal(pk.status, 200);
      assert.equal(pk.body.length, 3);
      const forms = await call('GET', '/string-packages?type=gravity_form');
      assert.deepEqual(
        forms.body.map((p: { title: string }) => p.title),
        ['Partner application form'],
      );
      const done = await call('GET', '/string-packages?targetLanguageCode=de&translationStatuses[]=10');
      assert.deepEqual(
        done.body.map((p: { type: string }) => p.type),
        ['widget'],
      );
      const byTitle = await call('GET', '/string-packages?sorting[by]=title&sorting[order]=asc&limit=2');
      assert.deepEqual(
        byTitle.body.map((p: { title: string }) => p.title),
        ['Footer text widget', 'Landing page: Become a partner'],
      );
      assert.deepEqual((await call('GET', '/string-packages?title=nothing-like-this')).body, []);
    });

    test('settings: GET, POST (persisted, logged), invalid values 400', async () => {
      await t.app.db.deleteFrom('i18n_kv').where('name', '=', 'st_settings').execute();
      const before = await call('GET', '/strings/settings');
      assert.equal(before.body.autoregisterType, 2);
      logged.length = 0;
      const res = await call('POST', '/strings/settings', 'administrator', {
        autoregisterType: 1,
        setDetectStringsInJS: 1,
        visibleColumns: { type: true },
      });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, []);
      assert.equal(logged.length, 1);
      assert.equal(logged[0]!.logger, i18nStLogger.slug);
      assert.equal(logged[0]!.messageKey, 'string_settings_updated');
      assert.ok(logged[0]!.messageKey in i18nStLogger.messages);
      assert.equal(logged[0]!.context!.settings, 'autoregisterType, detectStringsInJS, visibleColumns');
      const after1 = (await call('GET', '/strings/settings')).body;
      assert.equal(after1.autoregisterType, 1);
      assert.equal(after1.detectStringsInJS, 1);
      assert.equal(after1.visibleColumns.type, true);
      // As declared (and as in the reference), an omitted setting takes its default 0; form-encoded works too.
      const form = await server.inject({
        method: 'POST',
        url: `${NS}/strings/settings`,
        headers: { authorization: auth.administrator!, 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'shouldRegisterBackendStrings=1',
      });
      assert.equal(form.statusCode, 200);
      const after2 = (await call('GET', '/strings/settings')).body;
      assert.equal(after2.autoregisterType, 0);
      assert.equal(after2.detectStringsInJS, 0);
      assert.equal(after2.shouldRegisterBackendStrings, 1);
      assert.equal(after2.visibleColumns.type, true, 'visibleColumns only change when sent');
      await call('POST', '/strings/settings', 'administrator', {
        autoregisterType: 1,
        shouldRegisterBackendStrings: 1,
      });
      for (const body of [
        { autoregisterType: 3 },
        { autoregisterType: 'x' },
        { shouldRegisterBackendStrings: 2 },
        { setDetectStringsInJS: -1 },
        { visibleColumns: 'all' },
      ]) {
        const bad = await call('POST', '/strings/settings', 'administrator', body);
        assert.equal(bad.status, 400, JSON.stringify(body));
        assert.equal(bad.body.code, 'rest_invalid_param');
      }
      assert.equal((await call('GET', '/strings/settings')).body.autoregisterType, 1);
    });

    test('processstringsqueue drains captured strings and logs it', async () => {
      await call('POST', '/strings/settings', 'administrator', { autoregisterType: 1 });
      for (let i = 0; i < 3; i++) {
        assert.ok(
          await queueAutoregisteredString(
            t.app,
            { domain: 'http-queue', name: `n${i}`, value: `Captured ${i}`, page: '/en/' },
            { isAdmin: false },
          ),
        );
      }
      logged.length = 0;
      const res = await call('POST', '/strings/processstringsqueue');
      assert.equal(res.status, 200);
      assert.equal(res.body.wasProcessed, true);
      assert.equal(res.body.hasPending, false);
      assert.equal(res.body.registeredStrings, 3);
      assert.equal(res.body.pagesProcessed, 1);
      assert.equal(logged.length, 1);
      assert.equal(logged[0]!.messageKey, 'strings_queue_processed');
      assert.equal(logged[0]!.context!.registered, 3);
      assert.equal((await call('GET', '/strings/itemscount?domain=http-queue&kind=1')).body.totalCount, 3);
      logged.length = 0;
      const again = await call('POST', '/strings/processstringsqueue');
      assert.equal(again.body.wasProcessed, false);
      assert.equal(logged.length, 0);
      await call('POST', '/strings/settings', 'administrator', { autoregisterType: 2 });
      assert.deepEqual((await call('POST', '/strings/processstringsqueue')).body, {
        wasProcessed: false,
        hasPending: false,
        shouldContinue: false,
      });
    });

    test('writes work inside a batch request', async () => {
      const res = await server.inject({
        method: 'POST',
        url: '/en/cms-json/batch/v1',
        headers: { authorization: auth.administrator!, 'content-type': 'application/json' },
        payload: JSON.stringify({
          requests: [
            { path: '/i18n/st/v1/strings/settings', body: { setDetectStringsInJS: 0 } },
            { path: '/i18n/st/v1/strings/processstringsqueue' },
          ],
        }),
      });
      assert.equal(res.statusCode, 207);
      const body = JSON.parse(res.body);
      assert.deepEqual(
        body.responses.map((r: { status: number }) => r.status),
        [200, 200],
      );
    });
  });
}
