// Activity-log hygiene: generated events are marked (`_generated`), refused on a log with real
// activity unless --force, removed with `events purge --generated` / `--before`; "clear log" as a
// command (`events clear --yes`) and as the console's form. Each removal is logged as one event,
// and the log's derived state (counters, hourly statistics, occasions) stays right. Through the
// real command and HTTP, on every database target.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/server/http.ts';
import { readCounter } from '../../src/namespaces/history/model/counters.ts';
import { dbTargets, type TestApp } from '../support/db.ts';
import { createWebTestApp, csrfOf, type WebClient } from '../web/support.ts';
import { consoleClient, seedConsoleSite, type SiteUser } from '../console/support.ts';
import { runCli } from '../cli/run.ts';

const LOG_PAGE = '/cms-admin/admin.php?page=history_admin_menu_page';

async function counts(t: TestApp): Promise<{
  events: number;
  contexts: number;
  generated: number;
  hourly: number;
  counter: number;
  heads: number;
  headRows: number;
}> {
  const n = async (q: { execute(): Promise<{ n: unknown }[]> }) => Number((await q.execute())[0]!.n ?? 0);
  const db = t.app.db;
  return {
    events: await n(db.selectFrom('history_events').select(sql<number>`count(*)`.as('n'))),
    contexts: await n(db.selectFrom('history_event_contexts').select(sql<number>`count(*)`.as('n'))),
    generated: await n(
      db
        .selectFrom('history_event_contexts')
        .select(sql<number>`count(*)`.as('n'))
        .where('context', 'like', '%"_generated":"1"%'),
    ),
    hourly: await n(db.selectFrom('history_stats_hourly').select(sql<number>`coalesce(sum(n), 0)`.as('n'))),
    counter: await readCounter(db, 'total_logged_events'),
    heads: await readCounter(db, 'run_heads'),
    headRows: await n(db.selectFrom('history_events').select(sql<number>`count(*)`.as('n')).where('run_head', '=', 1)),
  };
}

/** The derived state agrees with the events. */
async function assertConsistent(t: TestApp, what: string): Promise<void> {
  const c = await counts(t);
  assert.equal(c.counter, c.events, `${what}: total counter`);
  assert.equal(c.hourly, c.events, `${what}: hourly statistics`);
  assert.equal(c.heads, c.headRows, `${what}: occasions (run heads)`);
}

async function newest(
  server: FastifyInstance,
  user: SiteUser,
  lang = 'en',
): Promise<{ message: string; initiator: string; context: Record<string, string> }> {
  const res = await server.inject({
    method: 'GET',
    url: `/${lang}/cms-json/history/v1/events?per_page=1&_fields=message,initiator,context`,
    headers: { authorization: user.authorization },
  });
  assert.equal(res.statusCode, 200, res.body);
  return res.json()[0];
}

for (const target of dbTargets()) {
  describe(`activity-log hygiene (${target.name})`, () => {
    let t: TestApp;
    let server: FastifyInstance;
    let users: Record<string, SiteUser>;
    let ada: WebClient;
    before(async () => {
      t = await createWebTestApp(target);
      users = await seedConsoleSite(t.app, 200);
      server = await buildServer(t.app);
      ada = await consoleClient(server, 'ada');
      // Ada's first API request is logged as her login (once a day): made before the tests look.
      await newest(server, users.ada!);
    });
    after(async () => {
      await server.close();
      await t.close();
    });

    test('generated events are marked; a log with real activity is refused unless --force', async () => {
      const start = await counts(t);
      assert.equal(start.generated, 200, 'the generator’s events carry _generated');
      const refused = await runCli(t, ['events', 'generate', '--count', '50']);
      assert.equal(refused.code, 1);
      assert.match(
        refused.stderr,
        /^content-site: the activity log holds real activity \(\d+ events of people\); generated events would be mixed into it\. .*--force.*\n$/,
      );
      assert.equal((await counts(t)).events, start.events, 'nothing added');
      const forced = await runCli(t, ['events', 'generate', '--count', '50', '--days', '60', '--force']);
      assert.equal(forced.code, 0, forced.stderr);
      const now = await counts(t);
      assert.equal(now.events, start.events + 50);
      assert.equal(now.generated, 250);
      await assertConsistent(t, 'after generating');
    });

    test('events purge --before DATE removes older events and logs it', async () => {
      const cutoff = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
      const older = Number(
        (
          await t.app.db
            .selectFrom('history_events')
            .select(sql<number>`count(*)`.as('n'))
            .where('date', '<', `${cutoff} 00:00:00`)
            .executeTakeFirstOrThrow()
        ).n,
      );
      assert.ok(older > 0, 'the 60-day generation reaches back past the cutoff');
      const before = (await counts(t)).events;
      const r = await runCli(t, ['events', 'purge', '--before', cutoff]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, `Removed ${older} events.\n`);
      const after = await counts(t);
      assert.equal(after.events, before - older + 1, 'the purge is one new event');
      assert.equal(after.contexts <= after.events, true, 'no context is left without its event');
      await assertConsistent(t, 'after purge --before');
      const logged = await newest(server, users.ada!);
      assert.equal(logged.message, `Removed ${older} events dated before ${cutoff} 00:00:00 (UTC)`);
      assert.equal(logged.initiator, 'cms_cli');
    });

    test('events purge --generated keeps every real event', async () => {
      const before = await counts(t);
      const realBefore = before.events - before.generated;
      const r = await runCli(t, ['events', 'purge', '--generated']);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, `Removed ${before.generated} events.\n`);
      const after = await counts(t);
      assert.equal(after.generated, 0);
      assert.equal(after.events, realBefore + 1);
      await assertConsistent(t, 'after purge --generated');
      assert.equal(
        (await newest(server, users.ada!, 'de')).message,
        `${before.generated} generierte Ereignisse entfernt`,
      );
      // The real ones are still there: Ada's custom entry and the failed logins.
      const res = await server.inject({
        method: 'GET',
        url: '/en/cms-json/history/v1/events?per_page=100&ungrouped=1&_fields=message',
        headers: { authorization: users.ada!.authorization },
      });
      const messages = res.json().map((e: { message: string }) => e.message);
      assert.ok(
        messages.some((m: string) => m.includes('Deployed')),
        messages.join(' | '),
      );
      assert.ok(
        messages.some((m: string) => m.startsWith('Failed to login')),
        messages.join(' | '),
      );
      // Now there is nothing generated to purge, and generate is still refused without --force.
      assert.equal((await runCli(t, ['events', 'purge', '--generated'])).stdout, 'Removed 0 events.\n');
    });

    test('the console’s "Clear log": only for those who manage options, with CSRF and confirmation; logged as one event', async () => {
      await runCli(t, ['events', 'generate', '--count', '30', '--force']);
      const page = await ada.get(LOG_PAGE);
      assert.equal(page.status, 200);
      assert.match(page.body, /<h2 id="clear-log-heading">Clear log<\/h2>/);
      assert.match(page.body, /name="action" value="clear_log"/);

      const emil = await consoleClient(server, 'emil');
      const emilPage = await emil.get(LOG_PAGE);
      assert.doesNotMatch(emilPage.body, /clear_log/, 'an editor sees no such form');
      const before = (await counts(t)).events;
      assert.equal(
        (await emil.post(LOG_PAGE, { _csrf: csrfOf(emilPage.body), action: 'clear_log', confirm: '1' })).status,
        403,
      );
      assert.equal((await ada.post(LOG_PAGE, { action: 'clear_log', confirm: '1' })).status, 403, 'no CSRF token');
      const unconfirmed = await ada.post(LOG_PAGE, { _csrf: csrfOf(page.body), action: 'clear_log' });
      assert.equal(unconfirmed.status, 400);
      assert.match(unconfirmed.body, /Please confirm that every event is to be removed\./);
      assert.equal((await counts(t)).events, before, 'nothing removed so far');

      const cleared = await ada.post(LOG_PAGE, { _csrf: csrfOf(page.body), action: 'clear_log', confirm: '1' });
      assert.equal(cleared.status, 303);
      const after = await ada.get(cleared.location!);
      assert.match(after.body, /The activity log has been cleared\./);
      const c = await counts(t);
      assert.equal(c.events, 1);
      await assertConsistent(t, 'after clearing');
      const logged = await newest(server, users.ada!);
      assert.equal(logged.message, `Cleared the log (${before} rows were removed)`);
      assert.equal(logged.initiator, 'cms_user');
      assert.equal((await newest(server, users.ada!, 'de')).message, `Protokoll geleert (${before} Zeilen entfernt)`);
    });

    test('events clear --yes: every event goes, the clearing stays', async () => {
      await runCli(t, ['events', 'generate', '--count', '20', '--force']);
      const before = (await counts(t)).events;
      const r = await runCli(t, ['events', 'clear', '--yes']);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, `Cleared the activity log: removed ${before} events.\n`);
      const c = await counts(t);
      assert.deepEqual([c.events, c.contexts], [1, 1]);
      await assertConsistent(t, 'after events clear');
      assert.equal(await readCounter(t.app.db, 'context_index_blocks'), 0, 'the context index starts over');
      const logged = await newest(server, users.ada!);
      assert.equal(logged.message, `Cleared the log (${before} rows were removed)`);
      assert.equal(logged.initiator, 'cms_cli');
      // An empty log of real activity takes generated events again without --force.
      assert.equal((await runCli(t, ['events', 'generate', '--count', '5'])).code, 0);
    });
  });
}
