// i18n/v1 over HTTP: declarations, permissions, storing and validating the custom XML
// configuration, refusal of DTDs / entity bombs / oversized input, and the activity log —
// on every database target.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/server/http.ts';
import { i18nLogger } from '../../src/namespaces/i18n/logger.ts';
import type { ActivityEntry } from '../../src/site/activity.ts';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { callRoute, userWithRole } from '../support/http.ts';
import type { AuthUser } from '../../src/auth/types.ts';
import { MAX_XML_BYTES, MAX_XML_ELEMENTS } from '../../src/namespaces/i18n/xml-check.ts';
import { MEANWHILE_LIMIT_MS, meanwhileSettled } from '../support/latency.ts';
import { VALID_CONFIG } from './fixtures.ts';

const NS = '/en/cms-json/i18n/v1';

for (const target of dbTargets()) {
  describe(`i18n/v1 over HTTP (${target.name})`, () => {
    let t: TestApp;
    let server: FastifyInstance;
    const auth: Record<string, string> = {};
    const users: Record<string, AuthUser> = {};
    const logged: ActivityEntry[] = [];
    /** While set, the activity log's writes fail (a full disk, a lost connection). */
    let logFails = false;

    before(async () => {
      t = await createTestApp(target);
      const real = t.app.activity;
      t.app.activity = {
        async log(entry, origin) {
          if (logFails) throw new Error('activity log unavailable');
          logged.push(entry);
          return real.log(entry, origin);
        },
      };
      server = await buildServer(t.app);
      for (const role of ['administrator', 'editor', 'translator'] as const)
        ({ authorization: auth[role], user: users[role] } = await userWithRole(t.app, role));
    });
    after(async () => {
      await server.close();
      await t.close();
    });

    const call = (method: 'GET' | 'POST', path: string, who: string | null = 'administrator', payload?: unknown) =>
      callRoute(t.app, method, `${NS}${path}`, {
        user: who ? users[who] : null,
        ...(typeof payload === 'string' ? { json: payload } : { body: payload }),
      });

    test('the namespace index lists the three routes, without declared body fields', async () => {
      const body = (await call('GET', '', null)).body;
      assert.deepEqual(
        Object.keys(body.routes)
          .filter((r) => r !== '/i18n/v1')
          .sort(),
        ['/i18n/v1/custom-xml-config', '/i18n/v1/custom-xml-config/validate'],
      );
      assert.deepEqual(body.routes['/i18n/v1/custom-xml-config'].methods, ['GET', 'POST']);
      assert.deepEqual(body.routes['/i18n/v1/custom-xml-config/validate'].methods, ['POST']);
      for (const route of ['/i18n/v1/custom-xml-config', '/i18n/v1/custom-xml-config/validate']) {
        for (const ep of body.routes[route].endpoints) assert.deepEqual(Object.keys(ep.args), ['i18n_language']);
      }
    });

    test('permissions: manage_options only', async () => {
      for (const [method, path, payload] of [
        ['GET', '/custom-xml-config', undefined],
        ['POST', '/custom-xml-config', { content: '' }],
        ['POST', '/custom-xml-config/validate', { content: '' }],
      ] as const) {
        assert.equal((await call(method, path, null, payload)).status, 401);
        assert.equal((await call(method, path, 'editor', payload)).status, 403);
        assert.equal((await call(method, path, 'translator', payload)).status, 403);
        assert.equal((await call(method, path, 'administrator', payload)).status, 200);
      }
    });

    test('store, read back, applied to the string registry, logged', async () => {
      logged.length = 0;
      const saved = await call('POST', '/custom-xml-config', 'administrator', { content: VALID_CONFIG });
      assert.equal(saved.status, 200);
      assert.equal(saved.body, VALID_CONFIG);
      assert.equal((await call('GET', '/custom-xml-config')).body, VALID_CONFIG);
      assert.equal(logged.length, 1);
      assert.equal(logged[0]!.logger, i18nLogger.slug);
      assert.equal(logged[0]!.messageKey, 'custom_xml_config_updated');
      assert.ok(logged[0]!.messageKey in i18nLogger.messages);
      assert.equal(logged[0]!.context!.custom_types, 2);
      // The admin texts are now strings of the registry (i18n/st/v1).
      const strings = await server.inject({
        method: 'GET',
        url: '/en/cms-json/i18n/st/v1/strings?domain=admin_texts_blogname',
        headers: { authorization: auth.administrator! },
      });
      const list = JSON.parse(strings.body);
      assert.equal(list.length, 1);
      assert.equal(list[0].name, 'blogname');
      assert.equal(list[0].title, 'Content Site');
      // Form-encoded bodies work as well.
      const form = await server.inject({
        method: 'POST',
        url: `${NS}/custom-xml-config`,
        headers: { authorization: auth.administrator!, 'content-type': 'application/x-www-form-urlencoded' },
        payload: `content=${encodeURIComponent('<wpml-config><custom-types><custom-type translate="1">news</custom-type></custom-types></wpml-config>')}`,
      });
      assert.equal(form.statusCode, 200);
      assert.match((await call('GET', '/custom-xml-config')).body, /news/);
    });

    test('a failed activity-log write after the save is not an error: 200, the configuration stored, the failure in the process log', async () => {
      const errors: unknown[] = [];
      const realError = t.app.log.error;
      t.app.log.error = ((obj: unknown) => errors.push(obj)) as typeof realError;
      logFails = true;
      try {
        const content =
          '<wpml-config><custom-types><custom-type translate="1">unlogged</custom-type></custom-types></wpml-config>';
        const saved = await call('POST', '/custom-xml-config', 'administrator', { content });
        assert.equal(saved.status, 200);
        assert.equal(saved.body, content);
      } finally {
        logFails = false;
        t.app.log.error = realError;
      }
      assert.match((await call('GET', '/custom-xml-config')).body, /unlogged/);
      assert.equal(errors.length, 1);
      assert.deepEqual(
        { ...(errors[0] as object), err: undefined },
        { err: undefined, logger: i18nLogger.slug, messageKey: 'custom_xml_config_updated' },
      );
    });

    test('validate: [] or the list of problems, never stored', async () => {
      const ok = await call('POST', '/custom-xml-config/validate', 'administrator', { content: VALID_CONFIG });
      assert.equal(ok.status, 200);
      assert.deepEqual(ok.body, []);
      const bad = await call('POST', '/custom-xml-config/validate', 'administrator', {
        content:
          '<wpml-config>\n<custom-types><custom-type translate="7">x</custom-type></custom-types>\n<nope/></wpml-config>',
      });
      assert.equal(bad.status, 200);
      assert.equal(bad.body.length, 2);
      for (const e of bad.body)
        assert.deepEqual(Object.keys(e), ['level', 'code', 'column', 'message', 'file', 'line']);
      const broken = await call('POST', '/custom-xml-config/validate', 'administrator', {
        content: '<wpml-config><a></b></wpml-config>',
      });
      assert.equal(broken.body[0].level, 3);
      const doctype = await call('POST', '/custom-xml-config/validate', 'administrator', {
        content: '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><wpml-config>&e;</wpml-config>',
      });
      assert.equal(doctype.status, 200);
      assert.match(doctype.body[0].message, /DOCTYPE/);
      assert.doesNotMatch((await call('GET', '/custom-xml-config')).body, /nope|passwd/);
    });

    test('refused input: invalid, DOCTYPE, entity bomb, missing, wrong type, oversized', async () => {
      const before = (await call('GET', '/custom-xml-config')).body;
      logged.length = 0;
      const invalid = await call('POST', '/custom-xml-config', 'administrator', {
        content: '<wpml-config><custom-types></wpml-config>',
      });
      assert.equal(invalid.status, 400);
      assert.equal(invalid.body.code, 'i18n_xml_invalid');
      assert.equal(invalid.body.data.status, 400);
      assert.ok(invalid.body.data.errors.length >= 1);
      const xxe = await call('POST', '/custom-xml-config', 'administrator', {
        content:
          '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><wpml-config>&x;</wpml-config>',
      });
      assert.equal(xxe.status, 400);
      assert.equal(xxe.body.code, 'i18n_xml_doctype_forbidden');
      let bomb = '<!DOCTYPE lolz [<!ENTITY lol "lol">';
      for (let i = 1; i < 10; i++) bomb += `<!ENTITY lol${i} "${`&lol${i === 1 ? '' : i - 1};`.repeat(10)}">`;
      bomb += ']><wpml-config>&lol9;</wpml-config>';
      const b = await call('POST', '/custom-xml-config', 'administrator', { content: bomb });
      assert.equal(b.status, 400);
      assert.equal(b.body.code, 'i18n_xml_doctype_forbidden');
      const deXxe = await call('POST', '/custom-xml-config?i18n_language=de', 'administrator', {
        content: '<!DOCTYPE a><wpml-config/>',
      });
      assert.match(deXxe.body.message, /darf keine DOCTYPE/);
      const missing = await call('POST', '/custom-xml-config', 'administrator', {});
      assert.equal(missing.status, 400);
      assert.equal(missing.body.code, 'i18n_xml_missing_content');
      assert.equal((await call('POST', '/custom-xml-config/validate', 'administrator', {})).status, 400);
      const typed = await call('POST', '/custom-xml-config', 'administrator', { content: { a: 1 } });
      assert.equal(typed.status, 400);
      const big = await call('POST', '/custom-xml-config/validate', 'administrator', {
        content: `<wpml-config>${' '.repeat(1024 * 1024)}</wpml-config>`,
      });
      assert.equal(big.status, 413);
      assert.ok(big.body.code);
      assert.equal((await call('GET', '/custom-xml-config')).body, before);
      assert.equal(logged.length, 0, 'refused writes are not logged');
    });

    test('empty content clears the configuration and is logged as such', async () => {
      logged.length = 0;
      const res = await call('POST', '/custom-xml-config', 'administrator', { content: '' });
      assert.equal(res.status, 200);
      assert.equal(res.body, '');
      assert.equal((await call('GET', '/custom-xml-config')).body, '');
      assert.equal(logged[0]!.messageKey, 'custom_xml_config_cleared');
    });

    test('validate and store work inside a batch request', async () => {
      const res = await server.inject({
        method: 'POST',
        url: '/en/cms-json/batch/v1',
        headers: { authorization: auth.administrator!, 'content-type': 'application/json' },
        payload: JSON.stringify({
          requests: [
            { path: '/i18n/v1/custom-xml-config/validate', body: { content: '<wpml-config/>' } },
            { path: '/i18n/v1/custom-xml-config', body: { content: '<wpml-config/>' } },
            { path: '/i18n/v1/custom-xml-config', body: { content: '<!DOCTYPE a><wpml-config/>' } },
          ],
        }),
      });
      assert.equal(res.statusCode, 207);
      assert.deepEqual(
        JSON.parse(res.body).responses.map((r: { status: number }) => r.status),
        [200, 200, 400],
      );
    });

    test('the worst shapes up to the size limit are checked without holding up other requests (issue 25)', async () => {
      const room = MAX_XML_BYTES - 64;
      const fill = (head: string, piece: string, tail = '') =>
        head + piece.repeat(Math.floor((room - head.length - tail.length) / piece.length)) + tail;
      const fields = Array.from(
        { length: MAX_XML_ELEMENTS - 2 },
        (_, i) => `<custom-field action="translate">f${i}</custom-field>`,
      ).join('');
      const largest = `<wpml-config><custom-fields>${fields}</custom-fields></wpml-config>`;
      const cases: [string, string, number, string | null][] = [
        // [what, content, status of both validate and save, code of the refusal]
        ['unclosed start tags (11.4 s at 128 KB before)', fill('x', '<a '), 400, 'i18n_xml_invalid'],
        ['unclosed start tags inside the root', fill('<wpml-config>', '<b'), 400, 'i18n_xml_invalid'],
        ['unclosed comments', fill('x', '<!--'), 400, 'i18n_xml_invalid'],
        ['unclosed processing instructions', fill('x', '<?'), 400, 'i18n_xml_invalid'],
        ['unclosed CDATA sections', fill('x', '<![CDATA['), 400, 'i18n_xml_invalid'],
        ['unclosed quotes', fill('<wpml-config>', "<a b='"), 400, 'i18n_xml_invalid'],
        ['elements past the bound', fill('<wpml-config>', '<x/>'), 422, 'i18n_xml_too_complex'],
        ['attributes past the bound', fill('<wpml-config', " a='1'", '/>'), 422, 'i18n_xml_too_complex'],
        ['the largest configuration accepted', largest, 200, null],
      ];
      for (const [what, content, status, code] of cases) {
        assert.ok(Buffer.byteLength(content) <= MAX_XML_BYTES, what);
        for (const path of ['/custom-xml-config/validate', '/custom-xml-config']) {
          const run = await meanwhileSettled(server, {
            method: 'POST',
            url: `${NS}${path}`,
            payload: JSON.stringify({ content }),
            headers: { authorization: auth.administrator!, 'content-type': 'application/json' },
          });
          const body = run.res.json();
          if (path.endsWith('validate')) {
            // The check answers with its list of problems; only a bound is an error.
            assert.equal(run.res.statusCode, status === 422 ? 422 : 200, `${what}: ${run.res.body.slice(0, 200)}`);
            if (status === 400) assert.equal(body[0].level, 3, what);
            if (status === 200) assert.deepEqual(body, [], what);
          } else {
            assert.equal(run.res.statusCode, status, `${what}: ${run.res.body.slice(0, 200)}`);
          }
          if (code) assert.equal(body.code ?? code, code, what);
          assert.ok(
            run.slowestMs <= MEANWHILE_LIMIT_MS,
            `${what} (${path}): the unrelated request waited ${Math.round(run.slowestMs)} ms (the check took ${Math.round(run.ms)} ms)`,
          );
        }
      }
      assert.equal((await call('POST', '/custom-xml-config', 'administrator', { content: '' })).status, 200);
    });
  });
}
