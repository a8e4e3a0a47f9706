// SQLite shared by processes (a server and a CLI command): a transaction that reads and then
// writes must not fail because another process wrote in between (a deferred transaction's
// upgrade to writing fails at once with SQLITE_BUSY; an immediate one holds the lock from its
// start and the other process waits for it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createTestApp } from '../support/db.ts';

/** Another process that writes a counter (waiting for the write lock up to 5 s), and its exit code. */
function writeFromAnotherProcess(file: string): Promise<number | null> {
  const script = `const D = require('better-sqlite3'); const d = new D(${JSON.stringify(file)});
    d.pragma('busy_timeout = 5000');
    d.prepare("insert into history_counters (name, value) values ('other_process', 1)").run();`;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
    child.on('exit', resolve);
  });
}

test('SQLite: a transaction that reads, then writes, while another process writes, commits; so does the other', async () => {
  const t = await createTestApp({ name: 'sqlite' });
  try {
    const file = t.databaseUrl.slice('sqlite:'.length);
    let other: Promise<number | null> | undefined;
    await t.app.db.transaction().execute(async (tx) => {
      await tx.selectFrom('history_counters').select('value').execute();
      other = writeFromAnotherProcess(file);
      // The other process tries to write meanwhile.
      await new Promise((r) => setTimeout(r, 500));
      await tx.insertInto('history_counters').values({ name: 'this_process', value: 1 }).execute();
    });
    assert.equal(await other, 0, 'the other process waited for the lock and wrote');
    const names = (await t.app.db.selectFrom('history_counters').select('name').execute()).map((r) => r.name);
    assert.ok(names.includes('this_process') && names.includes('other_process'), names.join());
  } finally {
    await t.close();
  }
});
