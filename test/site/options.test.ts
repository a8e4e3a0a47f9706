// The options cache and loads that overlap writes: a load started by a notification (another
// process changed an option) can read before this process's own write and finish after it.
// Each test holds one load's rows (a Kysely plugin delays the result after the statement ran)
// to make that order certain. Only PostgreSQL runs a load and a write at once (a pool of
// connections; SQLite has one).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KyselyPlugin } from 'kysely';
import { createTestApp, PG_URL, type TestApp } from '../support/db.ts';
import { SiteOptions } from '../../src/site/options.ts';

/** A plugin that holds the result of the next statement until released, once it has run. */
function holdNextResult() {
  let armed = false;
  let ran!: () => void;
  let release!: () => void;
  const state = { ran: Promise.resolve(), release: () => release() };
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
  const arm = () => {
    armed = true;
    state.ran = new Promise<void>((resolve) => (ran = resolve));
  };
  return { plugin, arm, state };
}

describe('site options: loads that overlap writes (postgres)', { skip: PG_URL ? false : 'TEST_DATABASE_URL is not set' }, () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ name: 'postgres' });
  });
  after(() => t.close());

  test('a load that read before a local write does not put the old value back', async () => {
    const hold = holdNextResult();
    const options = new SiteOptions(t.app.db.withPlugin(hold.plugin));
    await options.set('blogname', 'Before');
    hold.arm();
    const loading = options.load();
    await hold.state.ran; // the load has read 'Before'
    await options.set('blogname', 'After');
    assert.equal(options.get('blogname'), 'After');
    hold.state.release();
    await loading;
    assert.equal(options.get('blogname'), 'After');
  });

  test('an older load finishing after a newer one is not applied', async () => {
    const hold = holdNextResult();
    const options = new SiteOptions(t.app.db.withPlugin(hold.plugin));
    await options.set('blogdescription', 'Old');
    hold.arm();
    const older = options.load();
    await hold.state.ran; // reads 'Old'
    // Another process changes the option; this process's next load reads it.
    await t.app.db.updateTable('options').set({ value: JSON.stringify('New') }).where('name', '=', 'blogdescription').execute();
    await options.load();
    assert.equal(options.get('blogdescription'), 'New');
    hold.state.release();
    await older;
    assert.equal(options.get('blogdescription'), 'New');
  });
});
