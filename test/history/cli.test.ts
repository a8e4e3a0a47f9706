// The `events` CLI commands, the generator and the demo seed.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { sql } from 'kysely';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import {
  eventsBackfillCommand,
  eventsGenerateCommand,
  eventsIndexCommand,
} from '../../src/namespaces/history/commands.ts';
import { clearContextIndex, contextIndexProgress } from '../../src/namespaces/history/index/build.ts';
import type { CliContext } from '../../src/cli/command.ts';
import { CliError } from '../../src/cli/command.ts';
import { DEMO_EVENT_COUNT, seedDemo } from '../../src/namespaces/history/seed.ts';
import { listEvents } from '../../src/namespaces/history/read/list.ts';
import { fixtureUser, listParams } from './fixture.ts';
import { BLOCK_EVENTS } from '../../src/namespaces/history/index/terms.ts';

function context(t: TestApp): CliContext & { out: () => string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let text = '';
  stdout.on('data', (c: Buffer) => (text += c.toString()));
  stderr.resume();
  return { config: t.config, openApp: async () => t.app, stdout, stderr, out: () => text };
}

const count = async (t: TestApp) =>
  Number(
    (await t.app.db.selectFrom('history_events').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n,
  );

for (const target of dbTargets()) {
  describe(`events CLI and generator (${target.name})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(target);
    });
    after(() => t.close());

    test('events generate --count N --days D', async () => {
      const ctx = context(t);
      assert.equal(await eventsGenerateCommand.run(['--count', '1234', '--days', '3'], ctx), 0);
      assert.equal(await count(t), 1234);
      assert.match(ctx.out(), /Added 1234 events over the last 3 days/);
      const dates = await t.app.db
        .selectFrom('history_events')
        .select([sql<string>`min(${sql.ref('date')})`.as('a'), sql<string>`max(${sql.ref('date')})`.as('b')])
        .executeTakeFirstOrThrow();
      const span =
        (Date.parse(dates.b.replace(' ', 'T') + 'Z') - Date.parse(dates.a.replace(' ', 'T') + 'Z')) / 86_400_000;
      assert.ok(span > 2.5 && span <= 3, `spread over ${span} days`);
      // Realistic: several loggers, grouped occasions, readable messages.
      const admin = await fixtureUser(t.app, 'cliadmin', 'administrator');
      const page = await listEvents(t.app, listParams({ per_page: 100 }), { user: admin, lang: 'en' });
      assert.ok(new Set(page.items.map((i) => i.logger)).size >= 5);
      assert.ok(page.items.some((i) => i.subsequent_occasions_count > 1));
      assert.ok(
        page.items.every((i) => !/\{\w+\}/.test(i.message)),
        'every placeholder filled',
      );
    });

    test('bad arguments are one-line errors', async () => {
      const ctx = context(t);
      await assert.rejects(eventsGenerateCommand.run([], ctx), CliError);
      await assert.rejects(
        eventsGenerateCommand.run(['--count', 'lots'], ctx),
        /--count must be a whole number from 1 to/,
      );
      await assert.rejects(
        eventsGenerateCommand.run(['--count', '5', '--days', '0'], ctx),
        /--days must be a whole number from 1 to/,
      );
    });

    test('demo seed writes a few hundred events once', async () => {
      const before = await count(t);
      assert.equal(await seedDemo(t.app), DEMO_EVENT_COUNT);
      assert.equal(await seedDemo(t.app), 0);
      assert.equal(await count(t), before + DEMO_EVENT_COUNT);
    });

    test('events backfill imports users once', async () => {
      const ctx = context(t);
      assert.equal(await eventsBackfillCommand.run([], ctx), 0);
      assert.match(ctx.out(), /user: 1 of 1 in the log/);
      const created = await listEvents(
        t.app,
        listParams({ messages: ['SimpleUserLogger:user_created'], ungrouped: true }),
        { user: await fixtureUser(t.app, 'x2', 'administrator'), lang: 'en' },
      );
      assert.equal(created.items.length, 1);
      assert.equal(created.items[0].backfilled, true);
    });

    test('events generate indexes every complete block, as a bulk load; events index indexes what is left', async () => {
      const generating = context(t);
      await eventsGenerateCommand.run(['--count', '9000'], generating);
      const newest = Number(
        (await t.app.db.selectFrom('history_events').select(sql<number>`max(id)`.as('m')).executeTakeFirstOrThrow()).m,
      );
      assert.ok(newest >= 2 * BLOCK_EVENTS);
      const complete = Math.floor((newest + 1) / BLOCK_EVENTS);
      assert.deepEqual(await contextIndexProgress(t.app.db), { indexed: complete, complete });
      assert.match(generating.out(), new RegExp(`\\nIndexed ${complete} blocks of 4096 events in [0-9.]+ s;`));
      // Blocks left to the server's background (written by appends, or by an older version).
      await clearContextIndex(t.app.db, t.app.dialect);
      assert.deepEqual(await contextIndexProgress(t.app.db), { indexed: 0, complete });
      const ctx = context(t);
      assert.equal(await eventsIndexCommand.run([], ctx), 0);
      assert.deepEqual(await contextIndexProgress(t.app.db), { indexed: complete, complete });
      assert.match(
        ctx.out(),
        new RegExp(
          `^Indexed ${complete} blocks of 4096 events in [0-9.]+ s; events up to id ${complete * BLOCK_EVENTS - 1} are indexed\\.\\n$`,
        ),
      );
      const again = context(t);
      assert.equal(await eventsIndexCommand.run([], again), 0);
      assert.match(again.out(), /^Indexed 0 blocks/);
      await assert.rejects(eventsIndexCommand.run(['--all'], context(t)), CliError);
    });

    test('events index --rebuild indexes every block anew', async () => {
      const rowsOf = async (block: number) =>
        (
          await t.app.db
            .selectFrom('history_context_terms')
            .select(['term', 'ids'])
            .where('block', '=', block)
            .orderBy('term')
            .execute()
        ).map((r) => `${r.term}:${r.ids}`);
      const first = await rowsOf(0);
      assert.ok(first.length > 0);
      await t.app.db.deleteFrom('history_context_terms').where('block', '=', 0).execute();
      const { complete } = await contextIndexProgress(t.app.db);
      const ctx = context(t);
      assert.equal(await eventsIndexCommand.run(['--rebuild'], ctx), 0);
      assert.match(ctx.out(), new RegExp(`^Indexed ${complete} blocks`));
      assert.deepEqual(await rowsOf(0), first);
      assert.deepEqual(await contextIndexProgress(t.app.db), { indexed: complete, complete });
    });
  });
}
