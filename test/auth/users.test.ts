import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { dbTargets, createTestApp, type TestApp } from '../support/db.ts';
import { createUser, deleteUser, setUserRole, setUserStatus } from '../../src/auth/users.ts';
import { findUserByEmail, findUserById, findUserByLogin, listUsers, toAuthUser } from '../../src/auth/user-rows.ts';
import { verifyUserPassword } from '../../src/auth/login-password.ts';
import { hashPassword, verifyPassword } from '../../src/auth/passwords.ts';
import { createAppPassword, listAppPasswords } from '../../src/auth/app-passwords.ts';
import type { ActivityEntry, ActivityOrigin } from '../../src/site/activity.ts';
import { RestError } from '../../src/rest/types.ts';

function rejectsWith(code: string, status = 400) {
  return (err: unknown) => {
    assert.ok(err instanceof RestError, String(err));
    assert.equal(err.code, code);
    assert.equal(err.status, status);
    return true;
  };
}

describe('password hashing', () => {
  test('scrypt hashes are salted, self-describing and verify', async () => {
    const a = await hashPassword('correct horse');
    const b = await hashPassword('correct horse');
    assert.match(a, /^\$scrypt\$N=16384,r=8,p=1\$[A-Za-z0-9_-]+\$[A-Za-z0-9_-]{43}$/);
    assert.notEqual(a, b);
    assert.equal(await verifyPassword('correct horse', a), true);
    assert.equal(await verifyPassword('correct horsE', a), false);
    assert.equal(await verifyPassword('correct horse', 'plain text'), false);
  });
});

for (const target of dbTargets()) {
  describe(`users (${target.name})`, () => {
    let t: TestApp;
    const logged: { entry: ActivityEntry; origin: ActivityOrigin }[] = [];
    before(async () => {
      t = await createTestApp(target);
      t.app.activity = { log: async (entry, origin) => logged.push({ entry, origin }) };
    });
    after(() => t.close());

    test('creates a user with defaults and finds it by id, login and e-mail (any case)', async () => {
      const row = await createUser(t.app, { login: 'alice', email: 'Alice@Example.com', role: 'editor' });
      assert.equal(row.login, 'alice');
      assert.equal(row.display_name, 'alice');
      assert.equal(row.status, 'active');
      assert.equal(row.password_hash, null);
      assert.match(row.created_at, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      assert.equal((await findUserById(t.app, row.id))?.login, 'alice');
      assert.equal((await findUserByLogin(t.app, 'ALICE'))?.id, row.id);
      assert.equal((await findUserByEmail(t.app, 'alice@example.com'))?.id, row.id);
      assert.equal(await findUserByLogin(t.app, 'nobody'), undefined);
    });

    test('stores only a scrypt hash of an interactive password', async () => {
      const row = await createUser(t.app, {
        login: 'bob',
        email: 'bob@example.com',
        role: 'author',
        displayName: 'Bob B.',
        password: 's3cret!',
      });
      assert.equal(row.display_name, 'Bob B.');
      assert.ok(row.password_hash?.startsWith('$scrypt$'));
      assert.ok(!row.password_hash?.includes('s3cret'));
      assert.equal(await verifyUserPassword(row, 's3cret!'), true);
      assert.equal(await verifyUserPassword(row, 's3cret'), false);
    });

    test('rejects bad input with clear errors and writes nothing', async () => {
      const before = (await listUsers(t.app)).length;
      await assert.rejects(
        createUser(t.app, { login: '', email: 'x@example.com', role: 'editor' }),
        rejectsWith('empty_user_login'),
      );
      await assert.rejects(
        createUser(t.app, { login: 'a b', email: 'x@example.com', role: 'editor' }),
        rejectsWith('invalid_username'),
      );
      await assert.rejects(
        createUser(t.app, { login: 'a:b', email: 'x@example.com', role: 'editor' }),
        rejectsWith('invalid_username'),
      );
      await assert.rejects(
        createUser(t.app, { login: 'x'.repeat(61), email: 'x@example.com', role: 'editor' }),
        rejectsWith('user_login_too_long'),
      );
      await assert.rejects(
        createUser(t.app, { login: 'carol', email: 'not-an-email', role: 'editor' }),
        rejectsWith('invalid_email'),
      );
      // The format's rule lets a newline before @ through (PHP's $); stored addresses never hold one.
      await assert.rejects(
        createUser(t.app, { login: 'carol', email: 'carol\n@example.com', role: 'editor' }),
        rejectsWith('invalid_email'),
      );
      await assert.rejects(
        createUser(t.app, { login: 'carol', email: 'carol@example.com', role: 'king' }),
        (err: unknown) => {
          assert.ok(err instanceof RestError && err.code === 'invalid_role');
          assert.match(err.message, /Unknown role "king"; roles are: administrator, editor/);
          return true;
        },
      );
      await assert.rejects(
        createUser(t.app, { login: 'Alice', email: 'other@example.com', role: 'editor' }),
        (err: unknown) => {
          assert.ok(err instanceof RestError && err.code === 'existing_user_login');
          assert.equal(err.message, 'The login "Alice" is already taken.');
          return true;
        },
      );
      await assert.rejects(
        createUser(t.app, { login: 'carol', email: 'ALICE@example.com', role: 'editor' }),
        rejectsWith('existing_user_email'),
      );
      assert.equal((await listUsers(t.app)).length, before);
    });

    test('the database itself refuses logins differing only in case', async () => {
      await assert.rejects(
        t.app.db
          .insertInto('users')
          .values({
            login: 'ALICE',
            email: 'z@example.com',
            display_name: 'x',
            role: 'editor',
            password_hash: null,
            status: 'active',
            created_at: '2026-01-01 00:00:00',
          })
          .execute(),
      );
    });

    test('toAuthUser maps role capabilities', async () => {
      const editor = toAuthUser((await findUserByLogin(t.app, 'alice'))!);
      assert.equal(editor.role, 'editor');
      assert.equal(editor.can('edit_pages'), true);
      assert.equal(editor.can('manage_options'), false);
      assert.equal(editor.displayName, 'alice');
    });

    test('changes role and status, logging with the given origin', async () => {
      logged.length = 0;
      const alice = (await findUserByLogin(t.app, 'alice'))!;
      const origin: ActivityOrigin = { user: null, ip: '', initiator: 'cms_cli' };
      const promoted = await setUserRole(t.app, alice.id, 'administrator', origin);
      assert.equal(promoted.role, 'administrator');
      assert.equal(toAuthUser(promoted).can('manage_options'), true);
      await assert.rejects(setUserRole(t.app, alice.id, 'king'), rejectsWith('invalid_role'));
      await assert.rejects(setUserRole(t.app, 999_999, 'editor'), rejectsWith('rest_user_invalid_id', 404));
      assert.equal((await setUserStatus(t.app, alice.id, 'disabled', origin)).status, 'disabled');
      assert.equal((await setUserStatus(t.app, alice.id, 'active')).status, 'active');
      assert.deepEqual(
        logged.map((l) => [l.entry.logger, l.entry.messageKey, l.origin.initiator]),
        [
          ['SimpleUserLogger', 'user_role_updated', 'cms_cli'],
          ['SimpleUserLogger', 'user_disabled', 'cms_cli'],
        ],
      );
      assert.deepEqual(logged[0]!.entry.context, {
        edited_user_id: alice.id,
        edited_user_login: 'alice',
        new_role: 'administrator',
        old_role: 'editor',
      });
    });

    test('lists users in id order', async () => {
      assert.deepEqual(
        (await listUsers(t.app)).map((u) => u.login),
        ['alice', 'bob'],
      );
    });

    test('deletes a user with their application passwords', async () => {
      const bob = (await findUserByLogin(t.app, 'bob'))!;
      await createAppPassword(t.app, bob.id, { name: 'phone' });
      const deleted = await deleteUser(t.app, bob.id);
      assert.equal(deleted.login, 'bob');
      assert.equal(await findUserById(t.app, bob.id), undefined);
      assert.equal(
        (await t.app.db.selectFrom('app_passwords').select('uuid').where('user_id', '=', bob.id).execute()).length,
        0,
      );
      await assert.rejects(listAppPasswords(t.app, bob.id), rejectsWith('rest_user_invalid_id', 404));
      await assert.rejects(deleteUser(t.app, bob.id), rejectsWith('rest_user_invalid_id', 404));
    });
  });
}
