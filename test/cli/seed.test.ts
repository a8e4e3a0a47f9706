import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { dbTargets, createTestApp, type TestApp } from '../support/db.ts';
import { basicAuth } from '../support/http.ts';
import { openApp } from '../../src/app.ts';
import { authenticateRequest } from '../../src/auth/authenticate.ts';
import { listUsers } from '../../src/auth/users.ts';
import { firstStart } from '../../src/cli/seed.ts';
import { DEFAULT_OPTIONS } from '../../src/site/options.ts';

function capture(): { stream: Writable; text(): string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { stream, text: () => chunks.join('') };
}

for (const target of dbTargets()) {
  describe(`first start (${target.name})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(target);
    });
    after(() => t.close());

    // PostgreSQL serves several processes at once, so two may start together; an SQLite
    // file belongs to one server process.
    const together = target.name === 'postgres';
    test(`seeds an empty site once${together ? ', even when two processes start together' : ''}`, async () => {
      const other = together ? await openApp(t.config, { pgSchema: t.pgSchema, logger: pino({ level: 'silent' }) }) : null;
      try {
        const outA = capture();
        const outB = capture();
        const results = await Promise.all([firstStart(t.app, outA.stream), ...(other ? [firstStart(other, outB.stream)] : [])]);
        assert.deepEqual(results.sort(), other ? [false, true] : [true]);
        const printed = outA.text() + outB.text();

        const password = /Application password for admin \(shown only this once\): ([A-Za-z0-9]{4}(?: [A-Za-z0-9]{4}){5})\n/.exec(printed)?.[1];
        assert.ok(password, printed);
        assert.ok(printed.includes(`curl -u 'admin:${password}' http://localhost:8080/en/cms-json/history/v1/events`), printed);
        const auth = await authenticateRequest(t.app, basicAuth('admin', password), '192.0.2.1');
        assert.equal(auth?.user.role, 'administrator');

        const users = await listUsers(t.app);
        assert.equal(users.filter((u) => u.login === 'admin').length, 1);
        assert.deepEqual(users.filter((u) => u.login.startsWith('demo-')).map((u) => u.role).sort(), ['administrator', 'author', 'contributor', 'editor', 'subscriber', 'translator']);
        for (const name of Object.keys(DEFAULT_OPTIONS)) assert.ok(t.app.options.isStored(name), name);
      } finally {
        await other?.close();
      }
    });

    test('later starts do nothing', async () => {
      const out = capture();
      const before = (await listUsers(t.app)).length;
      assert.equal(await firstStart(t.app, out.stream), false);
      assert.equal(out.text(), '');
      assert.equal((await listUsers(t.app)).length, before);
    });
  });
}
