// An import killed with SIGKILL in the middle of the activity log (a real child process) leaves
// whole batches behind; the next run finishes it without duplicating anything, and the log's
// counters (events, occasions runs, hourly statistics) agree with its rows.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { sql } from 'kysely';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { BIN, NODE, ROOT, cliEnv } from '../cli/run.ts';
import { cli, createSource, skipReason, snapshot, type SourceDb } from './support.ts';

const reason = await skipReason();
/** Copies of the fixture's log (ids shifted by 10,000 each): about 30,000 events, several batches. */
const COPIES = 16;

/** Starts the import in a child process and kills it (SIGKILL) as soon as part of the log is in; whether it was killed. */
function importKilledHalfWay(t: TestApp, from: string): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(NODE, [BIN, 'import', 'wordpress', '--from', from], {
      cwd: ROOT,
      env: cliEnv(t),
      stdio: 'ignore',
    });
    let exited = false;
    const watch = setInterval(async () => {
      const row = await t.app.db.selectFrom('history_events').select('id').limit(1).executeTakeFirst();
      if (row && !exited) {
        clearInterval(watch);
        child.kill('SIGKILL');
      }
    }, 20);
    child.on('close', (_code, signal) => {
      exited = true;
      clearInterval(watch);
      resolve(signal === 'SIGKILL');
    });
  });
}

describe('import wordpress: killed half-way', { skip: reason ?? false }, () => {
  let source: SourceDb;
  let total: number;
  before(async () => {
    source = await createSource({
      sql: `
        INSERT INTO wp_simple_history (id, date, logger, level, message, occasionsID, initiator)
          SELECT h.id + 10000 * s.seq, h.date + INTERVAL s.seq DAY, h.logger, h.level, h.message, h.occasionsID, h.initiator FROM wp_simple_history h JOIN seq_1_to_${COPIES} s;
        INSERT INTO wp_simple_history_contexts (history_id, \`key\`, value)
          SELECT c.history_id + 10000 * s.seq, c.\`key\`, c.value FROM wp_simple_history_contexts c JOIN seq_1_to_${COPIES} s WHERE c.history_id <= 1856;`,
    });
    total = Number((await source.query<{ n: number }>('SELECT COUNT(*) AS n FROM wp_simple_history'))[0]!.n);
  });
  after(async () => {
    await source?.drop();
  });

  for (const target of dbTargets()) {
    test(`resumes without duplicates; later runs bring what changed at the source (${target.name})`, async () => {
      let t: TestApp | null = null;
      try {
        t = await createTestApp(target);
        const killed = await importKilledHalfWay(t, source.url);
        const partial = Number(
          (
            await t.app.db
              .selectFrom('history_events')
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        );
        assert.ok(
          killed && partial > 0 && partial < total,
          `killed (${killed}) with part of the log written (${partial} of ${total})`,
        );
        assert.equal(partial % 5000, 0, 'whole batches only');
        const run = await t.app.db.selectFrom('import_runs').select('status').executeTakeFirstOrThrow();
        assert.equal(run.status, 'running', 'the killed run stays recorded as running');

        const resumed = await cli(t, ['import', 'wordpress', '--from', source.url]);
        assert.equal(resumed.code, 0, resumed.stderr);
        assert.match(
          resumed.stdout,
          new RegExp(`history: ${total} at the source; imported ${total - partial}, updated 0, unchanged ${partial}`),
        );
        const ids = (
          await t.app.db
            .selectFrom('history_events')
            .select('id')
            .where('logger', '!=', 'ImporterLogger')
            .orderBy('id')
            .execute()
        ).map((r) => r.id);
        const sourceIds = (await source.query<{ id: number }>('SELECT id FROM wp_simple_history ORDER BY id')).map(
          (r) => Number(r.id),
        );
        assert.deepEqual(ids, sourceIds);
        const counts = await sql<{ name: string; value: number }>`select name, value from history_counters`.execute(
          t.app.db,
        );
        const counter = (name: string) => Number(counts.rows.find((r) => r.name === name)?.value ?? 0);
        const events = ids.length + 1;
        assert.equal(counter('total_logged_events'), events);
        const heads = await sql<{
          n: number;
        }>`select count(*) as n from (select occasions_id, lag(occasions_id) over (order by date desc, id desc) as prev from history_events) x where prev is null or prev <> occasions_id`.execute(
          t.app.db,
        );
        assert.equal(counter('run_heads'), Number(heads.rows[0]!.n));
        for (const table of ['history_stats_hourly', 'history_stats_daily', 'history_stats_hourly_levels']) {
          const counted = await sql<{ n: number }>`select sum(n) as n from ${sql.table(table)}`.execute(t.app.db);
          assert.equal(Number(counted.rows[0]!.n), events, table);
        }
        const contexts = await t.app.db
          .selectFrom('history_event_contexts')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow();
        assert.equal(Number(contexts.n), events);

        // Later, at the source: a new event, a new user, an edited page, one event stuck and another unstuck.
        await source.query(
          `INSERT INTO wp_simple_history (id, date, logger, level, message, occasionsID, initiator) VALUES (900001, '2026-11-26 09:00:00', 'CustomEntryLogger', 'info', 'Added a custom entry: {message}', MD5('later'), 'wp_user')`,
        );
        await source.query(
          "INSERT INTO wp_simple_history_contexts (history_id, `key`, value) VALUES (900001, 'message', 'After the first import'), (900001, '_message_key', 'custom_entry_added'), (1407, '_sticky', '{}')",
        );
        await source.query("DELETE FROM wp_simple_history_contexts WHERE history_id = 41 AND `key` = '_sticky'");
        await source.query(
          "INSERT INTO wp_users (ID, user_login, user_pass, user_nicename, user_email, user_url, user_registered, user_activation_key, user_status, display_name) VALUES (10, 'nora.new', MD5('Nora-New-2026'), 'nora-new', 'nora@partner-portal.example', '', '2026-11-26 08:00:00', '', 0, 'Nora New')",
        );
        await source.query(
          `INSERT INTO wp_usermeta (user_id, meta_key, meta_value) VALUES (10, 'wp_capabilities', 'a:1:{s:6:"author";b:1;}')`,
        );
        await source.query(
          "UPDATE wp_posts SET post_title = 'Team (new people)', post_modified_gmt = '2026-11-26 08:30:00' WHERE ID = 11",
        );
        try {
          const later = await cli(t, ['import', 'wordpress', '--from', source.url]);
          assert.equal(later.code, 0, later.stderr);
          assert.match(later.stdout, /users: 9 at the source; imported 1, updated 0, unchanged 8/);
          assert.match(later.stdout, /content: 40 at the source; imported 0, updated 1, unchanged 38/);
          assert.match(
            later.stdout,
            new RegExp(`history: ${total + 1} at the source; imported 1, updated 2, unchanged ${total}`),
          );
          const sticky = (
            await t.app.db.selectFrom('history_events').select('id').where('sticky', '=', 1).orderBy('id').execute()
          ).map((r) => r.id);
          assert.ok(
            sticky.includes(1407) && !sticky.includes(41),
            `stuck and unstuck as at the source: ${sticky.join(', ')}`,
          );
          const nora = await t.app.db
            .selectFrom('users')
            .select(['login', 'role'])
            .where('login', '=', 'nora.new')
            .executeTakeFirstOrThrow();
          assert.equal(nora.role, 'author');
          const team = await t.app.db
            .selectFrom('posts')
            .select('title')
            .where('slug', '=', 'team')
            .executeTakeFirstOrThrow();
          assert.equal(team.title, 'Team (new people)');
          const newest = await t.app.db
            .selectFrom('history_events')
            .select(['id', 'message_key'])
            .where('id', '=', 900001)
            .executeTakeFirstOrThrow();
          assert.equal(newest.message_key, 'custom_entry_added');
          const once = await snapshot(t);
          const again = await cli(t, ['import', 'wordpress', '--from', source.url]);
          assert.equal(again.code, 0, again.stderr);
          assert.equal(await snapshot(t), once, 'and a run after that changes nothing');
        } finally {
          // The other database target starts from the same source.
          await source.query('DELETE FROM wp_simple_history WHERE id = 900001');
          await source.query(
            "DELETE FROM wp_simple_history_contexts WHERE history_id = 900001 OR (history_id = 1407 AND `key` = '_sticky')",
          );
          await source.query(
            "INSERT INTO wp_simple_history_contexts (history_id, `key`, value) VALUES (41, '_sticky', '{}')",
          );
          await source.query('DELETE FROM wp_users WHERE ID = 10');
          await source.query('DELETE FROM wp_usermeta WHERE user_id = 10');
          await source.query(
            "UPDATE wp_posts SET post_title = 'Team', post_modified_gmt = '2026-11-23 12:39:38' WHERE ID = 11",
          );
        }
      } finally {
        await t?.close();
      }
    });
  }
});
