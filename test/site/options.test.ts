// The options cache and loads that overlap writes: a load started by a notification (another
// process changed an option) can read before this process's own write and finish after it, or
// after the app closed its database. Each test holds one load's rows (a Kysely plugin delays a
// statement's result after it ran) to make that order certain. Only PostgreSQL runs a load and
// a write at once (a pool of connections; SQLite has one) and notifies.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Kysely, KyselyPlugin } from 'kysely';
import pg from 'pg';
import type { Database } from '../../src/db/schema.ts';
import { createTestApp, PG_URL, type TestApp } from '../support/db.ts';
import { SiteOptions } from '../../src/site/options.ts';

/** `db` with a plugin that can hold the result of its next statement once the statement has run. */
function holdingDb(db: Kysely<Database>) {
  let armed = false;
  let ran = () => {};
  let release = () => {};
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
  return {
    db: db.withPlugin(plugin),
    /** Holds the next statement's result until release(); resolves once that statement has run. */
    holdNext: () => {
      armed = true;
      return new Promise<void>((resolve) => (ran = resolve));
    },
    release: () => release(),
  };
}

describe('site options: loads that overlap writes (postgres)', {
  skip: PG_URL ? false : 'TEST_DATABASE_URL is not set',
}, () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ name: 'postgres' });
  });
  after(() => t.close());

  /** Options whose load, begun here, has read the stored `value` of `name` and waits for release(). */
  async function heldLoad(name: string, value: string) {
    const held = holdingDb(t.app.db);
    const options = new SiteOptions(held.db);
    await options.set(name, value);
    const read = held.holdNext();
    const loading = options.load();
    await read;
    return { options, loading, release: held.release };
  }

  test('a load that read before a local write does not put the old value back', async () => {
    const { options, loading, release } = await heldLoad('blogname', 'Before');
    await options.set('blogname', 'After');
    assert.equal(options.get('blogname'), 'After');
    release();
    await loading;
    assert.equal(options.get('blogname'), 'After');
  });

  test('an older load finishing after a newer one is not applied', async () => {
    const { options, loading: older, release } = await heldLoad('blogdescription', 'Old');
    // Another process changes the option; this process's next load reads it.
    await t.app.db
      .updateTable('options')
      .set({ value: JSON.stringify('New') })
      .where('name', '=', 'blogdescription')
      .execute();
    await options.load();
    assert.equal(options.get('blogdescription'), 'New');
    release();
    await older;
    assert.equal(options.get('blogdescription'), 'New');
  });

  test('close waits for a load a notification started, so that no change listener runs after it', async () => {
    const pool = t.app.dbHandle.pgPool!;
    const held = holdingDb(t.app.db);
    const options = new SiteOptions(held.db, pool);
    await options.listen();
    let changes = 0;
    options.onChange(() => changes++);
    const read = held.holdNext();
    await pool.query('NOTIFY content_site_options');
    await read;
    let closed = false;
    const closing = options.close().then(() => (closed = true));
    try {
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(closed, false, 'close() is still waiting for the load');
    } finally {
      held.release(); // a held load keeps its connection: the app could not close otherwise
    }
    await closing;
    assert.ok(changes >= 1, 'the load finished, and its listeners ran, before close() resolved');
  });

  test('after its listening connection drops, it reconnects and reloads what changed meanwhile', async () => {
    const name = `options-reconnect-${process.pid}`;
    const pool = new pg.Pool({ connectionString: PG_URL!, application_name: name, max: 2 });
    const options = new SiteOptions(t.app.db, pool);
    try {
      await options.listen();
      const { rows } = await pool.query(
        'select pg_terminate_backend(pid) as ok from pg_stat_activity where application_name = $1 and pid <> pg_backend_pid()',
        [name],
      );
      assert.deepEqual(rows, [{ ok: true }], 'the listening connection was cut');
      // Another process changes an option while no notification can reach this one.
      await new SiteOptions(t.app.db).set('blogname', 'Changed while away');
      const listening = async () =>
        Number(
          (
            await pool.query(
              "select count(*) as n from pg_stat_activity where application_name = $1 and query like 'LISTEN %'",
              [name],
            )
          ).rows[0].n,
        );
      const until = Date.now() + 10_000;
      while ((options.get('blogname') !== 'Changed while away' || (await listening()) !== 1) && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // (Run alone, only the reload after reconnecting brings the value; beside other test files,
      // their notifications may bring it too. The new LISTEN is this one's own.)
      assert.equal(options.get('blogname'), 'Changed while away');
      assert.equal(await listening(), 1, 'listening again on a new connection');
    } finally {
      await options.close();
      await pool.end();
    }
  });
});
