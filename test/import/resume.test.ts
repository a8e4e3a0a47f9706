// An import killed with SIGKILL in the middle of the activity log (a real child process) leaves
// whole batches behind; the next run finishes it without duplicating anything, and the log's
// counters (events, occasions runs, hourly statistics) agree with its rows.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { sql } from 'kysely';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { BIN, NODE, ROOT, cliEnv } from '../cli/run.ts';
import { cli, createSource, skipReason, type SourceDb } from './support.ts';

const reason = await skipReason();
/** Copies of the fixture's log (ids shifted by 10,000 each): about 30,000 events, several batches. */
const COPIES = 16;

/** Starts the import in a child process and kills it (SIGKILL) as soon as part of the log is in; whether it was killed. */
function importKilledHalfWay(t: TestApp, from: string): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(NODE, [BIN, 'import', 'wordpress', '--from', from], { cwd: ROOT, env: cliEnv(t), stdio: 'ignore' });
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
    test(`resumes without duplicates (${target.name})`, async () => {
      let t: TestApp | null = null;
      try {
        t = await createTestApp(target);
        const killed = await importKilledHalfWay(t, source.url);
        const partial = Number((await t.app.db.selectFrom('history_events').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
        assert.ok(killed && partial > 0 && partial < total, `killed (${killed}) with part of the log written (${partial} of ${total})`);
        assert.equal(partial % 5000, 0, 'whole batches only');
        const run = await t.app.db.selectFrom('import_runs').select('status').executeTakeFirstOrThrow();
        assert.equal(run.status, 'running', 'the killed run stays recorded as running');

        const resumed = await cli(t, ['import', 'wordpress', '--from', source.url]);
        assert.equal(resumed.code, 0, resumed.stderr);
        assert.match(resumed.stdout, new RegExp(`history: ${total} at the source; imported ${total - partial}, updated 0, unchanged ${partial}`));
        const ids = (await t.app.db.selectFrom('history_events').select('id').where('logger', '!=', 'ImporterLogger').orderBy('id').execute()).map((r) => r.id);
        const sourceIds = (await source.query<{ id: number }>('SELECT id FROM wp_simple_history ORDER BY id')).map((r) => Number(r.id));
        assert.deepEqual(ids, sourceIds);
        const counts = await sql<{ name: string; value: number }>`select name, value from history_counters`.execute(t.app.db);
        const counter = (name: string) => Number(counts.rows.find((r) => r.name === name)?.value ?? 0);
        const events = ids.length + 1;
        assert.equal(counter('total_logged_events'), events);
        const heads = await sql<{ n: number }>`select count(*) as n from (select occasions_id, lag(occasions_id) over (order by date desc, id desc) as prev from history_events) x where prev is null or prev <> occasions_id`.execute(t.app.db);
        assert.equal(counter('run_heads'), Number(heads.rows[0]!.n));
        const hourly = await sql<{ n: number }>`select sum(n) as n from history_stats_hourly`.execute(t.app.db);
        assert.equal(Number(hourly.rows[0]!.n), events);
        const contexts = await t.app.db.selectFrom('history_event_contexts').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
        assert.equal(Number(contexts.n), events);
      } finally {
        await t?.close();
      }
    });
  }
});
