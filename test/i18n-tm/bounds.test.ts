// i18n/tm/v1's jobs/* arguments and bounds over HTTP on every database target, with the error's
// code and shape: ids as the databases hold them, the sizes of one send, numbers beyond a safe
// integer, missing and mistyped arguments, and job ids no row has (a 404, never a 500).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/server/http.ts';
import { seedDemo } from '../../src/pages/seed.ts';
import { getContentBySlug } from '../../src/pages/store.ts';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { assertInvalidParam, userWithRole, type RouteAnswer } from '../support/http.ts';

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

for (const target of dbTargets()) {
  describe(`i18n/tm/v1 jobs bounds (${target.name})`, () => {
    let t: TestApp;
    let server: FastifyInstance;
    let admin: string;
    let about: number;
    const call = async (
      method: 'GET' | 'POST',
      url: string,
      payload?: object,
    ): Promise<Pick<RouteAnswer, 'status' | 'body'>> => {
      const res = await server.inject({
        method,
        url: `/en/cms-json/i18n/tm/v1${url}`,
        headers: { authorization: admin },
        ...(payload ? { payload } : {}),
      });
      return { status: res.statusCode, body: res.json() };
    };
    const jobCount = async () =>
      Number(
        (
          await t.app.db
            .selectFrom('tm_jobs')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );

    before(async () => {
      t = await createTestApp(target);
      await seedDemo(t.app);
      server = await buildServer(t.app);
      admin = (await userWithRole(t.app, 'administrator')).authorization;
      about = (await getContentBySlug(t.app, 'en', 'about'))!.id;
    });
    after(async () => {
      await server.close();
      await t.close();
    });

    test('POST /jobs/send: ids up to int4, at most 100 items and 500 strings, a real date of the years 1000–9999, a short batch name; nothing sent when refused', async () => {
      const send = (body: object) =>
        call('POST', '/jobs/send', { content_ids: [about], target_language: 'de', ...body });
      assertInvalidParam(
        await send({ content_ids: [2147483648] }),
        'content_ids',
        /^content_ids\[0\] must be between 1 \(inclusive\) and 2147483647 \(inclusive\)$/,
        'rest_out_of_bounds',
      );
      assertInvalidParam(
        await send({ content_ids: [0] }),
        'content_ids',
        /between 1 \(inclusive\)/,
        'rest_out_of_bounds',
      );
      assertInvalidParam(
        await send({ content_ids: range(101) }),
        'content_ids',
        /^content_ids must contain at most 100 items\.$/,
        'rest_too_many_items',
      );
      assertInvalidParam(
        await send({ string_ids: range(501) }),
        'string_ids',
        /^string_ids must contain at most 500 items\.$/,
        'rest_too_many_items',
      );
      assertInvalidParam(
        await send({ translator_id: 2147483648 }),
        'translator_id',
        /between 1 \(inclusive\) and 2147483647/,
        'rest_out_of_bounds',
      );
      assertInvalidParam(
        await send({ target_language: 'fr' }),
        'target_language',
        /^target_language is not one of en( and|,) de\.$/,
      );
      for (const deadline of ['2026-02-30', '10000-01-01', '0999-12-31', '0000-01-01', 'tomorrow']) {
        assertInvalidParam(await send({ deadline }), 'deadline', /^deadline must be a date YYYY-MM-DD\.$/);
      }
      assertInvalidParam(
        await send({ batch_name: 'x'.repeat(251) }),
        'batch_name',
        /^batch_name must be at most 250 characters long\.$/,
        'rest_too_long',
      );
      const missing = await call('POST', '/jobs/send', { content_ids: [about] });
      assert.deepEqual(
        [missing.status, missing.body],
        [
          400,
          {
            code: 'rest_missing_callback_param',
            message: 'Missing parameter(s): target_language',
            data: { status: 400, params: ['target_language'] },
          },
        ],
      );
      assert.equal(await jobCount(), 0, 'no refused send made a job');
      const sent = await send({ batch_name: 'x'.repeat(250), deadline: '2026-12-24' });
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
      assert.equal(await jobCount(), 1);
    });

    test('GET /jobs: limit and offset beyond a safe integer are a 400, not a database error', async () => {
      assertInvalidParam(
        await call('GET', '/jobs?limit=5&offset=9223372036854775808'),
        'offset',
        /^offset must be between -9007199254740991 \(inclusive\) and 9007199254740991 \(inclusive\)$/,
        'rest_out_of_bounds',
      );
      assertInvalidParam(
        await call('GET', '/jobs?limit=99999999999999999999'),
        'limit',
        /^limit must be between/,
        'rest_out_of_bounds',
      );
      assertInvalidParam(
        await call('GET', '/jobs?deadline_from=10000-01-01'),
        'deadline_from',
        /must be a date YYYY-MM-DD/,
      );
      assertInvalidParam(await call('GET', '/jobs?sent_to=0999-12-31'), 'sent_to', /must be a date YYYY-MM-DD/);
      assert.equal((await call('GET', '/jobs?sent_from=1000-01-01&deadline_to=9999-12-31')).status, 200);
      assert.equal((await call('GET', '/jobs?limit=9007199254740991&offset=9007199254740991')).status, 200);
    });

    test('jobs/<id>: arguments of translations and xliff; ids no row has (also 0, past int4 and past 16 digits) are 404 naming the id as given', async () => {
      assertInvalidParam(
        await call('POST', '/jobs/1/translations', { fields: 'x' }),
        'fields',
        /^fields is not of type object\.$/,
        'rest_invalid_type',
      );
      for (const [url, name] of [
        ['/jobs/1/translations', 'fields'],
        ['/jobs/1/xliff', 'xliff'],
      ] as const) {
        const res = await call('POST', url, {});
        assert.deepEqual(
          [res.status, res.body],
          [
            400,
            {
              code: 'rest_missing_callback_param',
              message: `Missing parameter(s): ${name}`,
              data: { status: 400, params: [name] },
            },
          ],
        );
      }
      for (const id of ['999999', '2147483648', '99999999999999999999']) {
        for (const [method, url, body] of [
          ['GET', `/jobs/${id}`],
          ['GET', `/jobs/${id}/xliff`],
          ['POST', `/jobs/${id}/translations`, { fields: {} }],
        ] as const) {
          const res = await call(method, url, body);
          assert.equal(res.status, 404, `${method} ${url}`);
          assert.equal(res.body.code, 'i18n_job_not_found', `${method} ${url}`);
          assert.equal(res.body.data.status, 404);
          // The id as given, not what an int could hold of it.
          assert.equal(res.body.message, `There is no translation job with the ID ${id}.`, `${method} ${url}`);
        }
        const ate = await call('GET', `/ate/jobs/${id}`);
        assert.deepEqual([ate.status, ate.body.code, ate.body.data.status], [404, 'i18n_tm_ate_job_not_found', 404]);
        assert.equal(ate.body.message, `There is no translation editor job with the ID ${id}.`);
      }
      const fetched = await call('GET', '/xliff/fetch/99999999999999999999');
      assert.deepEqual(
        [fetched.status, fetched.body.message],
        [404, 'There is no translation job with the ID 99999999999999999999.'],
      );
      const zero = await call('GET', '/jobs/0');
      assert.deepEqual(
        [zero.status, zero.body.code, zero.body.message],
        [404, 'i18n_job_not_found', 'There is no translation job with the ID 0.'],
      );
    });
  });
}
