import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { dbTargets, createTestApp, type TestApp } from '../support/db.ts';
import {
  chunkPassword,
  createAppPassword,
  generatePassword,
  getAppPassword,
  hashAppPassword,
  listAppPasswords,
  matchAppPassword,
  recordAppPasswordUse,
  revokeAllAppPasswords,
  revokeAppPassword,
  verifyAppPassword,
} from '../../src/auth/app-passwords.ts';
import { createUser } from '../../src/auth/users.ts';
import { RestError } from '../../src/rest/types.ts';
import type { ActivityEntry } from '../../src/site/activity.ts';

describe('application password format', () => {
  test('24 alphanumeric characters, all 62 symbols in use', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const p = generatePassword();
      assert.match(p, /^[A-Za-z0-9]{24}$/);
      for (const c of p) seen.add(c);
    }
    assert.equal(seen.size, 62);
  });

  test('chunked display form', () => {
    assert.equal(chunkPassword('abcdefghijklmnopqrstuvwx'), 'abcd efgh ijkl mnop qrst uvwx');
    assert.equal(chunkPassword('abcd efgh ijkl mnop qrst uvwx'), 'abcd efgh ijkl mnop qrst uvwx');
    assert.equal(chunkPassword('abcdef'), 'abcd ef');
    assert.equal(chunkPassword(generatePassword()).length, 29);
  });

  test('salted keyed hash; verification ignores non-alphanumerics', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...Array.from({ length: 20 }, generatePassword)),
        fc.string({ maxLength: 3 }),
        (password, noise) => {
          const hash = hashAppPassword(password);
          assert.match(hash, /^\$hmac-sha256\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
          assert.ok(!hash.includes(password));
          assert.equal(verifyAppPassword(chunkPassword(password), hash), true);
          assert.equal(verifyAppPassword(` ${password.slice(0, 5)}-${password.slice(5)} `, hash), true);
          const other = password.slice(1) + (password[0] === 'a' ? 'b' : 'a');
          assert.equal(verifyAppPassword(other + noise.replace(/[A-Za-z0-9]/g, ''), hash), false);
        },
      ),
      { numRuns: 50 },
    );
    const p = generatePassword();
    assert.notEqual(hashAppPassword(p), hashAppPassword(p));
    assert.equal(verifyAppPassword(p, 'garbage'), false);
  });
});

for (const target of dbTargets()) {
  describe(`application passwords (${target.name})`, () => {
    let t: TestApp;
    let userId: number;
    const logged: ActivityEntry[] = [];
    before(async () => {
      t = await createTestApp(target);
      t.app.activity = { log: async (entry) => logged.push(entry) };
      userId = (await createUser(t.app, { login: 'dana', email: 'dana@example.com', role: 'author' })).id;
    });
    after(() => t.close());

    test('creates, stores only the hash, lists and gets', async () => {
      const created = await createAppPassword(
        t.app,
        userId,
        { name: '  My  <b>Phone</b> ', appId: '1b4e28ba-2fa1-41d2-883f-0e9f3e6a5b2c' },
        { user: null, ip: '', initiator: 'cms_cli' },
      );
      assert.match(created.password, /^[A-Za-z0-9]{24}$/);
      assert.match(created.uuid, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      assert.equal(created.name, 'My Phone');
      assert.equal(created.app_id, '1b4e28ba-2fa1-41d2-883f-0e9f3e6a5b2c');
      assert.match(created.created, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
      const stored = await t.app.db
        .selectFrom('app_passwords')
        .selectAll()
        .where('uuid', '=', created.uuid)
        .executeTakeFirstOrThrow();
      assert.ok(!stored.password_hash.includes(created.password));
      assert.deepEqual(await listAppPasswords(t.app, userId), [
        {
          uuid: created.uuid,
          app_id: created.app_id,
          name: 'My Phone',
          created: created.created,
          last_used: null,
          last_ip: null,
        },
      ]);
      assert.deepEqual(await getAppPassword(t.app, userId, created.uuid), (await listAppPasswords(t.app, userId))[0]);
      assert.equal(await getAppPassword(t.app, userId + 1, created.uuid), undefined);
      assert.deepEqual(logged.at(-1), {
        logger: 'SimpleUserLogger',
        messageKey: 'user_application_password_created',
        context: { edited_user_id: userId, edited_user_login: 'dana', application_password_name: 'My Phone' },
      });
    });

    test('duplicate names (as WordPress: after cleaning, per user), empty names, bad app ids and unknown users are refused', async () => {
      const reject = (code: string, status: number) => (err: unknown) =>
        err instanceof RestError && err.code === code && err.status === status;
      await assert.rejects(
        createAppPassword(t.app, userId, { name: ' My <b>Phone</b>' }),
        (err: unknown) =>
          reject('application_password_duplicate_name', 409)(err) &&
          (err as Error).message === 'Each application name should be unique.',
      );
      const otherUser = (await createUser(t.app, { login: 'emil', email: 'emil@example.com', role: 'author' })).id;
      await createAppPassword(t.app, otherUser, { name: 'My Phone' });
      await createAppPassword(t.app, userId, { name: 'my phone' });
      await assert.rejects(
        createAppPassword(t.app, userId, { name: ' <i></i> ' }),
        reject('application_password_empty_name', 400),
      );
      await assert.rejects(
        createAppPassword(t.app, userId, { name: 'x', appId: 'NOT-A-UUID' }),
        reject('invalid_app_id', 400),
      );
      await assert.rejects(createAppPassword(t.app, 999_999, { name: 'x' }), reject('rest_user_invalid_id', 404));
      assert.equal((await listAppPasswords(t.app, userId)).length, 2);
    });

    test('matches the first stored password that fits, in any display form', async () => {
      const a = await createAppPassword(t.app, userId, { name: 'a' });
      const b = await createAppPassword(t.app, userId, { name: 'b' });
      assert.equal((await matchAppPassword(t.app, userId, chunkPassword(a.password)))?.uuid, a.uuid);
      assert.equal((await matchAppPassword(t.app, userId, b.password))?.uuid, b.uuid);
      assert.equal(
        await matchAppPassword(
          t.app,
          userId,
          a.password.toLowerCase() === a.password ? a.password.toUpperCase() : a.password.toLowerCase(),
        ),
        null,
      );
      assert.equal(await matchAppPassword(t.app, userId, ''), null);
    });

    test('records last use at most once per 24 hours', async () => {
      const p = await createAppPassword(t.app, userId, { name: 'usage' });
      const row = () =>
        t.app.db.selectFrom('app_passwords').selectAll().where('uuid', '=', p.uuid).executeTakeFirstOrThrow();
      const day1 = new Date('2026-03-01T10:00:00Z');
      assert.equal(await recordAppPasswordUse(t.app, await row(), '192.0.2.1', day1), true);
      assert.equal(
        await recordAppPasswordUse(t.app, await row(), '192.0.2.2', new Date('2026-03-02T09:59:59Z')),
        false,
      );
      assert.deepEqual(await getAppPassword(t.app, userId, p.uuid), {
        ...(await getAppPassword(t.app, userId, p.uuid))!,
        last_used: '2026-03-01T10:00:00',
        last_ip: '192.0.2.1',
      });
      assert.equal(await recordAppPasswordUse(t.app, await row(), '192.0.2.3', new Date('2026-03-02T10:00:00Z')), true);
      assert.equal((await row()).last_ip, '192.0.2.3');
    });

    test('revokes one, then all', async () => {
      const items = await listAppPasswords(t.app, userId);
      const first = items[0]!;
      assert.deepEqual(await revokeAppPassword(t.app, userId, first.uuid), first);
      await assert.rejects(
        revokeAppPassword(t.app, userId, first.uuid),
        (err: unknown) =>
          err instanceof RestError && err.code === 'rest_application_password_not_found' && err.status === 404,
      );
      assert.equal(await revokeAllAppPasswords(t.app, userId), items.length - 1);
      assert.deepEqual(await listAppPasswords(t.app, userId), []);
    });
  });
}
