// cms/v2's bounds over HTTP on every database target, with the error's code and shape (the
// statuses alone are in http.test.ts): ids and lists as the databases hold and bind them, paging,
// and date bounds inside the years 1000–9999 — each refusal a 400 rest_invalid_param naming the
// argument, never a 500.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/server/http.ts';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { assertInvalidParam, userWithRole, type RouteAnswer } from '../support/http.ts';

for (const target of dbTargets()) {
  describe(`cms/v2 bounds (${target.name})`, () => {
    let t: TestApp;
    let server: FastifyInstance;
    let editor: string;
    const call = async (
      method: 'GET' | 'POST',
      url: string,
      payload?: object,
    ): Promise<Pick<RouteAnswer, 'status' | 'body'>> => {
      const res = await server.inject({
        method,
        url: `/en/cms-json/cms/v2${url}`,
        headers: { authorization: editor },
        ...(payload ? { payload } : {}),
      });
      return { status: res.statusCode, body: res.json() };
    };

    before(async () => {
      t = await createTestApp(target);
      server = await buildServer(t.app);
      editor = (await userWithRole(t.app, 'editor')).authorization;
    });
    after(async () => {
      await server.close();
      await t.close();
    });

    test('ids up to int4 are looked up; beyond it a 400 naming the argument', async () => {
      assert.deepEqual((await call('GET', '/pages?include=2147483647')).body, []);
      for (const name of ['include', 'exclude', 'author', 'author_exclude', 'parent', 'parent_exclude']) {
        assertInvalidParam(
          await call('GET', `/pages?${name}=1,2147483648`),
          name,
          /^\w+\[1\] must be between 0 \(inclusive\) and 2147483647 \(inclusive\)$/,
          'rest_out_of_bounds',
        );
      }
      assertInvalidParam(
        await call('GET', '/pages?menu_order=-2147483648'),
        'menu_order',
        /between -2147483647 \(inclusive\) and 2147483647/,
        'rest_out_of_bounds',
      );
      assertInvalidParam(
        await call('POST', '/pages', { title: 'Bounds', parent: 2147483648 }),
        'parent',
        /between 0 \(inclusive\) and 2147483647/,
        'rest_out_of_bounds',
      );
      assertInvalidParam(
        await call('POST', '/posts', { title: 'Bounds', author: 0 }),
        'author',
        /between 1 \(inclusive\) and 2147483647/,
        'rest_out_of_bounds',
      );
      // The path's id is not bounded by the schema: an id no row has is the reference's 404.
      const missing = await call('GET', '/pages/99999999999');
      assert.deepEqual(missing, {
        status: 404,
        body: { code: 'rest_post_invalid_id', message: 'Invalid post ID.', data: { status: 404 } },
      });
    });

    test('lists: at most 1,000 items; per_page 1–100', async () => {
      const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1).join(',');
      assert.equal((await call('GET', `/pages?include=${ids(1000)}`)).status, 200);
      assertInvalidParam(
        await call('GET', `/pages?include=${ids(1001)}`),
        'include',
        /^include must contain at most 1,000 items\.$/,
        'rest_too_many_items',
      );
      assertInvalidParam(
        await call('GET', `/posts?slug=${ids(1001)}`),
        'slug',
        /at most 1,000 items/,
        'rest_too_many_items',
      );
      assert.equal((await call('GET', '/pages?per_page=100')).status, 200);
      for (const perPage of ['0', '101']) {
        assertInvalidParam(
          await call('GET', `/pages?per_page=${perPage}`),
          'per_page',
          /^per_page must be between 1 \(inclusive\) and 100 \(inclusive\)$/,
          'rest_out_of_bounds',
        );
      }
    });

    test('date bounds: years 1000–9999 in UTC, after the zone is applied', async () => {
      for (const name of ['after', 'before', 'modified_after', 'modified_before']) {
        assert.equal((await call('GET', `/posts?${name}=1000-01-01T00:00:00Z`)).status, 200, name);
        assert.equal((await call('GET', `/posts?${name}=9999-12-31T23:59:59Z`)).status, 200, name);
        // The same error as the format's, with its details: the years 1000–9999 are the arguments' check.
        assertInvalidParam(
          await call('GET', `/posts?${name}=0999-12-31T23:59:59Z`),
          name,
          /^Invalid date\.$/,
          'rest_invalid_date',
        );
        assertInvalidParam(
          await call('GET', `/posts?${name}=10000-01-01T00:00:00Z`),
          name,
          /^Invalid date\.$/,
          'rest_invalid_date',
        );
        // Years below 100 are not the 1900s (Date.UTC's reading of them).
        assertInvalidParam(
          await call('GET', `/posts?${name}=0050-06-01T00:00:00Z`),
          name,
          /^Invalid date\.$/,
          'rest_invalid_date',
        );
        assertInvalidParam(
          await call('GET', `/posts?${name}=0001-01-01T00:00:00`),
          name,
          /^Invalid date\.$/,
          'rest_invalid_date',
        );
      }
      // In range as written, out of range in UTC: the zone moves the bound past the year 1000 or 9999.
      assertInvalidParam(
        await call('GET', `/posts?after=${encodeURIComponent('1000-01-01T00:30:00+01:00')}`),
        'after',
        /^Invalid date\.$/,
        'rest_invalid_date',
      );
      assertInvalidParam(
        await call('GET', `/posts?before=${encodeURIComponent('9999-12-31T23:30:00-01:00')}`),
        'before',
        /^Invalid date\.$/,
        'rest_invalid_date',
      );
      // Out of range as written, in range in UTC.
      assert.equal((await call('GET', `/posts?after=${encodeURIComponent('0999-12-31T23:30:00-01:00')}`)).status, 200);
      const refused = await call('GET', `/posts?modified_before=${encodeURIComponent('0999-12-31T23:59:59+14:00')}`);
      assert.deepEqual(refused.body.data.details, {
        modified_before: { code: 'rest_invalid_date', message: 'Invalid date.', data: null },
      });
    });
  });
}
