// The request pipeline over HTTP (Fastify inject), with a namespace made for the test so
// every rule is exercised independently of the site's own namespaces.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildServer } from '../../src/server/http.ts';
import { namespace, route, endpoint, l, PUBLIC, cap, custom, EDITABLE } from '../../src/rest/define.ts';
import { RestResponse, RestError } from '../../src/rest/types.ts';
import { createTestApp, type TestApp } from '../support/db.ts';
import { userWithRole } from '../support/http.ts';

const calls: string[] = [];
const appendsStarted: number[] = [];

const testNamespace = namespace('test/v1', [
  route('/things/schema', [endpoint('GET', { permission: PUBLIC, handler: () => ({ schema: true }) })]),
  route('/things/(?P<id>\\d+)', [
    endpoint('GET', {
      args: { id: { description: l('Id.', 'Kennung.'), type: 'integer' }, context: { default: 'view' } },
      permission: PUBLIC,
      handler: (req) => ({ id: req.params.id, context: req.params.context, nested: { a: 1, b: 2 }, other: 'x' }),
    }),
    endpoint(EDITABLE, {
      args: {
        name: { description: l('Name.', 'Name.'), type: 'string', required: true, minLength: 2 },
        count: { description: l('Count.', 'Anzahl.'), type: 'integer', minimum: 1, maximum: 10, default: 1 },
        flag: { description: l('Flag.', 'Schalter.'), type: 'boolean', default: false },
      },
      permission: cap('manage_options'),
      handler: (req) => {
        calls.push(`${req.method} ${req.params.name}`);
        return new RestResponse(
          { id: Number(req.urlParams.id), name: req.params.name, count: req.params.count, flag: req.params.flag },
          201,
          { Location: req.restUrl(`/test/v1/things/${req.urlParams.id}`) },
        );
      },
    }),
    endpoint('DELETE', { permission: cap('manage_options'), handler: (req) => ({ deleted: true, lang: req.lang }) }),
  ]),
  route('/list', [
    endpoint('GET', {
      args: {
        ids: { description: l('Ids.', 'Kennungen.'), type: 'array', items: { type: 'integer' } },
        per_page: { description: l('Per page.', 'Pro Seite.'), type: 'integer', default: 10, minimum: 1, maximum: 100 },
        page: { description: l('Page.', 'Seite.'), type: 'integer', default: 1, minimum: 1 },
      },
      permission: PUBLIC,
      handler: (req) =>
        new RestResponse(
          [
            { id: 1, a: 'x' },
            { id: 2, a: 'y' },
          ],
          200,
          {
            'X-WP-Total': '2',
            'X-WP-TotalPages': '1',
            _ids: JSON.stringify(req.params.ids ?? null),
            _per: String(req.params.per_page),
          },
        ),
    }),
  ]),
  route('/cards/(?P<card_id>\\d+)', [
    endpoint('GET', {
      args: { id: { description: l('Card id.', 'Karten-ID.'), type: 'integer', required: true, urlParam: 'card_id' } },
      permission: PUBLIC,
      handler: (req) => ({ id: req.params.id }),
    }),
  ]),
  route('/appends', [
    endpoint('POST', {
      args: { n: { description: l('Number.', 'Nummer.'), type: 'integer', required: true } },
      permission: PUBLIC,
      concurrentInBatch: true,
      handler: async (req) => {
        appendsStarted.push(Number(req.params.n));
        // Held until every item of the run has started: only concurrent items get through.
        await new Promise((resolve) => setImmediate(resolve));
        if (Number(req.params.n) === 3) throw new RestError('test_three', 'No threes.', 409);
        return new RestResponse({ n: req.params.n, startedWith: appendsStarted.length }, 201);
      },
    }),
  ]),
  route('/boom', [
    endpoint('POST', {
      permission: PUBLIC,
      handler: () => {
        throw new Error('secret internals');
      },
    }),
  ]),
  // Custom checks, synchronous and asynchronous, beside a plain one on the same route.
  route('/guarded', [
    endpoint('GET', {
      permission: custom('header', async (req) => req.headers['x-test-pass'] === 'yes'),
      handler: () => ({ guarded: 'get' }),
    }),
    endpoint('POST', {
      permission: custom('teapot or throw', (req) => {
        if (req.headers['x-test-pass'] === 'throw') throw new Error('secret check internals');
        return req.headers['x-test-pass'] === 'yes' ? true : new RestError('test_no_tea', 'No tea.', 403);
      }),
      handler: () => ({ guarded: 'post' }),
    }),
    endpoint('DELETE', { permission: PUBLIC, handler: () => ({ guarded: 'delete' }) }),
  ]),
  route('/teapot', [
    endpoint('POST', {
      permission: PUBLIC,
      handler: () => {
        throw new RestError('test_teapot', 'I am a teapot.', 418, { extra: 1 });
      },
    }),
  ]),
]);

describe('REST pipeline over HTTP', () => {
  let t: TestApp;
  let server: FastifyInstance;
  let admin: string;
  let author: string;

  before(async () => {
    t = await createTestApp({ name: 'sqlite' });
    server = await buildServer(t.app, { namespaces: [testNamespace] });
    admin = (await userWithRole(t.app, 'administrator')).authorization;
    author = (await userWithRole(t.app, 'author')).authorization;
  });
  after(async () => {
    await server.close();
    await t.close();
  });

  const inject = (opts: InjectOptions) => server.inject(opts);

  test('fixed headers and a route parameter from the URL, coerced by its schema', async () => {
    const res = await inject({ method: 'GET', url: '/en/cms-json/test/v1/things/5' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['content-type'], 'application/json; charset=UTF-8');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers['x-robots-tag'], 'noindex');
    assert.equal(res.headers.link, '<http://localhost:8080/en/cms-json/>; rel="https://api.w.org/"');
    assert.match(String(res.headers['access-control-expose-headers']), /X-WP-Total, X-WP-TotalPages, Link/);
    assert.equal(res.headers.allow, 'GET');
    assert.deepEqual(res.json(), { id: 5, context: 'view', nested: { a: 1, b: 2 }, other: 'x' });
  });

  test('query parameters outrank URL parameters', async () => {
    const res = await inject({ method: 'GET', url: '/en/cms-json/test/v1/things/5?id=7' });
    assert.equal(res.json().id, 7);
  });

  test('matching is case-insensitive and ignores a trailing slash; the ?rest_route= form works', async () => {
    assert.equal((await inject({ method: 'GET', url: '/en/cms-json/TEST/V1/things/5/' })).statusCode, 200);
    const viaQuery = await inject({ method: 'GET', url: '/de/?rest_route=/test/v1/things/6' });
    assert.equal(viaQuery.statusCode, 200);
    assert.equal(viaQuery.json().id, 6);
    assert.equal(viaQuery.headers.link, '<http://localhost:8080/de/cms-json/>; rel="https://api.w.org/"');
  });

  test('a required arg may take its value from a path variable (urlParam); the query still outranks it', async () => {
    assert.deepEqual((await inject({ method: 'GET', url: '/en/cms-json/test/v1/cards/12' })).json(), { id: 12 });
    assert.deepEqual((await inject({ method: 'GET', url: '/en/cms-json/test/v1/cards/12?id=3' })).json(), { id: 3 });
    assert.equal((await inject({ method: 'GET', url: '/en/cms-json/test/v1/cards/12?id=x' })).statusCode, 400);
  });

  test('a literal route registered first wins over a variable route', async () => {
    assert.deepEqual((await inject({ method: 'GET', url: '/en/cms-json/test/v1/things/schema' })).json(), {
      schema: true,
    });
  });

  test('unknown route and wrong method are 404 rest_no_route (never 405), localized', async () => {
    for (const [method, url] of [
      ['GET', '/en/cms-json/nope'],
      ['PUT', '/en/cms-json/test/v1/list'],
    ] as const) {
      const res = await inject({ method, url });
      assert.equal(res.statusCode, 404);
      assert.deepEqual(res.json(), {
        code: 'rest_no_route',
        message: 'No route was found matching the URL and request method.',
        data: { status: 404 },
      });
      assert.equal(res.headers.allow, undefined);
    }
    const de = await inject({ method: 'GET', url: '/de/cms-json/nope' });
    assert.equal(de.json().message, 'Es wurde keine Route gefunden, die der URL und der Anfragemethode entspricht.');
    const viaParam = await inject({ method: 'GET', url: '/de/cms-json/nope?i18n_language=en' });
    assert.equal(viaParam.json().message, 'No route was found matching the URL and request method.');
  });

  test('paths outside the two roots are 404', async () => {
    assert.equal((await inject({ method: 'GET', url: '/fr/cms-json/' })).statusCode, 404);
    assert.equal((await inject({ method: 'GET', url: '/wp-json/' })).statusCode, 404);
  });

  test('missing required parameter: rest_missing_callback_param', async () => {
    const res = await inject({
      method: 'POST',
      url: '/en/cms-json/test/v1/things/3',
      headers: { authorization: admin },
    });
    assert.equal(res.statusCode, 400);
    assert.deepEqual(res.json(), {
      code: 'rest_missing_callback_param',
      message: 'Missing parameter(s): name',
      data: { status: 400, params: ['name'] },
    });
  });

  test('invalid parameters: rest_invalid_param with params and details, before the permission check', async () => {
    const res = await inject({ method: 'POST', url: '/en/cms-json/test/v1/things/3?name=x&count=11' });
    assert.equal(res.statusCode, 400);
    const body = res.json();
    assert.equal(body.code, 'rest_invalid_param');
    assert.equal(body.message, 'Invalid parameter(s): name, count');
    assert.equal(body.data.params.count, 'count must be between 1 (inclusive) and 10 (inclusive)');
    assert.equal(body.data.details.count.code, 'rest_out_of_bounds');
    assert.equal(body.data.details.name.code, 'rest_too_short');
  });

  test('permission: 401 anonymous, 403 without the capability; Allow reflects the caller', async () => {
    const anon = await inject({ method: 'POST', url: '/en/cms-json/test/v1/things/3', payload: { name: 'abc' } });
    assert.equal(anon.statusCode, 401);
    assert.equal(anon.json().code, 'rest_forbidden');
    assert.equal(anon.headers.allow, 'GET');
    const weak = await inject({
      method: 'POST',
      url: '/en/cms-json/test/v1/things/3',
      payload: { name: 'abc' },
      headers: { authorization: author },
    });
    assert.equal(weak.statusCode, 403);
    assert.equal(weak.headers.allow, 'GET');
    const ok = await inject({
      method: 'POST',
      url: '/en/cms-json/test/v1/things/3',
      payload: { name: 'abc' },
      headers: { authorization: admin },
    });
    assert.equal(ok.statusCode, 201);
    assert.equal(ok.headers.allow, 'GET, POST, PUT, PATCH, DELETE');
    assert.equal(ok.headers.location, 'http://localhost:8080/en/cms-json/test/v1/things/3');
    assert.equal(ok.headers['cache-control'], 'no-cache, must-revalidate, max-age=0, no-store, private');
    assert.deepEqual(ok.json(), { id: 3, name: 'abc', count: 1, flag: false });
  });

  test('custom permissions: async and sync checks, a RestError as the verdict, a throwing check is a 500 without internals', async () => {
    const url = '/en/cms-json/test/v1/guarded';
    const denied = await inject({ method: 'GET', url });
    assert.equal(denied.statusCode, 401);
    assert.equal(denied.headers.allow, 'DELETE');
    const passed = await inject({ method: 'GET', url, headers: { 'x-test-pass': 'yes' } });
    assert.equal(passed.statusCode, 200);
    assert.deepEqual(passed.json(), { guarded: 'get' });
    assert.equal(passed.headers.allow, 'GET, POST, DELETE');
    const refused = await inject({ method: 'POST', url });
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.json().code, 'test_no_tea');
    const thrown = await inject({ method: 'POST', url, headers: { 'x-test-pass': 'throw' } });
    assert.equal(thrown.statusCode, 500);
    assert.equal(thrown.json().code, 'internal_server_error');
    assert.doesNotMatch(thrown.body, /secret check internals/);
    // The throwing check only removes its own method from Allow.
    assert.equal(thrown.headers.allow, 'DELETE');
    const open = await inject({ method: 'DELETE', url, headers: { 'x-test-pass': 'throw' } });
    assert.equal(open.statusCode, 200);
    assert.equal(open.headers.allow, 'DELETE');
  });

  test('parameter layers: JSON > form > query > defaults, with coercion', async () => {
    const json = await inject({
      method: 'POST',
      url: '/en/cms-json/test/v1/things/3?name=query&count=2',
      payload: { name: 'json', flag: 'true' },
      headers: { authorization: admin },
    });
    assert.deepEqual(json.json(), { id: 3, name: 'json', count: 2, flag: true });
    const form = await inject({
      method: 'PUT',
      url: '/en/cms-json/test/v1/things/3?name=query',
      payload: 'name=form&count=4&flag=0',
      headers: { authorization: admin, 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.deepEqual(form.json(), { id: 3, name: 'form', count: 4, flag: false });
    // As the reference: a JSON null is sanitised like any value, so a typed arg refuses it.
    const nulls = await inject({
      method: 'PATCH',
      url: '/en/cms-json/test/v1/things/3?name=query',
      payload: { name: null },
      headers: { authorization: admin },
    });
    assert.equal(nulls.statusCode, 400);
    assert.equal(nulls.json().data.params.name, 'name is not of type string.');
  });

  test('arrays from comma lists and bracket forms; bounds on integers', async () => {
    const list = await inject({ method: 'GET', url: '/en/cms-json/test/v1/list?ids=1,2%203' });
    assert.equal(list.headers._ids, '[1,2,3]');
    const brackets = await inject({ method: 'GET', url: '/en/cms-json/test/v1/list?ids[]=4&ids[]=5' });
    assert.equal(brackets.headers._ids, '[4,5]');
    const bad = await inject({ method: 'GET', url: '/en/cms-json/test/v1/list?per_page=0' });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().data.params.per_page, 'per_page must be between 1 (inclusive) and 100 (inclusive)');
    const notInt = await inject({ method: 'GET', url: '/en/cms-json/test/v1/list?page=abc' });
    assert.equal(notInt.json().data.params.page, 'page is not of type integer.');
    assert.deepEqual(notInt.json().data.details.page, {
      code: 'rest_invalid_type',
      message: 'page is not of type integer.',
      data: { param: 'page' },
    });
  });

  test('broken JSON: rest_invalid_json after routing (unknown route stays 404)', async () => {
    const res = await inject({
      method: 'POST',
      url: '/en/cms-json/test/v1/things/3',
      payload: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(res.statusCode, 400);
    assert.deepEqual(res.json(), {
      code: 'rest_invalid_json',
      message: 'Invalid JSON body passed.',
      data: { status: 400, json_error_code: 4, json_error_message: 'Syntax error' },
    });
    const unknown = await inject({
      method: 'POST',
      url: '/en/cms-json/nope',
      payload: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(unknown.statusCode, 404);
  });

  test('bodies over 1 MiB: 413; unsupported content type on a write: 415 — both JSON errors', async () => {
    const big = await inject({
      method: 'POST',
      url: '/en/cms-json/test/v1/things/3',
      payload: JSON.stringify({ name: 'x'.repeat(1024 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(big.statusCode, 413);
    assert.equal(big.json().code, 'rest_request_too_large');
    assert.equal(big.json().data.status, 413);
    const xml = await inject({
      method: 'POST',
      url: '/en/cms-json/test/v1/things/3',
      payload: '<a/>',
      headers: { 'content-type': 'application/xml' },
    });
    assert.equal(xml.statusCode, 415);
    assert.equal(xml.json().code, 'rest_unsupported_media_type');
  });

  test('a handler exception is a 500 without internals; a RestError keeps its code, status and data', async () => {
    const res = await inject({ method: 'POST', url: '/en/cms-json/test/v1/boom' });
    assert.equal(res.statusCode, 500);
    assert.equal(res.json().code, 'internal_server_error');
    assert.doesNotMatch(res.body, /secret internals/);
    const teapot = await inject({ method: 'POST', url: '/en/cms-json/test/v1/teapot' });
    assert.equal(teapot.statusCode, 418);
    assert.deepEqual(teapot.json(), {
      code: 'test_teapot',
      message: 'I am a teapot.',
      data: { status: 418, extra: 1 },
    });
  });

  test('HEAD runs GET without a body; OPTIONS describes the route with Allow', async () => {
    const head = await inject({ method: 'HEAD', url: '/en/cms-json/test/v1/list' });
    assert.equal(head.statusCode, 200);
    assert.equal(head.body, '');
    assert.equal(head.headers['x-wp-total'], '2');
    const options = await inject({
      method: 'OPTIONS',
      url: '/de/cms-json/test/v1/things/3',
      headers: { authorization: admin },
    });
    assert.equal(options.statusCode, 200);
    assert.equal(options.headers.allow, 'GET, POST, PUT, PATCH, DELETE');
    const body = options.json();
    assert.equal(body.namespace, 'test/v1');
    assert.deepEqual(body.methods, ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
    assert.equal(body.endpoints[1].args.name.description, 'Name.');
    assert.equal(body.endpoints[0].args.id.description, 'Kennung.');
    assert.equal(body._links, undefined);
    const none = await inject({ method: 'OPTIONS', url: '/en/cms-json/nope' });
    assert.equal(none.statusCode, 200);
    assert.deepEqual(none.json(), []);
  });

  test('method override by _method and X-HTTP-Method-Override', async () => {
    const viaQuery = await inject({
      method: 'POST',
      url: '/en/cms-json/test/v1/things/3?_method=delete',
      headers: { authorization: admin },
    });
    assert.deepEqual(viaQuery.json(), { deleted: true, lang: 'en' });
    const viaHeader = await inject({
      method: 'GET',
      url: '/de/cms-json/test/v1/things/3',
      headers: { authorization: admin, 'x-http-method-override': 'DELETE' },
    });
    assert.deepEqual(viaHeader.json(), { deleted: true, lang: 'de' });
  });

  test('_fields with dot paths, per item on lists; _envelope; _pretty', async () => {
    const one = await inject({ method: 'GET', url: '/en/cms-json/test/v1/things/5?_fields=id,nested.b' });
    assert.deepEqual(one.json(), { id: 5, nested: { b: 2 } });
    const list = await inject({ method: 'GET', url: '/en/cms-json/test/v1/list?_fields[]=a' });
    assert.deepEqual(list.json(), [{ a: 'x' }, { a: 'y' }]);
    const env = await inject({ method: 'POST', url: '/en/cms-json/test/v1/teapot?_envelope' });
    assert.equal(env.statusCode, 200);
    assert.equal(env.json().status, 418);
    assert.equal(env.json().body.code, 'test_teapot');
    const envList = await inject({ method: 'GET', url: '/en/cms-json/test/v1/list?_envelope=1' });
    assert.equal(envList.headers['x-wp-total'], undefined);
    assert.equal(envList.json().headers['X-WP-Total'], '2');
    const pretty = await inject({ method: 'GET', url: '/en/cms-json/test/v1/things/5?_pretty' });
    assert.match(pretty.body, /^\{\n {4}"id": 5,/);
  });

  test('CORS: the Origin is echoed with credentials', async () => {
    const res = await inject({
      method: 'GET',
      url: '/en/cms-json/test/v1/things/5',
      headers: { origin: 'https://partner.example' },
    });
    assert.equal(res.headers['access-control-allow-origin'], 'https://partner.example');
    assert.equal(res.headers['access-control-allow-credentials'], 'true');
    assert.equal(res.headers.vary, 'Origin');
  });

  test('bad credentials are refused before routing, even on public routes', async () => {
    const res = await inject({
      method: 'GET',
      url: '/en/cms-json/test/v1/things/5',
      headers: { authorization: 'Basic ' + Buffer.from('nobody:abcd').toString('base64') },
    });
    assert.equal(res.statusCode, 401);
    assert.equal(res.json().code, 'invalid_username');
  });

  describe('batch', () => {
    test('normal mode runs valid items in order and reports failures per item (207)', async () => {
      calls.length = 0;
      const res = await inject({
        method: 'POST',
        url: '/en/cms-json/batch/v1',
        headers: { authorization: admin },
        payload: {
          requests: [
            { path: '/test/v1/things/1', body: { name: 'one' } },
            { method: 'PUT', path: '/test/v1/things/2?count=3', body: { name: 'x' } },
            { method: 'DELETE', path: '/nope' },
            { path: '/test/v1/things/4', body: { name: 'four' }, headers: { 'X-Test': ['a', 'b'] } },
            { path: '/batch/v1', body: { requests: [] } },
          ],
        },
      });
      assert.equal(res.statusCode, 207);
      const { responses, failed } = res.json();
      assert.equal(failed, undefined);
      assert.equal(responses.length, 5);
      assert.equal(responses[0].status, 201);
      assert.deepEqual(responses[0].body, { id: 1, name: 'one', count: 1, flag: false });
      assert.equal(responses[0].headers.Allow, 'GET, POST, PUT, PATCH, DELETE');
      assert.equal(responses[1].status, 400);
      assert.equal(responses[1].body.code, 'rest_invalid_param');
      assert.equal(responses[2].status, 404);
      assert.equal(responses[2].body.code, 'rest_no_route');
      assert.deepEqual(responses[2].headers, []);
      assert.equal(responses[3].status, 201);
      assert.equal(responses[4].status, 400);
      assert.equal(responses[4].body.code, 'rest_batch_not_allowed');
      assert.deepEqual(calls, ['POST one', 'POST four']);
    });

    test('require-all-validate runs nothing when one item fails', async () => {
      calls.length = 0;
      const res = await inject({
        method: 'POST',
        url: '/en/cms-json/batch/v1',
        headers: { authorization: admin },
        payload: {
          validation: 'require-all-validate',
          requests: [{ path: '/test/v1/things/1', body: { name: 'one' } }, { path: '/test/v1/things/2' }],
        },
      });
      assert.equal(res.statusCode, 207);
      const body = res.json();
      assert.equal(body.failed, 'validation');
      assert.equal(body.responses[0], null);
      assert.equal(body.responses[1].body.code, 'rest_missing_callback_param');
      assert.deepEqual(calls, []);
    });

    test("items run with the caller's identity: anonymous items are refused per item", async () => {
      const res = await inject({
        method: 'POST',
        url: '/de/cms-json/batch/v1',
        payload: { requests: [{ path: '/test/v1/things/1', body: { name: 'one' } }] },
      });
      assert.equal(res.statusCode, 207);
      assert.equal(res.json().responses[0].status, 401);
      assert.equal(res.json().responses[0].body.message, 'Du bist leider nicht berechtigt, dies zu tun.');
    });

    test('26 items, a bad method, a missing path and no items are refused whole', async () => {
      const many = await inject({
        method: 'POST',
        url: '/en/cms-json/batch/v1',
        payload: { requests: Array.from({ length: 26 }, () => ({ path: '/test/v1/things/1' })) },
      });
      assert.equal(many.statusCode, 400);
      assert.equal(many.json().data.params.requests, 'requests must contain at most 25 items.');
      assert.equal(many.json().data.details.requests.code, 'rest_too_many_items');
      const get = await inject({
        method: 'POST',
        url: '/en/cms-json/batch/v1',
        payload: { requests: [{ method: 'GET', path: '/test/v1/list' }] },
      });
      assert.equal(get.statusCode, 400);
      assert.equal(get.json().data.params.requests, 'requests[0][method] is not one of POST, PUT, PATCH, and DELETE.');
      const noPath = await inject({
        method: 'POST',
        url: '/en/cms-json/batch/v1',
        payload: { requests: [{ method: 'POST' }] },
      });
      assert.equal(noPath.json().data.params.requests, 'path is a required property of requests[0].');
      const empty = await inject({ method: 'POST', url: '/en/cms-json/batch/v1', payload: { requests: [] } });
      assert.equal(empty.statusCode, 400);
    });

    test('an item body or header of the wrong type is refused whole, named by its path in requests', async () => {
      const batch = (requests: unknown[]) =>
        inject({ method: 'POST', url: '/en/cms-json/batch/v1', payload: { requests } });
      const scalarBody = await batch([
        { path: '/test/v1/appends', body: { n: 1 } },
        { path: '/test/v1/appends', body: 5 },
      ]);
      assert.equal(scalarBody.statusCode, 400);
      assert.equal(scalarBody.json().data.params.requests, 'requests[1][body] is not of type object.');
      // A scalar header value is a one-item list (the reference's array check); a map is neither.
      const badHeader = await batch([{ path: '/test/v1/appends', body: { n: 1 }, headers: { 'X-A': { nested: 1 } } }]);
      assert.equal(badHeader.statusCode, 400);
      assert.equal(badHeader.json().data.params.requests, 'requests[0][headers][X-A] is not of type string,array.');
      // A list where an object belongs passes as one (the reference's object check), keyed by index.
      const listBody = await batch([{ method: 'DELETE', path: '/test/v1/things/3', body: ['x'] }]);
      assert.equal(listBody.statusCode, 207);
      assert.equal(listBody.json().responses[0].status, 401);
    });

    test('consecutive items on a concurrentInBatch endpoint start together, in order; responses keep item order', async () => {
      appendsStarted.length = 0;
      calls.length = 0;
      const res = await inject({
        method: 'POST',
        url: '/en/cms-json/batch/v1',
        headers: { authorization: admin },
        payload: {
          requests: [
            { path: '/test/v1/appends', body: { n: 1 } },
            { path: '/test/v1/appends', body: { n: 2 } },
            { path: '/test/v1/appends', body: { n: 3 } },
            { path: '/test/v1/appends', body: { n: 4 } },
            { path: '/test/v1/things/7', body: { name: 'after' } },
            { path: '/test/v1/appends', body: { n: 5 } },
          ],
        },
      });
      assert.equal(res.statusCode, 207);
      const responses = res.json().responses as {
        status: number;
        body: { n?: number; startedWith?: number; code?: string };
      }[];
      assert.deepEqual(
        responses.map((r) => r.status),
        [201, 201, 409, 201, 201, 201],
      );
      assert.deepEqual(
        responses.map((r) => r.body.n ?? r.body.code ?? null),
        [1, 2, 'test_three', 4, null, 5],
      );
      // Items 1–4 ran as one concurrent run (all four had started before any finished); the
      // ordinary item between them and item 5 ends the run: item 5 started alone, afterwards.
      assert.deepEqual(appendsStarted, [1, 2, 3, 4, 5]);
      assert.equal(responses[0]!.body.startedWith, 4);
      assert.equal(responses[5]!.body.startedWith, 5);
      assert.deepEqual(calls, ['POST after']);
    });

    test('25 items are accepted', async () => {
      const res = await inject({
        method: 'POST',
        url: '/en/cms-json/batch/v1',
        headers: { authorization: admin },
        payload: {
          requests: Array.from({ length: 25 }, (_, i) => ({ path: `/test/v1/things/${i}`, body: { name: `n${i}` } })),
        },
      });
      assert.equal(res.statusCode, 207);
      assert.equal(res.json().responses.length, 25);
      assert.ok(res.json().responses.every((r: { status: number }) => r.status === 201));
    });
  });
});
