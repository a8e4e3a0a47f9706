// The site descriptor (GET /) and the namespace indexes of both language roots, compared
// with the contract's route table.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/server/http.ts';
import { createTestApp, type TestApp } from '../support/db.ts';
import {
  CONTRACT_ROUTES,
  DOCUMENTED_EXTRA_ARGS,
  LOOSE,
  NAMESPACES_IN_ORDER,
  type ExpectedEndpoint,
} from './contract-table.ts';

type Json = Record<string, any>;

function compareArgs(where: string, actual: Json | [], expected: ExpectedEndpoint['args'], extras: string[]): void {
  const actualArgs: Json = Array.isArray(actual) ? {} : actual;
  const required = [...Object.keys(expected), 'i18n_language'];
  const names = Object.keys(actualArgs);
  for (const name of required) assert.ok(names.includes(name), `${where}: parameter ${name} missing`);
  const unexpected = names.filter((n) => !required.includes(n) && !extras.includes(n));
  assert.deepEqual(unexpected, [], `${where}: parameters beyond the contract`);
  for (const [name, spec] of Object.entries(expected)) {
    const { description, ...rest } = actualArgs[name];
    assert.equal(typeof description, 'string', `${where} ${name}: description`);
    assert.ok(description.length > 0, `${where} ${name}: description is empty`);
    const { [LOOSE]: isLoose, ...plain } = spec as Json;
    const want: Json = { ...plain, required: spec.required === true };
    if (isLoose) {
      for (const [k, v] of Object.entries(want)) assert.deepEqual(rest[k], v, `${where} ${name}.${k}`);
    } else {
      assert.deepEqual(rest, want, `${where} ${name}`);
    }
  }
  assert.deepEqual(
    { ...actualArgs.i18n_language, description: undefined },
    { description: undefined, type: 'string', enum: ['en', 'de'], required: false },
    `${where} i18n_language`,
  );
}

describe('index and namespace indexes', () => {
  let t: TestApp;
  let server: FastifyInstance;
  let en: Json;
  let de: Json;

  before(async () => {
    t = await createTestApp({ name: 'sqlite' });
    server = await buildServer(t.app);
    en = (await server.inject({ method: 'GET', url: '/en/cms-json/' })).json();
    de = (await server.inject({ method: 'GET', url: '/de/cms-json' })).json();
  });
  after(async () => {
    await server.close();
    await t.close();
  });

  test('GET / has exactly the fields of contract §2.1, in order, with the site values', () => {
    assert.deepEqual(Object.keys(en), [
      'name',
      'description',
      'url',
      'home',
      'gmt_offset',
      'timezone_string',
      'page_for_posts',
      'page_on_front',
      'show_on_front',
      'namespaces',
      'authentication',
      'routes',
    ]);
    assert.equal(en.url, 'http://localhost:8080');
    assert.equal(en.home, 'http://localhost:8080/en');
    assert.equal(de.home, 'http://localhost:8080/de');
    assert.equal(en.timezone_string, 'Europe/Berlin');
    assert.ok(en.gmt_offset === 1 || en.gmt_offset === 2, `gmt_offset ${en.gmt_offset}`);
    assert.equal(typeof en.page_on_front, 'number');
    assert.ok(['posts', 'page'].includes(en.show_on_front));
    assert.deepEqual(en.authentication, {
      'application-passwords': {
        endpoints: { authorization: 'http://localhost:8080/cms-admin/authorize-application.php' },
      },
    });
  });

  test('namespaces: the 18 of contract §1 in order, batch/v1 not among them', () => {
    assert.deepEqual(en.namespaces, NAMESPACES_IN_ORDER);
    assert.deepEqual(de.namespaces, NAMESPACES_IN_ORDER);
  });

  test('routes: / and /batch/v1 first, then each namespace with its index route first', () => {
    const keys = Object.keys(en.routes);
    assert.deepEqual(keys.slice(0, 2), ['/', '/batch/v1']);
    for (const ns of NAMESPACES_IN_ORDER) {
      const first = keys.findIndex((k) => en.routes[k].namespace === ns);
      assert.equal(keys[first], `/${ns}`, `${ns} index first`);
    }
  });

  test('every route of contract §4 with exactly its parameters, in both roots', () => {
    for (const [lang, doc] of [
      ['en', en],
      ['de', de],
    ] as const) {
      for (const expected of CONTRACT_ROUTES) {
        const actual = doc.routes[expected.pattern];
        assert.ok(actual, `${lang}: route ${expected.pattern} missing`);
        for (const endpoint of expected.endpoints) {
          const found = actual.endpoints.find(
            (e: Json) => [...e.methods].sort().join() === [...endpoint.methods].sort().join(),
          );
          assert.ok(found, `${lang}: ${expected.pattern} ${endpoint.methods} missing`);
          const extras = DOCUMENTED_EXTRA_ARGS[`${expected.pattern} ${endpoint.methods.join(',')}`] ?? [];
          compareArgs(`${lang} ${expected.pattern} ${endpoint.methods}`, found.args, endpoint.args, extras);
        }
        assert.equal(actual.endpoints.length, expected.endpoints.length, `${expected.pattern}: endpoint count`);
        assert.deepEqual(
          actual.methods,
          actual.endpoints.flatMap((e: Json) => e.methods),
        );
      }
    }
  });

  test('descriptions are German under /de/ and English under /en/', () => {
    let total = 0;
    let differing = 0;
    for (const [pattern, r] of Object.entries<Json>(en.routes)) {
      r.endpoints.forEach((e: Json, i: number) => {
        for (const [name, arg] of Object.entries<Json>(Array.isArray(e.args) ? {} : e.args)) {
          const german = de.routes[pattern].endpoints[i].args[name].description;
          total++;
          if (german !== arg.description) differing++;
        }
      });
    }
    assert.ok(total > 100);
    assert.ok(differing / total > 0.95, `${differing} of ${total} descriptions differ`);
    assert.match(de.routes['/'].endpoints[0].args.i18n_language.description, /Sprache/);
  });

  test('_links.self only for routes without path variables; empty args are []', () => {
    for (const [pattern, r] of Object.entries<Json>(en.routes)) {
      if (pattern.includes('(?P<')) assert.equal(r._links, undefined, pattern);
      else assert.deepEqual(r._links, { self: [{ href: `http://localhost:8080/en/cms-json${pattern}` }] }, pattern);
    }
    assert.deepEqual(de.routes['/sched/v1'].endpoints[0].args.namespace, {
      description: de.routes['/sched/v1'].endpoints[0].args.namespace.description,
      default: 'sched/v1',
      required: false,
    });
  });

  test('the serialized index is computed once per language and reused', async () => {
    const a = server.restApi.siteDescriptor('en', 'en', false);
    const b = server.restApi.siteDescriptor('en', 'en', false);
    assert.equal(a, b);
    const res = await server.inject({ method: 'GET', url: '/en/cms-json/' });
    assert.equal(res.body, a.json);
    assert.equal(res.headers.allow, 'GET');
  });

  test('site options feed the descriptor, and a change invalidates the cache', async () => {
    await t.app.options.setMany({
      blogname: 'Partner Portal',
      blogdescription: 'Für Partner',
      timezone_string: 'UTC',
      page_on_front: 7,
      show_on_front: 'page',
    });
    const doc = (await server.inject({ method: 'GET', url: '/de/cms-json/' })).json();
    assert.equal(doc.name, 'Partner Portal');
    assert.equal(doc.description, 'Für Partner');
    assert.equal(doc.gmt_offset, 0);
    assert.equal(doc.page_on_front, 7);
    assert.equal(doc.show_on_front, 'page');
  });

  test('i18n_language selects the description language; _fields and the rest_route form work on the index', async () => {
    const res = (
      await server.inject({ method: 'GET', url: '/en/cms-json/?i18n_language=de&_fields=name,home' })
    ).json();
    assert.deepEqual(Object.keys(res), ['name', 'home']);
    assert.equal(res.home, 'http://localhost:8080/de');
    const viaRestRoute = await server.inject({ method: 'GET', url: '/en/?rest_route=/' });
    assert.equal(viaRestRoute.statusCode, 200);
    assert.ok(viaRestRoute.json().routes['/batch/v1']);
    const badType = await server.inject({ method: 'GET', url: '/en/?rest_route[]=x' });
    assert.equal(badType.statusCode, 400);
    assert.equal(badType.json().code, 'rest_path_invalid_type');
  });

  test('every namespace answers its namespace index', async () => {
    for (const ns of NAMESPACES_IN_ORDER) {
      const res = await server.inject({ method: 'GET', url: `/de/cms-json/${ns}` });
      assert.equal(res.statusCode, 200, ns);
      const body = res.json();
      assert.equal(body.namespace, ns);
      assert.deepEqual(body._links, { up: [{ href: 'http://localhost:8080/de/cms-json/' }] });
      assert.ok(body.routes[`/${ns}`]);
      for (const r of Object.values<Json>(body.routes)) assert.equal(r.namespace, ns);
    }
    const quirk = (await server.inject({ method: 'GET', url: '/en/cms-json/sched/v1?namespace=sliderx' })).json();
    assert.equal(quirk.namespace, 'sliderx');
    const unknown = await server.inject({ method: 'GET', url: '/en/cms-json/sched/v1?namespace=nope' });
    assert.equal(unknown.statusCode, 404);
    assert.equal(unknown.json().code, 'rest_invalid_namespace');
  });

  test('a real listening server answers the index from its cached bytes, identical to the pipeline', async () => {
    const live = await buildServer(t.app);
    await live.listen({ port: 0, host: '127.0.0.1' });
    try {
      const port = (live.server.address() as { port: number }).port;
      for (const lang of ['en', 'de']) {
        const fast = await fetch(`http://127.0.0.1:${port}/${lang}/cms-json/`);
        const slow = await live.inject({ method: 'GET', url: `/${lang}/cms-json/?context=view` });
        assert.equal(fast.status, 200);
        assert.equal(await fast.text(), slow.body);
        for (const name of [
          'content-type',
          'link',
          'allow',
          'vary',
          'x-content-type-options',
          'access-control-expose-headers',
        ]) {
          assert.equal(fast.headers.get(name), slow.headers[name], name);
        }
      }
      const withOrigin = await fetch(`http://127.0.0.1:${port}/en/cms-json/`, {
        headers: { origin: 'https://a.example' },
      });
      assert.equal(withOrigin.headers.get('access-control-allow-origin'), 'https://a.example');
    } finally {
      await live.close();
    }
  });

  test('HEAD / has headers and no body', async () => {
    const res = await server.inject({ method: 'HEAD', url: '/en/cms-json/' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.body, '');
    assert.equal(res.headers['content-type'], 'application/json; charset=UTF-8');
  });
});
