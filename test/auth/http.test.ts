// Authentication and per-role permissions over HTTP (Fastify inject), with a probe namespace
// holding one route per permission class of the conventions.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/server/http.ts';
import { cap, endpoint, LOGGED_IN, namespace, PUBLIC, route } from '../../src/rest/define.ts';
import type { Permission } from '../../src/rest/types.ts';
import { ROLES, type Role } from '../../src/auth/roles.ts';
import { chunkPassword, revokeAppPassword } from '../../src/auth/app-passwords.ts';
import { MAX_FAILURES } from '../../src/auth/throttle.ts';
import { dbTargets, createTestApp, type TestApp } from '../support/db.ts';
import { basicAuth, userWithRole } from '../support/http.ts';

const probe = (permission: Permission) =>
  endpoint('GET', { permission, handler: (req) => ({ user: req.user?.login ?? null, uuid: req.appPasswordUuid }) });

/** Permission classes of the conventions → the roles that pass (anonymous passes only public). */
const CLASSES: { path: string; permission: Permission; roles: readonly Role[] }[] = [
  { path: 'public', permission: PUBLIC, roles: ROLES },
  { path: 'logged-in', permission: LOGGED_IN, roles: ROLES },
  { path: 'edit-posts', permission: cap('edit_posts'), roles: ['administrator', 'editor', 'author', 'contributor'] },
  { path: 'list-users', permission: cap('list_users'), roles: ['administrator'] },
  { path: 'edit-pages', permission: cap('edit_pages'), roles: ['administrator', 'editor'] },
  { path: 'manage-options', permission: cap('manage_options'), roles: ['administrator'] },
  { path: 'manage-translations', permission: cap('manage_translations'), roles: ['administrator'] },
  { path: 'translate', permission: cap('translate'), roles: ['administrator', 'translator'] },
];

const probeNamespace = namespace(
  'probe/v1',
  CLASSES.map((c) => route(`/${c.path}`, [probe(c.permission)])),
);

for (const target of dbTargets()) {
  describe(`authentication over HTTP (${target.name})`, () => {
    let t: TestApp;
    let server: FastifyInstance;
    const users = new Map<Role, Awaited<ReturnType<typeof userWithRole>>>();
    before(async () => {
      t = await createTestApp(target);
      server = await buildServer(t.app, { namespaces: [probeNamespace] });
      for (const role of ROLES) users.set(role, await userWithRole(t.app, role));
    });
    after(async () => {
      await server.close();
      await t.close();
    });

    const get = (path: string, authorization?: string, remoteAddress = '192.0.2.50') =>
      server.inject({
        method: 'GET',
        url: `/en/cms-json/probe/v1/${path}`,
        headers: authorization ? { authorization } : {},
        remoteAddress,
      });

    test('good credentials run the request as the user, raw or chunked', async () => {
      const editor = users.get('editor')!;
      for (const password of [editor.password, chunkPassword(editor.password)]) {
        const res = await get('logged-in', basicAuth(editor.user.login, password));
        assert.equal(res.statusCode, 200, res.body);
        assert.deepEqual(res.json(), { user: editor.user.login, uuid: editor.uuid });
      }
    });

    test('bad credentials are refused before routing, even on public and unknown routes', async () => {
      const editor = users.get('editor')!;
      const cases: [string, string, string][] = [
        [
          basicAuth('nobody', 'x'),
          'invalid_username',
          '<strong>Error:</strong> Unknown username. Check again or try your email address.',
        ],
        [
          basicAuth('nobody@example.com', 'x'),
          'invalid_email',
          '<strong>Error:</strong> Unknown email address. Check again or try your username.',
        ],
        [
          basicAuth(editor.user.login, 'wrong password'),
          'incorrect_password',
          'The provided password is an invalid application password.',
        ],
      ];
      for (const [authorization, code, message] of cases) {
        for (const path of ['public', 'no-such-route']) {
          const res = await get(path, authorization, '192.0.2.60');
          assert.equal(res.statusCode, 401, `${code} ${path}`);
          assert.deepEqual(res.json(), { code, message, data: { status: 401 } });
        }
      }
    });

    test('each permission class admits exactly its roles: anonymous 401, others 403', async () => {
      for (const c of CLASSES) {
        const anon = await get(c.path);
        assert.equal(anon.statusCode, c.permission.kind === 'public' ? 200 : 401, `anonymous ${c.path}`);
        if (anon.statusCode === 401) assert.equal(anon.json().code, 'rest_forbidden');
        for (const role of ROLES) {
          const u = users.get(role)!;
          const res = await get(c.path, u.authorization);
          const allowed = c.roles.includes(role);
          assert.equal(res.statusCode, allowed ? 200 : 403, `${role} ${c.path}`);
          if (allowed) assert.equal(res.json().user, u.user.login);
          else assert.equal(res.json().code, 'rest_forbidden');
        }
      }
    });

    test('a revoked password is refused on the next request', async () => {
      const subscriber = await userWithRole(t.app, 'subscriber');
      assert.equal((await get('logged-in', subscriber.authorization)).statusCode, 200);
      await revokeAppPassword(t.app, subscriber.user.id, subscriber.uuid);
      const res = await get('logged-in', subscriber.authorization);
      assert.equal(res.statusCode, 401);
      assert.equal(res.json().code, 'incorrect_password');
    });

    test('repeated failures from one address → 429 with Retry-After', async () => {
      const address = '192.0.2.77';
      for (let i = 0; i < MAX_FAILURES; i++)
        assert.equal((await get('public', basicAuth('nobody', 'x'), address)).statusCode, 401);
      const res = await get('public', basicAuth('nobody', 'x'), address);
      assert.equal(res.statusCode, 429);
      assert.equal(res.json().code, 'too_many_login_attempts');
      assert.ok(Number(res.headers['retry-after']) >= 1, String(res.headers['retry-after']));
      assert.equal((await get('public', undefined, address)).statusCode, 200, 'anonymous requests still pass');
      assert.equal(
        (await get('public', basicAuth('nobody', 'x'), '192.0.2.78')).statusCode,
        401,
        'other addresses are not affected',
      );
    });
  });
}
