// i18n/tm/v1 over HTTP: the index declarations, permissions per role, every route's statuses,
// and the activity-log entries of the writes — on every database target.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/server/http.ts';
import { i18nTmLogger } from '../../src/namespaces/i18n-tm/logger.ts';
import type { ActivityEntry } from '../../src/site/activity.ts';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { basicAuth, callRoute } from '../support/http.ts';
import type { AuthUser } from '../../src/auth/types.ts';
import { createAppPassword } from '../../src/auth/app-passwords.ts';
import { ateDataOf } from '../../src/namespaces/i18n-tm/ate.ts';
import { MEANWHILE_LIMIT_MS, meanwhileSettled } from '../support/latency.ts';
import { createFixture, parseXliff, type Fixture } from './fixtures.ts';

const NS = '/en/cms-json/i18n/tm/v1';

const PATTERNS = [
  '/i18n/tm/v1/ate/jobs/store',
  '/i18n/tm/v1/xliff/fetch/(?P<job_id>\\d+)',
  '/i18n/tm/v1/ams/register_manager',
  '/i18n/tm/v1/ams/synchronize/translators',
  '/i18n/tm/v1/ams/synchronize/managers',
  '/i18n/tm/v1/ams/status',
  '/i18n/tm/v1/ams/console',
  '/i18n/tm/v1/ams/engines',
  '/i18n/tm/v1/ate/jobs',
  '/i18n/tm/v1/ate/jobs/(?P<ate_job_id>\\d+)',
  '/i18n/tm/v1/jobs',
  '/i18n/tm/v1/jobs/assign',
];
/** The routes beyond the contract's list: doing jobs (DECISIONS.md). */
const WORK_PATTERNS = [
  '/i18n/tm/v1/jobs/send',
  '/i18n/tm/v1/jobs/(?P<job_id>\\d+)',
  '/i18n/tm/v1/jobs/(?P<job_id>\\d+)/translations',
  '/i18n/tm/v1/jobs/(?P<job_id>\\d+)/xliff',
];

for (const target of dbTargets()) {
  describe(`i18n/tm/v1 over HTTP (${target.name})`, () => {
    let t: TestApp;
    let fx: Fixture;
    let server: FastifyInstance;
    const auth: Record<string, string> = {};
    const users: Record<string, AuthUser> = {};
    const logged: ActivityEntry[] = [];

    before(async () => {
      t = await createTestApp(target);
      fx = await createFixture(t.app);
      const real = t.app.activity;
      t.app.activity = {
        async log(entry, origin) {
          logged.push(entry);
          return real.log(entry, origin);
        },
      };
      server = await buildServer(t.app);
      for (const [key, u] of Object.entries({
        admin: fx.admin,
        anna: fx.anna,
        ben: fx.ben,
        editor: fx.editor,
        subscriber: fx.subscriber,
      })) {
        const created = await createAppPassword(t.app, u.id, { name: 'tests' });
        auth[key] = basicAuth(u.login, created.password);
        users[key] = u;
      }
    });
    after(async () => {
      await server.close();
      await t.close();
    });

    const call = (method: 'GET' | 'POST', path: string, who?: string, payload?: unknown) =>
      callRoute(t.app, method, `${NS}${path}`, { user: who ? users[who] : null, body: payload });

    test('the namespace index lists every route of contract §4.8 with its exact parameters', async () => {
      const res = await server.inject({ method: 'GET', url: NS });
      assert.equal(res.statusCode, 200);
      const body = JSON.parse(res.body);
      assert.deepEqual(
        Object.keys(body.routes).filter((r) => r !== '/i18n/tm/v1'),
        [...PATTERNS, ...WORK_PATTERNS],
      );
      const args = (route: string, method: string) => {
        const ep = body.routes[route].endpoints.find((e: { methods: string[] }) => e.methods.includes(method));
        return ep.args;
      };
      const jobs = args('/i18n/tm/v1/jobs', 'GET');
      const expected: Record<string, string | undefined> = {
        local_job_ids: 'string',
        scope: 'string',
        id: 'integer',
        title: 'string',
        source_language: 'string',
        target_language: 'string',
        status: 'string',
        needs_update: 'string',
        limit: 'integer',
        offset: 'integer',
        sorting: undefined,
        translated_by: 'string',
        sent_from: 'string',
        sent_to: 'string',
        deadline_from: 'string',
        deadline_to: 'string',
      };
      for (const [name, type] of Object.entries(expected)) {
        assert.ok(jobs[name], `jobs arg ${name}`);
        assert.equal(jobs[name].type, type, `type of ${name}`);
        assert.equal(jobs[name].required, false);
        assert.equal(jobs[name].default, undefined);
        assert.ok(jobs[name].description);
      }
      assert.deepEqual(
        Object.keys(jobs)
          .filter((k) => k !== 'i18n_language')
          .sort(),
        Object.keys(expected).sort(),
      );
      const assign = args('/i18n/tm/v1/jobs/assign', 'POST');
      assert.equal(assign.jobId.required, true);
      assert.equal(assign.translatorId.required, true);
      assert.equal(assign.type.required, false);
      assert.equal(assign.jobId.type, undefined);
      const store = args('/i18n/tm/v1/ate/jobs/store', 'POST');
      assert.deepEqual(
        { type: store.i18n_job_id.type, required: store.i18n_job_id.required },
        { type: 'string', required: true },
      );
      assert.deepEqual(
        { type: store.ate_job_data.type, required: store.ate_job_data.required },
        { type: 'array', required: true },
      );
      // ate/jobs declares the three ways of naming the jobs, none required alone.
      const ate = args('/i18n/tm/v1/ate/jobs', 'POST');
      assert.deepEqual(
        Object.keys(ate)
          .filter((k) => k !== 'i18n_language')
          .sort(),
        ['i18n_job_id', 'job_ids', 'jobs'],
      );
      for (const name of ['i18n_job_id', 'job_ids', 'jobs']) {
        assert.equal(ate[name].required, false);
        assert.ok(ate[name].description);
      }
      for (const route of PATTERNS.filter(
        (p) => !p.endsWith('/jobs') && !p.endsWith('/assign') && !p.endsWith('/store'),
      )) {
        for (const ep of body.routes[route].endpoints) {
          assert.deepEqual(
            Object.keys(ep.args).filter((k) => k !== 'i18n_language'),
            [],
            `${route} has no declared args`,
          );
        }
      }
      const de = JSON.parse((await server.inject({ method: 'GET', url: '/de/cms-json/i18n/tm/v1' })).body);
      assert.notEqual(de.routes['/i18n/tm/v1/jobs'].endpoints[0].args.scope.description, jobs.scope.description);
    });

    test('GET jobs: managers all, translators their own, others refused', async () => {
      const admin = await call('GET', '/jobs', 'admin');
      assert.equal(admin.status, 200);
      assert.deepEqual(Object.keys(admin.body), ['jobs', 'total', 'last_picked_up_date']);
      assert.equal(admin.body.total, Object.keys(fx.jobs).length - 1);
      const anna = await call('GET', '/jobs', 'anna');
      assert.equal(anna.status, 200);
      assert.ok(anna.body.jobs.every((j: { translator_id: number }) => j.translator_id === fx.anna.id));
      assert.equal(anna.body.total, 3);
      assert.equal((await call('GET', '/jobs', 'editor')).status, 403);
      assert.equal((await call('GET', '/jobs', 'subscriber')).status, 403);
      const anon = await call('GET', '/jobs');
      assert.equal(anon.status, 401);
      assert.equal(anon.body.code, 'rest_forbidden');
    });

    test('GET jobs: query filters and sorting in URL form; bad values are 400', async () => {
      const r = await call('GET', `/jobs?status=1,2&target_language=de&sorting[id]=asc&limit=2&offset=1`, 'admin');
      assert.equal(r.status, 200);
      assert.equal(r.body.jobs.length, 2);
      assert.ok(r.body.jobs[0].id < r.body.jobs[1].id);
      assert.ok(r.body.jobs.every((j: { status: number }) => j.status === 1 || j.status === 2));
      const byDate = await call('GET', `/jobs?sent_from=2026-03-04&sent_to=2026-03-04`, 'admin');
      assert.deepEqual(
        byDate.body.jobs.map((j: { id: number }) => j.id),
        [fx.jobs.annaOutdated],
      );
      for (const q of [
        'scope=nope',
        'status=x',
        'needs_update=maybe',
        'sorting[pw]=asc',
        'sent_from=yesterday',
        'id=abc',
        'limit=ten',
        'translated_by=anna',
        'local_job_ids=1,a',
      ]) {
        const bad = await call('GET', `/jobs?${q}`, 'admin');
        assert.equal(bad.status, 400, q);
        assert.match(bad.body.code, /^rest_invalid/, q);
      }
      const inverted = await call('GET', '/jobs?deadline_from=2026-05-01&deadline_to=2026-04-01', 'admin');
      assert.equal(inverted.status, 400);
      assert.equal(inverted.body.code, 'rest_invalid_param');
      const sentInverted = await call('GET', '/jobs?sent_from=2026-03-05&sent_to=2026-03-04', 'admin');
      assert.deepEqual([sentInverted.status, sentInverted.body.code], [400, 'rest_invalid_param']);
    });

    test('GET jobs: long comma lists are 400 beyond their bounds, a title of any length is answered (a JSON body read as GET)', async () => {
      const asGet = (params: Record<string, string>) =>
        server.inject({
          method: 'POST',
          url: `${NS}/jobs`,
          headers: { authorization: auth.admin!, 'x-http-method-override': 'GET', 'content-type': 'application/json' },
          payload: params,
        });
      const list = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i)).join(',');
      const long = await asGet({ title: 'x'.repeat(60_000) });
      assert.equal(long.statusCode, 200, long.body.slice(0, 200));
      assert.deepEqual(long.json().jobs, []);
      assert.equal(
        (
          await asGet({
            title: list(100, (i) => `t${i}`),
            local_job_ids: list(1000, (i) => String(i + 1)),
            target_language: list(1000, (i) => `x${i}`),
          })
        ).statusCode,
        200,
      );
      for (const [name, value] of [
        ['title', list(101, (i) => `t${i}`)],
        ['local_job_ids', list(1001, (i) => String(i + 1))],
        ['target_language', list(1001, (i) => `x${i}`)],
      ] as const) {
        const res = await asGet({ [name]: value });
        assert.equal(res.statusCode, 400, name);
        assert.equal(res.json().code, 'rest_invalid_param', name);
        assert.ok(name in res.json().data.params, name);
      }
    });

    test('POST jobs/assign: success, state conflicts, bad translators, missing params, permissions', async () => {
      // An empty type is the default, post (the arguments' sanitizer: no type).
      const emptyType = await call('POST', '/jobs/assign', 'admin', {
        jobId: fx.jobs.waiting,
        translatorId: fx.anna.id,
        type: '',
      });
      assert.deepEqual([emptyType.status, emptyType.body], [200, { assigned: fx.anna.id }]);
      logged.length = 0;
      const ok = await call('POST', '/jobs/assign', 'admin', { jobId: fx.jobs.waiting, translatorId: fx.anna.id });
      assert.equal(ok.status, 200);
      assert.deepEqual(ok.body, { assigned: fx.anna.id });
      assert.equal(logged.length, 1);
      assert.equal(logged[0]!.logger, i18nTmLogger.slug);
      assert.equal(logged[0]!.messageKey, 'job_assigned');
      assert.equal(logged[0]!.context!.job_id, fx.jobs.waiting);
      assert.equal(logged[0]!.context!.translator_name, 'Anna Becker');
      const form = await server.inject({
        method: 'POST',
        url: `${NS}/jobs/assign`,
        headers: { authorization: auth.admin!, 'content-type': 'application/x-www-form-urlencoded' },
        payload: `jobId=${fx.jobs.strings}&type=st-batch_strings&translatorId=${fx.ben.id}`,
      });
      assert.equal(form.statusCode, 200);
      const conflict = await call('POST', '/jobs/assign', 'admin', {
        jobId: fx.jobs.benComplete,
        translatorId: fx.anna.id,
      });
      assert.equal(conflict.status, 409);
      assert.equal(conflict.body.code, 'i18n_tm_job_not_assignable');
      assert.equal(conflict.body.data.status, 409);
      assert.equal(conflict.body.data.job_status, 10);
      assert.equal(
        (await call('POST', '/jobs/assign', 'admin', { jobId: 999999, translatorId: fx.anna.id })).body.code,
        'i18n_job_not_found',
      );
      const nobody = await call('POST', '/jobs/assign', 'admin', { jobId: fx.jobs.waiting, translatorId: 999999 });
      assert.deepEqual([nobody.status, nobody.body.code], [400, 'i18n_tm_translator_not_found']);
      const notTranslator = await call('POST', '/jobs/assign', 'admin', {
        jobId: fx.jobs.waiting,
        translatorId: fx.subscriber.id,
      });
      assert.deepEqual([notTranslator.status, notTranslator.body.code], [400, 'i18n_tm_not_a_translator']);
      const missing = await call('POST', '/jobs/assign', 'admin', { jobId: fx.jobs.waiting });
      assert.deepEqual([missing.status, missing.body.code], [400, 'rest_missing_callback_param']);
      assert.deepEqual(missing.body.data.params, ['translatorId']);
      const badType = await call('POST', '/jobs/assign', 'admin', {
        jobId: fx.jobs.waiting,
        translatorId: fx.anna.id,
        type: 'widget',
      });
      assert.deepEqual([badType.status, badType.body.code], [400, 'rest_invalid_param']);
      const badId = await call('POST', '/jobs/assign', 'admin', { jobId: 'x', translatorId: fx.anna.id });
      assert.deepEqual([badId.status, badId.body.code], [400, 'rest_invalid_param']);
      assert.deepEqual(badId.body.data.params, { jobId: 'jobId must be a positive integer.' });
      const noTranslator = await call('POST', '/jobs/assign', 'admin', { jobId: fx.jobs.waiting, translatorId: 0 });
      assert.deepEqual([noTranslator.status, noTranslator.body.code], [400, 'rest_invalid_param']);
      assert.deepEqual(noTranslator.body.data.params, {
        translatorId: 'translatorId must be a positive integer (a user id).',
      });
      const other = await call('POST', '/jobs/assign', 'anna', { jobId: fx.jobs.empty, translatorId: fx.ben.id });
      assert.deepEqual([other.status, other.body.code], [403, 'i18n_tm_assign_forbidden']);
      const self = await call('POST', '/jobs/assign', 'anna', { jobId: fx.jobs.empty, translatorId: fx.anna.id });
      assert.equal(self.status, 200);
      assert.equal(
        (await call('POST', '/jobs/assign', 'editor', { jobId: fx.jobs.empty, translatorId: fx.anna.id })).status,
        403,
      );
      assert.equal(
        (await call('POST', '/jobs/assign', undefined, { jobId: fx.jobs.empty, translatorId: fx.anna.id })).status,
        401,
      );
      assert.equal(
        logged.filter((e) => e.messageKey === 'job_assigned').length,
        3,
        'only successful writes are logged',
      );
    });

    test('GET xliff/fetch/<job_id>: 200 with a real XLIFF, 404, 403, 422', async () => {
      const ok = await call('GET', `/xliff/fetch/${fx.jobs.annaProgress}`, 'admin');
      assert.equal(ok.status, 200);
      assert.deepEqual(Object.keys(ok.body), ['content', 'sourceLang', 'targetLang']);
      const doc = parseXliff(ok.body.content);
      assert.equal(doc.xliff['@version'], '1.2');
      assert.equal(doc.xliff.file['@original'].split('-')[0], String(fx.jobs.annaProgress));
      assert.ok(
        doc.xliff.file.body['trans-unit'].every(
          (u: Record<string, unknown>) => u['@id'] && 'source' in u && 'target' in u,
        ),
      );
      assert.equal((await call('GET', `/xliff/fetch/${fx.jobs.annaProgress}`, 'anna')).status, 200);
      const forbidden = await call('GET', `/xliff/fetch/${fx.jobs.annaProgress}`, 'ben');
      assert.deepEqual([forbidden.status, forbidden.body.code], [403, 'i18n_tm_xliff_forbidden']);
      const missing = await call('GET', '/xliff/fetch/999999', 'admin');
      assert.deepEqual([missing.status, missing.body.code], [404, 'i18n_job_not_found']);
      const empty = await call('GET', `/xliff/fetch/${fx.jobs.empty}`, 'admin');
      assert.deepEqual([empty.status, empty.body.code], [422, 'i18n_xliff_no_translation_units']);
      assert.equal((await call('GET', `/xliff/fetch/${fx.jobs.annaProgress}`, 'subscriber')).status, 403);
      assert.equal((await call('GET', `/xliff/fetch/${fx.jobs.annaProgress}`)).status, 401);
      assert.equal((await call('GET', '/xliff/fetch/abc', 'admin')).status, 404, 'path shape: digits only');
    });

    test('ATE routes: create, store, fetch; errors and permissions', async () => {
      logged.length = 0;
      const created = await call('POST', '/ate/jobs', 'admin', { jobs: [{ i18n_job_id: fx.jobs.basket }] });
      assert.equal(created.status, 200);
      const ateId = created.body.jobs[String(fx.jobs.basket)];
      assert.ok(Number.isInteger(ateId));
      const got = await call('GET', `/ate/jobs/${ateId}`, 'admin');
      assert.equal(got.status, 200);
      assert.equal(got.body.i18n_job_id, fx.jobs.basket);
      assert.equal((await call('GET', '/ate/jobs/99999999', 'admin')).body.code, 'i18n_tm_ate_job_not_found');
      assert.equal((await call('GET', `/ate/jobs/${ateId}`, 'anna')).status, 403);
      const stored = await call('POST', '/ate/jobs/store', 'admin', {
        i18n_job_id: String(fx.jobs.retry),
        ate_job_data: [{ ate_job_id: 70000 }],
      });
      assert.equal(stored.status, 200);
      assert.equal(stored.body, true);
      const query = await call('POST', `/ate/jobs/store?i18n_job_id=${fx.jobs.package}&ate_job_data=70001`, 'admin');
      assert.equal(query.status, 200);
      const conflict = await call('POST', '/ate/jobs/store', 'admin', {
        i18n_job_id: String(fx.jobs.package),
        ate_job_data: [{ ate_job_id: 70000 }],
      });
      assert.deepEqual([conflict.status, conflict.body.code], [409, 'i18n_tm_ate_job_conflict']);
      const missing = await call('POST', '/ate/jobs/store', 'admin', { i18n_job_id: '1' });
      assert.deepEqual([missing.status, missing.body.code], [400, 'rest_missing_callback_param']);
      const noAteId = await call('POST', '/ate/jobs/store', 'admin', {
        i18n_job_id: String(fx.jobs.retry),
        ate_job_data: [{ foo: 1 }],
      });
      assert.deepEqual([noAteId.status, noAteId.body.code], [400, 'rest_invalid_param']);
      const notList = await call('POST', '/ate/jobs/store', 'admin', {
        i18n_job_id: String(fx.jobs.retry),
        ate_job_data: { ate_job_id: 70003 },
      });
      assert.equal(notList.status, 400, 'an object is not an array (reference type rules)');
      const numericId = await call('POST', '/ate/jobs/store', 'admin', {
        i18n_job_id: fx.jobs.retry,
        ate_job_data: [{ ate_job_id: 70003 }],
      });
      assert.equal(numericId.status, 400, 'i18n_job_id is declared a string');
      const noJob = await call('POST', '/ate/jobs/store', 'admin', {
        i18n_job_id: '999999',
        ate_job_data: [{ ate_job_id: 70002 }],
      });
      assert.deepEqual([noJob.status, noJob.body.code], [404, 'i18n_job_not_found']);
      const badPayload = await call('POST', '/ate/jobs', 'admin', { nothing: true });
      assert.deepEqual([badPayload.status, badPayload.body.code], [400, 'i18n_tm_ate_invalid_payload']);
      const german = await server.inject({
        method: 'POST',
        url: '/de/cms-json/i18n/tm/v1/ate/jobs',
        headers: { authorization: auth.admin!, 'content-type': 'application/json' },
        payload: '{}',
      });
      assert.match(JSON.parse(german.body).message, /Ungültige Anfrage/);
      const germanMissing = await server.inject({
        method: 'GET',
        url: '/de/cms-json/i18n/tm/v1/xliff/fetch/999999',
        headers: { authorization: auth.admin! },
      });
      assert.match(JSON.parse(germanMissing.body).message, /keinen Übersetzungsauftrag/);
      assert.equal((await call('POST', '/ate/jobs', 'anna', { job_ids: [fx.jobs.retry] })).status, 403);
      assert.equal(
        (await call('POST', '/ate/jobs/store', 'anna', { i18n_job_id: '1', ate_job_data: [1] })).status,
        403,
      );
      assert.deepEqual(
        logged.map((e) => e.messageKey),
        ['ate_jobs_created', 'ate_job_stored', 'ate_job_stored'],
      );
    });

    test('AMS routes and engines', async () => {
      logged.length = 0;
      const reg = await call('POST', '/ams/register_manager', 'admin');
      assert.deepEqual([reg.status, reg.body], [200, { enabled: true }]);
      const status = await call('GET', '/ams/status', 'admin');
      assert.equal(status.status, 200);
      assert.equal(status.body.activated, true);
      const tr = await call('GET', '/ams/synchronize/translators', 'admin');
      assert.equal(tr.status, 200);
      assert.ok(tr.body.result.translators.some((u: { id: number }) => u.id === fx.anna.id));
      const mg = await call('GET', '/ams/synchronize/managers', 'admin');
      assert.deepEqual(
        mg.body.result.managers.map((u: { id: number }) => u.id),
        [fx.admin.id],
      );
      assert.equal((await call('GET', '/ams/console', 'admin')).body.mode, 'local');
      const engines = await call('GET', '/ams/engines', 'admin');
      assert.equal(engines.body.engines.length, 3);
      const upd = await call('POST', '/ams/engines', 'admin', { engines: [{ id: 'google', enabled: false }] });
      assert.equal(upd.status, 200);
      assert.equal(upd.body.engines.find((e: { id: string }) => e.id === 'google').enabled, false);
      const bad = await call('POST', '/ams/engines', 'admin', { engines: [{ id: 'babelfish' }] });
      assert.deepEqual([bad.status, bad.body.code], [400, 'i18n_tm_invalid_engines']);
      for (const [method, path] of [
        ['POST', '/ams/register_manager'],
        ['GET', '/ams/status'],
        ['GET', '/ams/console'],
        ['GET', '/ams/engines'],
        ['POST', '/ams/engines'],
        ['GET', '/ams/synchronize/translators'],
        ['GET', '/ams/synchronize/managers'],
      ] as const) {
        assert.equal((await call(method, path, 'anna')).status, 403, `${method} ${path} translator`);
        assert.equal((await call(method, path)).status, 401, `${method} ${path} anonymous`);
      }
      assert.deepEqual(
        logged.map((e) => e.messageKey),
        ['manager_registered', 'translators_synchronized', 'managers_synchronized', 'engines_updated'],
      );
    });

    test('ate/jobs/store: an anonymous list of 20,000 objects is refused without holding up other requests (issue 25)', async () => {
      // Each object a new key: merged by copying, item by item, this took 27.6 s at 8,000.
      const objects = (n: number) => Array.from({ length: n }, (_, i) => ({ [`k${i}`]: i }));
      const bodies = [
        { i18n_job_id: 1, ate_job_data: objects(8_000) },
        { i18n_job_id: 1, ate_job_data: objects(20_000) },
        { i18n_job_id: String(fx.jobs.retry), ate_job_data: [...objects(20_000), { ate_job_id: 70_500 }] },
      ];
      for (const [i, body] of bodies.entries()) {
        const run = await meanwhileSettled(server, {
          method: 'POST',
          url: `${NS}/ate/jobs/store`,
          payload: JSON.stringify(body),
          headers: { 'content-type': 'application/json' },
        });
        assert.equal(run.res.statusCode, i < 2 ? 400 : 401, run.res.body.slice(0, 200));
        assert.ok(
          run.slowestMs <= MEANWHILE_LIMIT_MS,
          `body ${i}: the unrelated request waited ${Math.round(run.slowestMs)} ms (the store took ${Math.round(run.ms)} ms)`,
        );
      }
      // Merged in place: later items win, and `__proto__` is a key, not the object's prototype.
      const merged = ateDataOf(JSON.parse('[{"a":1,"__proto__":2},{"a":3,"ate_job_id":9},7]'));
      assert.ok(typeof merged !== 'string');
      assert.deepEqual(Object.entries(merged.data), [
        ['a', 3],
        ['__proto__', 2],
        ['ate_job_id', 9],
      ]);
      assert.equal(Object.getPrototypeOf(merged.data), null);
    });

    test('every logged message key has English and German templates', () => {
      for (const key of [
        'job_assigned',
        'ate_jobs_created',
        'ate_job_stored',
        'manager_registered',
        'translators_synchronized',
        'managers_synchronized',
        'engines_updated',
      ] as const) {
        assert.ok(i18nTmLogger.messages[key]?.en && i18nTmLogger.messages[key]?.de, key);
      }
    });
  });
}
