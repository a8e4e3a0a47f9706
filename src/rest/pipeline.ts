// The request pipeline of reference rest-core §0: method override, OPTIONS, matching,
// JSON check, required → validation/sanitisation → permission → handler, then Allow,
// `_fields` and `_envelope`. It knows nothing about HTTP servers: the adapter and the
// batch route both feed it plain inputs, so a batch item runs exactly like a request.
import { invalidParamsError } from './param-errors.ts';
import type { AppServices } from '../site/services.ts';
import type { Authenticated } from '../auth/authenticate.ts';
import type { EndpointDef, HttpMethod, Lang, RestRequest } from './types.ts';
import { RestError, RestResponse } from './types.ts';
import type { CompiledRoute, EndpointMatch, Registry } from './registry.ts';
import { checkValue } from './schema/check-value.ts';
import { describeRoute } from './describe.ts';
import { filterFields, parseFieldsParam } from './fields.ts';
import { ListedBody, materialized } from './json-list.ts';
import { MSG, fill } from './messages.ts';
import { restUrl } from './urls.ts';
import {
  addInvalid,
  argPlan,
  collectUndeclared,
  lookup,
  runCustomCallbacks,
  type InvalidArgs,
  type Layers,
} from './args.ts';
import { allowFrom, forbidden, permissionsOf } from './permission-check.ts';
import { setOwn } from '../util.ts';
import { withDeadline } from '../db/deadline.ts';
import { databaseError } from './database-errors.ts';

export const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export type BodyInput =
  | { type: 'none' }
  | { type: 'json'; raw: string }
  | { type: 'form'; params: Record<string, unknown> };

export interface RestInput {
  method: string;
  /** Route path, e.g. /history/v1/events (already without API prefix). */
  route: string;
  query: Record<string, unknown>;
  body: BodyInput;
  headers: Record<string, string | string[] | undefined>;
  rootLang: Lang;
  ip: string;
  auth: Authenticated | null;
  inBatch?: boolean;
  /** The caller sends a body's JsonLists as they are read (the HTTP adapter); else they come as arrays. */
  streams?: boolean;
}

export interface RestOutput {
  status: number;
  /** JSON data; undefined for no body (HEAD, 204, null). */
  body?: unknown;
  raw?: { contentType: string; content: string | Buffer };
  /** The body holds JsonLists (json-list.ts), left so only for a caller that streams them. */
  listed?: boolean;
  /** Response-level headers (Allow, X-WP-Total, Location…), not the fixed ones. */
  headers: Record<string, string>;
  pretty: boolean;
  /** The request had a user (drives no-cache headers). */
  loggedIn: boolean;
  /** The effective method was overridden (reference: no-cache on 4xx). */
  overridden: boolean;
}

/** The request's language: an i18n_language of a form body or the query, else the root's. */
export function requestLanguage(input: Pick<RestInput, 'body' | 'query' | 'rootLang'>): Lang {
  const candidates = [
    input.body.type === 'form' ? input.body.params.i18n_language : undefined,
    input.query.i18n_language,
  ];
  for (const c of candidates) if (c === 'en' || c === 'de') return c;
  return input.rootLang;
}

/** A request that matched a route and passed validation, ready to run. */
export interface PreparedRequest {
  req: RestRequest;
  match: EndpointMatch;
  input: RestInput;
  /** The `_fields` parameter of any layer (a global parameter, never declared). */
  fields: unknown;
}

export function errorOutput(
  err: RestError,
  input: Pick<RestInput, 'query' | 'body' | 'auth'>,
  headers: Record<string, string> = {},
): RestOutput {
  return {
    status: err.status,
    body: err.toBody(),
    headers: { ...headers, ...err.headers },
    pretty: hasParam(input, '_pretty'),
    loggedIn: !!input.auth,
    overridden: false,
  };
}

function hasParam(input: Pick<RestInput, 'query' | 'body'>, name: string): boolean {
  if (name in input.query) return true;
  return input.body.type === 'form' && name in input.body.params;
}

function effectiveMethod(input: RestInput): { method: string; overridden: boolean } {
  const fromQuery = input.query._method;
  const fromHeader = input.headers['x-http-method-override'];
  const override =
    typeof fromQuery === 'string' && fromQuery
      ? fromQuery
      : typeof fromHeader === 'string' && fromHeader
        ? fromHeader
        : null;
  return override
    ? { method: override.toUpperCase(), overridden: true }
    : { method: input.method.toUpperCase(), overridden: false };
}

function isJsonContentType(headers: RestInput['headers']): boolean {
  const type = headers['content-type'];
  return typeof type === 'string' && /^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i.test(type);
}

export class RestPipeline {
  readonly registry: Registry;
  readonly app: AppServices;
  constructor(registry: Registry, app: AppServices) {
    this.registry = registry;
    this.app = app;
  }

  /** Runs one request end to end. */
  async dispatch(input: RestInput): Promise<RestOutput> {
    const { method, overridden } = effectiveMethod(input);
    if (method === 'OPTIONS') return this.options(input);
    const prepared = await this.prepare(input, method);
    const out = 'req' in prepared ? await this.execute(prepared) : prepared;
    out.overridden = overridden;
    if (method === 'HEAD') delete out.body;
    return out;
  }

  /** OPTIONS: the matched route's description with context=help, and Allow (§2.5). */
  private async options(input: RestInput): Promise<RestOutput> {
    const match = this.registry.matchPath(input.route);
    const base = { pretty: hasParam(input, '_pretty'), loggedIn: !!input.auth, overridden: false };
    if (!match) return { status: 200, body: [], headers: {}, ...base };
    const lang = requestLanguage(input);
    const body = describeRoute(match.route, {
      lang,
      help: true,
      restUrl: (r) => restUrl(this.app.config.siteUrl, input.rootLang, r),
    });
    const req = this.buildRequest(input, 'OPTIONS', match.urlParams, [input.query], lang);
    return { status: 200, body, headers: await this.allowHeader(match.route, req), ...base };
  }

  /** Matching, JSON check, required, validation and sanitisation (steps 7b–7g). */
  async prepare(input: RestInput, method = effectiveMethod(input).method): Promise<PreparedRequest | RestOutput> {
    const lookupMethod = (method === 'HEAD' ? 'GET' : method) as HttpMethod;
    const lang = requestLanguage(input);
    const match = METHODS.includes(lookupMethod) ? this.registry.match(input.route, lookupMethod) : null;
    if (!match) {
      const err = new RestError('rest_no_route', MSG.noRoute[lang], 404);
      return errorOutput(err, input);
    }

    // Layers, highest priority first: JSON > form body > query > URL > defaults.
    let json: Record<string, unknown> = {};
    if (input.body.type === 'json' && isJsonContentType(input.headers) && input.body.raw.trim() !== '') {
      try {
        const parsed: unknown = JSON.parse(input.body.raw);
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) json = parsed as Record<string, unknown>;
      } catch {
        const err = new RestError('rest_invalid_json', MSG.invalidJson[lang], 400, {
          json_error_code: 4,
          json_error_message: 'Syntax error',
        });
        // The route matched: Allow as on any answer of it (the reference sends it here too).
        const req = this.buildRequest(input, method as RestRequest['method'], match.urlParams, [input.query], lang);
        return errorOutput(err, input, await this.allowHeader(match.route, req));
      }
    }
    const form = input.body.type === 'form' && lookupMethod !== 'GET' ? input.body.params : {};
    const plan = argPlan(match.endpoint);
    const url: Record<string, unknown> = { ...match.urlParams };
    for (const [name, urlParam] of plan.fromUrl) {
      if (match.urlParams[urlParam] !== undefined && !Object.hasOwn(url, name)) url[name] = match.urlParams[urlParam];
    }
    // Copies: sanitised values replace raw ones without touching the caller's input.
    const layers: Layers = [{ ...json }, { ...form }, { ...input.query }, url, { ...plan.defaults }];

    const req = this.buildRequest(input, method as RestRequest['method'], match.urlParams, layers, lang);
    const problem = this.validate(match.endpoint, layers, req);
    if (problem) return endpointError(match.endpoint, problem, req, input, await this.allowHeader(match.route, req));
    return { req, match, input, fields: lookup(layers, '_fields') };
  }

  /**
   * Required params first, then each supplied arg validated and sanitised (reference §3.1).
   * `req.params` receives every arg that passed, even when the request is refused, so that an
   * endpoint's error renderer can read what it understood (oEmbed's `format`).
   */
  private validate(endpoint: EndpointDef, layers: Layers, req: RestRequest): RestError | null {
    const plan = argPlan(endpoint);
    const missing = plan.required.filter((name) => lookup(layers, name) === undefined);

    let invalid: InvalidArgs | null = null;
    // A sanitize callback's result is final, even undefined (the arg is then absent): it must
    // not fall through to a lower layer's raw value.
    const sanitized = new Map<string, unknown>();
    for (const [name, arg] of plan.args) {
      for (const layer of layers) {
        if (!arg.type || !Object.hasOwn(layer, name)) continue;
        const result = checkValue(layer[name], arg, name);
        if (result.ok) layer[name] = result.value;
        else invalid = addInvalid(invalid, name, result.error.message, result.error);
      }
      if (invalid && name in invalid.messages) continue;
      if (!arg.validate && !arg.sanitize) continue;
      const value = lookup(layers, name);
      if (value === undefined) continue;
      const custom = runCustomCallbacks(arg, value, req, name);
      if ('refused' in custom) {
        invalid = addInvalid(invalid, name, custom.refused);
      } else if (custom instanceof RestError) {
        invalid = addInvalid(invalid, name, custom.message, {
          code: custom.code,
          message: custom.message,
          data: Object.keys(custom.data).length ? custom.data : null,
        });
      } else if (custom.changed) {
        sanitized.set(name, custom.value);
      }
    }
    // Final, merged view of the declared args that passed.
    for (const [name] of plan.args) {
      if (invalid && name in invalid.messages) continue;
      const value = sanitized.has(name) ? sanitized.get(name) : lookup(layers, name);
      if (value !== undefined) req.params[name] = value;
    }
    if (missing.length) {
      return new RestError('rest_missing_callback_param', fill(MSG.missingParams[req.lang], missing.join(', ')), 400, {
        params: missing,
      });
    }
    if (invalid) return invalidParamsError(req, invalid.messages, invalid.details);
    if (endpoint.undeclaredParams) collectUndeclared(endpoint, layers, req.undeclared);
    return null;
  }

  /** Permission check and handler (steps 7h–7i), then Allow, `_fields`, `_envelope`. */
  async execute({ req, match, input, fields }: PreparedRequest): Promise<RestOutput> {
    // Each endpoint of the route checked once: for Allow, and the matched one to run it.
    const permissions = await permissionsOf(match.route, req);
    const allow = allowFrom(match.route, permissions);
    let result: RestOutput;
    const wanted = parseFieldsParam(fields);
    try {
      const own = permissions[match.route.endpoints.indexOf(match.endpoint)]!;
      if (own.status === 'rejected') throw own.reason;
      const permitted = own.value;
      if (permitted !== true) {
        throw permitted instanceof RestError ? permitted : forbidden(match.endpoint, req);
      }
      const value = await withDeadline(this.app.config.reads.timeoutMs, () => match.endpoint.handler(req));
      result = toOutput(value, input);
      // Lists left to be read as they are sent, unless the answer is used as a value.
      if (result.listed && !input.streams) {
        result.body = await materialized(result.body);
        result.listed = false;
      }
    } catch (err) {
      result = endpointError(match.endpoint, this.asRestError(err, req), req, input);
    }
    Object.assign(result.headers, allow, result.headers);
    if (wanted && result.status < 400 && result.body !== undefined && !result.raw)
      result.body = filterFields(result.body, wanted);
    if ('_envelope' in input.query && !result.raw) {
      result = {
        ...result,
        status: 200,
        body: {
          body: result.body ?? null,
          status: result.status,
          headers: Object.keys(result.headers).length ? result.headers : [],
        },
        headers: {},
      };
    }
    return result;
  }

  private asRestError(err: unknown, req: RestRequest): RestError {
    if (err instanceof RestError) return err;
    const dbError = databaseError(err, req.lang);
    if (dbError) return dbError;
    this.app.log.error({ err, route: req.route, method: req.method }, 'handler failed');
    return new RestError('internal_server_error', MSG.internal[req.lang], 500);
  }

  /** `Allow`: the methods of the matched route the caller may use (§2.6). */
  async allowHeader(route: CompiledRoute, req: RestRequest): Promise<Record<string, string>> {
    return allowFrom(route, await permissionsOf(route, req));
  }

  buildRequest(
    input: RestInput,
    method: RestRequest['method'],
    urlParams: Record<string, string>,
    layers: Layers,
    lang: Lang,
  ): RestRequest {
    const raw: Record<string, unknown> = {};
    // setOwn: Object.assign would make a body's "__proto__" key the prototype of every parameter.
    for (let i = layers.length - 1; i >= 0; i--)
      for (const [key, value] of Object.entries(layers[i]!)) setOwn(raw, key, value);
    const siteUrl = this.app.config.siteUrl;
    return {
      method,
      route: input.route,
      lang,
      rootLang: input.rootLang,
      params: {},
      rawParams: raw,
      undeclared: Object.create(null) as Record<string, unknown>,
      has: (name) => layers.some((layer) => Object.hasOwn(layer, name)),
      urlParams,
      query: input.query,
      headers: input.headers,
      user: input.auth?.user ?? null,
      appPasswordUuid: input.auth?.appPasswordUuid ?? null,
      ip: input.ip,
      inBatch: !!input.inBatch,
      app: this.app,
      restUrl: (route, query) => restUrl(siteUrl, input.rootLang, route, query),
    };
  }
}

/** An endpoint's error, in its own format when it renders errors itself. */
function endpointError(
  endpoint: EndpointDef,
  err: RestError,
  req: RestRequest,
  input: RestInput,
  headers: Record<string, string> = {},
): RestOutput {
  const rendered = endpoint.renderError?.(err, req);
  if (!rendered) return errorOutput(err, input, headers);
  const out = toOutput(rendered, input);
  out.headers = { ...headers, ...err.headers, ...out.headers };
  return out;
}

function toOutput(value: unknown, input: RestInput): RestOutput {
  const base = { pretty: hasParam(input, '_pretty'), loggedIn: !!input.auth, overridden: false };
  if (value instanceof RestResponse) {
    const out: RestOutput = { status: value.status, headers: { ...value.headers }, ...base };
    if (value.raw) out.raw = value.raw;
    else if (value.status !== 204 && value.body !== null && value.body !== undefined) out.body = value.body;
    return out;
  }
  const out: RestOutput = { status: 200, headers: {}, ...base };
  if (value instanceof ListedBody) {
    out.body = value.value;
    out.listed = true;
  } else if (value !== null && value !== undefined) out.body = value;
  return out;
}
