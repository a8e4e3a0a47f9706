// The login throttle (src/auth/throttle.ts) counts every attempt before its password is checked,
// in the database: of N concurrent wrong attempts from one address at most MAX_FAILURES are
// checked, on the web login and on HTTP Basic authentication alike, and app instances sharing a
// database share the limit. Refused attempts reach the activity log, one event with their count
// per address and window; a successful login gives its attempt back. Runs on every database.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import type { FastifyInstance } from 'fastify';
import { openApp } from '../../src/app.ts';
import type { AppServices } from '../../src/site/services.ts';
import { credentialCache } from '../../src/auth/credential-cache.ts';
import { MAX_FAILURES, WINDOW_MS, reserveLoginAttempt, sweepLoginThrottle } from '../../src/auth/throttle.ts';
import { createAppPassword } from '../../src/auth/app-passwords.ts';
import { buildServer } from '../../src/server/http.ts';
import { dbTargets, type TestApp } from '../support/db.ts';
import { basicAuth } from '../support/http.ts';
import { WebClient, createWebTestApp, csrfOf, makeUser } from '../web/support.ts';

const PASSWORD = 'correct horse battery staple';
const N = 50;

function tally(statuses: number[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const s of statuses) out[s] = (out[s] ?? 0) + 1;
  return out;
}

for (const target of dbTargets()) {
  describe(`login throttle (${target.name})`, () => {
    let t: TestApp;
    let server: FastifyInstance;
    /** A second app instance on the same database, as another server process would be. */
    let other: AppServices;
    let otherServer: FastifyInstance;
    let right: string;
    let userId: number;
    before(async () => {
      t = await createWebTestApp(target);
      server = await buildServer(t.app);
      other = await openApp(t.config, { pgSchema: t.pgSchema, poolSize: 4, logger: pino({ level: 'silent' }) });
      otherServer = await buildServer(other);
      const user = await makeUser(t.app, 'victim', PASSWORD);
      userId = user.id;
      right = basicAuth('victim', (await createAppPassword(t.app, user.id, { name: 'tests' })).password);
    });
    after(async () => {
      await otherServer.close();
      await other.close();
      await server.close();
      await t.close();
    });

    const rest = (s: FastifyInstance, authorization: string, remoteAddress: string) =>
      s.inject({ method: 'GET', url: '/en/cms-json/', headers: { authorization }, remoteAddress });
    /** The right password, not verified moments ago (cached credentials pass even while throttled). */
    const uncachedRight = (): string => {
      credentialCache(t.app).forgetUser(userId);
      credentialCache(other).forgetUser(userId);
      return right;
    };

    async function failedLoginEvents(sinceId: number): Promise<number> {
      const rows = await t.app.db
        .selectFrom('history_events')
        .select('id')
        .where('id', '>', sinceId)
        .where('message_key', 'in', ['user_login_failed', 'user_unknown_login_failed'])
        .execute();
      return rows.length;
    }
    async function newestEventId(): Promise<number> {
      const row = await t.app.db
        .selectFrom('history_events')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirst();
      return Number(row?.id ?? 0);
    }

    test(`Basic authentication: ${N} concurrent wrong attempts from one address check ${MAX_FAILURES}; then the right password is refused`, async () => {
      const ip = '198.51.100.1';
      const since = await newestEventId();
      const statuses = (
        await Promise.all(Array.from({ length: N }, (_, i) => rest(server, basicAuth('victim', `wrong-${i}`), ip)))
      ).map((r) => r.statusCode);
      assert.deepEqual(tally(statuses), { 401: MAX_FAILURES, 429: N - MAX_FAILURES });
      assert.equal(await failedLoginEvents(since), MAX_FAILURES, 'every checked failure is logged');
      const last = await rest(server, uncachedRight(), ip);
      assert.equal(last.statusCode, 429, last.body);
      assert.match(String(last.headers['retry-after']), /^\d+$/);
      assert.equal((await rest(server, right, '198.51.100.2')).statusCode, 200, 'another address is not affected');
    });

    test(`web login: ${N} concurrent wrong posts sharing one login nonce check ${MAX_FAILURES}; then the right password is refused`, async () => {
      const c = new WebClient(server, '198.51.100.3');
      const token = csrfOf((await c.get('/cms-login.php')).body);
      const since = await newestEventId();
      const results = await Promise.all(
        Array.from({ length: N }, (_, i) =>
          c.post('/cms-login.php', { _csrf: token, log: 'victim', pwd: `wrong-${i}` }),
        ),
      );
      assert.deepEqual(tally(results.map((r) => r.status)), { 200: MAX_FAILURES, 429: N - MAX_FAILURES });
      assert.ok(
        results.filter((r) => r.status === 200).every((r) => /Unknown username or incorrect password/.test(r.body)),
      );
      assert.equal(await failedLoginEvents(since), MAX_FAILURES);
      const last = await c.post('/cms-login.php', { _csrf: token, log: 'victim', pwd: PASSWORD });
      assert.equal(last.status, 429);
      assert.ok(!last.setCookies.some((s) => s.startsWith('cms_session=')), 'no session');
    });

    test('the web login and Basic authentication share one count per address', async () => {
      const ip = '198.51.100.4';
      const c = new WebClient(server, ip);
      const token = csrfOf((await c.get('/cms-login.php')).body);
      for (let i = 0; i < MAX_FAILURES / 2; i++)
        assert.equal((await c.post('/cms-login.php', { _csrf: token, log: 'victim', pwd: `wrong-${i}` })).status, 200);
      for (let i = MAX_FAILURES / 2; i < MAX_FAILURES; i++)
        assert.equal((await rest(server, basicAuth('victim', `wrong-${i}`), ip)).statusCode, 401);
      assert.equal((await c.post('/cms-login.php', { _csrf: token, log: 'victim', pwd: PASSWORD })).status, 429);
    });

    test('two app instances on one database share the limit, one after another and concurrently', async () => {
      const ip = '198.51.100.5';
      for (let i = 0; i < MAX_FAILURES; i++) {
        const res = await rest(i % 2 ? otherServer : server, basicAuth('victim', `wrong-${i}`), ip);
        assert.equal(res.statusCode, 401, `attempt ${i + 1}`);
      }
      assert.equal((await rest(server, uncachedRight(), ip)).statusCode, 429);
      assert.equal((await rest(otherServer, uncachedRight(), ip)).statusCode, 429);

      const burst = '198.51.100.6';
      const statuses = (
        await Promise.all(
          Array.from({ length: N }, (_, i) =>
            rest(i % 2 ? otherServer : server, basicAuth('victim', `wrong-${i}`), burst),
          ),
        )
      ).map((r) => r.statusCode);
      assert.deepEqual(tally(statuses), { 401: MAX_FAILURES, 429: N - MAX_FAILURES });
    });

    test('a successful login gives its attempt back', async () => {
      const ip = '198.51.100.7';
      for (let i = 0; i < 3 * MAX_FAILURES; i++)
        assert.equal((await rest(server, uncachedRight(), ip)).statusCode, 200, `login ${i + 1}`);
      for (let i = 0; i < MAX_FAILURES - 1; i++)
        assert.equal((await rest(server, basicAuth('victim', `wrong-${i}`), ip)).statusCode, 401);
      assert.equal(
        (await rest(server, uncachedRight(), ip)).statusCode,
        200,
        'the last attempt under the limit is still let through',
      );
    });

    test(`${N} requests at once with good credentials not cached share one verification: none is throttled`, async () => {
      const statuses = (
        await Promise.all(
          Array.from({ length: N }, (_, i) => rest(server, i ? right : uncachedRight(), '198.51.100.10')),
        )
      ).map((r) => r.statusCode);
      assert.deepEqual(tally(statuses), { 200: N });
    });

    test('a window opens with the first attempt and lasts WINDOW_MS', async () => {
      const ip = '198.51.100.8';
      const start = 1_000_000;
      for (let i = 0; i < MAX_FAILURES; i++)
        assert.equal((await reserveLoginAttempt(t.app.db, ip, start + i)).granted, true);
      assert.deepEqual(await reserveLoginAttempt(t.app.db, ip, start + 1000), {
        granted: false,
        retryAfter: WINDOW_MS / 1000 - 1,
      });
      assert.deepEqual(await reserveLoginAttempt(t.app.db, ip, start + WINDOW_MS - 1), {
        granted: false,
        retryAfter: 1,
      });
      assert.equal((await reserveLoginAttempt(t.app.db, ip, start + WINDOW_MS)).granted, true, 'a new window');
    });

    test('refused attempts reach the activity log once the window is over: one event per address with their count, logged once', async () => {
      const ip = '198.51.100.9';
      const statuses = (
        await Promise.all(
          Array.from({ length: N }, (_, i) =>
            rest(i % 2 ? otherServer : server, basicAuth('victim', `wrong-${i}`), ip),
          ),
        )
      ).map((r) => r.statusCode);
      assert.equal(statuses.filter((s) => s === 429).length, N - MAX_FAILURES);
      assert.deepEqual(
        (await sweepLoginThrottle(t.app)).filter((l) => l.ip === ip),
        [],
        'nothing while the window lasts',
      );

      const since = await newestEventId();
      const later = Date.now() + WINDOW_MS;
      // Both instances sweep at once (every window of this file is over by then): each count is
      // claimed by exactly one of them, and each claimed count is one event.
      const swept = (await Promise.all([sweepLoginThrottle(t.app, later), sweepLoginThrottle(other, later)])).flat();
      assert.deepEqual(
        swept.filter((l) => l.ip === ip),
        [{ ip, refused: N - MAX_FAILURES }],
      );
      assert.equal(new Set(swept.map((l) => l.ip)).size, swept.length, 'no address twice');
      const events = await t.app.db
        .selectFrom('history_events as e')
        .innerJoin('history_event_contexts as x', 'x.event_id', 'e.id')
        .select(['e.level', 'x.context'])
        .where('e.id', '>', since)
        .where('e.message_key', '=', 'user_login_attempts_refused')
        .execute();
      assert.equal(events.length, swept.length);
      assert.ok(events.every((e) => e.level === 'warning'));
      const counted = events.reduce((sum, e) => sum + Number(JSON.parse(e.context).refused_attempts), 0);
      assert.equal(
        counted,
        swept.reduce((sum, l) => sum + l.refused, 0),
      );
      assert.equal((await sweepLoginThrottle(t.app, later)).length, 0, 'logged once');
      assert.equal(
        (await t.app.db.selectFrom('login_throttle').select('ip').where('ip', '=', ip).execute()).length,
        0,
        'the row is gone',
      );
    });
  });
}
