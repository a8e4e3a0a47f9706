import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { sql } from 'kysely';
import { dbTargets, createTestApp, tableNames, type TestApp } from '../support/db.ts';
import { basicAuth } from '../support/http.ts';
import { openApp } from '../../src/app.ts';
import { authenticateRequest } from '../../src/auth/authenticate.ts';
import { createUser } from '../../src/auth/users.ts';
import { findUserByLogin, listUsers } from '../../src/auth/user-rows.ts';
import { listAppPasswords } from '../../src/auth/app-passwords.ts';
import { FIRST_START_OPTION, firstStart } from '../../src/cli/seed.ts';
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
      const other = together
        ? await openApp(t.config, { pgSchema: t.pgSchema, logger: pino({ level: 'silent' }) })
        : null;
      try {
        const outA = capture();
        const outB = capture();
        const results = await Promise.all([
          firstStart(t.app, outA.stream),
          ...(other ? [firstStart(other, outB.stream)] : []),
        ]);
        assert.deepEqual(results.sort(), other ? [false, true] : [true]);
        const printed = outA.text() + outB.text();

        const password =
          /Application password for admin \(shown only this once\): ([A-Za-z0-9]{4}(?: [A-Za-z0-9]{4}){5})\n/.exec(
            printed,
          )?.[1];
        assert.ok(password, printed);
        assert.ok(
          printed.includes(`curl -u 'admin:${password}' http://localhost:8080/en/cms-json/history/v1/events`),
          printed,
        );
        const auth = await authenticateRequest(t.app, basicAuth('admin', password), '192.0.2.1');
        assert.equal(auth?.user.role, 'administrator');

        const users = await listUsers(t.app);
        assert.equal(users.filter((u) => u.login === 'admin').length, 1);
        assert.deepEqual(
          users
            .filter((u) => u.login.startsWith('demo-'))
            .map((u) => u.role)
            .sort(),
          ['administrator', 'author', 'contributor', 'editor', 'subscriber', 'translator'],
        );
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

/**
 * Runs `body` with every insert, update and delete through Kysely counted (on every database and
 * transaction); `fail(i)` may return an error to throw instead of the i-th.
 */
async function countingWrites<T>(
  fail: (i: number) => Error | null,
  body: () => Promise<T>,
): Promise<{ writes: number; result: T }> {
  const probe = await createTestApp({ name: 'sqlite' });
  let base = Object.getPrototypeOf(probe.app.db.getExecutor());
  await probe.close();
  while (!Object.hasOwn(base, 'executeQuery')) base = Object.getPrototypeOf(base);
  const original = base.executeQuery;
  let writes = 0;
  base.executeQuery = function (this: unknown, compiled: { sql: string }, ...rest: unknown[]) {
    if (/^\s*(insert|update|delete)\b/i.test(compiled.sql)) {
      const err = fail(++writes);
      if (err) return Promise.reject(err);
    }
    return original.call(this, compiled, ...rest);
  };
  try {
    const result = await body();
    return { writes, result };
  } finally {
    base.executeQuery = original;
  }
}

/**
 * Rows per table, except the activity log's (an interrupted step may lose its event),
 * app_passwords (replaced) and login_throttle (the test's own sign-ins count there).
 */
async function rowCounts(t: TestApp): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const name of await tableNames(t.app)) {
    if (/^history_|^app_passwords$|^kysely_|^login_throttle$/.test(name)) continue;
    const row = await sql<{ n: number }>`select count(*) as n from ${sql.table(name)}`.execute(t.app.db);
    counts[name] = Number(row.rows[0]!.n);
  }
  return counts;
}

for (const target of dbTargets()) {
  describe(`an interrupted first start is completed by the next (${target.name})`, () => {
    let reference: Record<string, number>;
    /** Writes of a whole first start. */
    let total = 0;
    before(async () => {
      const t = await createTestApp(target);
      try {
        const run = await countingWrites(
          () => null,
          () => firstStart(t.app, capture().stream),
        );
        assert.equal(run.result, true);
        total = run.writes;
        reference = await rowCounts(t);
      } finally {
        await t.close();
      }
    });

    // Failing the n-th write to the database interrupts the first start there, as a crash or
    // a full disk would; the n are spread over all the writes of a whole first start.
    const points: [string, (total: number) => number][] = [
      ...[1, 2, 3, 5].map((n): [string, (total: number) => number] => [`write ${n}`, () => n]),
      ...[10, 25, 40, 55, 70, 85, 95].map((p): [string, (total: number) => number] => [
        `the write at ${p} %`,
        (all) => Math.round((all * p) / 100),
      ]),
      ['the last write', (all) => all],
    ];
    for (const [name, at] of points) {
      test(`${name} fails: the next start completes the first start`, async () => {
        const n = at(total);
        assert.ok(total > 20 && n >= 1 && n <= total, `write ${n} of ${total}`);
        const t = await createTestApp(target);
        try {
          const first = capture();
          const { result: interrupted } = await countingWrites(
            (i) => (i === n ? new Error('disk full') : null),
            () =>
              firstStart(t.app, first.stream).then(
                () => null,
                (err: Error) => err,
              ),
          );
          // A write after the first start (the admin texts follow option changes in the
          // background) fails nothing of it; one before its record interrupts it.
          const again = capture();
          if (interrupted) {
            assert.equal(interrupted.message, 'disk full');
            assert.equal(await firstStart(t.app, again.stream), true, 'the next start completes it');
          }
          const password = /shown only this once\): ([A-Za-z0-9 ]{29})\n/.exec(
            (interrupted ? again : first).text(),
          )?.[1];
          assert.ok(password, again.text());
          assert.equal(
            (await authenticateRequest(t.app, basicAuth('admin', password), '192.0.2.1'))?.user.role,
            'administrator',
          );
          assert.deepEqual(await rowCounts(t), reference);
          assert.equal(await firstStart(t.app, capture().stream), false, 'and then it is done');
        } finally {
          await t.close();
        }
      });
    }

    test('a password made but never shown is replaced: the one printed is the one that works', async () => {
      const t = await createTestApp(target);
      try {
        const broken = new Writable({ write: (_chunk, _enc, done) => done(new Error('EPIPE')) }).on('error', () => {});
        await assert.rejects(firstStart(t.app, broken), /EPIPE/);
        const admin = (await findUserByLogin(t.app, 'admin'))!;
        assert.equal((await listAppPasswords(t.app, admin.id)).length, 1, 'made, not shown');
        const out = capture();
        assert.equal(await firstStart(t.app, out.stream), true);
        const passwords = await listAppPasswords(t.app, admin.id);
        assert.equal(passwords.length, 1, 'the unseen one was revoked');
        const password = /shown only this once\): ([A-Za-z0-9 ]{29})\n/.exec(out.text())![1]!;
        assert.ok(await authenticateRequest(t.app, basicAuth('admin', password), '192.0.2.1'));
      } finally {
        await t.close();
      }
    });

    test('a site with users but no record (made before it existed) is complete: nothing is added', async () => {
      const t = await createTestApp(target);
      try {
        await createUser(t.app, { login: 'owner', email: 'owner@example.test', role: 'administrator' });
        const out = capture();
        assert.equal(await firstStart(t.app, out.stream), false);
        assert.equal(out.text(), '');
        assert.deepEqual(
          (await listUsers(t.app)).map((u) => u.login),
          ['owner'],
        );
        assert.equal(t.app.options.get(FIRST_START_OPTION), 'completed');
      } finally {
        await t.close();
      }
    });
  });
}
