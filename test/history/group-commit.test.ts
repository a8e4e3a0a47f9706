// The activity log's group commit on both databases: throttling, counters, run heads and ids
// when many events share one transaction (the PostgreSQL append path writes a group in one
// statement), a back-dated event that sends a group down the general path, and a write that
// fails half-way.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { pino } from 'pino';
import { openApp } from '../../src/app.ts';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { rebuildRuns } from '../../src/namespaces/history/write/runs.ts';
import { COUNTER_RUN_HEADS } from '../../src/namespaces/history/model/runs.ts';
import {
  COUNTER_SUPPRESSED_FAILED_LOGINS,
  COUNTER_TOTAL,
  readCounter,
} from '../../src/namespaces/history/model/counters.ts';
import { FAILED_LOGIN_LIMIT } from '../../src/namespaces/history/write/group.ts';

for (const target of dbTargets()) {
  describe(`group commit (${target.name})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(target);
    });
    after(() => t.close());

    const failed = () =>
      t.app.activity.log(
        { logger: 'SimpleUserLogger', messageKey: 'user_login_failed', level: 'warning', context: { login: 'x' } },
        { user: null, ip: '10.1.2.3' },
      );
    const option = (i: number) =>
      t.app.activity.log(
        {
          logger: 'SimpleOptionsLogger',
          messageKey: 'option_updated',
          context: { option: `o${i % 2}`, option_page: 'p' },
        },
        { user: null, ip: '' },
      );

    /** The run fields and the run-head counter as the writes left them equal a rebuild from scratch. */
    async function assertRunsAsRebuilt(): Promise<void> {
      const runs = () =>
        t.app.db.selectFrom('history_events').select(['id', 'run_head', 'run_size']).orderBy('id').execute();
      const before = await runs();
      const heads = await readCounter(t.app.db, COUNTER_RUN_HEADS);
      await rebuildRuns(t.app.db);
      assert.deepEqual(await runs(), before);
      assert.equal(await readCounter(t.app.db, COUNTER_RUN_HEADS), heads);
    }

    test('one group: throttling in arrival order, counters, run heads and context rows', async () => {
      const totalBefore = await readCounter(t.app.db, COUNTER_TOTAL);
      // All in one turn of the event loop: one group.
      const calls = [
        ...Array.from({ length: FAILED_LOGIN_LIMIT + 3 }, failed),
        option(0),
        option(0),
        option(1),
        ...Array.from({ length: 2 }, failed),
      ];
      const ids = await Promise.all(calls);
      const stored = ids.filter((id) => id > 0);
      assert.equal(
        stored.length,
        FAILED_LOGIN_LIMIT + 3 + 2,
        'three failed logins suppressed; the option events reset the run of failures',
      );
      assert.deepEqual(ids.slice(FAILED_LOGIN_LIMIT, FAILED_LOGIN_LIMIT + 3), [0, 0, 0]);
      assert.deepEqual(
        [...stored].sort((a, b) => a - b),
        stored,
        'ids in arrival order',
      );
      assert.equal(await readCounter(t.app.db, COUNTER_SUPPRESSED_FAILED_LOGINS), 3);
      assert.equal(await readCounter(t.app.db, COUNTER_TOTAL), totalBefore + stored.length);

      const first = await t.app.db
        .selectFrom('history_event_contexts')
        .select('context')
        .where('event_id', '=', stored[0]!)
        .executeTakeFirstOrThrow();
      assert.equal(first.context, '{"login":"x","_message_key":"user_login_failed","_server_remote_addr":"10.1.2.x"}');

      await assertRunsAsRebuilt();
    });

    test('a back-dated event in a group is linked into the runs', async () => {
      const calls = [
        option(0),
        t.app.activity.log(
          {
            logger: 'SimpleOptionsLogger',
            messageKey: 'option_updated',
            date: '2020-01-01 00:00:00',
            context: { option: 'o0', option_page: 'p' },
          },
          { user: null, ip: '' },
        ),
        option(1),
      ];
      const ids = await Promise.all(calls);
      assert.ok(ids.every((id) => id > 0));
      await assertRunsAsRebuilt();
    });

    test('events arriving while groups are written: later transactions take them, in arrival order, runs continued', async () => {
      const totalBefore = await readCounter(t.app.db, COUNTER_TOTAL);
      const calls: Promise<number>[] = [];
      // Waves a turn of the event loop apart: on PostgreSQL the next transaction begins (and
      // waits for the run lock) while the previous group is written, then takes what arrived.
      for (let wave = 0; wave < 30; wave++) {
        for (let i = 0; i < 10; i++) calls.push(option(i % 5 === 4 ? 1 : 0));
        await new Promise((resolve) => setTimeout(resolve, wave % 3));
      }
      const ids = await Promise.all(calls);
      assert.deepEqual(
        [...ids].sort((a, b) => a - b),
        ids,
        'ids in arrival order',
      );
      assert.equal(new Set(ids).size, ids.length);
      assert.equal(await readCounter(t.app.db, COUNTER_TOTAL), totalBefore + ids.length);
      await assertRunsAsRebuilt();
    });

    test('two processes writing one log: each notices the other, nothing is lost, runs stay right', async () => {
      // A second app on the same database stands for another server process: on PostgreSQL each
      // finds out through its guard that the log is not as its last write left it.
      const other = await openApp(t.config, { pgSchema: t.pgSchema, poolSize: 2, logger: pino({ level: 'silent' }) });
      try {
        const totalBefore = await readCounter(t.app.db, COUNTER_TOTAL);
        const logIn = (app: typeof t.app, i: number) =>
          app.activity.log(
            {
              logger: 'SimpleOptionsLogger',
              messageKey: 'option_updated',
              context: { option: `o${i % 3 === 0 ? 1 : 0}`, option_page: 'p' },
            },
            { user: null, ip: '' },
          );
        const ids: number[] = [];
        for (let round = 0; round < 12; round++) {
          // Alternating writers, sometimes at the same time.
          const writes =
            round % 3 === 2 ? [logIn(t.app, round), logIn(other, round)] : [logIn(round % 2 ? other : t.app, round)];
          ids.push(...(await Promise.all(writes)));
        }
        assert.equal(new Set(ids).size, ids.length);
        assert.equal(await readCounter(t.app.db, COUNTER_TOTAL), totalBefore + ids.length);
        await assertRunsAsRebuilt();
      } finally {
        await other.close();
      }
    });

    test('a write failing half-way leaves nothing behind and reports its own error', async () => {
      // A trigger refuses the hourly counts, which are written after the events. On SQLite it
      // rolls the transaction back itself, as a failing `insert or rollback` does.
      const blocker =
        t.app.dialect === 'postgres'
          ? [
              sql`create function refuse_hourly() returns trigger language plpgsql as $$ begin raise exception 'blocked by test'; end $$`,
              sql`create trigger refuse_hourly before insert on history_stats_hourly for each row execute function refuse_hourly()`,
            ]
          : [
              sql`create trigger refuse_hourly before insert on history_stats_hourly begin select raise(rollback, 'blocked by test'); end`,
            ];
      for (const statement of blocker) await statement.execute(t.app.db);
      const state = async () => ({
        events: await t.app.db
          .selectFrom('history_events')
          .select(sql<number>`count(*)`.as('n'))
          .executeTakeFirstOrThrow()
          .then((r) => Number(r.n)),
        total: await readCounter(t.app.db, COUNTER_TOTAL),
        hourly: await t.app.db
          .selectFrom('history_stats_hourly')
          .select(sql<number>`sum(n)`.as('n'))
          .executeTakeFirstOrThrow()
          .then((r) => Number(r.n)),
        newest: await t.app.db
          .selectFrom('history_events')
          .select(['id', 'run_head', 'run_size'])
          .orderBy('id', 'desc')
          .limit(1)
          .executeTakeFirst(),
      });
      const before = await state();
      // The database's error, not a complaint about rolling back a transaction SQLite already ended.
      await assert.rejects(option(5), (err: Error) => /blocked by test/.test(err.message));
      assert.deepEqual(await state(), before);

      await sql`drop trigger refuse_hourly${sql.raw(t.app.dialect === 'postgres' ? ' on history_stats_hourly' : '')}`.execute(
        t.app.db,
      );
      assert.ok((await option(5)) > (before.newest?.id ?? 0));
      const afterwards = await state();
      assert.equal(afterwards.events, before.events + 1);
      assert.equal(afterwards.total, before.total + 1);
      assert.equal(afterwards.hourly, before.hourly + 1);
    });
  });
}
