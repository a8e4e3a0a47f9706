import { test, describe, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { dbTargets, createTestApp, type TestApp } from '../support/db.ts';
import { basicAuth, userWithRole } from '../support/http.ts';
import { authenticateRequest, parseBasicAuth } from '../../src/auth/authenticate.ts';
import {
  chunkPassword,
  createAppPassword,
  getAppPassword,
  revokeAllAppPasswords,
  revokeAppPassword,
} from '../../src/auth/app-passwords.ts';
import { CACHE_TTL_MS, CredentialCache, credentialCache, FRESH_MS } from '../../src/auth/credential-cache.ts';
import { MAX_FAILURES } from '../../src/auth/throttle.ts';
import { createUser, deleteUser, setUserRole, setUserStatus } from '../../src/auth/users.ts';
import { toAuthUser } from '../../src/auth/user-rows.ts';
import { RestError } from '../../src/rest/types.ts';
import type { ActivityEntry, ActivityOrigin } from '../../src/site/activity.ts';

function isError(code: string, status: number, message?: string) {
  return (err: unknown) => {
    assert.ok(err instanceof RestError, String(err));
    assert.equal(err.code, code);
    assert.equal(err.status, status);
    if (message) assert.equal(err.message, message);
    return true;
  };
}

describe('Basic credentials parsing', () => {
  test('accepts the reference forms', () => {
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    assert.deepEqual(parseBasicAuth(`Basic ${b64('ann:pw')}`), { username: 'ann', password: 'pw' });
    assert.deepEqual(parseBasicAuth(`bAsIc   ${b64('ann:pw:with:colons')}`), {
      username: 'ann',
      password: 'pw:with:colons',
    });
    assert.deepEqual(parseBasicAuth(`Basic ${b64(':')}`), { username: '', password: '' });
  });
  test('anything else is no credentials', () => {
    assert.equal(parseBasicAuth(undefined), null);
    assert.equal(parseBasicAuth(''), null);
    assert.equal(parseBasicAuth('Bearer abc'), null);
    assert.equal(parseBasicAuth(`Basic ${Buffer.from('no colon').toString('base64')}`), null);
    assert.equal(parseBasicAuth('Basic ab$cd'), null);
    assert.equal(parseBasicAuth('Basic abc==='), null);
  });
});

describe('credential cache (unit)', () => {
  const user = toAuthUser({
    id: 7,
    login: 'u',
    email: 'u@example.com',
    display_name: 'u',
    role: 'editor',
    password_hash: null,
    status: 'active',
    created_at: '',
  });

  test('cache entries expire and are dropped on invalidation', () => {
    const cache = new CredentialCache(async () => 0);
    cache.set('Basic x', user, 'uuid-1', cache.generation, 1000);
    assert.equal(cache.get('Basic x', 1000 + CACHE_TTL_MS - 1)?.appPasswordUuid, 'uuid-1');
    assert.equal(cache.get('Basic x', 1000 + CACHE_TTL_MS), null);
    assert.ok(CACHE_TTL_MS <= 30_000);
    cache.set('Basic x', user, 'uuid-1', cache.generation);
    cache.forgetAppPassword('uuid-1');
    assert.equal(cache.get('Basic x'), null);
    const stale = cache.generation;
    cache.forgetUser(99);
    cache.set('Basic x', user, 'uuid-1', stale);
    assert.equal(cache.get('Basic x'), null, 'a verification older than an invalidation is not cached');
  });

  test('the shared counter is read again after FRESH_MS; when it moved, every entry goes', async () => {
    let counter = 5;
    let reads = 0;
    const cache = new CredentialCache(async () => {
      reads++;
      return counter;
    });
    assert.ok(cache.stale(), 'never read: stale');
    cache.set('Basic x', user, 'uuid-1', cache.generation);
    await cache.sync();
    assert.equal(cache.get('Basic x'), null, 'entries cached before the first read are dropped');
    cache.set('Basic x', user, 'uuid-1', cache.generation);
    await Promise.all([cache.sync(), cache.sync()]);
    assert.equal(reads, 2, 'concurrent syncs share one read');
    assert.equal(cache.get('Basic x')?.appPasswordUuid, 'uuid-1', 'unchanged counter: entries stay');
    assert.equal(cache.stale(), false);
    assert.equal(cache.stale(Date.now() + FRESH_MS), true);
    const before = cache.generation;
    counter++;
    await cache.sync();
    assert.equal(cache.get('Basic x'), null, 'the counter moved: dropped');
    assert.notEqual(cache.generation, before, 'verifications under way are not cached');
  });
});

for (const target of dbTargets()) {
  describe(`authenticateRequest (${target.name})`, () => {
    let t: TestApp;
    const logged: { entry: ActivityEntry; origin: ActivityOrigin }[] = [];
    let ipCounter = 0;
    let ip: string;
    before(async () => {
      t = await createTestApp(target);
      t.app.activity = { log: async (entry, origin) => logged.push({ entry, origin }) };
    });
    after(() => t.close());
    // A fresh client address per test keeps the throttle out of unrelated tests.
    beforeEach(() => {
      ip = `198.51.100.${++ipCounter}`;
      logged.length = 0;
    });

    test('no credentials is anonymous', async () => {
      assert.equal(await authenticateRequest(t.app, undefined, ip), null);
      assert.equal(await authenticateRequest(t.app, 'Bearer token', ip), null);
    });

    test('login with raw or chunked password, by login or e-mail', async () => {
      const { user, password, uuid } = await userWithRole(t.app, 'editor', 'erin');
      for (const header of [
        basicAuth('erin', password),
        basicAuth('erin', chunkPassword(password)),
        basicAuth('erin@example.test', password),
        basicAuth('ERIN', password),
      ]) {
        const auth = await authenticateRequest(t.app, header, ip);
        assert.equal(auth?.user.id, user.id);
        assert.equal(auth?.user.can('edit_pages'), true);
        assert.equal(auth?.appPasswordUuid, uuid);
      }
      const item = await getAppPassword(t.app, user.id, uuid);
      assert.equal(item?.last_ip, ip);
      assert.ok(item?.last_used);
      // One "login" event for the first use of the day, none for later requests.
      assert.deepEqual(
        logged.map((l) => [l.entry.messageKey, l.origin.user?.login, l.origin.ip, l.origin.rest]),
        [['user_logged_in', 'erin', ip, true]],
      );
    });

    test('unknown users: invalid_username / invalid_email with the reference messages', async () => {
      await assert.rejects(
        authenticateRequest(t.app, basicAuth('ghost', 'abcd'), ip),
        isError(
          'invalid_username',
          401,
          '<strong>Error:</strong> Unknown username. Check again or try your email address.',
        ),
      );
      await assert.rejects(
        authenticateRequest(t.app, basicAuth('ghost@example.com', 'abcd'), ip),
        isError(
          'invalid_email',
          401,
          '<strong>Error:</strong> Unknown email address. Check again or try your username.',
        ),
      );
      assert.equal(logged.length, 2);
      assert.deepEqual(logged[0]!.entry, {
        logger: 'SimpleUserLogger',
        messageKey: 'user_unknown_login_failed',
        level: 'warning',
        context: { failed_username: 'ghost', _occasionsID: 'SimpleUserLogger/failed_user_login' },
      });
      assert.deepEqual(logged[0]!.origin, { user: null, ip, rest: true, initiator: 'web_user' });
    });

    test('wrong password: incorrect_password, logged without the password', async () => {
      const { user, password } = await userWithRole(t.app, 'author', 'frank');
      const wrong = password.slice(0, 23) + (password[23] === 'x' ? 'y' : 'x');
      await assert.rejects(
        authenticateRequest(t.app, basicAuth('frank', wrong), ip),
        isError('incorrect_password', 401, 'The provided password is an invalid application password.'),
      );
      await assert.rejects(authenticateRequest(t.app, basicAuth('frank', ''), ip), isError('incorrect_password', 401));
      assert.equal(logged.length, 2);
      assert.deepEqual(logged[0]!.entry.context, {
        login_id: user.id,
        login_email: 'frank@example.test',
        login: 'frank',
        _occasionsID: 'SimpleUserLogger/failed_user_login',
      });
      assert.equal(logged[0]!.entry.level, 'warning');
      assert.ok(!JSON.stringify(logged).includes(wrong));
    });

    test('a user without application passwords cannot log in', async () => {
      await createUser(t.app, {
        login: 'nopass',
        email: 'nopass@example.com',
        role: 'editor',
        password: 'interactive-only',
      });
      await assert.rejects(
        authenticateRequest(t.app, basicAuth('nopass', 'interactive-only'), ip),
        isError('incorrect_password', 401),
      );
    });

    test('disabled users are refused, even with cached credentials; enabling restores access', async () => {
      const { user, authorization } = await userWithRole(t.app, 'editor');
      assert.ok(await authenticateRequest(t.app, authorization, ip));
      await setUserStatus(t.app, user.id, 'disabled');
      await assert.rejects(
        authenticateRequest(t.app, authorization, ip),
        isError('application_passwords_disabled_for_user', 401),
      );
      await setUserStatus(t.app, user.id, 'active');
      assert.equal((await authenticateRequest(t.app, authorization, ip))?.user.id, user.id);
    });

    test('revoked passwords stop working at once, though they were cached', async () => {
      const { user, authorization, uuid } = await userWithRole(t.app, 'subscriber');
      const second = await createAppPassword(t.app, user.id, { name: 'second' });
      const secondHeader = basicAuth(user.login, second.password);
      assert.ok(await authenticateRequest(t.app, authorization, ip));
      assert.ok(await authenticateRequest(t.app, secondHeader, ip));
      await revokeAppPassword(t.app, user.id, uuid);
      await assert.rejects(authenticateRequest(t.app, authorization, ip), isError('incorrect_password', 401));
      assert.equal((await authenticateRequest(t.app, secondHeader, ip))?.appPasswordUuid, second.uuid);
      await revokeAllAppPasswords(t.app, user.id);
      await assert.rejects(authenticateRequest(t.app, secondHeader, ip), isError('incorrect_password', 401));
    });

    test('role changes apply at once; deleted users are unknown', async () => {
      const { user, authorization } = await userWithRole(t.app, 'subscriber');
      assert.equal((await authenticateRequest(t.app, authorization, ip))?.user.can('manage_options'), false);
      await setUserRole(t.app, user.id, 'administrator');
      assert.equal((await authenticateRequest(t.app, authorization, ip))?.user.can('manage_options'), true);
      await deleteUser(t.app, user.id);
      await assert.rejects(authenticateRequest(t.app, authorization, ip), isError('invalid_username', 401));
    });

    test(`${MAX_FAILURES} failures within a minute from one IP → 429 with Retry-After`, async () => {
      const { authorization } = await userWithRole(t.app, 'editor', 'gina');
      // Cached after the process read the shared counter (changes of earlier tests would empty the cache).
      await credentialCache(t.app).sync();
      assert.ok(await authenticateRequest(t.app, authorization, ip), 'good credentials, now cached');
      for (let i = 0; i < MAX_FAILURES; i++) {
        await assert.rejects(
          authenticateRequest(t.app, basicAuth('gina', `wrong${i}`), ip),
          isError('incorrect_password', 401),
        );
      }
      const failuresLogged = logged.length;
      await assert.rejects(authenticateRequest(t.app, basicAuth('gina', 'wrong-again'), ip), (err: unknown) => {
        assert.ok(err instanceof RestError);
        assert.equal(err.code, 'too_many_login_attempts');
        assert.equal(err.status, 429);
        assert.match(err.message, /^Too many failed login attempts from your address\. Try again in \d+ seconds\.$/);
        const wait = Number(err.headers['Retry-After']);
        assert.ok(wait >= 1 && wait <= 60, String(wait));
        assert.equal(err.data.retry_after, wait);
        return true;
      });
      await assert.rejects(
        authenticateRequest(t.app, basicAuth('ghost', 'x'), ip),
        isError('too_many_login_attempts', 429),
      );
      assert.equal(logged.length, failuresLogged, 'throttled attempts are not checked, so not logged');
      assert.ok(
        await authenticateRequest(t.app, authorization, ip),
        'credentials verified before the lockout still pass',
      );
      assert.equal(await authenticateRequest(t.app, undefined, ip), null, 'anonymous requests are not throttled');
      await assert.rejects(
        authenticateRequest(t.app, basicAuth('gina', 'wrong'), '203.0.113.9'),
        isError('incorrect_password', 401),
      );
    });
  });
}
