// The permission matrix, generated from the registry: every non-public endpoint is refused to
// anonymous callers (401) and to every role without its capability (403), in both roots and
// inside batches; roles with the capability get past the check.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import qs from 'qs';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/server/http.ts';
import { ROLES, roleCan, type Role } from '../../src/auth/roles.ts';
import type { ArgSchema, EndpointDef } from '../../src/rest/types.ts';
import type { CompiledRoute } from '../../src/rest/registry.ts';
import { createTestApp, type TestApp } from '../support/db.ts';
import { userWithRole } from '../support/http.ts';
import { samplePath } from '../support/registry.ts';
import { MSG } from '../../src/rest/messages.ts';

/** A value the arg's schema accepts, for required args (so validation passes and permission decides). */
function sampleValue(arg: ArgSchema): unknown {
  if (arg.enum?.length) return arg.enum[0];
  const type = Array.isArray(arg.type) ? arg.type[0] : arg.type;
  if (arg.format === 'uri') return 'http://localhost:8080/en/';
  if (arg.format === 'date-time') return '2026-01-01 10:00:00';
  switch (type) {
    case 'integer':
    case 'number':
      return arg.minimum ?? 1;
    case 'boolean':
      return true;
    case 'array':
      return ['1'];
    case 'object':
      return {};
    default:
      return '1';
  }
}

function requiredParams(endpoint: EndpointDef): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, arg] of Object.entries(endpoint.args)) if (arg.required === true) out[name] = sampleValue(arg);
  return out;
}

/** The capability that decides an endpoint, or null for public ones and `read` for "logged in". */
function requiredCapability(endpoint: EndpointDef): string | null {
  const p = endpoint.permission;
  if (p.kind === 'public') return null;
  if (p.kind === 'logged_in') return 'read';
  if (p.kind === 'cap') return p.cap;
  return p.cap ?? null;
}

function permissionMessage(endpoint: EndpointDef, lang: string): string {
  const messages = endpoint.forbiddenMessage ?? MSG.forbidden;
  return lang === 'de' ? messages.de : messages.en;
}

let t: TestApp;
let server: FastifyInstance;
const auth = new Map<Role, string>();

before(async () => {
  t = await createTestApp({ name: 'sqlite' });
  server = await buildServer(t.app);
  for (const role of ROLES) auth.set(role, (await userWithRole(t.app, role)).authorization);
});
after(async () => {
  await server.close();
  await t.close();
});

function protectedEndpoints(): { route: CompiledRoute; endpoint: EndpointDef; cap: string; custom: boolean }[] {
  const out = [];
  for (const route of server.restApi.registry.routes) {
    for (const endpoint of route.endpoints) {
      const cap = requiredCapability(endpoint);
      if (cap) out.push({ route, endpoint, cap, custom: endpoint.permission.kind === 'custom' });
    }
  }
  return out;
}

async function call(lang: string, route: CompiledRoute, endpoint: EndpointDef, authorization?: string) {
  const method = endpoint.methods[0]!;
  const params = requiredParams(endpoint);
  const url = `/${lang}/cms-json${samplePath(route.pattern)}`;
  const headers = authorization ? { authorization } : {};
  if (method === 'GET') return server.inject({ method, url: `${url}?${qs.stringify(params)}`, headers });
  return server.inject({ method, url, headers, payload: params });
}

test('anonymous callers get 401 and roles without the capability 403, in both roots', async () => {
  const endpoints = protectedEndpoints();
  assert.ok(endpoints.length > 0);
  for (const { route, endpoint, cap, custom } of endpoints) {
    for (const lang of ['en', 'de']) {
      const anon = await call(lang, route, endpoint);
      assert.equal(
        anon.statusCode,
        401,
        `anonymous ${endpoint.methods[0]} ${route.pattern}: ${anon.body.slice(0, 200)}`,
      );
      if (custom) continue; // custom checks decide per resource; their own suites test the roles
      for (const role of ROLES) {
        const res = await call(lang, route, endpoint, auth.get(role));
        if (roleCan(role, cap)) {
          // Past the endpoint's permission check: a resource-level refusal (another message) may follow.
          const body = String(res.headers['content-type']).startsWith('application/json') ? res.json() : {};
          const refusedByEndpoint =
            (res.statusCode === 401 || res.statusCode === 403) &&
            body.code === (endpoint.forbiddenCode ?? 'rest_forbidden') &&
            body.message === permissionMessage(endpoint, lang);
          assert.ok(
            !refusedByEndpoint,
            `${role} ${endpoint.methods[0]} ${route.pattern} should pass (${cap}): ${res.statusCode} ${res.body.slice(0, 200)}`,
          );
        } else {
          assert.equal(
            res.statusCode,
            403,
            `${role} ${endpoint.methods[0]} ${route.pattern} needs ${cap}: ${res.body.slice(0, 200)}`,
          );
        }
      }
    }
  }
});

test('inside a batch, every write endpoint is refused to anonymous callers and to roles without the capability', async () => {
  const writes = protectedEndpoints().filter(
    ({ endpoint, route }) => endpoint.methods[0] !== 'GET' && route.pattern !== '/batch/v1',
  );
  const requests = writes.map(({ route, endpoint }) => ({
    method: endpoint.methods[0],
    path: samplePath(route.pattern),
    body: requiredParams(endpoint),
  }));
  for (let i = 0; i < requests.length; i += 25) {
    const chunk = requests.slice(i, i + 25);
    const anon = await server.inject({ method: 'POST', url: '/en/cms-json/batch/v1', payload: { requests: chunk } });
    assert.equal(anon.statusCode, 207);
    anon.json().responses.forEach((r: { status: number; body: unknown }, j: number) => {
      assert.equal(
        r.status,
        401,
        `anonymous batch ${chunk[j]!.method} ${chunk[j]!.path}: ${JSON.stringify(r.body).slice(0, 200)}`,
      );
    });
    const subscriber = await server.inject({
      method: 'POST',
      url: '/de/cms-json/batch/v1',
      headers: { authorization: auth.get('subscriber')! },
      payload: { requests: chunk },
    });
    subscriber.json().responses.forEach((r: { status: number }, j: number) => {
      const { cap, custom } = writes[i + j]!;
      if (!custom && !roleCan('subscriber', cap)) assert.equal(r.status, 403, `subscriber batch ${chunk[j]!.path}`);
    });
  }
});
