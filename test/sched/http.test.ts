// sched/v1 over HTTP: every route, every permission class, envelopes with honest statuses.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { userWithRole } from '../support/http.ts';
import { buildServer } from '../../src/server/http.ts';

type M = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const P = '/en/cms-json/sched/v1';

/** Every route of contract §4.3 with a valid request, and whether it is public. */
const ROUTES: { method: M; path: string; body?: Record<string, unknown>; public?: boolean }[] = [
  { method: 'GET', path: '/settings', public: true },
  { method: 'POST', path: '/settings', body: { styles: { accent_color: '#123456' } } },
  { method: 'GET', path: '/settings/global' },
  { method: 'POST', path: '/settings/global', body: { company_name: 'ACME' } },
  { method: 'PUT', path: '/settings/global', body: { company_name: 'ACME' } },
  { method: 'PATCH', path: '/settings/global', body: { company_name: 'ACME' } },
  { method: 'DELETE', path: '/settings/styles?force=true' },
  { method: 'GET', path: '/settings/schema', public: true },
  { method: 'GET', path: '/notices' },
  { method: 'GET', path: '/notices/promo-plus' },
  { method: 'POST', path: '/notices/promo-plus', body: { global: false } },
  { method: 'PUT', path: '/notices/promo-plus', body: { global: false } },
  { method: 'PATCH', path: '/notices/promo-plus', body: { global: false } },
  { method: 'DELETE', path: '/notices/promo-plus?global=false' },
  { method: 'GET', path: '/notices/schema', public: true },
  { method: 'POST', path: '/notices/pinned/promo-plus' },
  { method: 'PUT', path: '/notices/pinned/promo-plus' },
  { method: 'PATCH', path: '/notices/pinned/promo-plus' },
  { method: 'POST', path: '/notices/pinned/delete/promo-plus' },
  { method: 'PUT', path: '/notices/pinned/delete/promo-plus' },
  { method: 'PATCH', path: '/notices/pinned/delete/promo-plus' },
  { method: 'GET', path: '/notices-errors' },
  { method: 'POST', path: '/templates/validate', body: { message: 'Hi {{ name }}' } },
  { method: 'POST', path: '/notifications/preview', body: { template: 'Hi {{ customer_name }}' } },
  { method: 'GET', path: '/support_status' },
  { method: 'POST', path: '/support_ticket', body: { name: 'A', email: 'a@example.com', subject: 'S', message: 'M' } },
  { method: 'GET', path: '/support_debug/wp' },
  { method: 'POST', path: '/support_debug/wp/delete' },
  { method: 'GET', path: '/support_debug/ssa' },
  { method: 'POST', path: '/support_debug/ssa/delete' },
  { method: 'GET', path: '/support_debug/logs' },
  { method: 'GET', path: '/support/export?backup=false' },
  { method: 'POST', path: '/support/import', body: { content: '{"notices":{"dismissed":[],"pinned":[]}}' } },
  { method: 'GET', path: '/fetch-guides?category=settings' },
  { method: 'GET', path: '/user/check', public: true },
  { method: 'GET', path: '/embed_booking_app?types=1', public: true },
];

for (const target of dbTargets()) {
  describe(`sched/v1 over HTTP (${target.name})`, () => {
    let t: TestApp;
    let server: FastifyInstance;
    let admin: string;
    let editor: string;
    let subscriber: string;
    before(async () => {
      t = await createTestApp(target);
      server = await buildServer(t.app);
      admin = (await userWithRole(t.app, 'administrator')).authorization;
      editor = (await userWithRole(t.app, 'editor')).authorization;
      subscriber = (await userWithRole(t.app, 'subscriber')).authorization;
    });
    after(async () => {
      await server.close();
      await t.close();
    });

    const call = (method: M, path: string, authorization?: string, body?: unknown, prefix = P) =>
      server.inject({
        method,
        url: prefix + path,
        headers: authorization ? { authorization } : {},
        ...(body !== undefined ? { payload: body as Record<string, unknown> } : {}),
      });

    test('permission matrix: public routes open, the rest need manage_options (401 anonymous, 403 others)', async () => {
      for (const r of ROUTES) {
        const anon = await call(r.method, r.path, undefined, r.body);
        const ed = await call(r.method, r.path, editor, r.body);
        const sub = await call(r.method, r.path, subscriber, r.body);
        if (r.public) {
          for (const res of [anon, ed, sub]) assert.equal(res.statusCode, 200, `${r.method} ${r.path}: ${res.body}`);
        } else {
          assert.equal(anon.statusCode, 401, `${r.method} ${r.path}`);
          assert.equal(anon.json().code, 'rest_forbidden');
          assert.equal(ed.statusCode, 403, `${r.method} ${r.path}`);
          assert.equal(sub.statusCode, 403, `${r.method} ${r.path}`);
        }
        const ad = await call(r.method, r.path, admin, r.body);
        assert.equal(ad.statusCode, 200, `${r.method} ${r.path}: ${ad.body}`);
        if (String(ad.headers['content-type']).startsWith('application/json')) {
          const body = ad.json();
          if (body && typeof body === 'object' && 'response_code' in body)
            assert.equal(body.response_code, ad.statusCode, `${r.method} ${r.path}`);
        }
      }
    });

    test('GET settings: restricted fields only for administrators; language from the root', async () => {
      const anon = (await call('GET', '/settings')).json();
      assert.equal(anon.response_code, 200);
      assert.ok(!('admin_email' in anon.data.global));
      assert.ok(!('public_read_access_token' in anon.data.global));
      const ad = (await call('GET', '/settings', admin)).json();
      assert.ok('admin_email' in ad.data.global);
      const de = (await call('GET', '/settings', undefined, undefined, '/de/cms-json/sched/v1')).json();
      assert.equal(de.data.global.locale, 'de_DE');
    });

    test('errors: honest statuses, never 200, never 500', async () => {
      const cases: [M, string, unknown, number, string][] = [
        ['GET', '/settings/nosuch', undefined, 404, 'section-missing'],
        ['POST', '/settings/nosuch', { a: 1 }, 404, 'section-missing'],
        ['DELETE', '/settings/nosuch?force=true', undefined, 404, 'section-missing'],
        ['GET', '/notices/nosuch', undefined, 404, 'notice-missing'],
        ['POST', '/notices/pinned/nosuch', undefined, 404, 'notice-missing'],
        ['POST', '/settings/global', { timezone_string: 'Nowhere/Zone' }, 400, 'rest_invalid_param'],
        ['POST', '/settings', { bogus: {} }, 400, 'sched_unknown_settings'],
        ['DELETE', '/settings/styles', undefined, 400, 'rest_trash_not_supported'],
        ['POST', '/notices/promo-plus', {}, 400, 'rest_missing_callback_param'],
        ['DELETE', '/notices/promo-plus', undefined, 400, 'rest_missing_callback_param'],
        ['POST', '/notices/promo-plus', { global: 'sometimes' }, 400, 'rest_invalid_param'],
        ['POST', '/templates/validate', {}, 400, 'rest_missing_callback_param'],
        ['POST', '/templates/validate', { message: ['x'] }, 400, 'rest_invalid_param'],
        ['POST', '/notifications/preview', {}, 400, 'rest_missing_callback_param'],
        ['POST', '/notifications/preview', { template: 'x', appointment_id: 3 }, 404, 'Appointment ID Not Found'],
        ['POST', '/support_ticket', { email: 'x' }, 400, 'rest_invalid_param'],
        ['POST', '/support/import', {}, 400, 'sched_import_invalid'],
        ['POST', '/support/import', { content: '{not json' }, 400, 'sched_import_invalid'],
        ['GET', '/fetch-guides?per_page=0', undefined, 400, 'rest_invalid_param'],
        ['GET', '/support_debug/ssa?download=true', undefined, 404, 'sched_log_not_found'],
      ];
      for (const [method, path, body, status, code] of cases) {
        const res = await call(method, path, admin, body);
        assert.equal(res.statusCode, status, `${method} ${path}: ${res.body}`);
        const json = res.json();
        if ('response_code' in json) {
          assert.equal(json.response_code, status);
          assert.equal(json.error, code);
        } else {
          assert.equal(json.code, code, `${method} ${path}: ${res.body}`);
          assert.equal(json.data.status, status);
        }
      }
    });

    test("the service's refusals in German: their texts, and invalid settings in the pipeline's shape", async () => {
      const de = '/de/cms-json/sched/v1';
      const zone = (await call('POST', '/settings/global', admin, { timezone_string: 'Nowhere/Zone' }, de)).json();
      assert.equal(zone.code, 'rest_invalid_param');
      assert.equal(zone.message, 'Ungültige(r) Parameter: global.timezone_string');
      assert.ok(zone.data.params['global.timezone_string']);
      assert.deepEqual(zone.data.details, []);
      const cases: [M, string, unknown, string][] = [
        ['POST', '/settings', { bogus: {} }, 'Unbekannte Einstellungsbereiche: bogus'],
        ['DELETE', '/settings/styles', undefined, 'Einstellungen können nicht in den Papierkorb.'],
        ['POST', '/support/import', {}, 'Der Import wurde abgelehnt; nichts wurde geändert.'],
        ['GET', '/support_debug/ssa?download=true', undefined, 'Die Protokolldatei existiert nicht.'],
      ];
      for (const [method, path, body, message] of cases) {
        const json = (await call(method, path, admin, body, de)).json();
        assert.ok(json.message.startsWith(message), `${method} ${path}: ${json.message}`);
      }
    });

    test('templates/validate and preview over HTTP', async () => {
      assert.deepEqual((await call('POST', '/templates/validate', admin, { message: '{{ x }}' })).json(), {
        success: true,
      });
      const bad = await call('POST', '/templates/validate', admin, { message: '{{ a.constructor }}' });
      assert.equal(bad.statusCode, 200);
      assert.equal(bad.json().success, false);
      const js = (await call('POST', '/templates/validate', admin, { message: '<img src=x onerror=alert(1)>' })).json();
      assert.deepEqual(js, { success: false, error: 'JavaScript is not allowed in Twig templates.' });
      const pv = (
        await call(
          'POST',
          '/notifications/preview',
          admin,
          { template: '{{ Appointment.customer_information.Name }}', appointment_type_id: 2 },
          '/de/cms-json/sched/v1',
        )
      ).json();
      assert.equal(pv.data.preview, 'Erika Mustermann');
    });

    test('embed_booking_app: raw JavaScript, CORS, escaped attributes', async () => {
      const res = await call(
        'GET',
        '/embed_booking_app?label=%3C%2Fscript%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E&types=1,2',
      );
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /^application\/javascript/);
      assert.equal(res.headers['access-control-allow-origin'], '*');
      assert.doesNotMatch(res.body, /<\/script|<script/i);
      assert.match(res.body, /document\.createElement\('iframe'\)/);
    });

    test('debug log download through the administrator route', async () => {
      await call('POST', '/settings/developer', admin, { ssa_debug_mode: true });
      await call('POST', '/settings/global', admin, { company_name: 'Logged' }); // writes to the module debug log
      const logs = (await call('GET', '/support_debug/logs', admin)).json();
      assert.equal(logs.wp, null);
      assert.match(logs.ssa, /\/en\/cms-json\/sched\/v1\/support_debug\/ssa\?download=true$/);
      const url = new URL(logs.ssa);
      const dl = await server.inject({
        method: 'GET',
        url: url.pathname + url.search,
        headers: { authorization: admin },
      });
      assert.equal(dl.statusCode, 200);
      assert.match(String(dl.headers['content-type']), /^text\/plain/);
      assert.match(dl.body, /settings section updated/);
      assert.equal(
        (await server.inject({ method: 'GET', url: url.pathname + url.search, headers: { authorization: editor } }))
          .statusCode,
        403,
      );
      const text = (await call('GET', '/support_debug/ssa', admin)).json();
      assert.match(text, /settings section updated/);
      await call('DELETE', '/settings/developer?force=true', admin);
      assert.equal((await call('GET', '/support_debug/ssa', admin)).json(), '');
    });

    test('successful writes are recorded in the activity log by the SchedLogger', async () => {
      const { user, authorization } = await userWithRole(t.app, 'administrator');
      const count = async () =>
        (
          await t.app.db
            .selectFrom('history_events')
            .select(['message_key', 'user_id'])
            .where('logger', '=', 'SchedLogger')
            .where('user_id', '=', user.id)
            .orderBy('id')
            .execute()
        ).map((r) => r.message_key);
      await call('POST', '/settings/styles', authorization, { font: 'Lato' });
      await call('POST', '/settings/styles', authorization, { font: '<bad>' }); // refused: not logged
      await call('POST', '/notices/promo-plus', authorization, { global: false });
      await call('POST', '/notices/pinned/promo-plus', authorization);
      await call('POST', '/support_ticket', authorization, {
        name: 'A',
        email: 'a@example.com',
        subject: 'S',
        message: 'M',
      });
      assert.deepEqual(await count(), ['settings_updated', 'notice_dismissed', 'notice_pinned', 'ticket_created']);
    });

    test('writes can be batched', async () => {
      const res = await server.inject({
        method: 'POST',
        url: '/en/cms-json/batch/v1',
        headers: { authorization: admin },
        payload: {
          requests: [
            { method: 'POST', path: '/sched/v1/settings/styles', body: { font: 'Lato' } },
            { method: 'POST', path: '/sched/v1/notices/promo-plus', body: { global: true } },
            { method: 'POST', path: '/sched/v1/settings/styles', body: { font: '<x>' } },
          ],
        },
      });
      assert.equal(res.statusCode, 207, res.body);
      const [a, b, c] = res.json().responses;
      assert.equal(a.status, 200);
      assert.equal(a.body.data.font, 'Lato');
      assert.equal(b.body.data.noticeName, 'promo-plus');
      assert.equal(c.status, 400);
      assert.equal(c.body.code, 'rest_invalid_param');
    });

    test('namespace index declares exactly the contract parameters in both languages', async () => {
      const en = (await server.inject({ method: 'GET', url: '/en/cms-json/sched/v1' })).json();
      const de = (await server.inject({ method: 'GET', url: '/de/cms-json/sched/v1' })).json();
      const routes = Object.keys(en.routes);
      for (const r of [
        '/sched/v1/settings',
        '/sched/v1/settings/schema',
        '/sched/v1/settings/(?P<setting_id>[a-zA-Z0-9_-]+)',
        '/sched/v1/notices/(?P<notice_id>[a-zA-Z0-9_-]+)',
        '/sched/v1/notices/pinned/delete/(?P<notice_id>[a-zA-Z0-9_-]+)',
        '/sched/v1/embed_booking_app',
      ])
        assert.ok(routes.includes(r), r);
      assert.equal(routes.length, 24); // index + the 23 route patterns of contract §4.3
      const validate = en.routes['/sched/v1/templates/validate'].endpoints[0].args;
      assert.deepEqual(Object.keys(validate).sort(), ['i18n_language', 'message']);
      assert.equal(validate.message.required, true);
      assert.equal(validate.message.type, 'string');
      const notice = en.routes['/sched/v1/notices/(?P<notice_id>[a-zA-Z0-9_-]+)'].endpoints;
      assert.equal(notice[1].args.global.required, true);
      assert.notEqual(
        notice[1].args.global.description,
        de.routes['/sched/v1/notices/(?P<notice_id>[a-zA-Z0-9_-]+)'].endpoints[1].args.global.description,
      );
      const del = en.routes['/sched/v1/settings/(?P<setting_id>[a-zA-Z0-9_-]+)'].endpoints[2].args;
      assert.equal(del.force.default, false);
      assert.equal(del.force.required, false);
      assert.deepEqual(en.routes['/sched/v1/support_status'].endpoints[0].args, {
        i18n_language: en.routes['/sched/v1/support_status'].endpoints[0].args.i18n_language,
      });
    });
  });
}
