// HTTP test helpers: users with application passwords and their Authorization headers, and
// callRoute, a request through the REST pipeline without a socket.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import type { AppServices } from '../../src/site/services.ts';
import { createAppPassword } from '../../src/auth/app-passwords.ts';
import { authenticateRequest } from '../../src/auth/authenticate.ts';
import type { Role } from '../../src/auth/roles.ts';
import type { AuthUser } from '../../src/auth/types.ts';
import { createUser } from '../../src/auth/users.ts';
import { toAuthUser } from '../../src/auth/user-rows.ts';
import { NAMESPACES } from '../../src/modules.ts';
import { RestApi, parseQuery } from '../../src/rest/api.ts';
import type { BodyInput } from '../../src/rest/pipeline.ts';
import type { Lang } from '../../src/rest/types.ts';

/** The `Authorization` header value for HTTP Basic `login:password`. */
export function basicAuth(login: string, password: string): string {
  return `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
}

/** Creates a user with the role (login defaults to a unique `<role>_<random>`) and an application password. */
export async function userWithRole(
  app: AppServices,
  role: Role,
  login?: string,
): Promise<{ user: AuthUser; authorization: string; password: string; uuid: string }> {
  const name = login ?? `${role}_${crypto.randomBytes(4).toString('hex')}`;
  const row = await createUser(app, { login: name, email: `${name}@example.test`, role });
  const created = await createAppPassword(app, row.id, { name: 'tests' });
  return {
    user: toAuthUser(row),
    authorization: basicAuth(row.login, created.password),
    password: created.password,
    uuid: created.uuid,
  };
}

export interface RouteCall {
  /** Query parameters (merged over a query string in `path`). */
  query?: Record<string, unknown>;
  /** A JSON body, serialised as a client would. */
  body?: unknown;
  /** A JSON body as raw text (malformed JSON, say). */
  json?: string;
  /** The authenticated caller (as an application password would make them); none = anonymous. */
  user?: AuthUser | null;
  /** Or an `Authorization` header, authenticated as the server does (a first use is a login). */
  authorization?: string;
  headers?: Record<string, string>;
}

export interface RouteAnswer {
  status: number;
  /** The parsed JSON body (null when there is none), or the text of a raw answer. */
  body: any;
  /** The answer's own headers (Allow, X-WP-Total, Link…) in lower case, and its content-type. */
  headers: Record<string, string>;
}

const restApis = new WeakMap<AppServices, RestApi>();

/**
 * Runs a request through the REST pipeline (routing, validation, permissions, handler, `_fields`)
 * without a socket or Fastify. `path` is the route (`/i18n/v1/custom-xml-config?x=1`), or
 * the same under a language root (`/de/cms-json/…`), which then sets the root's language.
 */
export async function callRoute(
  app: AppServices,
  method: string,
  path: string,
  call: RouteCall = {},
): Promise<RouteAnswer> {
  let api = restApis.get(app);
  if (!api) restApis.set(app, (api = new RestApi(app, NAMESPACES)));
  const rooted = /^\/(en|de)\/cms-json(\/.*|$)/.exec(path);
  const rootLang: Lang = rooted ? (rooted[1] as Lang) : 'en';
  const target = rooted ? rooted[2] || '/' : path;
  const q = target.indexOf('?');
  const query = { ...(q === -1 ? {} : parseQuery(target.slice(q + 1))), ...call.query };
  const body: BodyInput =
    call.json !== undefined
      ? { type: 'json', raw: call.json }
      : call.body !== undefined
        ? { type: 'json', raw: JSON.stringify(call.body) }
        : { type: 'none' };
  const route = q === -1 ? target : target.slice(0, q);
  const out = await api.dispatch({
    method,
    route: route === '' ? '/' : route,
    query,
    body,
    headers: { ...(body.type === 'json' ? { 'content-type': 'application/json' } : {}), ...call.headers },
    rootLang,
    ip: '127.0.0.1',
    auth:
      call.authorization !== undefined
        ? await authenticateRequest(app, call.authorization, '127.0.0.1')
        : call.user
          ? { user: call.user, appPasswordUuid: null }
          : null,
  });
  const headers: Record<string, string> = {
    'content-type': out.raw ? out.raw.contentType : 'application/json; charset=UTF-8',
  };
  for (const [name, value] of Object.entries(out.headers)) headers[name.toLowerCase()] = value;
  const answer = out.raw
    ? String(out.raw.content)
    : out.body === undefined || method === 'HEAD'
      ? null
      : JSON.parse(JSON.stringify(out.body));
  return { status: out.status, body: answer, headers };
}

/**
 * A 400 rest_invalid_param for `name` alone, in the contract's shape: the message naming it, its
 * reason in data.params and, when the schema gave one, the reason's code in data.details.
 */
export function assertInvalidParam(
  res: Pick<RouteAnswer, 'status' | 'body'>,
  name: string,
  reason: RegExp,
  detail?: string,
): void {
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.equal(res.body.code, 'rest_invalid_param');
  assert.equal(res.body.message, `Invalid parameter(s): ${name}`);
  assert.equal(res.body.data.status, 400);
  assert.deepEqual(Object.keys(res.body.data.params), [name]);
  assert.match(res.body.data.params[name], reason);
  if (detail) assert.equal(res.body.data.details[name].code, detail);
}
