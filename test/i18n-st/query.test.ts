// Service-level tests of GET strings / itemscount / filters and GET string-packages: every
// filter, sorting, paging and every invalid-parameter error — on every database target.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { registerString, saveStringTranslation } from '../../src/namespaces/i18n-st/registry.ts';
import { registerPackage, savePackageTranslation } from '../../src/namespaces/i18n-st/packages.ts';
import { countStrings, listPackages, listStrings, stringFilterValues } from '../../src/namespaces/i18n-st/query.ts';
import {
  FilterError,
  parsePackageFilters,
  parseSorting,
  parseStatuses,
  parseStringFilters,
  STRING_SORT_COLUMNS,
} from '../../src/namespaces/i18n-st/filters.ts';
import { seedDemo } from '../../src/namespaces/i18n-st/seed.ts';
import { generateStrings } from '../../src/namespaces/i18n-st/generate-strings.ts';

const ITEM_KEYS = [
  'id',
  'language',
  'languageFullName',
  'languageFlagUrl',
  'domain',
  'context',
  'name',
  'title',
  'status',
  'translationPriority',
  'sources',
  'kind',
  'type',
  'translations',
  'wordCount',
];
const TRANSLATION_KEYS = [
  'status',
  'reviewStatus',
  'jobId',
  'method',
  'editor',
  'isTranslated',
  'translatorId',
  'ateJobId',
];
const PACKAGE_KEYS = [
  'id',
  'title',
  'lastEdit',
  'type',
  'translations',
  'wordCount',
  'translatorNote',
  'viewLink',
  'editLink',
  'createdAt',
  'status',
];

test('parsers refuse bad values with rest_invalid_param', () => {
  const bad = (p: Record<string, unknown>, param: string) =>
    assert.throws(
      () => parseStringFilters(p),
      (e: FilterError) => e.status === 400 && e.code === 'rest_invalid_param' && param in (e.data.params as object),
    );
  bad({ kind: 2 }, 'kind');
  bad({ kind: 'x' }, 'kind');
  bad({ type: '7' }, 'type');
  bad({ type: 'widget' }, 'type');
  bad({ source: 3 }, 'source');
  bad({ sourceLanguageCode: 'fr' }, 'sourceLanguageCode');
  bad({ targetLanguageCode: 'xx' }, 'targetLanguageCode');
  bad({ translationStatuses: ['a'] }, 'translationStatuses');
  bad({ translationStatuses: [-1] }, 'translationStatuses');
  bad({ limit: 0 }, 'limit');
  bad({ limit: 1001 }, 'limit');
  bad({ limit: 1.5 }, 'limit');
  bad({ offset: -1 }, 'offset');
  bad({ sorting: { by: 'password', order: 'asc' } }, 'sorting');
  bad({ sorting: { by: 'title', order: 'sideways' } }, 'sorting');
  bad({ sorting: 5 }, 'sorting');
  bad({ sorting: { title: 'asc', id: 'desc' } }, 'sorting');
  bad({ sorting: { by: 'domain' } }, 'sorting');
  bad({ domain: { a: 1 } }, 'domain');
  assert.throws(() => parsePackageFilters({ sorting: { by: 'domain' } }), FilterError);
});

test('parsers accept the forms clients send', () => {
  const f = parseStringFilters({});
  assert.deepEqual(f, {
    kind: null,
    type: null,
    source: null,
    domain: null,
    translationPriority: null,
    title: null,
    sourceLanguageCode: null,
    targetLanguageCode: null,
    translationStatuses: [],
    limit: 10,
    offset: 0,
    sorting: null,
    context: null,
    packageId: null,
    assignedTo: null,
  });
  assert.deepEqual(
    [parseStringFilters({ context: '' }).context, parseStringFilters({ context: 'button', package: '7' }).packageId],
    ['', 7],
  );
  assert.deepEqual(parseStatuses('0, 10'), [0, 10]);
  assert.deepEqual(parseStatuses(['3', 3, 10]), [3, 10]);
  assert.deepEqual(parseStatuses({ 0: '1' }), [1]);
  assert.deepEqual(parseSorting({ by: 'title', order: 'DESC' }, STRING_SORT_COLUMNS), { by: 'title', order: 'desc' });
  assert.deepEqual(parseSorting({ title: 'asc' }, STRING_SORT_COLUMNS), { by: 'title', order: 'asc' });
  assert.deepEqual(parseSorting('title:desc', STRING_SORT_COLUMNS), { by: 'title', order: 'desc' });
  assert.deepEqual(parseSorting('id', STRING_SORT_COLUMNS), { by: 'id', order: 'asc' });
  assert.equal(parseStringFilters({ type: 'theme' }).type, 2);
  assert.equal(parseStringFilters({ type: '3' }).type, 3);
  assert.equal(parseStringFilters({ kind: '1', source: '0', limit: '5', offset: '2' }).kind, 1);
});

for (const target of dbTargets()) {
  describe(`i18n/st queries (${target.name})`, () => {
    let t: TestApp;
    const ids: Record<string, number> = {};
    before(async () => {
      t = await createTestApp(target);
      const reg = async (key: string, input: Parameters<typeof registerString>[1]) => {
        ids[key] = (await registerString(t.app, input)).id;
      };
      await reg('login', { domain: 'theme', name: 'login', value: 'Partner login', type: 2 });
      await reg('search', {
        domain: 'theme',
        name: 'search',
        value: 'Search the portal',
        type: 2,
        translationPriority: 'required',
      });
      await reg('cookie', {
        domain: 'theme',
        name: 'cookie',
        value: 'We use cookies',
        type: 2,
        kind: 1,
        location: '/en/',
      });
      await reg('book', { domain: 'sched', name: 'book', value: 'Book 100% now', type: 1 });
      await reg('saved', {
        domain: 'sched',
        name: 'saved',
        value: 'Settings_saved',
        type: 1,
        source: 1,
        translationPriority: 'not-needed',
      });
      await reg('logout', { domain: 'default', name: 'logout', value: 'Log out', type: 3, kind: 1 });
      await reg('impressum', {
        domain: 'theme',
        name: 'impressum',
        value: 'Angaben gemäß TMG',
        language: 'de',
        type: 2,
      });
      await saveStringTranslation(t.app, ids.login!, 'de', {
        value: 'Partner-Anmeldung',
        method: 'manual',
        editor: 'classic',
        translatorId: 7,
      });
      await saveStringTranslation(t.app, ids.search!, 'de', {
        value: 'Portal durchsuchen',
        status: 10,
        reviewStatus: 'NEEDS_REVIEW',
        method: 'automatic',
        editor: 'ate',
        ateJobId: 55,
        jobId: 12,
      });
      await saveStringTranslation(t.app, ids.book!, 'de', { status: 1 });
      await saveStringTranslation(t.app, ids.logout!, 'de', { value: 'Abmelden', status: 3 });
      await saveStringTranslation(t.app, ids.impressum!, 'en', { value: 'Information per TMG' });
    });
    after(async () => t.close());

    const names = async (p: Record<string, unknown>) =>
      (await listStrings(t.app, parseStringFilters({ limit: 100, ...p }), 'en')).map((i) => i.name);
    const count = async (p: Record<string, unknown>) => (await countStrings(t.app, parseStringFilters(p))).totalCount;

    test('default order: autoregistered first, newest first; item shape as the reference', async () => {
      assert.deepEqual(await names({}), ['logout', 'cookie', 'impressum', 'saved', 'book', 'search', 'login']);
      const items = await listStrings(t.app, parseStringFilters({ limit: 100 }), 'en');
      for (const item of items) {
        assert.deepEqual(Object.keys(item), ITEM_KEYS);
        for (const tr of Object.values(item.translations)) assert.deepEqual(Object.keys(tr), TRANSLATION_KEYS);
      }
      const search = items.find((i) => i.name === 'search')!;
      assert.deepEqual(search.translations, {
        de: {
          status: 10,
          reviewStatus: 'NEEDS_REVIEW',
          jobId: 12,
          method: 'automatic',
          editor: 'ate',
          isTranslated: true,
          translatorId: null,
          ateJobId: 55,
        },
      });
      assert.equal(items.find((i) => i.name === 'login')!.translations.de!.translatorId, 7);
      assert.deepEqual(items.find((i) => i.name === 'cookie')!.sources, ['/en/']);
      assert.deepEqual(Object.keys(items.find((i) => i.name === 'impressum')!.translations), ['en']);
      assert.equal(await count({}), 7);
    });

    test('kind, type, source, domain, translationPriority', async () => {
      assert.deepEqual(await names({ kind: 1 }), ['logout', 'cookie']);
      assert.deepEqual(await names({ kind: 0 }), ['impressum', 'saved', 'book', 'search', 'login']);
      assert.deepEqual(await names({ type: '1' }), ['saved', 'book']);
      assert.deepEqual(await names({ type: 'core' }), ['logout']);
      assert.deepEqual(await names({ source: 1 }), ['saved']);
      assert.deepEqual(await names({ source: 0 }), ['logout', 'cookie', 'impressum', 'book', 'search', 'login']);
      assert.deepEqual(await names({ domain: 'sched' }), ['saved', 'book']);
      assert.deepEqual(await names({ domain: 'nope' }), []);
      assert.deepEqual(await names({ translationPriority: 'required' }), ['search']);
      assert.deepEqual(await names({ translationPriority: 'optional', domain: 'theme' }), [
        'cookie',
        'impressum',
        'login',
      ]);
      assert.equal(await count({ domain: 'theme', kind: 0 }), 3);
    });

    test('title: case-insensitive substring of the source text; LIKE wildcards are literal', async () => {
      assert.deepEqual(await names({ title: 'PORTAL' }), ['search']);
      assert.deepEqual(await names({ title: 'log' }), ['logout', 'login']);
      assert.deepEqual(await names({ title: '100%' }), ['book']);
      assert.deepEqual(await names({ title: '%' }), ['book']);
      assert.deepEqual(await names({ title: '_' }), ['saved']);
      assert.deepEqual(await names({ title: 'gemäß' }), ['impressum']);
      assert.equal(await count({ title: 'o' }), 5);
    });

    test('languages and translation statuses', async () => {
      assert.deepEqual(await names({ sourceLanguageCode: 'de' }), ['impressum']);
      assert.deepEqual(await names({ targetLanguageCode: 'en' }), ['impressum']);
      assert.deepEqual(await names({ targetLanguageCode: 'de', limit: 3 }), ['logout', 'cookie', 'saved']);
      assert.deepEqual(await names({ translationStatuses: [10] }), ['impressum', 'search', 'login']);
      assert.deepEqual(await names({ translationStatuses: [10], targetLanguageCode: 'de' }), ['search', 'login']);
      assert.deepEqual(await names({ translationStatuses: '0' }), ['cookie', 'saved']);
      assert.deepEqual(await names({ translationStatuses: [1, 3] }), ['logout', 'book']);
      assert.deepEqual(await names({ translationStatuses: [30] }), ['search'], '30 = complete but needs review');
      assert.deepEqual(await names({ translationStatuses: [40] }), []);
      assert.equal(await count({ translationStatuses: [0, 1], targetLanguageCode: 'de' }), 3);
      // With a target language, only that language's status is returned.
      const [item] = await listStrings(
        t.app,
        parseStringFilters({ sourceLanguageCode: 'en', targetLanguageCode: 'de', domain: 'sched', limit: 1 }),
        'en',
      );
      assert.deepEqual(Object.keys(item!.translations), ['de']);
    });

    test('string status roll-up is visible', async () => {
      const items = await listStrings(t.app, parseStringFilters({ limit: 100 }), 'en');
      const status = Object.fromEntries(items.map((i) => [i.name, i.status]));
      assert.deepEqual(status, { logout: 3, cookie: 0, impressum: 10, saved: 0, book: 1, search: 10, login: 10 });
    });

    test('sorting and paging', async () => {
      assert.deepEqual(await names({ sorting: { by: 'title', order: 'asc' } }), [
        'logout',
        'cookie',
        'impressum',
        'book',
        'login',
        'search',
        'saved',
      ]);
      assert.deepEqual(await names({ sorting: { by: 'title', order: 'desc' } }), [
        'cookie',
        'logout',
        'saved',
        'search',
        'login',
        'book',
        'impressum',
      ]);
      assert.deepEqual(await names({ sorting: { by: 'id', order: 'asc' } }), [
        'cookie',
        'logout',
        'login',
        'search',
        'book',
        'saved',
        'impressum',
      ]);
      assert.deepEqual(await names({ sorting: { title: 'asc' }, kind: 0 }), [
        'impressum',
        'book',
        'login',
        'search',
        'saved',
      ]);
      assert.deepEqual(await names({ sorting: 'id:desc', kind: 0 }), ['impressum', 'saved', 'book', 'search', 'login']);
      assert.deepEqual(
        await names({ sorting: { by: 'title', order: 'asc' }, domain: 'theme', translationStatuses: [10] }),
        ['impressum', 'login', 'search'],
      );
      assert.deepEqual(await names({ limit: 2, offset: 0 }), ['logout', 'cookie']);
      assert.deepEqual(await names({ limit: 2, offset: 2 }), ['impressum', 'saved']);
      assert.deepEqual(await names({ limit: 2, offset: 6 }), ['login']);
      assert.deepEqual(await names({ limit: 2, offset: 60 }), []);
      assert.equal((await listStrings(t.app, parseStringFilters({}), 'en')).length, 7, 'default limit 10');
    });

    test('filter menus: values present under the other filters', async () => {
      assert.deepEqual(await stringFilterValues(t.app, parseStringFilters({})), {
        domains: ['default', 'sched', 'theme'],
        translationPriorities: ['not-needed', 'optional', 'required'],
      });
      assert.deepEqual(await stringFilterValues(t.app, parseStringFilters({ kind: 1 })), {
        domains: ['default', 'theme'],
        translationPriorities: ['optional'],
      });
      // A menu ignores its own filter.
      assert.deepEqual(await stringFilterValues(t.app, parseStringFilters({ domain: 'sched' })), {
        domains: ['default', 'sched', 'theme'],
        translationPriorities: ['not-needed', 'optional'],
      });
      assert.deepEqual(await stringFilterValues(t.app, parseStringFilters({ title: 'zzz' })), {
        domains: [],
        translationPriorities: [],
      });
    });

    test('string packages: every filter, sorting, paging and the reference shape', async () => {
      const form = await registerPackage(t.app, {
        kind: 'gravity_form',
        name: '1',
        title: 'Contact form',
        translatorNote: 'Formal',
        viewLink: 'http://x/view',
        editLink: 'http://x/edit',
      });
      const widget = await registerPackage(t.app, { kind: 'widget', name: 'footer', title: 'Footer text' });
      const page = await registerPackage(t.app, {
        kind: 'elementor',
        name: '42',
        title: 'Landing page',
        language: 'de',
      });
      assert.equal(
        await registerPackage(t.app, { kind: 'widget', name: 'footer', title: 'Footer text' }),
        widget,
        'idempotent',
      );
      await savePackageTranslation(t.app, form, 'de', { status: 10, method: 'manual', editor: 'classic' });
      await savePackageTranslation(t.app, widget, 'de', { status: 2, translatorId: 3 });
      const list = async (p: Record<string, unknown>) =>
        (await listPackages(t.app, parsePackageFilters({ limit: 100, ...p }))).map((x) => x.id);
      const all = await listPackages(t.app, parsePackageFilters({}));
      assert.deepEqual(
        all.map((p) => p.id),
        [page, widget, form],
      );
      for (const p of all) assert.deepEqual(Object.keys(p), PACKAGE_KEYS);
      const f = all.find((p) => p.id === form)!;
      assert.equal(f.type, 'gravity_form');
      assert.equal(f.translatorNote, 'Formal');
      assert.equal(f.viewLink, 'http://x/view');
      assert.equal(f.status, 'external');
      assert.match(f.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
      assert.match(f.lastEdit, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      assert.deepEqual(f.translations.de, {
        status: 10,
        reviewStatus: null,
        jobId: null,
        method: 'manual',
        editor: 'classic',
        isTranslated: true,
        translatorId: null,
        ateJobId: null,
      });
      assert.deepEqual(await list({ type: 'widget' }), [widget]);
      assert.deepEqual(await list({ type: 'nothing' }), []);
      assert.deepEqual(await list({ title: 'FORM' }), [form]);
      assert.deepEqual(await list({ sourceLanguageCode: 'de' }), [page]);
      assert.deepEqual(await list({ targetLanguageCode: 'de' }), [widget, form]);
      assert.deepEqual(await list({ translationStatuses: [10] }), [form]);
      assert.deepEqual(await list({ translationStatuses: [0] }), [page]);
      assert.deepEqual(await list({ translationStatuses: [0, 2], targetLanguageCode: 'de' }), [widget]);
      assert.deepEqual(await list({ sorting: { by: 'title', order: 'asc' } }), [form, widget, page]);
      assert.deepEqual(await list({ sorting: { by: 'id', order: 'asc' } }), [form, widget, page]);
      assert.deepEqual(await list({ limit: 1, offset: 1 }), [widget]);
    });
  });

  describe(`i18n/st seeds (${target.name})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(target);
    });
    after(async () => t.close());

    test('seedDemo is realistic and idempotent', async () => {
      const first = await seedDemo(t.app);
      const second = await seedDemo(t.app);
      assert.deepEqual(first, second);
      const total = (await countStrings(t.app, parseStringFilters({}))).totalCount;
      assert.equal(total, first.strings);
      assert.ok((await countStrings(t.app, parseStringFilters({ sourceLanguageCode: 'de' }))).totalCount >= 3);
      assert.ok((await countStrings(t.app, parseStringFilters({ kind: 1 }))).totalCount >= 3);
      assert.ok((await countStrings(t.app, parseStringFilters({ translationStatuses: [10] }))).totalCount >= 10);
      assert.ok((await countStrings(t.app, parseStringFilters({ translationStatuses: [3] }))).totalCount >= 2);
      const pkgs = await listPackages(t.app, parsePackageFilters({}));
      assert.equal(pkgs.length, 3);
      assert.ok(pkgs.every((p) => p.wordCount > 0));
    });

    test('generateStrings inserts in bulk with translations', async () => {
      const before = (await countStrings(t.app, parseStringFilters({}))).totalCount;
      assert.equal(await generateStrings(t.app, 1234, { chunk: 300 }), 1234);
      assert.equal((await countStrings(t.app, parseStringFilters({}))).totalCount, before + 1234);
      assert.ok((await countStrings(t.app, parseStringFilters({ domain: 'bench-7' }))).totalCount > 0);
      const tenth = (await countStrings(t.app, parseStringFilters({ domain: 'bench-3', translationStatuses: [10] })))
        .totalCount;
      assert.ok(tenth > 0);
      const items = await listStrings(t.app, parseStringFilters({ domain: 'bench-1', limit: 5 }), 'en');
      assert.equal(items.length, 5);
      assert.ok(items.every((i) => Object.keys(i.translations).length === 1));
    });
  });
}
