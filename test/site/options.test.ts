// The options cache and loads that overlap writes: a load started by a notification (another
// process changed an option) can read before this process's own write and finish after it.
// Each test holds one load's rows (a Kysely plugin delays the result after the statement ran)
// to make that order certain. Only PostgreSQL runs a load and a write at once (a pool of
// connections; SQLite has one).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Kysely, KyselyPlugin } from 'kysely';
import type { Database } from '../../src/db/schema.ts';
import { createTestApp, PG_URL, type TestApp } from '../support/db.ts';
import { SiteOptions } from '../../src/site/options.ts';

/**
 * Options over `db` whose next load, begun here, has read the stored `value` of `name` and waits
 * for release() to apply it (a plugin holds the statement's result once it has run).
 */
async function heldLoad(db: Kysely<Database>, name: string, value: string) {
  let armed = false;
  let release!: () => void;
  let ran!: () => void;
  const hasRun = new Promise<void>((resolve) => (ran = resolve));
  const plugin: KyselyPlugin = {
    transformQuery: (args) => args.node,
    async transformResult(args) {
      if (armed) {
        armed = false;
        ran();
        await new Promise<void>((resolve) => (release = resolve));
      }
      return args.result;
    },
  };
  const options = new SiteOptions(db.withPlugin(plugin));
  await options.set(name, value);
  armed = true;
  const loading = options.load();
  await hasRun;
  return { options, loading, release: () => release() };
}

describe('site options: loads that overlap writes (postgres)', { skip: PG_URL ? false : 'TEST_DATABASE_URL is not set' }, () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ name: 'postgres' });
  });
  after(() => t.close());

  test('a load that read before a local write does not put the old value back', async () => {
    const { options, loading, release } = await heldLoad(t.app.db, 'blogname', 'Before');
    await options.set('blogname', 'After');
    assert.equal(options.get('blogname'), 'After');
    release();
    await loading;
    assert.equal(options.get('blogname'), 'After');
  });

  test('an older load finishing after a newer one is not applied', async () => {
    const { options, loading: older, release } = await heldLoad(t.app.db, 'blogdescription', 'Old');
    // Another process changes the option; this process's next load reads it.
    await t.app.db.updateTable('options').set({ value: JSON.stringify('New') }).where('name', '=', 'blogdescription').execute();
    await options.load();
    assert.equal(options.get('blogdescription'), 'New');
    release();
    await older;
    assert.equal(options.get('blogdescription'), 'New');
  });
});
