// The OpenAPI documents at /cms-api/<lang>/openapi.json, through HTTP on every database target:
// valid OpenAPI 3.1 (by @seriousme/openapi-schema-validator), every route and method of the
// registry in them with the index's arguments and localized descriptions, argument schemas as
// declared, permissions as security requirements; and the reference page and its files.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { Validator } from '@seriousme/openapi-schema-validator';
import { buildServer } from '../../src/server/http.ts';
import { dbTargets, createTestApp, type TestApp } from '../support/db.ts';

type Json = Record<string, any>;

/** The OpenAPI path of an index pattern, worked out independently of the generator. */
function templateOf(pattern: string): string {
  return pattern.replace(/\(\?P<(\w+)>[^)]*\)/g, '{$1}');
}

for (const target of dbTargets()) {
  describe(`OpenAPI documents (${target.name})`, () => {
    let t: TestApp;
    let server: FastifyInstance;
    const docs: Record<'en' | 'de', Json> = { en: {}, de: {} };
    const index: Record<'en' | 'de', Json> = { en: {}, de: {} };

    before(async () => {
      t = await createTestApp(target);
      server = await buildServer(t.app);
      for (const lang of ['en', 'de'] as const) {
        const res = await server.inject({ method: 'GET', url: `/cms-api/${lang}/openapi.json` });
        assert.equal(res.statusCode, 200, res.body);
        assert.match(String(res.headers['content-type']), /^application\/json/);
        docs[lang] = res.json();
        index[lang] = (await server.inject({ method: 'GET', url: `/${lang}/cms-json/` })).json();
      }
    });
    after(async () => {
      await server?.close();
      await t?.close();
    });

    test('both documents are valid OpenAPI 3.1 and describe their own root', async () => {
      for (const lang of ['en', 'de'] as const) {
        const validator = new Validator();
        const result = await validator.validate(docs[lang]);
        assert.deepEqual(result.errors ?? [], [], `${lang}: ${JSON.stringify(result.errors)?.slice(0, 2000)}`);
        assert.equal(result.valid, true);
        assert.equal(validator.version, '3.1');
        assert.deepEqual(docs[lang].servers, [{ url: `http://localhost:8080/${lang}/cms-json` }]);
      }
    });

    test('every route and method of the registry is there, with the arguments the index lists', () => {
      for (const lang of ['en', 'de'] as const) {
        let operations = 0;
        for (const route of server.restApi.registry.routes) {
          const item = docs[lang].paths[templateOf(route.pattern)];
          assert.ok(item, `${lang}: ${route.pattern} missing`);
          const described = index[lang].routes[route.pattern];
          assert.ok(described, `${lang}: ${route.pattern} is in the index`);
          for (const [i, endpoint] of route.endpoints.entries()) {
            const indexArgs: Json = Array.isArray(described.endpoints[i].args) ? {} : described.endpoints[i].args;
            for (const method of endpoint.methods) {
              const op = item[method.toLowerCase()];
              assert.ok(op, `${lang}: ${method} ${route.pattern} missing`);
              operations++;
              // Parameters (path, query, body) are exactly the index's arguments, with its descriptions.
              const listed: Json = {};
              for (const p of op.parameters.filter((p: Json) => !p.$ref)) listed[p.name] = p.description;
              const body = op.requestBody?.content['application/json'].schema.properties ?? {};
              for (const [name, schema] of Object.entries<Json>(body)) listed[name] = schema.description;
              // A path variable is a parameter whether or not it is also declared as an argument.
              const variables = [...route.pattern.matchAll(/\(\?P<(\w+)>/g)].map((m) => m[1]!);
              const expected = [...new Set([...Object.keys(indexArgs), ...variables])].sort();
              assert.deepEqual(Object.keys(listed).sort(), expected, `${lang}: ${method} ${route.pattern} arguments`);
              for (const [name, arg] of Object.entries<Json>(indexArgs)) {
                if (arg.description !== undefined)
                  assert.equal(listed[name], arg.description, `${lang}: ${method} ${route.pattern} ${name}`);
              }
            }
          }
        }
        const documented = Object.values<Json>(docs[lang].paths).reduce((n, item) => n + Object.keys(item).length, 0);
        assert.equal(documented, operations, `${lang}: no operation beyond the registry's`);
      }
    });

    test('descriptions are German in the de document', () => {
      // Every description differs between the two documents: none was left untranslated.
      const untranslated: string[] = [];
      const compare = (en: unknown, de: any, where: string): void => {
        if (!en || typeof en !== 'object') return;
        for (const [key, value] of Object.entries(en)) {
          if (key === 'description' && typeof value === 'string' && value === de?.[key])
            untranslated.push(`${where}: ${value}`);
          else compare(value, de?.[key], `${where}/${key}`);
        }
      };
      compare(docs.en, docs.de, '');
      assert.deepEqual(untranslated, []);
      const param = (lang: 'en' | 'de', path: string, method: string, name: string) =>
        docs[lang].paths[path][method].parameters.find((p: Json) => p.name === name);
      assert.match(param('de', '/history/v1/events', 'get', 'i18n_language').description, /^Sprache der Antwort/);
      assert.match(param('en', '/history/v1/events', 'get', 'i18n_language').description, /^Language of the response/);
      const message = (lang: 'en' | 'de') =>
        docs[lang].paths['/history/v1/events'].post.requestBody.content['application/json'].schema.properties.message
          .description;
      assert.equal(message('de'), 'Kurze Meldung des Ereignisses.');
      assert.equal(message('en'), 'Short message of the event.');
      assert.equal(
        docs.de.components.securitySchemes.applicationPassword.description.startsWith('Ein Anwendungspasswort'),
        true,
      );
      assert.equal(
        docs.de.paths['/history/v1/stats/summary'].get.description,
        'Erfordert die Berechtigung `manage_options`.',
      );
      assert.equal(
        docs.de.paths['/history/v1/events/{event_id}/stick'].post.description,
        'Berechtigung: manage_options; das Ereignis existiert.',
      );
    });

    test('argument schemas come through as declared: enum, default, bounds, required, path patterns', () => {
      const events = docs.en.paths['/history/v1/events'];
      const body = events.post.requestBody.content['application/json'].schema;
      assert.deepEqual(body.properties.level.enum, [
        'emergency',
        'alert',
        'critical',
        'error',
        'warning',
        'notice',
        'info',
        'debug',
      ]);
      assert.equal(body.properties.level.default, 'info');
      assert.deepEqual(body.required, ['message']);
      const perPage = events.get.parameters.find((p: Json) => p.name === 'per_page');
      const {
        description: _d,
        required: _r,
        ...declared
      } = index.en.routes['/history/v1/events'].endpoints[0].args.per_page;
      assert.deepEqual(perPage.schema, declared, "the index's schema of the argument");
      assert.equal(perPage.schema.default, 10);
      assert.equal(perPage.schema.minimum, 1);
      assert.equal(perPage.schema.maximum, 100);
      const batch = docs.en.paths['/batch/v1'].post.requestBody.content['application/json'].schema;
      assert.equal(batch.properties.requests.maxItems, 25);
      assert.deepEqual(
        batch.properties.requests.items.required,
        ['path'],
        "a property marked required becomes its object's required list",
      );
      assert.deepEqual(batch.properties.validation.enum, ['require-all-validate', 'normal']);
      const eventId = docs.en.paths['/history/v1/events/{event_id}'].get.parameters.find((p: Json) => p.in === 'path');
      assert.deepEqual(
        { name: eventId.name, required: eventId.required, pattern: eventId.schema.pattern },
        { name: 'event_id', required: true, pattern: '^\\d+$' },
      );
      const slides = docs.en.paths['/sliderx/sliders/stream/{slide_ids}'].get.parameters.find(
        (p: Json) => p.in === 'path',
      );
      assert.equal(slides.schema.pattern, '^[\\d,]+$');
      assert.ok(new RegExp(slides.schema.pattern).test('1,2'));
    });

    test("permissions are security requirements; errors have the contract's shape", () => {
      const root = docs.en.paths['/'].get;
      assert.deepEqual(root.security[0], {}, 'public: anonymous allowed');
      const stats = docs.en.paths['/history/v1/stats/summary'].get;
      assert.deepEqual(stats.security, [
        { applicationPassword: ['manage_options'] },
        { sessionCookie: ['manage_options'], restNonce: ['manage_options'] },
      ]);
      assert.deepEqual(docs.en.paths['/history/v1/backfill-status'].get.security, [
        { applicationPassword: [] },
        { sessionCookie: [], restNonce: [] },
      ]);
      assert.equal(docs.en.components.securitySchemes.sessionCookie.in, 'cookie');
      assert.equal(docs.en.components.securitySchemes.restNonce.name, 'X-WP-Nonce');
      assert.equal(stats.responses['403'].$ref, '#/components/responses/Forbidden');
      assert.deepEqual(docs.en.components.schemas.Error.required, ['code', 'message', 'data']);
      // Route schemas are the responses: a list for the events, one object for a statistic.
      assert.equal(
        docs.en.paths['/history/v1/events'].get.responses['2XX'].content['application/json'].schema.type,
        'array',
      );
      assert.equal(
        docs.en.paths['/history/v1/stats/summary'].get.responses['2XX'].content['application/json'].schema.title,
        'history-stats',
      );
    });

    test('a real error matches the documented error shape', async () => {
      const res = await server.inject({ method: 'GET', url: '/en/cms-json/history/v1/stats/summary' });
      assert.equal(res.statusCode, 401);
      const required = docs.en.components.schemas.Error.required as string[];
      for (const key of required) assert.ok(key in res.json(), key);
      assert.equal(typeof res.json().data.status, 'number');
    });

    test('the reference page and its files come from the server itself', async () => {
      for (const lang of ['en', 'de'] as const) {
        const page = await server.inject({ method: 'GET', url: `/cms-api/${lang}/` });
        assert.equal(page.statusCode, 200);
        assert.match(page.body, new RegExp(`<html lang="${lang}">`));
        assert.doesNotMatch(page.body, /https?:\/\//, 'no outside address');
        const csp = String(page.headers['content-security-policy']);
        assert.match(csp, /default-src 'none'/);
        assert.match(csp, /script-src 'self'(;|$)/);
        assert.match(csp, /connect-src 'self'(;|$)/);
        assert.equal(page.headers['x-frame-options'], 'DENY');
        for (const src of page.body.matchAll(/(?:src|href)="\.\.\/assets\/([^"]+)"/g)) {
          const asset = await server.inject({ method: 'GET', url: `/cms-api/assets/${src[1]}` });
          assert.equal(asset.statusCode, 200, src[1]);
          assert.ok(asset.rawPayload.length > 0);
        }
      }
      const start = await server.inject({ method: 'GET', url: '/cms-api/assets/start.js' });
      assert.match(start.body, /validatorUrl: null/);
      assert.equal((await server.inject({ method: 'GET', url: '/cms-api/en' })).headers.location, 'en/');
      assert.equal((await server.inject({ method: 'GET', url: '/cms-api/fr/openapi.json' })).statusCode, 404);
      for (const file of ['package.json', 'constructor', 'index.html'])
        assert.equal((await server.inject({ method: 'GET', url: `/cms-api/assets/${file}` })).statusCode, 404, file);
      // The REST index stays the contract's: nothing of this is a route there.
      assert.ok(Object.keys(index.en.routes).every((r) => !r.includes('openapi')));
    });
  });
}
