// The page chrome's labels come from the string registry: translators change them there.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { seedDemo } from '../../src/pages/seed.ts';
import { LABELS_DOMAIN } from '../../src/pages/labels.ts';
import { saveStringTranslation } from '../../src/namespaces/i18n-st/registry.ts';
import { findStringId } from '../../src/namespaces/i18n-st/string-lookup.ts';
import { AUTOREGISTER_ALL_USERS, updateStringSettings } from '../../src/namespaces/i18n-st/settings.ts';
import { dbTargets } from '../support/db.ts';
import { servedTestApp } from '../support/server.ts';

for (const target of dbTargets()) {
  describe(`page labels from the string registry (${target.name})`, () => {
    const site = servedTestApp(target);

    test('without registered labels, the built-in texts are shown and the labels are captured when autoregistration is on', async () => {
      await updateStringSettings(
        { app: site.t.app, user: null, ip: '', lang: 'en' },
        {
          autoregisterType: AUTOREGISTER_ALL_USERS,
          shouldRegisterBackendStrings: 0,
          setNoticeThatCachePluginCanBlockAutoregisterAsDismissed: 0,
          setDetectStringsInJS: 0,
        },
      );
      await seedDemo(site.t.app); // pages and labels
      await site.t.app.db.deleteFrom('i18n_st_strings').where('domain', '=', LABELS_DOMAIN).execute();
      const page = await site.server.inject({ method: 'GET', url: '/de/neuigkeiten/' });
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /<nav aria-label="Menü">/);
      const queued = await site.t.app.db
        .selectFrom('i18n_st_queue')
        .select('name')
        .where('domain', '=', LABELS_DOMAIN)
        .execute();
      assert.ok(
        queued.some((q) => q.name === 'menu'),
        'the label was captured for registration',
      );
    });

    test("a translator's change to a label shows on the German pages", async () => {
      await seedDemo(site.t.app); // registers the labels again with their German translations
      const id = await findStringId(site.t.app, { domain: LABELS_DOMAIN, name: 'menu' });
      assert.ok(id);
      await saveStringTranslation(site.t.app, id, 'de', { value: 'Navigation' });
      const de = await site.server.inject({ method: 'GET', url: '/de/neuigkeiten/' });
      assert.match(de.body, /<nav aria-label="Navigation">/);
      const en = await site.server.inject({ method: 'GET', url: '/en/news/' });
      assert.match(en.body, /<nav aria-label="Menu">/);
    });
  });
}
