// Sources other than the plain fixture: another table prefix, plugins missing, a database that
// is no WordPress site, an unreachable server, a corrupt table; and sites that already hold a
// login or slug of the source (--on-conflict skip, rename, overwrite).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createUser } from '../../src/auth/users.ts';
import { createContent } from '../../src/pages/service.ts';
import { createTestApp, dbTargets } from '../support/db.ts';
import { FIXTURE_DIR, MYSQL_URL, cli, createSource, skipReason, snapshot, type SourceDb } from './support.ts';

const reason = await skipReason();

describe('import wordpress: other sources', { skip: reason ?? false }, () => {
  // The fixture under the prefix `blog7_`, without Simple History's and WPML's tables.
  let source: SourceDb;
  before(async () => {
    source = await createSource({ prefix: 'blog7_' });
    for (const t of await source.query<{ name: string }>(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE() AND (table_name LIKE 'blog7\\_simple\\_history%' OR table_name LIKE 'blog7\\_icl\\_%')",
    )) {
      await source.query(`DROP TABLE \`${t.name}\``);
    }
  });
  after(async () => {
    await source?.drop();
  });

  for (const target of dbTargets()) {
    test(`another table prefix, found by itself; absent plugins reported and skipped (${target.name})`, async () => {
      const t = await createTestApp(target);
      try {
        const res = await cli(t, ['import', 'wordpress', '--from', source.url]);
        assert.equal(res.code, 0, res.stderr);
        assert.match(
          res.stdout,
          /history: skipped — Simple History is not installed at the source \(no table blog7_simple_history, blog7_simple_history_contexts\)/,
        );
        assert.match(res.stdout, /users: 8 at the source; imported 8/);
        const roles = await t.app.db.selectFrom('users').select(['login', 'role']).orderBy('id').execute();
        assert.deepEqual(
          roles.map((r) => r.role),
          ['administrator', 'administrator', 'editor', 'editor', 'author', 'contributor', 'subscriber', 'subscriber'],
          'roles read from blog7_capabilities',
        );
        const langs = await t.app.db.selectFrom('posts').select('lang').execute();
        assert.ok(
          langs.every((p) => p.lang === 'en'),
          'without WPML everything is in the default language',
        );
        assert.equal(
          await t.app.db
            .selectFrom('history_events')
            .select('id')
            .where('logger', '!=', 'ImporterLogger')
            .executeTakeFirst(),
          undefined,
        );
      } finally {
        await t.close();
      }
    });
  }

  test('a wrong --prefix, a database without WordPress and an unreachable server fail with one clear line and write nothing', async () => {
    const t = await createTestApp(dbTargets()[0]!);
    const empty = await createSource({ fixture: false });
    try {
      const before = await snapshot(t);
      const cases: [string[], RegExp][] = [
        [
          ['--from', source.url, '--prefix', 'wp_'],
          /^content-site: cs_import_\w+ has no WordPress tables with prefix "wp_" \(found prefix blog7_\)\n$/,
        ],
        [['--from', empty.url], /^content-site: cs_import_\w+ holds no WordPress site/],
        [
          ['--from', 'mysql://root@127.0.0.1:1/wordpress'],
          /^content-site: cannot reach the WordPress database at root@127\.0\.0\.1:1\/wordpress \(ECONNREFUSED\)\n$/,
        ],
        [
          ['--from', source.url.replace(/\/[^/]+$/, '/no_such_db_here')],
          /^content-site: the WordPress database root@127\.0\.0\.1:\d+\/no_such_db_here does not exist\n$/,
        ],
        [['--from', 'postgres://x@y/z'], /unsupported scheme "postgres:"/],
        [['--from', source.url, '--on-conflict', 'merge'], /--on-conflict must be one of skip, rename, overwrite/],
        [['--from', source.url, '--only', 'comments'], /--only: unknown kind "comments"/],
      ];
      for (const [args, expected] of cases) {
        const res = await cli(t, ['import', 'wordpress', ...args]);
        assert.equal(res.code, 1, args.join(' '));
        assert.match(res.stderr, expected);
        assert.equal(res.stderr.trim().split('\n').length, 1, `one line: ${res.stderr}`);
      }
      assert.equal(await snapshot(t), before);
    } finally {
      await empty.drop();
      await t.close();
    }
  });

  test('a corrupt table stops the run with one line; what was written stays consistent and the next run finishes', async () => {
    const t = await createTestApp(dbTargets()[0]!);
    try {
      await source.query('ALTER TABLE blog7_posts CHANGE post_title post_heading text');
      let broken;
      try {
        broken = await cli(t, ['import', 'wordpress', '--from', source.url]);
      } finally {
        await source.query('ALTER TABLE blog7_posts CHANGE post_heading post_title text');
      }
      assert.equal(broken.code, 1);
      // Stage lines, then the error as one line.
      const errors = broken.stderr
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('content-site:'));
      assert.equal(errors.length, 1, broken.stderr);
      assert.match(
        errors[0]!,
        /^content-site: reading the WordPress database at .* failed: ER_BAD_FIELD_ERROR: Unknown column 'post_title'/,
      );
      assert.ok(broken.stderr.trimEnd().endsWith(errors[0]!));
      const run = await t.app.db.selectFrom('import_runs').select(['status', 'report']).executeTakeFirstOrThrow();
      assert.equal(run.status, 'failed');
      const failed = await t.app.db
        .selectFrom('history_events')
        .select(['message_key', 'level'])
        .where('logger', '=', 'ImporterLogger')
        .execute();
      assert.deepEqual(failed, [{ message_key: 'import_failed', level: 'error' }]);
      assert.equal(
        (await t.app.db.selectFrom('users').select('id').execute()).length,
        8,
        'the kinds before the failure are complete',
      );
      const again = await cli(t, ['import', 'wordpress', '--from', source.url]);
      assert.equal(again.code, 0, again.stderr);
      assert.match(again.stdout, /users: 8 at the source; imported 0, updated 0, unchanged 8/);
      assert.match(again.stdout, /content: 40 at the source; imported 39/);
    } finally {
      await t.close();
    }
  });

  for (const target of dbTargets()) {
    test(`a login and a slug taken here: reported and resolved by --on-conflict (${target.name})`, async () => {
      const t = await createTestApp(target);
      try {
        const mine = await createUser(t.app, { login: 'admin', email: 'ops@example.com', role: 'editor' });
        await createContent(t.app, { type: 'page', lang: 'en', slug: 'contact', title: 'Our own contact page' });
        const skip = await cli(t, ['import', 'wordpress', '--from', source.url, '--only', 'users,content']);
        assert.equal(skip.code, 0, skip.stderr);
        assert.match(skip.stdout, /user 1 \(admin\): the login "admin" is taken here — skipped/);
        assert.match(skip.stdout, /page 15 "Contact \(updated\)": the slug "contact" \(en\) is taken here — skipped/);
        assert.equal((await t.app.db.selectFrom('users').select('id').execute()).length, 8, 'our admin and 7 imported');

        const rename = await cli(t, [
          'import',
          'wordpress',
          '--from',
          source.url,
          '--only',
          'users,content',
          '--on-conflict',
          'rename',
        ]);
        assert.equal(rename.code, 0, rename.stderr);
        assert.match(rename.stdout, /imported as "admin-wp" <anna\.schmidt@partner-portal\.example>/);
        assert.match(rename.stdout, /imported as "contact-2"/);
        const renamed = await t.app.db
          .selectFrom('users')
          .select(['login', 'role', 'password_hash'])
          .where('login', '=', 'admin-wp')
          .executeTakeFirstOrThrow();
        assert.deepEqual([renamed.role, renamed.password_hash?.slice(0, 7)], ['administrator', '$wp$2y$']);
        const own = await t.app.db
          .selectFrom('users')
          .select(['login', 'role'])
          .where('id', '=', mine.id)
          .executeTakeFirstOrThrow();
        assert.deepEqual(own, { login: 'admin', role: 'editor' }, 'ours untouched');
        const ownPage = await t.app.db
          .selectFrom('posts')
          .select('title')
          .where('slug', '=', 'contact')
          .executeTakeFirstOrThrow();
        assert.equal(ownPage.title, 'Our own contact page');

        const once = await snapshot(t);
        const again = await cli(t, [
          'import',
          'wordpress',
          '--from',
          source.url,
          '--only',
          'users,content',
          '--on-conflict',
          'rename',
        ]);
        assert.match(again.stdout, /users: 8 at the source; imported 0, updated 0, unchanged 8/);
        assert.equal(await snapshot(t), once, 'renamed items are recognised on the next run');
      } finally {
        await t.close();
      }
    });
  }

  test('--on-conflict overwrite: the WordPress user and page replace ours, keeping our ids', async () => {
    const t = await createTestApp(dbTargets()[0]!);
    try {
      const mine = await createUser(t.app, { login: 'eva.editor', email: 'eva@example.com', role: 'subscriber' });
      const page = await createContent(t.app, { type: 'page', lang: 'en', slug: 'impressum', title: 'Old imprint' });
      const res = await cli(t, [
        'import',
        'wordpress',
        '--from',
        source.url,
        '--only',
        'users,content',
        '--on-conflict',
        'overwrite',
      ]);
      assert.equal(res.code, 0, res.stderr);
      assert.match(
        res.stdout,
        new RegExp(`user 3 \\(eva\\.editor\\): the login "eva\\.editor" is taken here — user ${mine.id} overwritten`),
      );
      const eva = await t.app.db.selectFrom('users').selectAll().where('id', '=', mine.id).executeTakeFirstOrThrow();
      assert.deepEqual(
        [eva.email, eva.role, eva.display_name],
        ['eva.fischer@partner-portal.example', 'editor', 'Eva Fischer'],
      );
      const imprint = await t.app.db
        .selectFrom('posts')
        .selectAll()
        .where('id', '=', page.id)
        .executeTakeFirstOrThrow();
      assert.equal(imprint.title, 'Impressum (updated)');
    } finally {
      await t.close();
    }
  });
});

describe('import wordpress: from a dump file', { skip: reason ?? false }, () => {
  test('--from dump.sql.gz --scratch: loaded into a temporary database, imported, the temporary database dropped', async () => {
    const t = await createTestApp(dbTargets()[0]!);
    try {
      const before = await listScratchDatabases();
      const res = await cli(t, [
        'import',
        'wordpress',
        '--from',
        `${FIXTURE_DIR}/wordpress-7.1.sql.gz`,
        '--scratch',
        MYSQL_URL,
        '--only',
        'users',
      ]);
      assert.equal(res.code, 0, res.stderr);
      assert.match(res.stdout, /users: 8 at the source; imported 8/);
      assert.deepEqual(await listScratchDatabases(), before, 'no scratch database left behind');
      const missing = await cli(t, ['import', 'wordpress', '--from', `${FIXTURE_DIR}/wordpress-7.1.sql.gz`]);
      assert.match(missing.stderr, /--from names a dump file: give --scratch/);
    } finally {
      await t.close();
    }
  });
});

async function listScratchDatabases(): Promise<string[]> {
  const probe = await createSource({ fixture: false });
  try {
    return (
      await probe.query<{ name: string }>(
        "SELECT schema_name AS name FROM information_schema.schemata WHERE schema_name LIKE 'content\\_site\\_import\\_%'",
      )
    )
      .map((r) => r.name)
      .sort();
  } finally {
    await probe.drop();
  }
}
