import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { dbTargets, createTestApp, type TestApp } from '../support/db.ts';
import { runCli } from '../cli/run.ts';
import { openApp } from '../../src/app.ts';
import { Migrator, type Kysely, type KyselyPlugin } from 'kysely';
import { openDatabase } from '../../src/db/index.ts';
import { DatabaseTooNewError, failedBeforeMigrating, migrateToLatest } from '../../src/db/migrate.ts';
import { MIGRATIONS } from '../../src/modules.ts';
import { utcNow } from '../../src/site/time.ts';

const TOO_NEW =
  'The database was migrated by a newer version of content-site (unknown migrations: 9999_from_the_future). Upgrade the code before using this database.';

/**
 * The names existing databases have recorded, in the order they were applied. Modules keep
 * their migrations in their own folders; the names and the order never change, or a migrated
 * database would see unknown migrations (refused) or run one twice.
 */
const RECORDED = [
  '0001_core',
  '0002_auth',
  '0003_history',
  '0004_sched',
  '0005_i18n_st',
  '0006_i18n_tm',
  '0007_content',
  '0008_sessions',
  '0009_history_stats',
  '0010_history_stats_writers',
  '0011_history_event_contexts',
  '0012_history_addr_collation',
  '0013_history_context_terms',
  '0014_history_search_trigrams',
  '0015_server_processes',
  '0016_auth_shared_state',
  '0017_import',
  '0018_user_locale',
];

test('the module list gives the migrations existing databases recorded, in their order', () => {
  assert.deepEqual(MIGRATIONS.map((m) => m.name).slice(0, RECORDED.length), RECORDED);
});

test('a database migrated with every recorded migration is up to date', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'content-site-migrate-'));
  try {
    const handle = openDatabase(`sqlite:${path.join(dir, 'old.db')}`);
    try {
      // What an older version leaves behind: the recorded names in kysely_migration.
      await new Migrator({
        db: handle.db,
        provider: {
          getMigrations: async () =>
            Object.fromEntries(
              MIGRATIONS.filter((m) => RECORDED.includes(m.name)).map((m) => [
                m.name,
                { up: (tx: Kysely<any>) => m.up(tx, handle.dialect) },
              ]),
            ),
        },
      }).migrateToLatest();
      assert.deepEqual(
        await migrateToLatest(handle.db, handle.dialect, MIGRATIONS),
        MIGRATIONS.map((m) => m.name).filter((name) => !RECORDED.includes(name)),
      );
    } finally {
      await handle.destroy();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

describe('migrate on a new database', () => {
  test('content-site migrate applies every migration, then has nothing to do', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'content-site-migrate-'));
    try {
      const target = { databaseUrl: `sqlite:${path.join(dir, 'new.db')}`, config: { dataDir: dir } };
      const first = await runCli(target, ['migrate']);
      assert.equal(first.code, 0, first.stderr);
      assert.equal(first.stdout, `Applied migrations: ${MIGRATIONS.map((m) => m.name).join(', ')}.\n`);
      assert.equal((await runCli(target, ['migrate'])).stdout, 'The database is up to date.\n');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

for (const target of dbTargets()) {
  describe(`migrations (${target.name})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(target);
    });
    after(() => t.close());

    test('every migration is recorded', async () => {
      const rows = (await t.app.db
        .selectFrom('kysely_migration' as never)
        .select('name' as never)
        .execute()) as { name: string }[];
      assert.deepEqual(rows.map((r) => r.name).sort(), MIGRATIONS.map((m) => m.name).sort());
    });

    test('an up-to-date database: nothing applied, and nothing read but the applied migrations', async () => {
      const read: string[] = [];
      const recorder: KyselyPlugin = {
        transformQuery: ({ node }) => {
          read.push(JSON.stringify(node));
          return node;
        },
        transformResult: async ({ result }) => result,
      };
      assert.deepEqual(await migrateToLatest(t.app.db.withPlugin(recorder), t.app.dialect, MIGRATIONS), []);
      assert.ok(read.length > 0);
      assert.deepEqual(
        read.filter((node) => !/"kysely_migration"|current_schema\(\)/.test(node)),
        [],
        'the tables of the database were read',
      );
    });

    test('a database migrated by a newer version is refused, by the server and by the CLI', async () => {
      await t.app.db
        .insertInto('kysely_migration' as never)
        .values({ name: '9999_from_the_future', timestamp: utcNow() } as never)
        .execute();
      await assert.rejects(
        openApp(t.config, { pgSchema: t.pgSchema, logger: pino({ level: 'silent' }) }),
        (err: unknown) => {
          assert.ok(err instanceof DatabaseTooNewError);
          assert.equal(err.message, TOO_NEW);
          return true;
        },
      );
      for (const args of [['migrate'], ['user', 'list']]) {
        const r = await runCli(t, args);
        assert.equal(r.code, 1);
        assert.equal(r.stderr, `content-site: ${TOO_NEW}\n`);
        assert.equal(r.stdout, '');
      }
    });
  });
}

describe('migrating while another schema of the database is dropped', () => {
  test('a failure before any migration ran is tried again, a failed migration is not', () => {
    const error = new Error('column "name" of relation "history_counters" does not exist');
    assert.equal(failedBeforeMigrating({ error }), true);
    assert.equal(
      failedBeforeMigrating({ error, results: [{ migrationName: '0001_core', direction: 'Up', status: 'Error' }] }),
      false,
    );
    assert.equal(failedBeforeMigrating({ results: [] }), false);
  });
});
