// Service-level tests of the XLIFF export, the local translation-editor (ATE) records, the
// account-service (AMS) features and the engines configuration — on every database target.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { buildXliff, cdata, fetchXliff } from '../../src/namespaces/i18n-tm/xliff.ts';
import { ateDataOf, createAteJobs, getAteJob, storeAteJob, type AteJobData } from '../../src/namespaces/i18n-tm/ate.ts';
import {
  amsConsole,
  amsStatus,
  getEngines,
  registerManager,
  synchronizeManagers,
  synchronizeTranslators,
  updateEngines,
} from '../../src/namespaces/i18n-tm/ams.ts';
import { callerOf, createFixture, expectError, parseXliff, type Fixture } from './fixtures.ts';

for (const target of dbTargets()) {
  describe(`i18n/tm XLIFF (${target.name})`, () => {
    let t: TestApp;
    let fx: Fixture;
    before(async () => {
      t = await createTestApp(target);
      fx = await createFixture(t.app);
    });
    after(async () => t.close());

    test('an XLIFF 1.2 document of the job, base64, with its languages', async () => {
      const res = await fetchXliff(t.app, fx.jobs.annaProgress!, fx.admin);
      assert.deepEqual(Object.keys(res), ['content', 'sourceLang', 'targetLang']);
      assert.equal(res.sourceLang, 'en');
      assert.equal(res.targetLang, 'de');
      const xml = Buffer.from(res.content, 'base64').toString('utf8');
      assert.match(xml, /^<\?xml version="1.0" encoding="utf-8"/);
      const doc = parseXliff(res.content);
      const xliff = doc.xliff;
      assert.equal(xliff['@version'], '1.2');
      assert.equal(xliff['@xmlns'], 'urn:oasis:names:tc:xliff:document:1.2');
      const file = xliff.file;
      assert.equal(file['@source-language'], 'en');
      assert.equal(file['@target-language'], 'de');
      assert.equal(file['@datatype'], 'plaintext');
      assert.match(file['@original'], new RegExp(`^${fx.jobs.annaProgress}-[0-9a-f]{32}$`));
      const units = file.body['trans-unit'];
      assert.equal(units.length, 2);
      assert.equal(units[0]['@id'], 'title');
      assert.equal(units[0]['@resname'], 'title');
      assert.equal(units[0]['@restype'], 'string');
      assert.equal(units[0]['@datatype'], 'html');
      assert.equal(units[0]['@extradata'], 'Title');
      assert.equal(units[0].source, 'Partner program');
      assert.equal(units[0].target, 'Partner program', 'untranslated target is a copy of the source');
      assert.equal(units[0].note, 'wrap_tag:h1');
      assert.equal(units[1]['@id'], 'body');
      assert.equal(units[1].source, '<p>Body of the page & more.</p>');
      const phases = file.header['phase-group'].phase;
      assert.deepEqual(
        phases.map((p: any) => p['@phase-name']),
        ['notes', 'post_type'],
      );
      assert.equal(phases[0].note, 'Keep tier names in English.');
      assert.equal(phases[1].note, 'post');
      assert.equal(file.header.reference['external-file']['@href'], 'http://localhost:8080/en/annaProgress/');
    });

    test('existing translations, TM suggestions, shortcodes and hostile text survive', async () => {
      const job = await t.app.db
        .selectFrom('tm_jobs')
        .selectAll()
        .where('id', '=', fx.jobs.benComplete!)
        .executeTakeFirstOrThrow();
      const xml = buildXliff(job, [
        {
          field_id: 'body',
          label: 'Body "main"',
          source: 'A ]]> B <b>&amp;</b> [gallery ids="1"] [/gallery]\u0001',
          target: 'Ä ]]> Ö',
          tm_suggestion: 1,
          wrap_tag: null,
        },
        {
          field_id: 'field-subtitle-0',
          label: null,
          source: "It's <fine>",
          target: null,
          tm_suggestion: 1,
          wrap_tag: 'h2',
        },
      ]);
      const doc = parseXliff(Buffer.from(xml).toString('base64'));
      const units = doc.xliff.file.body['trans-unit'];
      assert.equal(units[0].source, 'A ]]> B <b>&amp;</b> [gallery ids="1"] [/gallery]');
      assert.equal(units[0].target['#text'], 'Ä ]]> Ö');
      assert.equal(units[0].target['@state'], 'needs-review-translation');
      assert.equal(units[0].target['@state-qualifier'], 'tm-suggestion');
      assert.equal(units[0]['@extradata'], 'Body "main"');
      assert.equal(units[1].target, "It's <fine>", 'no TM state on a copied source');
      assert.equal(units[1]['@extradata'], undefined);
      const phases = doc.xliff.file.header['phase-group'].phase;
      assert.equal(phases[0]['@phase-name'], 'shortcodes');
      assert.equal(phases[0]['@process-name'], 'Shortcodes identification');
      assert.equal(phases[0].note, 'gallery');
      assert.equal(cdata('x]]>y'), '<![CDATA[x]]]]><![CDATA[>y]]>');
    });

    test('string and package jobs export too', async () => {
      const res = await fetchXliff(t.app, fx.jobs.package!, fx.admin);
      assert.equal(res.targetLang, 'fr');
      const file = parseXliff(res.content).xliff.file;
      assert.equal(file['@target-language'], 'fr');
      assert.equal(file.body['trans-unit'].length, 2);
    });

    test("404 unknown job, 403 another translator's job, 422 no units", async () => {
      await expectError(() => fetchXliff(t.app, 999999, fx.admin), 'i18n_job_not_found', 404);
      await expectError(() => fetchXliff(t.app, fx.jobs.benComplete!, fx.anna), 'i18n_tm_xliff_forbidden', 403);
      await expectError(() => fetchXliff(t.app, fx.jobs.waiting!, fx.anna), 'i18n_tm_xliff_forbidden', 403);
      await expectError(() => fetchXliff(t.app, 999999, fx.anna), 'i18n_job_not_found', 404);
      await expectError(() => fetchXliff(t.app, fx.jobs.empty!, fx.admin), 'i18n_xliff_no_translation_units', 422);
      const own = await fetchXliff(t.app, fx.jobs.annaProgress!, fx.anna);
      assert.equal(own.sourceLang, 'en');
    });
  });

  describe(`i18n/tm ATE jobs (${target.name})`, () => {
    let t: TestApp;
    let fx: Fixture;
    before(async () => {
      t = await createTestApp(target);
      fx = await createFixture(t.app);
    });
    after(async () => t.close());
    const job = (id: number) =>
      t.app.db.selectFrom('tm_jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    /** POST ate/jobs/store's service with the data as its argument hands it over (ateDataOf). */
    const store = (jobId: number, data: unknown) =>
      storeAteJob(callerOf(t.app, fx.admin), { jobId, ateJob: ateDataOf(data) as AteJobData });

    test('POST ate/jobs creates local editor jobs and links them', async () => {
      const res = await createAteJobs(callerOf(t.app, fx.admin), {
        jobs: [{ i18n_job_id: fx.jobs.waiting }, { id: String(fx.jobs.retry) }],
      });
      assert.equal(res.code, 200);
      assert.deepEqual(Object.keys(res.jobs).sort(), [String(fx.jobs.waiting), String(fx.jobs.retry)].sort());
      const w = await job(fx.jobs.waiting!);
      assert.equal(w.editor, 'ate');
      assert.equal(w.editor_job_id, res.jobs[String(fx.jobs.waiting)]);
      assert.equal(w.status, 1);
      assert.equal((await job(fx.jobs.retry!)).status, 1, 'ATE retry succeeded: waiting');
      const ate = await getAteJob(t.app, res.jobs[String(fx.jobs.retry)]!);
      assert.equal(ate.i18n_job_id, fx.jobs.retry);
      assert.equal(ate.ate_status, 0);
      assert.equal(ate.ate_status_name, 'created');
      assert.equal(ate.is_current, true);
      const b = await createAteJobs(callerOf(t.app, fx.admin), { job_ids: `${fx.jobs.basket}` });
      assert.equal((await job(fx.jobs.basket!)).status, 1, 'basket job sent');
      assert.ok(b.jobs[String(fx.jobs.basket)]! > res.jobs[String(fx.jobs.retry)]!);
      await createAteJobs(callerOf(t.app, fx.admin), { i18n_job_id: fx.jobs.annaOutdated }); // complete but outdated: a new round
    });

    test('POST ate/jobs refuses bad payloads, unknown jobs and invalid states, atomically', async () => {
      await expectError(() => createAteJobs(callerOf(t.app, fx.admin), {}), 'i18n_tm_ate_invalid_payload', 400);
      await expectError(
        () => createAteJobs(callerOf(t.app, fx.admin), { jobs: 'x' }),
        'i18n_tm_ate_invalid_payload',
        400,
      );
      await expectError(
        () => createAteJobs(callerOf(t.app, fx.admin), { jobs: [{ id: 'abc' }] }),
        'i18n_tm_ate_invalid_payload',
        400,
      );
      const before = await t.app.db
        .selectFrom('tm_ate_jobs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      await expectError(
        () => createAteJobs(callerOf(t.app, fx.admin), { job_ids: [fx.jobs.empty, 999999] }),
        'i18n_job_not_found',
        404,
      );
      await expectError(
        () => createAteJobs(callerOf(t.app, fx.admin), { job_ids: [fx.jobs.empty, fx.jobs.benComplete] }),
        'i18n_tm_ate_invalid_job_status',
        409,
      );
      await expectError(
        () => createAteJobs(callerOf(t.app, fx.admin), { job_ids: [fx.jobs.cancelled] }),
        'i18n_tm_ate_invalid_job_status',
        409,
      );
      await expectError(
        () => createAteJobs(callerOf(t.app, fx.admin), { job_ids: [fx.jobs.remote] }),
        'i18n_tm_job_remote',
        409,
      );
      const after = await t.app.db
        .selectFrom('tm_ate_jobs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      assert.equal(Number(after.n), Number(before.n));
      assert.equal((await job(fx.jobs.empty!)).editor_job_id, null);
    });

    test('POST ate/jobs/store links a job to a given editor job; updates; conflicts are 409', async () => {
      const r = await store(fx.jobs.annaProgress!, [{ ate_job_id: 50000, ate_status: 1, batch: 'x' }]);
      assert.deepEqual(r, { jobId: fx.jobs.annaProgress, ateJobId: 50000, created: true });
      const row = await job(fx.jobs.annaProgress!);
      assert.equal(row.editor_job_id, 50000);
      assert.equal(row.status, 2);
      let ate = await getAteJob(t.app, 50000);
      assert.equal(ate.ate_status, 1);
      assert.deepEqual(ate.data, { ate_job_id: 50000, ate_status: 1, batch: 'x' });
      const again = await store(fx.jobs.annaProgress!, [{ ate_job_id: '50000', ate_status: 6 }]);
      assert.equal(again.created, false);
      ate = await getAteJob(t.app, 50000);
      assert.equal(ate.ate_status, 6);
      assert.equal(ate.data.batch, 'x');
      await store(fx.jobs.package!, ['50001']);
      assert.equal((await job(fx.jobs.package!)).editor_job_id, 50001);
      await store(fx.jobs.strings!, { ate_job_id: 50002 });
      await expectError(() => store(fx.jobs.waiting!, [{ ate_job_id: 50000 }]), 'i18n_tm_ate_job_conflict', 409);
      // Ids generated after explicit ones do not collide.
      const created = await createAteJobs(callerOf(t.app, fx.admin), { job_ids: [fx.jobs.empty] });
      assert.ok(created.jobs[String(fx.jobs.empty)]! > 50002);
    });

    test('POST ate/jobs/store: unknown and remote jobs; the editor job data its argument refuses', async () => {
      await expectError(() => store(999999, [{ ate_job_id: 1 }]), 'i18n_job_not_found', 404);
      await expectError(() => store(fx.jobs.remote!, [{ ate_job_id: 60000 }]), 'i18n_tm_job_remote', 409);
      // The argument's check (bad ids and missing arguments over HTTP: test/i18n-tm/http.test.ts).
      for (const data of [[], [{ foo: 1 }], [{ ate_job_id: 5, ate_status: 99 }], 'x', 7])
        assert.equal(typeof ateDataOf(data), 'string', JSON.stringify(data));
    });

    test('GET ate/jobs/<id>: object and 404', async () => {
      const created = await createAteJobs(callerOf(t.app, fx.admin), { job_ids: [fx.jobs.annaOutdated] });
      const id = Object.values(created.jobs)[0]!;
      const ate = await getAteJob(t.app, id, 'de');
      assert.equal(ate.ate_job_id, id);
      assert.equal(ate.i18n_job_id, fx.jobs.annaOutdated);
      assert.equal(ate.job_status, 10);
      assert.equal(ate.needs_update, true);
      assert.deepEqual(ate.languages, { source: 'Englisch', target: 'Deutsch' });
      assert.match(ate.urls.editor, new RegExp(`ate_job_id=${id}$`));
      await expectError(() => getAteJob(t.app, 987654), 'i18n_tm_ate_job_not_found', 404);
    });
  });

  describe(`i18n/tm AMS and engines (${target.name})`, () => {
    let t: TestApp;
    let fx: Fixture;
    before(async () => {
      t = await createTestApp(target);
      fx = await createFixture(t.app);
    });
    after(async () => t.close());

    test('status before registration, register_manager, status after', async () => {
      const before = await amsStatus(t.app);
      assert.equal(before.activated, false);
      assert.equal(before.manager, null);
      assert.equal(before.service, 'local');
      assert.equal(before.translators, 3, 'anna, ben and the administrator');
      assert.equal(before.managers, 1);
      const reg = await registerManager(callerOf(t.app, fx.admin));
      assert.equal(reg.enabled, true);
      assert.equal(reg.manager.id, fx.admin.id);
      const after = await amsStatus(t.app);
      assert.equal(after.activated, true);
      assert.deepEqual(after.manager, { id: fx.admin.id, name: 'Ada Admin', email: fx.admin.email });
      assert.match(String(after.site_id), /^[0-9a-f-]{36}$/);
      assert.match(String(after.registered_at), /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      await expectError(() => registerManager(callerOf(t.app, fx.anna)), 'i18n_tm_not_a_manager', 403);
    });

    test('synchronize translators and managers from local users', async () => {
      const tr = await synchronizeTranslators(callerOf(t.app, fx.admin));
      assert.deepEqual(
        tr.result.translators.map((u) => u.id).sort((a, b) => a - b),
        [fx.admin.id, fx.anna.id, fx.ben.id].sort((a, b) => a - b),
      );
      const anna = tr.result.translators.find((u) => u.id === fx.anna.id)!;
      assert.deepEqual(Object.keys(anna), ['id', 'login', 'name', 'email', 'role', 'activated']);
      assert.equal(anna.name, 'Anna Becker');
      assert.equal(anna.activated, true);
      const mg = await synchronizeManagers(callerOf(t.app, fx.admin));
      assert.deepEqual(
        mg.result.managers.map((u) => u.id),
        [fx.admin.id],
      );
      const status = await amsStatus(t.app);
      assert.ok(status.translators_synced_at);
      assert.ok(status.managers_synced_at);
    });

    test('console describes the local setup', () => {
      const c = amsConsole(t.app, fx.admin);
      assert.equal(c.mode, 'local');
      assert.match(String(c.url), /^http:\/\/localhost:8080\/cms-admin\//);
    });

    test('engines: defaults, validated updates, stored', async () => {
      const initial = getEngines(t.app).engines;
      assert.deepEqual(
        initial.map((e) => [e.id, e.enabled, e.priority]),
        [
          ['deepl', true, 1],
          ['google', true, 2],
          ['microsoft', false, 3],
        ],
      );
      const r = await updateEngines(callerOf(t.app, fx.admin), [
        { id: 'microsoft', enabled: true, priority: 1 },
        { id: 'deepl', priority: 2 },
      ]);
      assert.deepEqual(r.changed.sort(), ['deepl', 'microsoft']);
      assert.deepEqual(
        getEngines(t.app).engines.map((e) => [e.id, e.enabled, e.priority]),
        [
          ['microsoft', true, 1],
          ['deepl', true, 2],
          ['google', true, 2],
        ],
      );
      await updateEngines(callerOf(t.app, fx.admin), { google: false });
      assert.equal(getEngines(t.app).engines.find((e) => e.id === 'google')!.enabled, false);
      await t.app.options.load(); // stored, not only cached
      assert.equal(getEngines(t.app).engines.find((e) => e.id === 'google')!.enabled, false);
      const before = JSON.stringify(getEngines(t.app));
      const bad = await expectError(
        () =>
          updateEngines(callerOf(t.app, fx.admin), [
            { id: 'babelfish', enabled: true },
            { id: 'deepl', enabled: 'maybe' },
          ]),
        'i18n_tm_invalid_engines',
        400,
      );
      assert.deepEqual(Object.keys(bad.params as object).sort(), ['engines[0].id', 'engines[1].enabled']);
      await expectError(
        () => updateEngines(callerOf(t.app, fx.admin), [{ id: 'deepl', priority: 0 }]),
        'i18n_tm_invalid_engines',
        400,
      );
      await expectError(
        () => updateEngines(callerOf(t.app, fx.admin), [{ id: 'deepl' }, { id: 'deepl' }]),
        'i18n_tm_invalid_engines',
        400,
      );
      await expectError(() => updateEngines(callerOf(t.app, fx.admin), []), 'i18n_tm_invalid_engines', 400);
      await expectError(() => updateEngines(callerOf(t.app, fx.admin), 'deepl'), 'i18n_tm_invalid_engines', 400);
      await expectError(() => updateEngines(callerOf(t.app, fx.admin), undefined), 'i18n_tm_invalid_engines', 400);
      assert.equal(JSON.stringify(getEngines(t.app)), before, 'nothing stored on error');
    });
  });
}
