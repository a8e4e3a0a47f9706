// Doing translation jobs over HTTP on every database target: sending a page and a string to
// translation, who may see and write a job, the XLIFF as a file, its upload round trip (the
// German page and its label show the new texts), every kind of bad upload refused with a
// clear 400 and nothing stored, saving in place, and the activity-log entries of the writes.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/server/http.ts';
import { seedDemo as seedPages } from '../../src/pages/seed.ts';
import { LABELS_DOMAIN } from '../../src/pages/labels.ts';
import { getContentBySlug } from '../../src/pages/store.ts';
import { findStringId } from '../../src/namespaces/i18n-st/string-lookup.ts';
import type { ActivityEntry } from '../../src/site/activity.ts';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { userWithRole } from '../support/http.ts';

const NS = '/en/cms-json/i18n/tm/v1';

for (const target of dbTargets()) {
  describe(`doing translation jobs over HTTP (${target.name})`, () => {
    let t: TestApp;
    let server: FastifyInstance;
    const auth: Record<string, string> = {};
    const ids: Record<string, number> = {};
    const logged: ActivityEntry[] = [];
    let pageJob = 0;
    let stringJob = 0;
    let menuId = 0;

    before(async () => {
      t = await createTestApp(target);
      await seedPages(t.app);
      for (const [key, role] of [
        ['ada', 'administrator'],
        ['anna', 'translator'],
        ['ben', 'translator'],
        ['emil', 'editor'],
      ] as const) {
        const u = await userWithRole(t.app, role);
        auth[key] = u.authorization;
        ids[key] = u.user.id;
      }
      menuId = (await findStringId(t.app, { domain: LABELS_DOMAIN, name: 'menu' }))!;
      const real = t.app.activity;
      t.app.activity = {
        async log(entry, origin) {
          logged.push(entry);
          return real.log(entry, origin);
        },
      };
      server = await buildServer(t.app);
    });
    after(async () => {
      await server?.close();
      await t?.close();
    });

    const call = async (method: 'GET' | 'POST', path: string, who: string, payload?: unknown) => {
      const res = await server.inject({
        method,
        url: `${NS}${path}`,
        headers: {
          authorization: auth[who]!,
          ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
      });
      const json = /json/.test(String(res.headers['content-type'])) && res.body ? JSON.parse(res.body) : null;
      return { status: res.statusCode, body: json, text: res.body, headers: res.headers };
    };
    const publicPage = async (url: string) => (await server.inject({ method: 'GET', url })).body;
    const fieldTargets = async (jobId: number) =>
      await t.app.db
        .selectFrom('tm_job_fields')
        .select(['field_id', 'target'])
        .where('job_id', '=', jobId)
        .orderBy('position')
        .execute();

    test('a manager sends a page and a string to translation; others may not; an open job is not sent twice', async () => {
      const about = (await getContentBySlug(t.app, 'en', 'about'))!;
      for (const who of ['anna', 'emil']) {
        const refused = await call('POST', '/jobs/send', who, { content_ids: [about.id], target_language: 'de' });
        assert.equal(refused.status, 403, who);
      }
      const sent = await call('POST', '/jobs/send', 'ada', {
        content_ids: [about.id],
        string_ids: [menuId],
        target_language: 'de',
        translator_id: ids.anna,
        deadline: '2026-12-24',
        batch_name: 'Launch',
      });
      assert.equal(sent.status, 200, sent.text);
      assert.equal(sent.body.jobs.length, 2);
      const [page, strings] = sent.body.jobs;
      assert.deepEqual(
        [page.type, page.status, page.translator_id, page.deadline, page.batch.name],
        ['post', 1, ids.anna, '2026-12-24', 'Launch'],
      );
      assert.deepEqual([strings.type, strings.language_codes], ['st-batch_strings', { source: 'en', target: 'de' }]);
      pageJob = page.id;
      stringJob = strings.id;
      assert.match(
        page.edit_url,
        new RegExp(`/cms-admin/admin\\.php\\?page=i18n-tm/menu/translations-queue\\.php&job_id=${pageJob}$`),
      );
      assert.equal(logged.at(-1)!.messageKey, 'jobs_sent');
      const again = await call('POST', '/jobs/send', 'ada', { content_ids: [about.id], target_language: 'de' });
      assert.deepEqual([again.status, again.body.code], [409, 'i18n_tm_job_exists']);
      const same = await call('POST', '/jobs/send', 'ada', { content_ids: [about.id], target_language: 'en' });
      assert.deepEqual([same.status, same.body.code], [400, 'i18n_tm_same_language']);
      const nobody = await call('POST', '/jobs/send', 'ada', {
        content_ids: [about.id],
        target_language: 'de',
        translator_id: ids.emil,
      });
      assert.deepEqual([nobody.status, nobody.body.code], [400, 'i18n_tm_not_a_translator']);
      const missing = await call('POST', '/jobs/send', 'ada', { content_ids: [999999], target_language: 'de' });
      assert.equal(missing.status, 404);
      const badDate = await call('POST', '/jobs/send', 'ada', {
        content_ids: [about.id],
        target_language: 'de',
        deadline: '2026-02-30',
      });
      assert.deepEqual([badDate.status, badDate.body.code], [400, 'rest_invalid_param']);
    });

    test('the job with its fields: its translator and managers see it, others do not', async () => {
      const mine = await call('GET', `/jobs/${pageJob}`, 'anna');
      assert.equal(mine.status, 200);
      assert.deepEqual(
        mine.body.fields.map((f: { field_id: string }) => f.field_id),
        ['title', 'body', 'excerpt'],
      );
      assert.equal(mine.body.fields[0].source, 'About us');
      assert.equal(mine.body.workable, true);
      assert.equal((await call('GET', `/jobs/${pageJob}`, 'ada')).status, 200);
      const other = await call('GET', `/jobs/${pageJob}`, 'ben');
      assert.deepEqual([other.status, other.body.code], [403, 'i18n_tm_job_forbidden']);
      assert.equal((await call('GET', `/jobs/${pageJob}`, 'emil')).status, 403);
      assert.equal((await call('GET', '/jobs/99999999', 'ada')).body.code, 'i18n_job_not_found');
    });

    test('the XLIFF downloads as a file, not base64 in JSON', async () => {
      const res = await call('GET', `/jobs/${pageJob}/xliff`, 'anna');
      assert.equal(res.status, 200);
      assert.match(String(res.headers['content-type']), /^application\/x-xliff\+xml/);
      assert.equal(res.headers['content-disposition'], `attachment; filename="job-${pageJob}-en-de-about-us.xliff"`);
      assert.match(res.text, /^<\?xml version="1\.0"/);
      assert.match(res.text, /<trans-unit id="title"/);
      assert.equal((await call('GET', `/jobs/${pageJob}/xliff`, 'ben')).status, 403);
    });

    test('bad uploads are refused with a clear 400 and store nothing', async () => {
      const xliff = (await call('GET', `/jobs/${pageJob}/xliff`, 'anna')).text;
      const other = (await call('GET', `/jobs/${stringJob}/xliff`, 'anna')).text;
      const before = await fieldTargets(pageJob);
      const cases: [string, string, string][] = [
        ['malformed', xliff.slice(0, xliff.length - 40), 'i18n_xliff_malformed'],
        ['empty', '  ', 'i18n_xliff_malformed'],
        ['another job', other, 'i18n_xliff_wrong_job'],
        [
          'another language',
          xliff.replace('target-language="de"', 'target-language="fr"'),
          'i18n_xliff_wrong_language',
        ],
        [
          'a DTD with an external entity',
          xliff.replace('<xliff ', '<!DOCTYPE xliff [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n<xliff '),
          'i18n_xliff_dtd_refused',
        ],
        ['an undeclared entity', xliff.replace('<target>', '<target>&xxe;'), 'i18n_xliff_entity_refused'],
        ['an unknown unit', xliff.replace('id="excerpt"', 'id="password"'), 'i18n_xliff_unknown_unit'],
        [
          'a target with markup',
          xliff.replace(/<target>[^\n]*<\/target>/, '<target><b>x</b></target>'),
          'i18n_xliff_bad_unit',
        ],
        ['not XLIFF', '<?xml version="1.0"?><html/>', 'i18n_xliff_not_xliff'],
        // Refused in a single pass (a lazy regex over these took 20 s at this size).
        ['an unclosed tag run', '<a b="'.repeat(100_000), 'i18n_xliff_malformed'],
        ['an unclosed CDATA run', '<![CDATA['.repeat(60_000), 'i18n_xliff_malformed'],
      ];
      for (const [what, body, code] of cases) {
        const res = await call('POST', `/jobs/${pageJob}/xliff`, 'anna', { xliff: body });
        assert.deepEqual([res.status, res.body.code], [400, code], what);
        assert.ok(res.body.message.length > 10, what);
      }
      const malformed = await call('POST', `/jobs/${pageJob}/xliff`, 'anna', {
        xliff: xliff.replace('</source>', '</sorce>'),
      });
      assert.equal(typeof malformed.body.data.line, 'number');
      assert.ok(malformed.body.data.line > 1);
      assert.deepEqual(await fieldTargets(pageJob), before);
      const job = await t.app.db
        .selectFrom('tm_jobs')
        .select(['status'])
        .where('id', '=', pageJob)
        .executeTakeFirstOrThrow();
      assert.equal(job.status, 1);
      assert.equal((await call('POST', `/jobs/${pageJob}/xliff`, 'ben', { xliff })).status, 403);
      assert.ok(!logged.some((e) => e.messageKey === 'job_completed'));
    });

    test('the translated XLIFF completes the job and the German page shows it at once', async () => {
      const xliff = (await call('GET', `/jobs/${pageJob}/xliff`, 'anna')).text;
      const translated = xliff
        .replace(/(<trans-unit id="title"[\s\S]*?<target>)<!\[CDATA\[[^\]]*\]\]>/, '$1<![CDATA[Über uns & das Team]]>')
        .replace(
          /(<trans-unit id="body"[\s\S]*?<target>)<!\[CDATA\[[\s\S]*?\]\]>/,
          '$1<![CDATA[Wir bauen Software.\n\nUnser Team &amp; wir.]]>',
        )
        .replace(
          /(<trans-unit id="excerpt"[\s\S]*?<target>)<!\[CDATA\[[^\]]*\]\]>/,
          '$1Wer wir sind &amp; was wir tun &#8211; neu.',
        );
      const res = await call('POST', `/jobs/${pageJob}/xliff`, 'anna', { xliff: translated });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.job.status, 10);
      assert.equal(res.body.job.progress, 100);
      const de = (await getContentBySlug(t.app, 'de', 'ueber-uns'))!;
      assert.equal(res.body.applied.content_id, de.id);
      assert.equal(de.title, 'Über uns & das Team');
      assert.equal(de.content, 'Wir bauen Software.\n\nUnser Team &amp; wir.', 'CDATA is taken as it is');
      assert.equal(de.excerpt, 'Wer wir sind & was wir tun – neu.', 'text is decoded');
      assert.match(await publicPage('/de/ueber-uns/'), /Über uns &amp; das Team/);
      const entry = logged.at(-1)!;
      assert.equal(entry.messageKey, 'job_completed');
      assert.equal(entry.context!.via, 'xliff');
      assert.ok(
        logged.some((e) => e.messageKey === 'content_updated'),
        "the page's own log entry",
      );
    });

    test('saving in place: partial texts keep the job in progress; completing needs every field and applies the strings', async () => {
      const partial = await call('POST', `/jobs/${stringJob}/translations`, 'anna', { fields: {}, complete: true });
      assert.deepEqual([partial.status, partial.body.code], [400, 'i18n_tm_job_incomplete']);
      const unknown = await call('POST', `/jobs/${stringJob}/translations`, 'anna', {
        fields: { 'string-1': 'x', nope: 'y' },
      });
      assert.deepEqual([unknown.status, unknown.body.code], [400, 'i18n_tm_unknown_field']);
      const field = `string-${menuId}`;
      const draft = await call('POST', `/jobs/${stringJob}/translations`, 'anna', {
        fields: { [field]: 'Navigation' },
      });
      assert.equal(draft.status, 200);
      assert.equal(draft.body.job.status, 2);
      assert.match(await publicPage('/de/ueber-uns/'), /aria-label="Menü"/, 'a draft is not applied');
      const done = await call('POST', `/jobs/${stringJob}/translations`, 'anna', { fields: {}, complete: true });
      assert.equal(done.status, 200, done.text);
      assert.deepEqual(done.body.applied.string_ids, [menuId]);
      assert.match(await publicPage('/de/ueber-uns/'), /aria-label="Navigation"/);
      assert.deepEqual(
        logged.slice(-2).map((e) => e.messageKey),
        ['job_translation_saved', 'job_completed'],
      );
      const ben = await call('POST', `/jobs/${stringJob}/translations`, 'ben', { fields: {} });
      assert.equal(ben.status, 403);
    });

    test('inside one batch request: a correction saved, then the job completed again; a field named like an Object method is no text', async () => {
      const batch = await server.inject({
        method: 'POST',
        url: '/en/cms-json/batch/v1',
        headers: { authorization: auth.anna!, 'content-type': 'application/json' },
        payload: JSON.stringify({
          requests: [
            {
              method: 'POST',
              path: `/i18n/tm/v1/jobs/${pageJob}/translations`,
              body: { fields: { excerpt: 'Wer wir sind.' } },
            },
            { method: 'POST', path: `/i18n/tm/v1/jobs/${pageJob}/translations`, body: { fields: {}, complete: true } },
          ],
        }),
      });
      assert.equal(batch.statusCode, 207, batch.body);
      const [draft, done] = batch.json().responses;
      assert.deepEqual([draft.status, draft.body.job.status, done.status, done.body.job.status], [200, 2, 200, 10]);
      assert.equal((await getContentBySlug(t.app, 'de', 'ueber-uns'))!.excerpt, 'Wer wir sind.');
      // A job field whose id is an Object method's name, not sent: it has no text (a 400, not a crash).
      const odd = await t.app.db
        .insertInto('tm_job_fields')
        .values({
          job_id: pageJob,
          position: 9,
          field_id: 'toString',
          label: 'Odd',
          source: 'x',
          target: null,
          tm_suggestion: 0,
          finished: 0,
          wrap_tag: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const inherited = await call('POST', `/jobs/${pageJob}/translations`, 'anna', { fields: {}, complete: true });
      assert.deepEqual(
        [inherited.status, inherited.body.code, inherited.body.data.fields],
        [400, 'i18n_tm_job_incomplete', ['toString']],
      );
      await t.app.db.deleteFrom('tm_job_fields').where('id', '=', odd.id).execute();
    });

    test('jobs that are not local or not under way cannot be written', async () => {
      await t.app.db.updateTable('tm_jobs').set({ status: 20 }).where('id', '=', stringJob).execute();
      const res = await call('POST', `/jobs/${stringJob}/translations`, 'ada', { fields: {} });
      assert.deepEqual([res.status, res.body.code], [409, 'i18n_tm_job_not_workable']);
      await t.app.db.updateTable('tm_jobs').set({ status: 10 }).where('id', '=', stringJob).execute();
    });
  });
}
