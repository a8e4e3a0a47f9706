// Service-level tests of the string registry: registration, translations and status roll-up,
// the translation API for other namespaces, settings, and the capture queue — on every
// database target.
import { test, describe, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import {
  countWords,
  registerString,
  rollUpStatus,
  saveStringTranslation,
} from '../../src/namespaces/i18n-st/registry.ts';
import {
  findStringId,
  translateOrRegister,
  translateString,
  translateStrings,
} from '../../src/namespaces/i18n-st/string-lookup.ts';
import { queueAutoregisteredString } from '../../src/namespaces/i18n-st/capture.ts';
import {
  describeStringSettings,
  checkSettingValue,
  checkVisibleColumns,
  getStringSettings,
  updateStringSettings,
  type StringSettingsUpdate,
} from '../../src/namespaces/i18n-st/settings.ts';
import { drainStringsQueue, pendingQueueCount } from '../../src/namespaces/i18n-st/queue.ts';
import { countStrings, listStrings } from '../../src/namespaces/i18n-st/query.ts';
import { parseStringFilters } from '../../src/namespaces/i18n-st/filters.ts';
import { RestError } from '../../src/rest/types.ts';
import { kvSet } from '../../src/namespaces/i18n-st/kv.ts';

async function rejects400(p: Promise<unknown>, code?: string): Promise<RestError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof RestError, `expected RestError, got ${err}`);
    assert.equal(err.status, 400);
    if (code) assert.equal(err.code, code);
    return err;
  }
  assert.fail('expected a 400 error');
}

test('roll-up of per-language statuses', () => {
  assert.equal(rollUpStatus([]), 10);
  assert.equal(rollUpStatus([0]), 0);
  assert.equal(rollUpStatus([10]), 10);
  assert.equal(rollUpStatus([10, 0]), 2);
  assert.equal(rollUpStatus([10, 3]), 3);
  assert.equal(rollUpStatus([1, 0]), 1);
  assert.equal(rollUpStatus([2]), 1);
});

test('word count', () => {
  assert.equal(countWords('Hello <b>big</b> world'), 3);
  assert.equal(countWords('  '), 0);
  assert.equal(countWords('Published on %s'), 2);
});

for (const target of dbTargets()) {
  describe(`i18n/st registry (${target.name})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(target);
    });
    after(async () => t.close());

    test('registering creates the string with a not-translated row per target language', async () => {
      const r = await registerString(t.app, { domain: 'reg', name: 'hello', value: 'Hello world' });
      assert.equal(r.created, true);
      const [item] = await listStrings(t.app, parseStringFilters({ domain: 'reg' }), 'en');
      assert.equal(item!.id, r.id);
      assert.equal(item!.title, 'Hello world');
      assert.equal(item!.language, 'en');
      assert.equal(item!.context, null);
      assert.equal(item!.status, 0);
      assert.equal(item!.kind, 0);
      assert.equal(item!.translationPriority, 'optional');
      assert.equal(item!.wordCount, 2);
      assert.deepEqual(Object.keys(item!.translations), ['de']);
      assert.equal(item!.translations.de!.status, 0);
      assert.equal(item!.translations.de!.isTranslated, false);
      // Registering again is idempotent.
      const again = await registerString(t.app, { domain: 'reg', name: 'hello', value: 'Hello world' });
      assert.deepEqual(again, { id: r.id, created: false, changed: false });
    });

    test('translateString: translation when complete, source otherwise, null when unknown', async () => {
      const { id } = await registerString(t.app, { domain: 'api', name: 'greeting', value: 'Good morning' });
      assert.equal(await translateString(t.app, { domain: 'api', name: 'greeting' }, 'de'), 'Good morning');
      assert.equal(await translateString(t.app, { domain: 'api', name: 'greeting' }, 'en'), 'Good morning');
      await saveStringTranslation(t.app, id, 'de', { value: 'Guten Morgen', status: 2 });
      assert.equal(
        await translateString(t.app, { domain: 'api', name: 'greeting' }, 'de'),
        'Good morning',
        'in progress is not shown',
      );
      await saveStringTranslation(t.app, id, 'de', { value: 'Guten Morgen' });
      assert.equal(await translateString(t.app, { domain: 'api', name: 'greeting' }, 'de'), 'Guten Morgen');
      assert.equal(await translateString(t.app, { domain: 'api', name: 'nope' }, 'de'), null);
      assert.equal(await findStringId(t.app, { domain: 'api', name: 'greeting' }), id);
      const [item] = await listStrings(t.app, parseStringFilters({ domain: 'api' }), 'de');
      assert.equal(item!.status, 10);
      assert.equal(item!.languageFullName, 'Englisch');
      assert.match(item!.languageFlagUrl, /^data:image\/svg\+xml;base64,/);
      assert.equal(item!.translations.de!.isTranslated, true);
      assert.equal(item!.translations.de!.method, null);
    });

    test('translateStrings answers many keys with one query, in order', async () => {
      const { id } = await registerString(t.app, { domain: 'many', name: 'a', value: 'A' });
      await registerString(t.app, { domain: 'many', name: 'b', value: 'B' });
      await saveStringTranslation(t.app, id, 'de', { value: 'Ä' });
      assert.deepEqual(
        await translateStrings(
          t.app,
          [
            { domain: 'many', name: 'b' },
            { domain: 'many', name: 'zzz' },
            { domain: 'many', name: 'a' },
            { domain: 'many', name: 'a' },
          ],
          'de',
        ),
        ['B', null, 'Ä', 'Ä'],
      );
      assert.deepEqual(await translateStrings(t.app, [{ domain: 'many', name: 'a' }], 'en'), ['A']);
      assert.deepEqual(await translateStrings(t.app, [], 'de'), []);
    });

    test('a changed source value marks complete translations "needs update"', async () => {
      const { id } = await registerString(t.app, { domain: 'upd', name: 'x', value: 'Old text' });
      await saveStringTranslation(t.app, id, 'de', { value: 'Alter Text', method: 'manual', editor: 'classic' });
      const r = await registerString(t.app, { domain: 'upd', name: 'x', value: 'New text' });
      assert.deepEqual(r, { id, created: false, changed: true });
      const [item] = await listStrings(t.app, parseStringFilters({ domain: 'upd' }), 'en');
      assert.equal(item!.status, 3);
      assert.equal(item!.translations.de!.status, 3);
      assert.equal(item!.translations.de!.method, 'manual');
      // The previous translation is still served until it is updated.
      assert.equal(await translateString(t.app, { domain: 'upd', name: 'x' }, 'de'), 'Alter Text');
    });

    test('contexts keep equal names apart; translateOrRegister registers on first use', async () => {
      const a = await registerString(t.app, { domain: 'ctx', context: 'button', name: 'Open', value: 'Open' });
      const b = await registerString(t.app, { domain: 'ctx', context: 'status', name: 'Open', value: 'Open' });
      assert.notEqual(a.id, b.id);
      await saveStringTranslation(t.app, b.id, 'de', { value: 'Offen' });
      assert.equal(await translateString(t.app, { domain: 'ctx', context: 'status', name: 'Open' }, 'de'), 'Offen');
      assert.equal(await translateString(t.app, { domain: 'ctx', context: 'button', name: 'Open' }, 'de'), 'Open');
      assert.equal(await translateOrRegister(t.app, { domain: 'ctx', name: 'new-one', value: 'Fresh' }, 'de'), 'Fresh');
      assert.ok(await findStringId(t.app, { domain: 'ctx', name: 'new-one' }));
    });

    test('German source strings are translated into English', async () => {
      const { id } = await registerString(t.app, { domain: 'src-de', name: 'x', value: 'Hallo', language: 'de' });
      await saveStringTranslation(t.app, id, 'en', { value: 'Hello' });
      assert.equal(await translateString(t.app, { domain: 'src-de', name: 'x' }, 'en'), 'Hello');
      assert.equal(await translateString(t.app, { domain: 'src-de', name: 'x' }, 'de'), 'Hallo');
      await rejects400(saveStringTranslation(t.app, id, 'de', { value: 'Hallo' }));
    });

    test('unusable registrations and translations are refused with 400', async () => {
      await rejects400(registerString(t.app, { domain: '', name: 'x', value: 'v' }));
      await rejects400(registerString(t.app, { domain: 'd', name: '', value: 'v' }));
      await rejects400(registerString(t.app, { domain: 'd', name: 'x', value: 'v', language: 'fr' }));
      await rejects400(registerString(t.app, { domain: 'd', name: 'x', value: 'v', kind: 5 }));
      await rejects400(registerString(t.app, { domain: 'd', name: 'x', value: 'v', type: 9 }));
      await rejects400(
        registerString(t.app, { domain: 'd', name: 'x', value: 'v', translationPriority: 'Not Valid!' }),
      );
      await rejects400(registerString(t.app, { domain: 'd', name: 'x', value: 'a\u0001b' }));
      await rejects400(registerString(t.app, { domain: 'd', name: 'x', value: 'x'.repeat(70000) }));
      const { id } = await registerString(t.app, { domain: 'd', name: 'ok', value: 'v' });
      await rejects400(saveStringTranslation(t.app, id, 'de', { value: 'w', reviewStatus: 'MAYBE' }));
      await rejects400(saveStringTranslation(t.app, id, 'de', { value: 'w', method: 'telepathy' }));
      await rejects400(saveStringTranslation(t.app, id, 'xx', { value: 'w' }));
      await assert.rejects(
        saveStringTranslation(t.app, 999999, 'de', { value: 'w' }),
        (e: RestError) => e.status === 404,
      );
    });
  });

  describe(`i18n/st settings and queue (${target.name})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(target);
    });
    after(async () => t.close());
    beforeEach(async () => {
      await t.app.db.deleteFrom('i18n_st_queue').execute();
    });
    /** POST strings/settings's service, with the settings not given at their default 0 as the route has them. */
    const saveSettings = (update: Partial<StringSettingsUpdate>) =>
      updateStringSettings(
        { app: t.app, user: null, ip: '', lang: 'en' },
        {
          autoregisterType: 0,
          shouldRegisterBackendStrings: 0,
          setNoticeThatCachePluginCanBlockAutoregisterAsDismissed: 0,
          setDetectStringsInJS: 0,
          ...update,
        },
      );

    test('settings: defaults, updates, persistence, the checks of bad values', async () => {
      const d = await describeStringSettings(t.app, 'en');
      assert.deepEqual(d, {
        autoregisterType: 2,
        shouldRegisterBackendStrings: 0,
        autoregisterAllowedLanguages: [{ name: 'German', url: 'http://localhost:8080/de' }],
        activeCachePluginName: '',
        visibleColumns: { title: true, name: true, domain: true, source: true, type: false },
        shouldShowNoticeThatCachePluginCanBlockAutoregister: false,
        detectStringsInJS: 0,
      });
      assert.equal(
        ((await describeStringSettings(t.app, 'de')).autoregisterAllowedLanguages as { name: string }[])[0]!.name,
        'Deutsch',
      );
      const changed = await saveSettings({
        autoregisterType: 1,
        setDetectStringsInJS: 1,
        visibleColumns: { type: true, bogus: true },
      });
      assert.deepEqual(changed.sort(), ['autoregisterType', 'detectStringsInJS', 'visibleColumns']);
      // Every setting is given (an omitted one is its default 0 over HTTP); the columns only when sent.
      await saveSettings({ autoregisterType: 1, shouldRegisterBackendStrings: 1, setDetectStringsInJS: 1 });
      const s = await getStringSettings(t.app);
      assert.equal(s.autoregisterType, 1);
      assert.equal(s.shouldRegisterBackendStrings, 1);
      assert.equal(s.detectStringsInJS, 1);
      assert.equal(s.visibleColumns.type, true);
      assert.deepEqual(
        await saveSettings({
          autoregisterType: 1,
          shouldRegisterBackendStrings: 1,
          setDetectStringsInJS: 1,
          setNoticeThatCachePluginCanBlockAutoregisterAsDismissed: 1,
        }),
        ['cachePluginNoticeDismissed'],
      );
      assert.deepEqual(
        await saveSettings({ autoregisterType: 1, shouldRegisterBackendStrings: 1, setDetectStringsInJS: 1 }),
        [],
      );
      // The arguments' checks (their 400 over HTTP: test/i18n-st/http.test.ts).
      assert.equal(checkSettingValue('autoregisterType', 2), true);
      assert.notEqual(checkSettingValue('autoregisterType', 3), true);
      assert.notEqual(checkSettingValue('shouldRegisterBackendStrings', 2), true);
      assert.notEqual(checkSettingValue('setDetectStringsInJS', 'yes'), true);
      assert.notEqual(checkVisibleColumns('all'), true);
      assert.equal(checkVisibleColumns({ type: true }), true);
      // Persisted: a second app on the same database sees the values.
      const again = await getStringSettings({ db: t.app.db });
      assert.equal(again.autoregisterType, 1);
    });

    test('capture honours the autoregister mode and the backend flag', async () => {
      const cap = (source: number, isAdmin: boolean) =>
        queueAutoregisteredString(
          t.app,
          { domain: 'cap', name: `n${source}${isAdmin}`, value: 'Seen', source, page: '/en/' },
          { isAdmin },
        );
      await saveSettings({ autoregisterType: 2, shouldRegisterBackendStrings: 0 });
      assert.equal(await cap(0, true), false);
      await saveSettings({ autoregisterType: 0 });
      assert.equal(await cap(0, false), false, 'mode 0 captures for admins only');
      assert.equal(await cap(0, true), true);
      assert.equal(await cap(1, true), false, 'backend strings need the flag');
      await saveSettings({ autoregisterType: 1, shouldRegisterBackendStrings: 1 });
      assert.equal(await cap(0, false), true);
      assert.equal(await cap(1, false), true);
      assert.equal(await pendingQueueCount(t.app), 3);
      // Seen again on the same page: queued once.
      assert.equal(await cap(0, false), true);
      assert.equal(await pendingQueueCount(t.app), 3);
      assert.equal(
        await queueAutoregisteredString(
          t.app,
          { domain: 'cap', name: 'huge', value: 'x'.repeat(70000) },
          { isAdmin: true },
        ),
        false,
      );
      assert.equal(
        await queueAutoregisteredString(t.app, { domain: '', name: 'nodomain', value: 'x' }, { isAdmin: true }),
        false,
      );
    });

    test('processing moves the queue into the registry in batches and reports what it did', async () => {
      await saveSettings({ autoregisterType: 1, shouldRegisterBackendStrings: 1 });
      for (let i = 0; i < 5; i++) {
        await queueAutoregisteredString(
          t.app,
          { domain: 'q', name: `s${i}`, value: `Queued ${i}`, page: `/en/p${i % 2}` },
          { isAdmin: false },
        );
      }
      // A duplicate capture and an unusable one.
      await queueAutoregisteredString(
        t.app,
        { domain: 'q', name: 's0', value: 'Queued 0', page: '/en/p9' },
        { isAdmin: false },
      );
      await queueAutoregisteredString(
        t.app,
        { domain: 'q', name: 'empty', value: '   ', page: '/en/p0' },
        { isAdmin: false },
      );
      const first = await drainStringsQueue(t.app, 4);
      assert.deepEqual(first, {
        wasProcessed: true,
        hasPending: true,
        shouldContinue: true,
        retryFreshRequest: true,
        quarantinedStrings: 0,
        pagesProcessed: 2,
        pagesRemaining: 2,
        processedStrings: 4,
        registeredStrings: 4,
        updatedStrings: 0,
      });
      const second = await drainStringsQueue(t.app, 4);
      assert.equal(second.wasProcessed, true);
      assert.equal(second.hasPending, false);
      assert.equal(second.shouldContinue, false);
      assert.equal(second.quarantinedStrings, 1);
      assert.equal(second.registeredStrings, 1);
      assert.equal(second.processedStrings, 3);
      assert.equal(second.pagesRemaining, 0);
      const third = await drainStringsQueue(t.app);
      assert.equal(third.wasProcessed, false);
      assert.equal(third.hasPending, false);
      const items = await listStrings(t.app, parseStringFilters({ domain: 'q', limit: 100 }), 'en');
      assert.equal(items.length, 5);
      assert.ok(items.every((i) => i.kind === 1));
      const s0 = items.find((i) => i.name === 's0')!;
      assert.deepEqual(s0.sources.sort(), ['/en/p0', '/en/p9']);
    });

    test('a registered (kind 0) string stays kind 0 when also captured', async () => {
      await saveSettings({ autoregisterType: 1 });
      await registerString(t.app, { domain: 'q2', name: 'known', value: 'Known' });
      await queueAutoregisteredString(
        t.app,
        { domain: 'q2', name: 'known', value: 'Known', page: '/x' },
        { isAdmin: true },
      );
      await drainStringsQueue(t.app);
      const [item] = await listStrings(t.app, parseStringFilters({ domain: 'q2' }), 'en');
      assert.equal(item!.kind, 0);
      assert.deepEqual(item!.sources, ['/x']);
    });

    test('disabled autoregistration and a busy worker', async () => {
      await saveSettings({ autoregisterType: 1 });
      await queueAutoregisteredString(t.app, { domain: 'q3', name: 'a', value: 'A' }, { isAdmin: true });
      await saveSettings({ autoregisterType: 2 });
      assert.deepEqual(await drainStringsQueue(t.app), {
        wasProcessed: false,
        hasPending: false,
        shouldContinue: false,
      });
      await saveSettings({ autoregisterType: 1 });
      // Another worker holds the lock.
      await kvSet(t.app, 'st_queue_lock', 'other');
      assert.deepEqual(await drainStringsQueue(t.app), {
        wasProcessed: false,
        hasPending: true,
        shouldContinue: true,
        workerBusy: true,
      });
      // A stale lock (older than 60 s) is taken over.
      await t.app.db
        .updateTable('i18n_kv')
        .set({ updated_at: '2000-01-01 00:00:00' })
        .where('name', '=', 'st_queue_lock')
        .execute();
      const r = await drainStringsQueue(t.app);
      assert.equal(r.wasProcessed, true);
      assert.equal((await countStrings(t.app, parseStringFilters({ domain: 'q3' }))).totalCount, 1);
    });
  });
}
