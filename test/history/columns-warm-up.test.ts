// A served log's columns are read when the server starts (columns/sync.ts startLogColumns), and
// until they are the server is not ready: GET /readyz answers 503 "starting", so that a rolling
// restart or a balancer waits for lists at their usual speed. Through `serve`'s own start
// (src/server/start.ts), on a log large enough to be read in a thread of its own. On SQLite
// only: the wiring is the same on both databases, the thread's reading of PostgreSQL has tests
// of its own (columns-thread.test.ts), and generating such a log there takes 10 s.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config.ts';
import { startServer } from '../../src/server/start.ts';
import { generateEvents } from '../../src/namespaces/history/bulk/generate.ts';
import { columnsKeepTexts } from '../../src/namespaces/history/columns/sync.ts';
import { createTestApp } from '../support/db.ts';
import { pino } from 'pino';

test("serve is ready only once the log's columns are read", async (ctx) => {
  const t = await createTestApp({ name: 'sqlite' });
  // Above the 50,000 events a request reads itself: read by the columns' own thread.
  await generateEvents(t.app, { count: 51_000, days: 30, seed: 11 });
  const config = loadConfig({ DATABASE_URL: t.databaseUrl, DATA_DIR: t.config.dataDir, PORT: '0' });
  const running = await startServer(config, { logger: pino({ level: 'silent' }) });
  try {
    const answers: string[] = [];
    for (;;) {
      const res = await fetch(`${running.address}/readyz`);
      const body = (await res.json()) as Record<string, string>;
      // Read after the answer: columns read since it make no contradiction.
      if (res.status === 200) {
        assert.deepEqual(body, { status: 'ok', database: 'ok' });
        assert.ok(columnsKeepTexts(running.app), 'ready before the columns were read');
        break;
      }
      assert.equal(res.status, 503);
      assert.deepEqual(body, { status: 'starting', database: 'ok', warming_up: 'log columns' });
      answers.push(body.status!);
      await new Promise((r) => setTimeout(r, 10));
    }
    ctx.diagnostic(`${answers.length} answers "starting" before "ok"`);
    const list = await fetch(`${running.address}/en/cms-json/history/v1/events`);
    assert.equal(list.status, 401, 'the server answers requests');
  } finally {
    await running.stop();
    await t.close();
  }
});
