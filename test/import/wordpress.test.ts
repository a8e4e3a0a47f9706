// The importer on the WordPress fixture (../shared/fixtures/wordpress), into SQLite and
// PostgreSQL: what comes over is checked over HTTP as people and integrations would meet it —
// web sign-in with WordPress passwords (upgraded to our hash afterwards), application
// passwords over Basic auth, the activity log's events with their ids, dates, levels,
// templates, occasions and sticky state, the pages at their slugs — and a second run, and a
// dry run, change nothing.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/server/http.ts';
import { basicAuth } from '../support/http.ts';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { WebClient, logIn } from '../web/support.ts';
import { cli, createSource, skipReason, snapshot, type SourceDb } from './support.ts';

const USERS: [string, string][] = [
  ['admin', 'Admin-Portal-2026!'],
  ['juergen', 'Grüße-aus-München-42'],
  ['eva.editor', 'Editor-Eva-2026'],
  ['sven.author', 'Author-Sven-2026'],
  ['li.na', 'Author-Li-2026'],
  ['chloe.contrib', 'Contrib-Chloé-2026'],
  ['sam.subscriber', 'Subscriber-Sam-2026'],
  ['lars.legacy', 'Legacy-Lars-2009'],
];
const APP_PASSWORDS: [string, string][] = [
  ['admin', 'vEpt DF1D RlmT pLcO 0inK RSjo'],
  ['eva.editor', '49mz 3obY 0BeX 8ZsN oP1f neMZ'],
];
const EVENTS = '/en/cms-json/history/v1/events';

const reason = await skipReason();

describe('import wordpress: the fixture', { skip: reason ?? false }, () => {
  let source: SourceDb;
  before(async () => {
    source = await createSource();
  });
  after(async () => {
    await source?.drop();
  });

  for (const target of dbTargets()) {
    describe(`into ${target.name}`, () => {
      let t: TestApp;
      let server: FastifyInstance;
      let first: { code: number; stdout: string; stderr: string };
      before(async () => {
        t = await createTestApp(target);
        server = await buildServer(t.app);
        first = await cli(t, ['import', 'wordpress', '--from', source.url]);
        // The import ran on a connection of its own (as the CLI does beside a server): this process's option cache reloads.
        await t.app.options.load();
      });
      after(async () => {
        await server?.close();
        await t?.close();
      });

      test('the run succeeds, reports per kind and records itself in the activity log', async () => {
        assert.equal(first.code, 0, first.stderr);
        assert.match(first.stdout, /users: 8 at the source; imported 8/);
        assert.match(first.stdout, /history: 1856 at the source; imported 1856/);
        assert.match(first.stdout, /content: 40 at the source; imported 39, .* skipped 1/);
        assert.match(first.stdout, /skipped 1: in the trash/);
        assert.match(first.stderr, /^history: 1856 to read$/m, 'a plain line per stage when not on a terminal');
        const own = await t.app.db
          .selectFrom('history_events')
          .select(['id', 'logger', 'message_key', 'initiator'])
          .where('logger', '=', 'ImporterLogger')
          .execute();
        assert.deepEqual(
          own.map((e) => [e.message_key, e.initiator]),
          [['import_finished', 'cms_cli']],
        );
        assert.ok(own[0]!.id > 1856, 'our event comes after the imported ones');
      });

      test('counts per kind equal the source', async () => {
        const count = async (table: 'users' | 'app_passwords' | 'history_events' | 'history_event_contexts') =>
          Number(
            (
              await t.app.db
                .selectFrom(table)
                .select((eb) => eb.fn.countAll().as('n'))
                .executeTakeFirstOrThrow()
            ).n,
          );
        assert.equal(await count('users'), 8);
        assert.equal(await count('app_passwords'), 2);
        assert.equal(await count('history_events'), 1856 + 1);
        const [{ n: posts }] = await source.query<{ n: number }>(
          "SELECT COUNT(*) AS n FROM wp_posts WHERE post_type IN ('page','post') AND post_status <> 'trash'",
        );
        const ours = await t.app.db.selectFrom('posts').select(['type', 'lang']).execute();
        assert.equal(ours.length, Number(posts));
        assert.equal(ours.filter((p) => p.lang === 'de').length, 4, 'the German versions WPML links');
      });

      test('occasions group as at the source (before the sign-ins below add events): 1,594 groups (and our import event), the failed logins of the DST night split by back-dated entries', async () => {
        const admin = basicAuth('admin', APP_PASSWORDS[0]![1]);
        const all = await server.inject({
          method: 'GET',
          url: `${EVENTS}?per_page=1`,
          headers: { authorization: admin },
        });
        // Newer than every imported event, each a group of its own: our import event, and the
        // login that the application password's first use in 24 hours records.
        const ours = await t.app.db.selectFrom('history_events').select('logger').where('id', '>', 1856).execute();
        assert.ok(ours.some((e) => e.logger === 'ImporterLogger'));
        assert.equal(all.headers['x-wp-total'], String(1594 + ours.length));
        const res = await server.inject({
          method: 'GET',
          url: `${EVENTS}?per_page=100&date_from=2026-10-25&date_to=2026-10-25`,
          headers: { authorization: admin },
        });
        assert.equal(res.statusCode, 200, res.body.slice(0, 300));
        const items = JSON.parse(res.body) as { id: number; subsequent_occasions_count: number }[];
        const groups = new Map(items.map((e) => [e.id, e.subsequent_occasions_count]));
        assert.equal(groups.get(889), 8, 'the failed logins after the back-dated entries at 00:59:59 and 01:00:00');
        assert.equal(groups.get(881), 10, 'and those before');
      });

      test('every user signs in on the web with their WordPress password; the hash is ours afterwards', async () => {
        for (const [login, password] of USERS) {
          const before = await t.app.db
            .selectFrom('users')
            .select('password_hash')
            .where('login', '=', login)
            .executeTakeFirstOrThrow();
          assert.match(before.password_hash!, /^\$(wp\$2y|P)\$/, `${login} keeps the WordPress hash until signing in`);
          const c = new WebClient(server);
          const wrong = await c.get('/cms-login.php');
          assert.equal(wrong.status, 200);
          await logIn(c, login, password);
          const after = await t.app.db
            .selectFrom('users')
            .select('password_hash')
            .where('login', '=', login)
            .executeTakeFirstOrThrow();
          assert.match(after.password_hash!, /^\$scrypt\$/, `${login}: upgraded after the sign-in`);
          await logIn(new WebClient(server), login, password);
        }
      });

      test('a wrong password does not sign in, and leaves a WordPress hash as it is', async () => {
        const row = await t.app.db
          .selectFrom('users')
          .select(['id', 'password_hash'])
          .where('login', '=', 'lars.legacy')
          .executeTakeFirstOrThrow();
        await t.app.db
          .updateTable('users')
          .set({ password_hash: '$P$Bwj.qaNQwg.NlfFSOpW80sVJi.Vrst.' })
          .where('id', '=', row.id)
          .execute();
        const c = new WebClient(server);
        const page = await c.get('/cms-login.php');
        const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)![1]!;
        const res = await c.post('/cms-login.php', { _csrf: csrf, log: 'lars.legacy', pwd: 'Legacy-Lars-2010' });
        assert.equal(res.status, 200, 'the form again, with an error');
        const after = await t.app.db
          .selectFrom('users')
          .select('password_hash')
          .where('id', '=', row.id)
          .executeTakeFirstOrThrow();
        assert.equal(after.password_hash, '$P$Bwj.qaNQwg.NlfFSOpW80sVJi.Vrst.');
      });

      test('every imported application password authenticates over Basic auth, with or without spaces', async () => {
        const [row] = await t.app.db
          .selectFrom('app_passwords')
          .selectAll()
          .where('uuid', '=', '2e4d9e83-a6bd-465d-87bd-c674eefa04a6')
          .execute();
        assert.deepEqual(
          [row!.user_id, row!.app_id, row!.name, row!.created_at, row!.last_used, row!.last_ip],
          [
            3,
            '4c1e9b2a-7f3d-4e8a-9b6c-2d5f8a1e3c70',
            'Mobile app (iPhone)',
            '2026-09-29 12:10:00',
            '2026-10-14 08:12:00',
            '198.51.100.88',
          ],
        );
        for (const [login, password] of APP_PASSWORDS) {
          for (const form of [password, password.replaceAll(' ', '')]) {
            const res = await server.inject({
              method: 'GET',
              url: `${EVENTS}?per_page=1`,
              headers: { authorization: basicAuth(login, form) },
            });
            assert.equal(res.statusCode, 200, `${login}: ${res.body.slice(0, 200)}`);
          }
          const wrong = await server.inject({
            method: 'GET',
            url: `${EVENTS}?per_page=1`,
            headers: { authorization: basicAuth(login, password.replace(/^./, 'x')) },
          });
          assert.equal(wrong.statusCode, 401);
        }
        const revoked = await server.inject({
          method: 'GET',
          url: `${EVENTS}?per_page=1`,
          headers: { authorization: basicAuth('admin', '1vaa 9H2S dJsk QvA0 Tt1W nEFM') },
        });
        assert.equal(revoked.statusCode, 401, 'the password revoked at WordPress stays revoked');
      });

      test('events keep their ids, dates, levels, loggers, templates, message keys, initiators and occasions', async () => {
        const admin = basicAuth('admin', APP_PASSWORDS[0]![1]);
        const rows = await source.query<{
          id: number;
          date: string;
          logger: string;
          level: string;
          message: string;
          occasionsID: string;
          initiator: string;
        }>('SELECT id, date, logger, level, message, occasionsID, initiator FROM wp_simple_history ORDER BY id');
        const keys = new Map(
          (
            await source.query<{ history_id: number; value: string }>(
              "SELECT history_id, value FROM wp_simple_history_contexts WHERE `key` = '_message_key'",
            )
          ).map((r) => [Number(r.history_id), r.value]),
        );
        const initiators: Record<string, string> = {
          wp_user: 'cms_user',
          wp: 'cms',
          wp_cli: 'cms_cli',
          web_user: 'web_user',
          other: 'other',
        };
        assert.equal(rows.length, 1856);
        for (const r of rows) {
          const res = await server.inject({
            method: 'GET',
            url: `${EVENTS}/${r.id}`,
            headers: { authorization: admin },
          });
          assert.equal(res.statusCode, 200, `event ${r.id}: ${res.body.slice(0, 200)}`);
          const e = JSON.parse(res.body) as Record<string, unknown>;
          assert.deepEqual(
            [
              e.id,
              String(e.date_gmt).replace('T', ' '),
              e.loglevel,
              e.logger,
              e.message_uninterpolated,
              e.message_key,
              e.occasions_id,
              e.initiator,
            ],
            [
              Number(r.id),
              r.date,
              r.level,
              r.logger,
              r.message,
              keys.get(Number(r.id)) ?? null,
              r.occasionsID,
              initiators[r.initiator],
            ],
            `event ${r.id}`,
          );
        }
      });

      test('rendered messages are filled from the imported context', async () => {
        const admin = basicAuth('admin', APP_PASSWORDS[0]![1]);
        const custom = JSON.parse(
          (await server.inject({ method: 'GET', url: `${EVENTS}/41`, headers: { authorization: admin } })).body,
        );
        assert.match(custom.message, /Site launched in beta/);
        assert.equal(custom.context._user_login, 'admin');
      });

      test('sticky events are sticky, and only they', async () => {
        const res = await server.inject({
          method: 'GET',
          url: `${EVENTS}?only_sticky=1&per_page=100`,
          headers: { authorization: basicAuth('admin', APP_PASSWORDS[0]![1]) },
        });
        assert.equal(res.statusCode, 200);
        assert.deepEqual(
          (JSON.parse(res.body) as { id: number }[]).map((e) => e.id).sort((a, b) => a - b),
          [41, 315, 872, 1135],
        );
      });

      test('pages and posts are on the public site at their slugs, in their language', async () => {
        for (const [url, title] of [
          ['/en/about-us/', 'About Us (updated)'],
          ['/de/ueber-uns/', 'Über uns'],
          ['/en/welcome-to-the-partner-portal/', 'Welcome to the Partner Portal'],
          ['/en/unicode-test-quotes-emoji/', 'Ünïcödé Test'],
        ]) {
          const res = await server.inject({ method: 'GET', url: url! });
          assert.equal(res.statusCode, 200, url);
          assert.ok(res.body.includes(title!), `${url} shows "${title}"`);
        }
        assert.equal(
          (await server.inject({ method: 'GET', url: '/en/partner-agreement-2027-updated/' })).statusCode,
          404,
          'drafts stay unpublished',
        );
        assert.equal(
          (await server.inject({ method: 'GET', url: '/en/top-10-partner-faqs/' })).statusCode,
          404,
          'the trash stays behind',
        );
        const home = await server.inject({ method: 'GET', url: '/en/' });
        assert.ok(home.body.includes('Welcome, partners'), 'the front page is the imported Home page');
        const de = await t.app.db
          .selectFrom('posts')
          .select(['trid'])
          .where('slug', '=', 'ueber-uns')
          .executeTakeFirstOrThrow();
        const en = await t.app.db
          .selectFrom('posts')
          .select(['id'])
          .where('slug', '=', 'about-us')
          .executeTakeFirstOrThrow();
        assert.equal(de.trid, en.id, 'the German version is linked to its original');
        const content = await t.app.db
          .selectFrom('posts')
          .select('content')
          .where('slug', '=', 'privacy-policy')
          .executeTakeFirstOrThrow();
        assert.ok(!content.content.includes('127.0.0.1:8081'), 'links to the old site are rewritten');
        assert.ok(content.content.includes(t.config.siteUrl), 'to ours');
      });

      test('site settings come over', () => {
        assert.equal(t.app.options.get('blogname'), 'Partner Portal');
        assert.equal(t.app.options.get('blogdescription'), 'Everything our partners need');
        assert.equal(t.app.options.get('timezone_string'), 'Europe/Berlin');
        assert.equal(t.app.options.get('date_format'), 'j. F Y');
        assert.equal(t.app.options.get('WPLANG'), 'en_US');
      });

      test('a second run changes nothing; a dry run neither', async () => {
        const before = await snapshot(t);
        const again = await cli(t, ['import', 'wordpress', '--from', source.url]);
        assert.equal(again.code, 0, again.stderr);
        assert.match(again.stdout, /history: 1856 at the source; imported 0, updated 0, unchanged 1856/);
        assert.equal(await snapshot(t), before);
        const dry = await cli(t, ['import', 'wordpress', '--from', source.url, '--dry-run']);
        assert.equal(dry.code, 0, dry.stderr);
        assert.match(dry.stdout, /^Dry run/);
        assert.equal(await snapshot(t), before);
      });
    });
  }

  test('a dry run into an empty site reports what would come and writes nothing', async () => {
    const t = await createTestApp(dbTargets()[0]!);
    try {
      const before = await snapshot(t);
      const dry = await cli(t, ['import', 'wordpress', '--from', source.url, '--dry-run']);
      assert.equal(dry.code, 0, dry.stderr);
      assert.match(dry.stdout, /users: 8 at the source; would import 8/);
      assert.match(dry.stdout, /history: 1856 at the source; would import 1856/);
      assert.equal(await snapshot(t), before);
      assert.equal((await t.app.db.selectFrom('import_runs').selectAll().execute()).length, 0);
    } finally {
      await t.close();
    }
  });
});
