// Service-level tests of translation jobs: the list and every filter, visibility, and
// assignment with its state rules — on every database target.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { callRoute } from '../support/http.ts';
import { assignJob } from '../../src/namespaces/i18n-tm/assign.ts';
import { parseJobQuery } from '../../src/namespaces/i18n-tm/job-filters.ts';
import { listJobs } from '../../src/namespaces/i18n-tm/jobs.ts';
import { callerOf, createFixture, expectError, type Fixture } from './fixtures.ts';

const JOB_KEYS = [
  'id',
  'type',
  'tp_id',
  'status',
  'needs_update',
  'review_status',
  'language_codes',
  'languages',
  'translation_service_id',
  'translation_service',
  'sent_date',
  'deadline',
  'ts_status',
  'element',
  'translator_name',
  'translator_id',
  'is_ate_job',
  'automatic',
  'progress',
  'batch',
  'extra_data',
  'edit_url',
  'view_url',
  'view_original_url',
];

for (const target of dbTargets()) {
  describe(`i18n/tm jobs (${target.name})`, () => {
    let t: TestApp;
    let fx: Fixture;
    before(async () => {
      t = await createTestApp(target);
      fx = await createFixture(t.app);
    });
    after(async () => t.close());

    const ids = async (params: Record<string, unknown>, viewer: Fixture['admin'] | null = fx.admin) =>
      (await listJobs(t.app, params, viewer, 'en')).jobs.map((j) => j.id);
    const keysOf = (list: number[]) => list.map((id) => Object.entries(fx.jobs).find(([, v]) => v === id)?.[0]).sort();
    /** GET /jobs with parameters its arguments refuse: 400 rest_invalid_param, and its data. */
    const refused = async (query: Record<string, unknown>) => {
      const res = await callRoute(t.app, 'GET', '/i18n/tm/v1/jobs', { query, user: fx.admin });
      const body = res.body as { code: string; data: Record<string, unknown> };
      assert.deepEqual([res.status, body.code], [400, 'rest_invalid_param'], JSON.stringify(query).slice(0, 80));
      return body.data;
    };

    test('manager sees every job except cancelled ones, newest first, with the reference job object', async () => {
      const res = await listJobs(t.app, {}, fx.admin, 'en');
      assert.equal(res.total, Object.keys(fx.jobs).length - 1);
      assert.equal(res.jobs.length, res.total);
      assert.equal(res.last_picked_up_date, null);
      assert.deepEqual(
        res.jobs.map((j) => j.id),
        [...res.jobs.map((j) => j.id)].sort((a, b) => b - a),
      );
      assert.ok(!res.jobs.some((j) => j.id === fx.jobs.cancelled));
      for (const job of res.jobs) assert.deepEqual(Object.keys(job), JOB_KEYS);
      const p = res.jobs.find((j) => j.id === fx.jobs.annaProgress)!;
      assert.equal(p.type, 'post');
      assert.equal(p.status, 2);
      assert.equal(p.needs_update, false);
      assert.deepEqual(p.language_codes, { source: 'en', target: 'de' });
      assert.deepEqual(p.languages, { source: 'English', target: 'German' });
      assert.equal(p.translation_service_id, 'local');
      assert.equal(p.translation_service, 'Local');
      assert.equal(p.sent_date, '2026-03-02');
      assert.equal(p.deadline, '2026-03-10');
      assert.equal(p.translator_id, fx.anna.id);
      assert.equal(p.translator_name, 'Anna Becker');
      assert.equal(p.is_ate_job, true);
      assert.equal(p.automatic, false);
      assert.equal(p.progress, 0);
      assert.deepEqual(p.batch, { id: fx.batches.alpha, name: 'Alpha batch', tp_id: null });
      assert.deepEqual(p.extra_data, { icl_translate_job_id: p.id, editor_job_id: null });
      assert.deepEqual(p.element, {
        name: 'Partner program',
        url: 'http://localhost:8080/en/annaProgress/',
        status: 'draft',
        type: { value: 'post_post', label: 'Post' },
      });
      assert.match(p.edit_url, new RegExp(`job_id=${p.id}$`));
      assert.equal(p.view_url, '');
      const waiting = res.jobs.find((j) => j.id === fx.jobs.waiting)!;
      assert.equal(waiting.translator_id, '');
      assert.equal(waiting.translator_name, '');
      assert.equal(waiting.deadline, '2026-03-20');
      const complete = res.jobs.find((j) => j.id === fx.jobs.benComplete)!;
      assert.equal(complete.progress, 100);
      assert.match(complete.view_url, /\/de\/\?p=\d+$/);
      const remote = res.jobs.find((j) => j.id === fx.jobs.remote)!;
      assert.equal(remote.translation_service, 'lingua-pro');
      assert.equal(remote.tp_id, 991);
      assert.equal(remote.ts_status, 'translation_ready');
      assert.equal(remote.is_ate_job, false);
      const strings = res.jobs.find((j) => j.id === fx.jobs.strings)!;
      assert.deepEqual(strings.element, { name: 'Theme strings', url: null });
      assert.deepEqual(strings.extra_data, []);
      const review = res.jobs.find((j) => j.id === fx.jobs.review)!;
      assert.equal(review.review_status, 'NEEDS_REVIEW');
      assert.equal(review.automatic, true);
      assert.equal(review.translator_id, '');
    });

    test('German display names in German', async () => {
      const res = await listJobs(t.app, { id: fx.jobs.annaProgress }, fx.admin, 'de');
      assert.deepEqual(res.jobs[0]!.languages, { source: 'Englisch', target: 'Deutsch' });
      assert.equal(res.jobs[0]!.translation_service, 'Lokal');
      assert.equal((res.jobs[0]!.element.type as { label: string }).label, 'Beitrag');
    });

    test('translators see only their own jobs, whatever they filter', async () => {
      assert.deepEqual(keysOf(await ids({}, fx.anna)), ['annaOutdated', 'annaProgress', 'retry']);
      assert.deepEqual(keysOf(await ids({}, fx.ben)), ['benComplete', 'package', 'strings']);
      assert.deepEqual(await ids({ translated_by: String(fx.ben.id) }, fx.anna), []);
      assert.deepEqual(await ids({ id: fx.jobs.benComplete }, fx.anna), []);
      assert.equal((await listJobs(t.app, {}, fx.anna, 'en')).total, 3);
    });

    test('filter local_job_ids and id', async () => {
      assert.deepEqual(keysOf(await ids({ local_job_ids: `${fx.jobs.waiting}, ${fx.jobs.basket}` })), [
        'basket',
        'waiting',
      ]);
      assert.deepEqual(keysOf(await ids({ id: fx.jobs.retry })), ['retry']);
      assert.deepEqual(keysOf(await ids({ id: String(fx.jobs.retry) })), ['retry']);
      assert.deepEqual(await ids({ id: 999999 }), []);
      await refused({ local_job_ids: '1,x' });
      await refused({ id: -3 });
    });

    test('filter scope', async () => {
      assert.deepEqual(keysOf(await ids({ scope: 'remote' })), ['remote']);
      assert.ok(!(await ids({ scope: 'local' })).includes(fx.jobs.remote));
      assert.equal((await ids({ scope: 'local' })).length, Object.keys(fx.jobs).length - 2);
      assert.ok(!(await ids({ scope: 'ate' })).includes(fx.jobs.strings));
      assert.equal((await ids({ scope: 'all' })).length, Object.keys(fx.jobs).length - 1);
      const err = await refused({ scope: 'everything' });
      assert.ok((err.params as Record<string, string>).scope);
    });

    test('filter title: comma list of case-insensitive substrings, wildcards are literal', async () => {
      assert.deepEqual(keysOf(await ids({ title: 'about' })), ['waiting']);
      assert.deepEqual(keysOf(await ids({ title: 'ABOUT,privacy' })), ['retry', 'waiting']);
      assert.deepEqual(keysOf(await ids({ title: '100%' })), ['benComplete']);
      assert.deepEqual(await ids({ title: '%' }), [fx.jobs.benComplete]);
      assert.deepEqual(await ids({ title: '_' }), []);
      // Longer than SQLite's LIKE takes (50,000 bytes): looked for by position, with the same answers.
      assert.deepEqual(await ids({ title: 'x'.repeat(60_000) }), []);
      assert.deepEqual(keysOf(await ids({ title: `${'x'.repeat(60_000)},ABOUT` })), ['waiting']);
    });

    test('lists within what one statement holds; beyond, 400 (70,000 comma-separated items were a 500)', async () => {
      const parts = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i)).join(',');
      assert.deepEqual(keysOf(await ids({ title: `${parts(99, (i) => `nothing${i}`)},about` })), ['waiting']);
      assert.deepEqual(await ids({ local_job_ids: parts(1000, (i) => String(i + 100_000)) }), []);
      assert.deepEqual(await ids({ target_language: parts(1000, (i) => `x${i}`) }), []);
      for (const [name, value] of [
        ['title', parts(101, (i) => `t${i}`)],
        ['local_job_ids', parts(1001, (i) => String(i + 1))],
        ['target_language', parts(1001, (i) => `x${i}`)],
      ]) {
        const err = await refused({ [name!]: value });
        assert.ok((err.params as Record<string, string>)[name!], name);
      }
    });

    test('filter languages', async () => {
      assert.deepEqual(keysOf(await ids({ source_language: 'de' })), ['basket']);
      assert.deepEqual(keysOf(await ids({ target_language: 'fr' })), ['package']);
      assert.deepEqual(keysOf(await ids({ target_language: 'fr,en' })), ['basket', 'package']);
    });

    test('filter status, with the virtual 3 (needs update) and 30 (needs review), and 0 on request', async () => {
      assert.deepEqual(keysOf(await ids({ status: '1' })), ['empty', 'strings', 'waiting']);
      assert.deepEqual(keysOf(await ids({ status: '2,40' })), ['annaProgress', 'package', 'retry']);
      assert.deepEqual(keysOf(await ids({ status: '3' })), ['annaOutdated']);
      assert.deepEqual(keysOf(await ids({ status: '30' })), ['review']);
      assert.deepEqual(keysOf(await ids({ status: '0' })), ['cancelled']);
      assert.deepEqual(keysOf(await ids({ status: '10' })), ['annaOutdated', 'benComplete', 'review']);
      assert.equal((await ids({ status: '' })).length, Object.keys(fx.jobs).length - 1);
      await refused({ status: '7' });
      await refused({ status: 'done' });
    });

    test('filter needs_update include / exclude', async () => {
      assert.deepEqual(keysOf(await ids({ needs_update: 'include' })), ['annaOutdated']);
      assert.ok(!(await ids({ needs_update: 'exclude' })).includes(fx.jobs.annaOutdated));
      assert.equal((await ids({ needs_update: 'exclude' })).length, Object.keys(fx.jobs).length - 2);
      await refused({ needs_update: 'yes' });
    });

    test('limit and offset page through the jobs; total counts all', async () => {
      const all = await ids({});
      const page1 = await listJobs(t.app, { limit: 3 }, fx.admin, 'en');
      const page2 = await listJobs(t.app, { limit: '3', offset: '3' }, fx.admin, 'en');
      assert.deepEqual(
        page1.jobs.map((j) => j.id),
        all.slice(0, 3),
      );
      assert.deepEqual(
        page2.jobs.map((j) => j.id),
        all.slice(3, 6),
      );
      assert.equal(page1.total, all.length);
      assert.equal(page2.total, all.length);
      assert.deepEqual(await ids({ limit: 0 }), all, 'no positive limit: all jobs');
      assert.deepEqual(await ids({ offset: 3 }), all, 'offset only with limit (reference)');
      await refused({ limit: 'ten' });
    });

    test('sorting by every column, both directions', async () => {
      const rows = (await listJobs(t.app, {}, fx.admin, 'en')).jobs;
      const check = async (column: string, key: (j: (typeof rows)[number]) => string | number) => {
        for (const dir of ['asc', 'desc'] as const) {
          const got = (await listJobs(t.app, { sorting: { [column]: dir } }, fx.admin, 'en')).jobs.map(key);
          const sorted = [...got].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
          if (dir === 'desc') sorted.reverse();
          assert.deepEqual(got, sorted, `${column} ${dir}`);
        }
      };
      await check('id', (j) => j.id);
      await check('title', (j) => j.element.name as string);
      await check('batch_name', (j) => j.batch.name);
      await check('language', (j) => j.language_codes.source);
      await check('sent_date', (j) => j.sent_date);
      await check('status', (j) => j.status);
      const byDeadline = (await listJobs(t.app, { sorting: { deadline_date: 'ASC' }, limit: 100 }, fx.admin, 'en')).jobs
        .map((j) => j.deadline)
        .filter(Boolean);
      assert.deepEqual(byDeadline, [...byDeadline].sort());
      const multi = (await listJobs(t.app, { sorting: { status: 'asc', id: 'desc' } }, fx.admin, 'en')).jobs;
      for (let i = 1; i < multi.length; i++) {
        const a = multi[i - 1]!;
        const b = multi[i]!;
        assert.ok(a.status < b.status || (a.status === b.status && a.id > b.id));
      }
      assert.deepEqual(parseJobQuery({ sorting: '{"title":"desc"}' }).sorting, [
        { column: 'title', direction: 'desc' },
      ]);
      await refused({ sorting: { password: 'asc' } });
      await refused({ sorting: { id: 'up' } });
      await refused({ sorting: ['id'] });
    });

    test('filter translated_by', async () => {
      assert.deepEqual(keysOf(await ids({ translated_by: String(fx.anna.id) })), [
        'annaOutdated',
        'annaProgress',
        'retry',
      ]);
      await refused({ translated_by: 'anna' });
    });

    test('filter sent and deadline dates (inclusive days)', async () => {
      assert.deepEqual(keysOf(await ids({ sent_from: '2026-03-11' })), ['duplicate', 'empty']);
      assert.deepEqual(keysOf(await ids({ sent_to: '2026-03-01' })), ['waiting']);
      assert.deepEqual(keysOf(await ids({ sent_from: '2026-03-04', sent_to: '2026-03-04' })), ['annaOutdated']);
      assert.deepEqual(keysOf(await ids({ deadline_from: '2026-03-15' })), ['retry', 'waiting']);
      assert.deepEqual(keysOf(await ids({ deadline_to: '2026-03-10' })), ['annaProgress']);
      assert.deepEqual(keysOf(await ids({ deadline_from: '2026-03-10', deadline_to: '2026-03-20' })), [
        'annaProgress',
        'waiting',
      ]);
      await refused({ sent_from: '2026-02-30' });
      await refused({ deadline_to: 'tomorrow' });
      const err = await refused({ sent_from: '2026-03-05', sent_to: '2026-03-01' });
      // A range that ends before it starts, in the language asked, in the pipeline's shape.
      const de = await callRoute(t.app, 'GET', '/de/cms-json/i18n/tm/v1/jobs', {
        query: { deadline_from: '2026-03-05', deadline_to: '2026-03-01' },
        user: fx.admin,
      });
      const body = de.body as { code: string; message: string; data: { params: object; details: unknown } };
      assert.deepEqual(
        [de.status, body.code, body.message],
        [400, 'rest_invalid_param', 'Ungültige(r) Parameter: deadline_to'],
      );
      assert.deepEqual(body.data.details, []);
      assert.ok((err.params as Record<string, string>).sent_to);
    });

    test('filters combine', async () => {
      assert.deepEqual(keysOf(await ids({ status: '1,2', target_language: 'de', translated_by: String(fx.anna.id) })), [
        'annaProgress',
      ]);
    });
  });

  describe(`i18n/tm assignment (${target.name})`, () => {
    let t: TestApp;
    let fx: Fixture;
    before(async () => {
      t = await createTestApp(target);
      fx = await createFixture(t.app);
    });
    after(async () => t.close());

    const job = (id: number) =>
      t.app.db.selectFrom('tm_jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    test('waiting → waiting, now assigned', async () => {
      const r = await assignJob(callerOf(t.app, fx.admin), { jobId: fx.jobs.waiting, translatorId: fx.anna.id });
      assert.equal(r.assigned, fx.anna.id);
      const row = await job(fx.jobs.waiting);
      assert.equal(row.status, 1);
      assert.equal(row.translator_id, fx.anna.id);
    });

    test('in progress handed to another translator waits again; same translator keeps it in progress', async () => {
      await assignJob(callerOf(t.app, fx.admin), { jobId: fx.jobs.annaProgress, translatorId: fx.anna.id });
      assert.equal((await job(fx.jobs.annaProgress)).status, 2);
      await assignJob(callerOf(t.app, fx.admin), { jobId: fx.jobs.annaProgress, translatorId: fx.ben.id });
      const row = await job(fx.jobs.annaProgress);
      assert.equal(row.status, 1);
      assert.equal(row.translator_id, fx.ben.id);
    });

    test('basket and ATE-retry jobs keep their status', async () => {
      await assignJob(callerOf(t.app, fx.admin), { jobId: fx.jobs.basket, translatorId: fx.ben.id });
      assert.equal((await job(fx.jobs.basket)).status, 20);
      await assignJob(callerOf(t.app, fx.admin), { jobId: fx.jobs.retry, translatorId: fx.ben.id });
      assert.equal((await job(fx.jobs.retry)).status, 40);
    });

    test('job types: default post; string and package jobs need their type', async () => {
      await expectError(
        () => assignJob(callerOf(t.app, fx.admin), { jobId: fx.jobs.strings, translatorId: fx.anna.id }),
        'i18n_job_not_found',
        404,
      );
      await assignJob(callerOf(t.app, fx.admin), {
        jobId: fx.jobs.strings,
        type: 'st-batch_strings',
        translatorId: fx.anna.id,
      });
      assert.equal((await job(fx.jobs.strings)).translator_id, fx.anna.id);
      await assignJob(callerOf(t.app, fx.admin), { jobId: fx.jobs.package, type: 'package', translatorId: fx.anna.id });
    });

    test('administrators hold translate and can be assigned', async () => {
      await assignJob(callerOf(t.app, fx.admin), { jobId: fx.jobs.empty, translatorId: fx.admin.id });
      assert.equal((await job(fx.jobs.empty)).translator_id, fx.admin.id);
    });

    test('invalid moves are 409 and change nothing', async () => {
      for (const key of ['benComplete', 'cancelled', 'duplicate', 'review']) {
        const before = await job(fx.jobs[key]!);
        const data = await expectError(
          () => assignJob(callerOf(t.app, fx.admin), { jobId: fx.jobs[key], translatorId: fx.anna.id }),
          'i18n_tm_job_not_assignable',
          409,
        );
        assert.equal(data.job_status, before.status);
        assert.deepEqual(await job(fx.jobs[key]!), before);
      }
      await expectError(
        () => assignJob(callerOf(t.app, fx.admin), { jobId: fx.jobs.remote, translatorId: fx.anna.id }),
        'i18n_tm_job_remote',
        409,
      );
    });

    test('unknown job 404; unknown, unfit and disabled translators 400 (bad and missing ids: test/i18n-tm/http.test.ts)', async () => {
      await expectError(
        () => assignJob(callerOf(t.app, fx.admin), { jobId: 999999, translatorId: fx.anna.id }),
        'i18n_job_not_found',
        404,
      );
      await expectError(
        () => assignJob(callerOf(t.app, fx.admin), { jobId: fx.jobs.waiting, translatorId: 999999 }),
        'i18n_tm_translator_not_found',
        400,
      );
      await expectError(
        () => assignJob(callerOf(t.app, fx.admin), { jobId: fx.jobs.waiting, translatorId: fx.subscriber.id }),
        'i18n_tm_not_a_translator',
        400,
      );
      await expectError(
        () => assignJob(callerOf(t.app, fx.admin), { jobId: fx.jobs.waiting, translatorId: fx.editor.id }),
        'i18n_tm_not_a_translator',
        400,
      );
      await expectError(
        () => assignJob(callerOf(t.app, fx.admin), { jobId: fx.jobs.waiting, translatorId: fx.disabled.id }),
        'i18n_tm_not_a_translator',
        400,
      );
    });

    test('translators may take unassigned jobs for themselves, nothing else', async () => {
      const free = await t.app.db
        .insertInto('tm_jobs')
        .values({
          type: 'post',
          element_id: 9001,
          element_type: 'post_page',
          title: 'Free job',
          element_url: null,
          source_language: 'en',
          target_language: 'de',
          status: 1,
          needs_update: 0,
          translation_service: 'local',
          editor: 'ate',
          automatic: 0,
          sent_date: '2026-03-20 10:00:00',
          created_at: '2026-03-20 10:00:00',
          updated_at: '2026-03-20 10:00:00',
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await expectError(
        () => assignJob(callerOf(t.app, fx.ben), { jobId: free.id, translatorId: fx.anna.id }),
        'i18n_tm_assign_forbidden',
        403,
      );
      const r = await assignJob(callerOf(t.app, fx.ben), { jobId: free.id, translatorId: fx.ben.id });
      assert.equal(r.assigned, fx.ben.id);
      await expectError(
        () => assignJob(callerOf(t.app, fx.anna), { jobId: free.id, translatorId: fx.anna.id }),
        'i18n_tm_assign_forbidden',
        403,
      );
    });
  });
}
