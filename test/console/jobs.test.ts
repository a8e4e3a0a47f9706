// The translation management page over HTTP (Fastify inject) on every database target: who may
// open it, every job's edit_url opening that job, the filters against the API's answer for the
// same query, a manager sending a page to translation and assigning it, a translator doing
// the job through the forms (download, upload of a bad and of the translated file, saving in
// place) until the German page shows it, German texts.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/server/http.ts';
import { seedDemo as seedPages } from '../../src/pages/seed.ts';
import { getContentBySlug } from '../../src/pages/store.ts';
import { seedDemo as seedJobs } from '../../src/namespaces/i18n-tm/seed.ts';
import { dbTargets, type TestApp } from '../support/db.ts';
import { createWebTestApp, csrfOf, decodeEntities, type WebClient } from '../web/support.ts';
import { JOBS, api, consoleClient, seedConsoleSite, textOf, type SiteUser } from './support.ts';

/** Ids of the jobs a list page shows, in order. */
function listedJobs(html: string): number[] {
  return [...html.matchAll(/<tr id="job-(\d+)">/g)].map((m) => Number(m[1]));
}

for (const target of dbTargets()) {
  describe(`translation management page (${target.name})`, () => {
    let t: TestApp;
    let server: FastifyInstance;
    let users: Record<string, SiteUser>;
    let ada: WebClient;
    let tom: WebClient;
    let jobId = 0;

    before(async () => {
      t = await createWebTestApp(target);
      server = await buildServer(t.app);
      users = await seedConsoleSite(t.app, 20);
      await seedPages(t.app);
      await seedJobs(t.app);
      ada = await consoleClient(server, 'ada');
      tom = await consoleClient(server, 'tom');
    });
    after(async () => {
      await server?.close();
      await t?.close();
    });

    test('managers and translators open it; other roles are refused', async () => {
      for (const login of ['emil', 'sina']) {
        assert.equal((await (await consoleClient(server, login)).get(JOBS)).status, 403, login);
      }
      const page = await ada.get(JOBS);
      assert.equal(page.status, 200);
      assert.match(page.body, /<h1>Translation Management<\/h1>/);
      assert.match(page.body, /id="tm-send"/, 'managers send content to translation');
      const mine = await tom.get(JOBS);
      assert.equal(mine.status, 200);
      assert.match(mine.body, /<h1>Translation Jobs<\/h1>/);
      assert.doesNotMatch(mine.body, /id="tm-send"|class="inline-form assign-form"/);
      assert.deepEqual(listedJobs(mine.body), [], 'nothing is assigned to Tom yet');
    });

    test("every job's edit_url opens that job's page, and ams/console's addresses open the page", async () => {
      const all = await api(server, users.ada!, '/i18n/tm/v1/jobs', 'status=0,1,2,4,9,10,20,40,102');
      assert.ok(all.body.jobs.length >= 10);
      for (const job of all.body.jobs as { id: number; edit_url: string; element: { name: string } }[]) {
        const res = await ada.get(job.edit_url);
        assert.equal(res.status, 200, job.edit_url);
        assert.match(decodeEntities(res.body), new RegExp(`<h1>Job ${job.id}: `), job.edit_url);
      }
      // The management pages ams/console names.
      const amsConsole = await api(server, users.ada!, '/i18n/tm/v1/ams/console');
      for (const url of [amsConsole.body.url, amsConsole.body.jobs_url]) {
        let res = await ada.get(url);
        if (res.status === 302) res = await ada.get(res.location!);
        assert.equal(res.status, 200, url);
        assert.match(res.body, /<h1>Translation Management<\/h1>/, url);
      }
      const missing = await ada.get(`${JOBS}&job_id=99999999`);
      assert.equal(missing.status, 404);
      assert.match(textOf(missing.body), /There is no translation job with the ID 99999999/);
    });

    test("the filters in the address give the API's answer for the same query", async () => {
      const today = new Date().toISOString().slice(0, 10);
      const cases: [string, string][] = [
        ['', 'limit=20'],
        ['&status=10', 'limit=20&status=10'],
        ['&title=page&target_language=de', 'limit=20&title=page&target_language=de'],
        [
          `&translated_by=${(await t.app.db.selectFrom('users').select('id').where('login', '=', 'translator-anna').executeTakeFirstOrThrow()).id}`,
          '',
        ],
        ['&sent_from=2000-01-01&deadline_to=2100-01-01', 'limit=20&sent_from=2000-01-01&deadline_to=2100-01-01'],
        [`&sent_to=${today}&deadline_from=${today}`, `limit=20&sent_to=${today}&deadline_from=${today}`],
      ];
      for (const [query, apiQuery] of cases) {
        const page = await ada.get(JOBS + query);
        assert.equal(page.status, 200, query);
        const answer = await api(server, users.ada!, '/i18n/tm/v1/jobs', apiQuery || `limit=20${query}`);
        assert.deepEqual(
          listedJobs(page.body),
          answer.body.jobs.map((j: { id: number }) => j.id),
          query,
        );
        assert.match(textOf(page.body), new RegExp(`${answer.body.total} jobs`), query);
      }
    });

    test('a manager sends a page to translation and assigns it to a translator', async () => {
      const about = (await getContentBySlug(t.app, 'en', 'about'))!;
      const page = await ada.get(JOBS);
      assert.match(page.body, new RegExp(`name="content_ids\\[\\]" value="${about.id}"`));
      const sent = await ada.post(JOBS, {
        _csrf: csrfOf(page.body),
        action: 'send',
        'content_ids[]': [String(about.id)],
        target_language: 'de',
        deadline: '2030-01-31',
        batch_name: 'Console batch',
      });
      assert.equal(sent.status, 303, sent.body);
      const back = await ada.get(sent.location!);
      assert.match(textOf(back.body), /Translation jobs created: 1\./);
      jobId = listedJobs(back.body)[0]!;
      assert.match(textOf(back.body), /Console batch/);
      const assigned = await ada.post(JOBS, {
        _csrf: csrfOf(back.body),
        action: 'assign',
        job: String(jobId),
        translator: String(users.tom!.id),
        return_to: `http://localhost:8080${JOBS}`,
      });
      assert.equal(assigned.status, 303, assigned.body);
      assert.match(textOf((await ada.get(assigned.location!)).body), /The job has been assigned\./);
      const again = await ada.post(JOBS, {
        _csrf: csrfOf(back.body),
        action: 'send',
        'content_ids[]': [String(about.id)],
        target_language: 'de',
      });
      assert.equal(again.status, 409);
      assert.match(textOf(again.body), /already has an open translation job/);
    });

    test('the translator does the job through the forms: download, a bad upload, the translated upload, the German page', async () => {
      const list = await tom.get(JOBS);
      assert.deepEqual(listedJobs(list.body), [jobId]);
      const jobUrl = `${JOBS}&job_id=${jobId}`;
      const page = await tom.get(jobUrl);
      assert.equal(page.status, 200);
      assert.match(page.body, /<textarea id="field-0" name="fields\[title\]"/);
      const file = await tom.get(`${jobUrl}&download=xliff`);
      assert.equal(file.status, 200);
      assert.match(String(file.headers['content-type']), /^application\/x-xliff\+xml/);
      assert.match(
        String(file.headers['content-disposition']),
        new RegExp(`^attachment; filename="job-${jobId}-en-de-about-us\\.xliff"$`),
      );

      const bad = await tom.post(jobUrl, {
        _csrf: csrfOf(page.body),
        action: 'upload',
        xliff: file.body.replace('target-language="de"', 'target-language="fr"'),
      });
      assert.equal(bad.status, 400);
      assert.match(textOf(bad.body), /translates en → fr; job \d+ translates en → de/);
      const dtd = await tom.post(jobUrl, {
        _csrf: csrfOf(page.body),
        action: 'upload',
        xliff: `<!DOCTYPE x [<!ENTITY a "b">]>${file.body.replace(/^<\?xml[^>]*>/, '')}`,
      });
      assert.equal(dtd.status, 400);
      assert.match(textOf(dtd.body), /may not contain a DTD/);

      const draft = await tom.post(jobUrl, {
        _csrf: csrfOf(page.body),
        action: 'save',
        'fields[title]': 'Über uns (Entwurf)',
        complete: '0',
      });
      assert.equal(draft.status, 303, draft.body);
      const drafted = await tom.get(draft.location!);
      assert.match(textOf(drafted.body), /The translation has been saved\./);
      assert.match(drafted.body, />Über uns \(Entwurf\)<\/textarea>/);
      assert.match(textOf(drafted.body), /In progress/);

      const translated = file.body.replace(
        /(<trans-unit id="title"[\s\S]*?<target>)<!\[CDATA\[[^\]]*\]\]>/,
        '$1<![CDATA[Über das Team]]>',
      );
      const done = await tom.post(jobUrl, { _csrf: csrfOf(page.body), action: 'upload', xliff: translated });
      assert.equal(done.status, 303, done.body);
      const completed = await tom.get(done.location!);
      assert.match(textOf(completed.body), /The job is complete: its translation is now on the site\./);
      assert.match(completed.body, /id="job-status" data-status="10"/);
      const german = await server.inject({ method: 'GET', url: '/de/ueber-uns/' });
      assert.match(german.body, /<h1>Über das Team<\/h1>/);
    });

    test('German texts', async () => {
      const de = await consoleClient(server, 'tom');
      await de.post('/cms-admin/profile.php', {
        _csrf: csrfOf((await de.get('/cms-admin/profile.php')).body),
        action: 'language',
        locale: 'de',
        return_to: `http://localhost:8080${JOBS}`,
      });
      const page = await de.get(`${JOBS}&job_id=${jobId}`);
      assert.match(page.body, /<html lang="de"/);
      assert.match(textOf(page.body), /XLIFF-Datei herunterladen/);
      assert.match(textOf(page.body), /Mit einer XLIFF-Datei arbeiten/);
      const list = await de.get(JOBS);
      assert.match(list.body, /<h1>Übersetzungsaufträge<\/h1>/);
      await de.post('/cms-admin/profile.php', {
        _csrf: csrfOf((await de.get('/cms-admin/profile.php')).body),
        action: 'language',
        locale: 'en',
        return_to: `http://localhost:8080${JOBS}`,
      });
    });
  });
}
