// The demo content and the bench generator of translation management.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { generateJobs } from '../../src/namespaces/i18n-tm/generate-jobs.ts';
import { seedDemo } from '../../src/namespaces/i18n-tm/seed.ts';
import { listJobs } from '../../src/namespaces/i18n-tm/jobs.ts';
import { fetchXliff } from '../../src/namespaces/i18n-tm/xliff.ts';
import { getAteJob } from '../../src/namespaces/i18n-tm/ate.ts';
import { parseXliff } from './fixtures.ts';
import { MODULE_COMMANDS } from '../../src/modules.ts';

const jobsGenerateCommand = MODULE_COMMANDS.find((c) => c.name === 'jobs generate')!;
import { CliError } from '../../src/cli/command.ts';
import { PassThrough } from 'node:stream';

for (const target of dbTargets()) {
  describe(`i18n/tm seed and generator (${target.name})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(target);
    });
    after(async () => t.close());

    test('seedDemo creates translators and realistic jobs once; every XLIFF parses', async () => {
      const n = await seedDemo(t.app);
      assert.ok(n >= 10);
      assert.equal(await seedDemo(t.app), 0, 'idempotent');
      const translators = await t.app.db.selectFrom('users').select('login').where('role', '=', 'translator').execute();
      assert.ok(translators.some((u) => u.login === 'translator-anna'));
      const all = await listJobs(t.app, { status: '0,1,2,4,9,10,20,40,42,102' }, null, 'en');
      assert.equal(all.total, n);
      assert.deepEqual([...new Set(all.jobs.map((j) => j.type))].sort(), ['package', 'post', 'st-batch_strings']);
      assert.ok(new Set(all.jobs.map((j) => j.status)).size >= 6);
      for (const job of all.jobs) {
        const x = await fetchXliff(t.app, job.id, null);
        const doc = parseXliff(x.content);
        assert.equal(doc.xliff['@version'], '1.2');
        assert.ok(doc.xliff.file.body['trans-unit'].length >= 1);
        const editorJob = (job.extra_data as { editor_job_id?: number | null }).editor_job_id;
        if (editorJob) assert.equal((await getAteJob(t.app, editorJob)).i18n_job_id, job.id);
      }
    });

    test('generateJobs inserts the requested number of jobs with their fields', async () => {
      const before = (await listJobs(t.app, { status: '0,1,2,4,9,10,20,40,42,102', limit: 1 }, null, 'en')).total;
      assert.equal(await generateJobs(t.app, 1234), 1234);
      const after = await listJobs(t.app, { status: '0,1,2,4,9,10,20,40,42,102', limit: 5 }, null, 'en');
      assert.equal(after.total, before + 1234);
      const fields = await t.app.db
        .selectFrom('tm_job_fields')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      assert.ok(Number(fields.n) >= 1234 * 2);
      const page = await listJobs(
        t.app,
        { limit: 50, offset: 100, sorting: { sent_date: 'desc' }, target_language: 'de' },
        null,
        'en',
      );
      assert.equal(page.jobs.length, 50);
      assert.equal(await generateJobs(t.app, 0), 0);
    });

    test('CLI: jobs generate --count N', async () => {
      const out = new PassThrough();
      let text = '';
      out.on('data', (d) => (text += d));
      const ctx = { config: t.config, openApp: async () => t.app, stdout: out, stderr: new PassThrough() };
      const before = await t.app.db
        .selectFrom('tm_jobs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      assert.equal(await jobsGenerateCommand.run(['--count', '25'], ctx), 0);
      assert.equal(await jobsGenerateCommand.run(['--count=5'], ctx), 0);
      const after = await t.app.db
        .selectFrom('tm_jobs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      assert.equal(Number(after.n) - Number(before.n), 30);
      assert.match(text, /Added 25 jobs/);
      for (const bad of [[], ['--count'], ['--count', '-1'], ['--count', 'x'], ['--bogus']]) {
        await assert.rejects(() => jobsGenerateCommand.run(bad, ctx), CliError);
      }
    });
  });
}
