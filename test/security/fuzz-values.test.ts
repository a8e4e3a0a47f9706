// Out-of-range values and prototype names against every route of the registry, on every
// database: huge, negative and garbage numbers in every numeric parameter and path id, the same
// and impossible dates in every date parameter, and the names every object inherits
// (`__proto__`, `constructor`, `toString`, …) as keys and values of the query, of bodies and of
// every parameter. Every answer is 2xx/4xx in the contract's shape — never a 500 — a rejected
// request leaves the database as it was, and nothing reaches Object.prototype.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildServer } from '../../src/server/http.ts';
import type { ArgSchema, EndpointDef } from '../../src/rest/types.ts';
import type { CompiledRoute } from '../../src/rest/registry.ts';
import { databaseDigest, dbTargets, type TestApp } from '../support/db.ts';
import { userWithRole } from '../support/http.ts';
import { OUTBOUND_ROUTES, assertWellFormedAnswer, samplePath } from '../support/registry.ts';
import { createWebTestApp, csrfOf, logIn, makeUser, WebClient } from '../web/support.ts';

/** Numbers past every bound: beyond 2^53, beyond int4, beyond what a Date holds, and the edges. */
const NUMBERS = [
  '99999999999999999999',
  '10000000000000000',
  '9007199254740993',
  '2147483648',
  '-2147483649',
  '-99999999999999',
  '-1',
  '0',
  '1e308',
  '-1e308',
  '1e400',
  '0.5',
  'NaN',
  'Infinity',
];
/** Dates no text column of ours can hold, and dates that do not exist. */
const DATES = [
  ...NUMBERS,
  '99999-01-01',
  '0000-01-01',
  '0999-12-31',
  '9999-12-31',
  '10000-01-01',
  '-0001-01-01',
  '2024-02-30',
  '2024-13-01',
  '2024-01-01 24:00:00',
  '+275760-09-13T00:00:00Z',
  '2024-01-01T00:00:00+99:99',
  'garbage',
];
/** Items of the `dates` and `months` lists. */
const DATE_ITEMS = [
  ...NUMBERS.map((n) => `lastdays:${n}`),
  'month:99999-01',
  'month:0000-01',
  'month:0999-12',
  'month:-0001-01',
  'month:2024-00',
  '99999-01',
  '0000-01',
  '0999-12',
  '9999-12',
  '2024-13',
];
/** Raw JSON number tokens (JSON.parse makes 1e400 Infinity). */
const JSON_NUMBERS = ['99999999999999999999', '1e400', '-1e400', '9007199254740993', '2147483648', '-2147483649', '-0'];
/** Path ids: whatever `\d+` matches. */
const PATH_IDS = ['99999999999999999999', '10000000000000000', '9007199254740993', '2147483648', '0'];

const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];

const DATE_NAME = /date|month|days|_from$|_to$|time|_at$|deadline|sent/i;

function types(schema: ArgSchema | undefined): string[] {
  return schema?.type === undefined ? [] : ([] as string[]).concat(schema.type);
}

const isNumeric = (schema: ArgSchema | undefined) => types(schema).some((t) => t === 'integer' || t === 'number');

/** Values that pass the schema of a required argument, so that the other arguments are reached. */
function filler(name: string, schema: ArgSchema): unknown {
  if (schema.enum?.length) return schema.enum[0];
  if (name === 'requests') return [{ method: 'POST', path: '/history/v1/events', body: { message: 'fuzz' } }];
  const [type] = types(schema);
  if (type === 'integer' || type === 'number') return 1;
  if (type === 'array') return [];
  if (type === 'object') return {};
  return '1';
}

function requiredArgs(endpoint: EndpointDef): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(endpoint.args))
    if (schema.required === true && !schema.urlParam) out[name] = filler(name, schema);
  return out;
}

function queryOf(values: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(values)) {
    if (Array.isArray(v))
      for (const item of v)
        parts.push(
          `${encodeURIComponent(k)}[]=${encodeURIComponent(typeof item === 'object' ? JSON.stringify(item) : String(item))}`,
        );
    else
      parts.push(
        `${encodeURIComponent(k)}=${encodeURIComponent(typeof v === 'object' ? JSON.stringify(v) : String(v))}`,
      );
  }
  return parts.join('&');
}

interface Probe {
  method: string;
  url: string;
  /** JSON text (sent as application/json), or a form-encoded text when `form`. */
  body?: string;
  form?: boolean;
}

const isRead = (method: string) => method === 'GET' || method === 'HEAD';

/** Every probe of one endpoint: numbers and dates in each numeric or date argument. */
function numberProbes(route: CompiledRoute, endpoint: EndpointDef, method: string): Probe[] {
  const url = `/en/cms-json${samplePath(route.pattern)}`;
  const required = requiredArgs(endpoint);
  const probes: Probe[] = [];
  const send = (values: Record<string, unknown>, rawJson?: string): void => {
    const all = { ...required, ...values };
    if (isRead(method)) probes.push({ method, url: `${url}?${queryOf(all)}` });
    else probes.push({ method, url, body: rawJson ?? JSON.stringify(all) });
  };
  for (const [name, schema] of Object.entries(endpoint.args)) {
    const itemSchema = types(schema).includes('array') ? schema.items : undefined;
    const numeric = isNumeric(schema) || isNumeric(itemSchema);
    const dated = DATE_NAME.test(name) || schema.format === 'date-time';
    if (!numeric && !dated) continue;
    const values = types(schema).includes('array') && dated ? DATE_ITEMS : dated ? DATES : NUMBERS;
    for (const v of values) {
      send({ [name]: itemSchema ? [v] : v });
      if (!isRead(method) && /^-?\d+$/.test(v))
        send(
          {},
          JSON.stringify(required).replace(
            /}$/,
            `${Object.keys(required).length ? ',' : ''}${JSON.stringify(name)}:${v}}`,
          ),
        );
    }
    if (!isRead(method))
      for (const token of JSON_NUMBERS) send({}, `{${JSON.stringify(name)}:${itemSchema ? `[${token}]` : token}}`);
  }
  // Ids in the path.
  if (/\\d/.test(route.pattern)) {
    for (const id of PATH_IDS) {
      const path = samplePath(route.pattern).replace(/(?<=\/)1(,2)?(?=\/|$)/g, (m) =>
        m.includes(',') ? `${id},${id}` : id,
      );
      probes.push({
        method,
        url: `/en/cms-json${path}${isRead(method) ? `?${queryOf(required)}` : ''}`,
        ...(isRead(method) ? {} : { body: JSON.stringify(required) }),
      });
    }
  }
  return probes;
}

/**
 * Every probe of one endpoint: prototype names as keys and values, everywhere a key can go. A
 * map carries all the names as keys at once (any lookup of any of them finds an own key). As a
 * value, each argument gets `__proto__` (a lookup finds an object) and, in turn, one of the
 * others (a lookup finds a function). Arguments whose type refuses text (integers, booleans)
 * get the maps only: their refusal of a name is the schema's, the same for each of them.
 */
function prototypeProbes(route: CompiledRoute, endpoint: EndpointDef, method: string): Probe[] {
  const url = `/en/cms-json${samplePath(route.pattern)}`;
  const required = requiredArgs(endpoint);
  const base = queryOf(required);
  const probes: Probe[] = [];
  const query = (q: string) => probes.push({ method, url: `${url}?${[base, q].filter(Boolean).join('&')}` });
  const json = (members: string) => {
    const requiredMembers = JSON.stringify(required).slice(1, -1);
    probes.push({ method, url, body: `{${[requiredMembers, members].filter(Boolean).join(',')}}` });
  };
  const keys = (prefix: string) => PROTOTYPE_NAMES.map((n) => `${prefix}[${n}]=${n}`).join('&');
  const names = PROTOTYPE_NAMES.map((n) => JSON.stringify(n));
  const map = (inner = '"x"') => `{${names.map((q) => `${q}:${inner}`).join(',')}}`;
  const takesText = (schema: ArgSchema) =>
    !types(schema).length || types(schema).some((t) => t === 'string' || t === 'array' || t === 'object');

  query(
    `${PROTOTYPE_NAMES.map((n) => `${n}=${n}&${keys(n)}`).join('&')}&_fields=${PROTOTYPE_NAMES.map((n) => `${n}.polluted,${n}`).join(',')}`,
  );
  query(keys('_fields'));
  const valuesFor = (i: number) => [PROTOTYPE_NAMES[0]!, PROTOTYPE_NAMES[1 + (i % (PROTOTYPE_NAMES.length - 1))]!];
  for (const [i, [name, schema]] of Object.entries(endpoint.args).entries()) {
    const a = encodeURIComponent(name);
    if (takesText(schema)) for (const n of valuesFor(i)) query(`${a}=${n}&${a}[]=${n}`);
    query(keys(a));
    query(keys(`${a}[0]`));
    query(keys(`${a}[x]`) + '&' + keys(`${a}[__proto__]`));
  }
  if (isRead(method)) return probes;

  json(map(map()).slice(1, -1));
  for (const n of PROTOTYPE_NAMES) json(`${JSON.stringify(n)}:${JSON.stringify(n)}`);
  probes.push({
    method,
    url,
    body: PROTOTYPE_NAMES.map((n) => `${n}=${n}&${keys(n)}&${keys(`x[${n}]`)}`).join('&'),
    form: true,
  });
  for (const [i, [name, schema]] of Object.entries(endpoint.args).entries()) {
    const a = JSON.stringify(name);
    if (takesText(schema)) for (const n of valuesFor(i)) json(`${a}:${JSON.stringify(n)}`);
    json(`${a}:${map(map())}`);
    json(`${a}:[${map()}]`);
  }
  return probes;
}

/** What every object inherits, to prove that no request changed it. */
function prototypeState(): string {
  return JSON.stringify([
    Object.getOwnPropertyNames(Object.prototype),
    Object.getOwnPropertyNames(Object),
    Object.getOwnPropertyNames(Array.prototype),
  ]);
}

for (const target of dbTargets()) {
  describe(`out-of-range values and prototype names, every route (${target.name})`, () => {
    let t: TestApp;
    let server: FastifyInstance;
    let admin: string;
    before(async () => {
      t = await createWebTestApp(target);
      server = await buildServer(t.app);
      admin = (await userWithRole(t.app, 'administrator')).authorization;
      // The password's first use is recorded (then once a day): before any digest is taken.
      await server.inject({ url: '/en/cms-json/', headers: { authorization: admin } });
    });
    after(async () => {
      await server.close();
      await t.close();
    });

    const endpoints = () =>
      server.restApi.registry.routes
        .filter((r) => !OUTBOUND_ROUTES.has(r.pattern))
        .flatMap((route) =>
          route.endpoints.flatMap((endpoint) => endpoint.methods.map((method) => ({ route, endpoint, method }))),
        );

    /**
     * Sends the probes as an administrator: each answer well-formed and below 500, and a write
     * that was refused left every table as it was. Returns the number of refused writes.
     */
    async function run(probes: Probe[]): Promise<number> {
      let refused = 0;
      for (const p of probes) {
        // Taken before every write: some reads write too (an export stores a backup).
        const digest = isRead(p.method) ? '' : await databaseDigest(t.app);
        const headers: Record<string, string> = { authorization: admin };
        if (p.body !== undefined)
          headers['content-type'] = p.form ? 'application/x-www-form-urlencoded' : 'application/json';
        const res = await server.inject({
          method: p.method as InjectOptions['method'],
          url: p.url,
          payload: p.body,
          headers,
        });
        const where = `${p.method} ${p.url} ${p.body?.slice(0, 200) ?? ''}`;
        assertWellFormedAnswer(res.statusCode, res.headers['content-type'], res.body, where);
        if (isRead(p.method) || res.statusCode < 400) continue;
        refused++;
        const now = await databaseDigest(t.app);
        if (now !== digest) {
          const changed = now
            .split(', ')
            .filter((table) => !digest.split(', ').includes(table))
            .map((table) => table.split(':')[0]);
          assert.fail(
            `${where}: refused with ${res.statusCode} ${res.body.slice(0, 200)}, yet it wrote to ${changed.join(', ')}`,
          );
        }
      }
      return refused;
    }

    test('huge, negative and garbage numbers and dates in every numeric and date parameter and path id', async (ctx) => {
      const probes = endpoints().flatMap(({ route, endpoint, method }) => numberProbes(route, endpoint, method));
      assert.ok(probes.length > 1000, `${probes.length} probes`);
      const refused = await run(probes);
      assert.ok(refused > 100);
      ctx.diagnostic(`${probes.length} requests, ${refused} refused writes, each leaving the database as it was`);
    });

    test('the 500s of issue 25: dates, lastdays and ids out of range are 400 rest_invalid_param', async () => {
      const cases = [
        'events?lastdays=999999999',
        'events?date_from=99999999999999999999',
        'events?date_to=10000000000000000',
        'events?date_from=-99999999999999',
        'events?dates[]=lastdays:99999999999999999999',
        'events/has-updates?since_id=1&date_to=-99999999999999',
        'events/has-updates?since_id=1&dates[]=lastdays:99999999999999999999',
        'events?since_id=2147483648',
        'events?include[]=2147483648',
        'events?page=99999999999999999999',
        'stats/summary?date_from=999999999999',
        'events/99999999999999999999',
      ];
      const subscriber = (await userWithRole(t.app, 'subscriber')).authorization;
      for (const c of cases) {
        const res = await server.inject({
          url: `/en/cms-json/history/v1/${c}`,
          headers: { authorization: c.startsWith('stats') ? admin : subscriber },
        });
        assert.equal(res.statusCode, 400, `${c}: ${res.body.slice(0, 300)}`);
        assert.equal(res.json().code, 'rest_invalid_param', c);
      }
    });

    // In two halves, each well within the test timeout on a loaded machine.
    for (const [where, inBody] of [
      ['the query', false],
      ['bodies (JSON and form)', true],
    ] as const) {
      test(`prototype names as keys and values of ${where}, for every parameter`, async (ctx) => {
        const before = prototypeState();
        const probes = endpoints()
          .flatMap(({ route, endpoint, method }) => prototypeProbes(route, endpoint, method))
          .filter((p) => (p.body !== undefined) === inBody);
        const refused = await run(probes);
        ctx.diagnostic(`${probes.length} requests, ${refused} refused writes, each leaving the database as it was`);
        assert.equal(prototypeState(), before, 'Object.prototype, Object and Array.prototype unchanged');
        for (const n of ['polluted', 'x']) assert.equal(n in {}, false, `no "${n}" on every object`);
      });
    }

    test('sched settings: a field named after what objects inherit is an unknown field, not a 500', async () => {
      const write = (method: 'PUT' | 'POST' | 'PATCH', body: string) =>
        server.inject({
          method,
          url: '/en/cms-json/sched/v1/settings/global',
          payload: body,
          headers: { authorization: admin, 'content-type': 'application/json' },
        });
      for (const body of [
        '{"constructor":1}',
        '{"toString":"x"}',
        '{"hasOwnProperty":1}',
        '{"valueOf":{"enabled":false}}',
      ]) {
        for (const method of ['PUT', 'POST', 'PATCH'] as const) {
          const res = await write(method, body);
          assert.equal(res.statusCode, 400, `${method} ${body}: ${res.body.slice(0, 300)}`);
          assert.match(res.body, /unknown field/);
        }
      }
      // Underscored keys are the framework's (_fields, _method): ignored, and no prototype either.
      const proto = await write('PUT', '{"__proto__":{"enabled":false}}');
      assert.equal(proto.statusCode, 200);
      assert.equal(proto.json().data.enabled, true);
      const whole = await server.inject({
        method: 'POST',
        url: '/en/cms-json/sched/v1/settings',
        payload: '{"constructor":{},"__proto__":{}}',
        headers: { authorization: admin, 'content-type': 'application/json' },
      });
      assert.equal(whole.statusCode, 400, whole.body.slice(0, 300));
      assert.match(whole.body, /unknown settings section/);
    });

    test('names every object inherits reach nothing inherited: _fields, the translation filter, media extensions', async () => {
      const fields = await server.inject({ url: '/en/cms-json/?_fields=__proto__.polluted,constructor.polluted,name' });
      assert.equal(fields.statusCode, 200);
      assert.deepEqual(fields.json(), { name: 'Content Site' });
      assert.equal('polluted' in {}, false, 'Object.prototype untouched');
      assert.equal('polluted' in Object, false, 'Object untouched');

      const preview = await server.inject({
        method: 'POST',
        url: '/de/cms-json/sched/v1/notifications/preview',
        headers: { authorization: admin, 'content-type': 'application/json' },
        payload: JSON.stringify({ template: "{{ 'constructor'|trans }} {{ 'toString'|trans }} {{ 'Date'|trans }}" }),
      });
      assert.equal(preview.json().data.preview, 'constructor toString Datum');

      // A direct media URL is embedded without a request; its extension names no audio type.
      for (const ext of ['constructor', '__proto__', 'valueOf']) {
        const res = await server.inject({
          url: `/en/cms-json/oembed/1.0/proxy?url=${encodeURIComponent(`https://example.invalid/a.${ext}`)}`,
          headers: { authorization: admin },
        });
        assert.doesNotMatch(res.body, /<audio|<video|native code|object Object/, ext);
      }
    });

    test('the web pages: prototype names in the query, the form and the cookies', async () => {
      const before = prototypeState();
      await makeUser(t.app, 'fuzzweb', 'correct horse battery staple');
      const client = new WebClient(server);
      await logIn(client, 'fuzzweb', 'correct horse battery staple');
      const pages = [
        '/cms-login.php',
        '/cms-admin/authorize-application.php',
        '/cms-admin/application-passwords.php',
        '/en/',
        '/de/',
        '/en/?rest_route=/history/v1',
      ];
      for (const n of PROTOTYPE_NAMES) {
        const cookie = `${client.cookieHeader()}; ${n}=1`;
        for (const page of pages) {
          const sep = page.includes('?') ? '&' : '?';
          const get = await client.get(
            `${page}${sep}${n}=${n}&${n}[${n}]=1&app_name[${n}]=x&redirect_to[${n}]=x&lang=${n}`,
            { cookie },
          );
          assert.ok(get.status < 500, `GET ${page} (${n}): ${get.status} ${get.body.slice(0, 300)}`);
          const form = await client.get(page);
          const csrf = /name="_csrf" value="/.test(form.body) ? csrfOf(form.body) : '';
          const post = await client.post(
            page,
            {
              _csrf: csrf,
              [n]: n,
              [`${n}[${n}]`]: '1',
              [`action[${n}]`]: 'x',
              [`uuid[${n}]`]: 'x',
              [`log[${n}]`]: 'x',
              [`app_name[${n}]`]: 'x',
            },
            { cookie },
          );
          assert.ok(post.status < 500, `POST ${page} (${n}): ${post.status} ${post.body.slice(0, 300)}`);
        }
      }
      assert.equal(prototypeState(), before);
    });
  });
}
