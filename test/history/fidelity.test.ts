// history/v1 as the original plugin's own screens read it (issue 27): the details a client
// written for the original sees, one test per difference found side by side with it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { userWithRole } from '../support/http.ts';
import { buildServer } from '../../src/server/http.ts';
import type { Role } from '../../src/auth/roles.ts';
import type { AuthUser } from '../../src/auth/types.ts';

const BASE = '/en/cms-json/history/v1';

for (const target of dbTargets()) {
  describe(`history/v1 as the original's screens read it (${target.name})`, () => {
    let t: TestApp;
    let server: FastifyInstance;
    const auth: Partial<Record<Role, string>> = {};
    const users: Partial<Record<Role, AuthUser>> = {};

    before(async () => {
      t = await createTestApp(target);
      server = await buildServer(t.app);
      for (const role of ['administrator', 'editor'] as Role[]) {
        const u = await userWithRole(t.app, role);
        auth[role] = u.authorization;
        users[role] = u.user;
      }
    });
    after(async () => {
      await server.close();
      await t.close();
    });

    const call = async (method: 'GET' | 'POST' | 'OPTIONS', url: string, role: Role | null, payload?: Record<string, unknown> | string) => {
      const headers: Record<string, string> = {};
      if (role) headers.authorization = auth[role]!;
      if (payload !== undefined) headers['content-type'] = 'application/json';
      const res = await server.inject({ method, url: BASE + url, headers, ...(payload !== undefined ? { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) } : {}) });
      const body = res.headers['content-type']?.toString().includes('json') ? res.json() : res.body;
      return { status: res.statusCode, body, headers: res.headers };
    };

    test('1. search-user answers each user with a lowercase id besides ID, both strings', async () => {
      const r = await call('GET', `/search-user?q=${users.editor!.login}`, 'administrator');
      assert.equal(r.status, 200);
      assert.deepEqual(r.body, [
        { ID: String(users.editor!.id), user_login: users.editor!.login, user_nicename: users.editor!.login, user_email: users.editor!.email, display_name: users.editor!.displayName, id: String(users.editor!.id) },
      ]);
    });

    test('2. search-options describes the message types of every logger that has messages, in the request language', async () => {
      const en = await call('GET', '/search-options', 'administrator');
      const byslug = new Map((en.body.loggers as { slug: string; search_data: unknown }[]).map((l) => [l.slug, l.search_data]));
      assert.deepEqual(byslug.get('CustomEntryLogger'), {
        search: { label: 'Custom entries', options: ['CustomEntryLogger:custom_entry_added'] },
        search_options: [{ label: 'Custom entry added', options: ['CustomEntryLogger:custom_entry_added'] }],
      });
      const post = byslug.get('SimplePostLogger') as { search: { label: string; options: string[] }; search_all: { label: string; options: string[] } };
      assert.equal(post.search.label, 'Posts & Pages');
      assert.equal(post.search.options.length, 9);
      assert.ok(post.search.options.includes('SimplePostLogger:page_set_as_homepage'));
      assert.deepEqual(post.search_all, { label: 'All posts & pages activity', options: post.search.options });
      for (const [slug, data] of byslug) {
        if (slug === 'SimpleLogger' || slug === 'Plugin_ACF') assert.deepEqual(data, [], slug);
        else assert.ok(!Array.isArray(data) && (data as { search_options: unknown[] }).search_options.length > 0, slug);
      }
      const de = await call('GET', '/search-options?i18n_language=de', 'administrator');
      const custom = (de.body.loggers as { slug: string; search_data: { search: { label: string } } }[]).find((l) => l.slug === 'CustomEntryLogger')!;
      assert.equal(custom.search_data.search.label, 'Eigene Einträge');
      const sched = (de.body.loggers as { slug: string; search_data: { search_all: { label: string } } }[]).find((l) => l.slug === 'SchedLogger')!;
      assert.equal(sched.search_data.search_all.label, 'Alle Aktivitäten der Terminplanung');
    });
  });
}
