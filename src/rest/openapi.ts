// The OpenAPI 3.1 description of one language root, generated from the route registry: every
// route, method and declared argument (with its schema and its description in the root's
// language), each permission as a security requirement, the response shapes the registry knows
// (route schemas, the site descriptor, batch) and the error shape every failure shares. A route
// added to the registry appears here by itself.
import type { ArgSchema, Args, EndpointDef, HttpMethod, Lang, Localized, Permission } from './types.ts';
import type { CompiledRoute, Registry } from './registry.ts';
import { l, pick } from './define.ts';
import { apiRoot } from './urls.ts';

type Json = Record<string, unknown>;

export interface OpenApiOptions {
  siteUrl: string;
  lang: Lang;
  /** The site's name, the document's title. */
  title: string;
  version: string;
  /** The name of the web session cookie that, with a nonce, authenticates REST requests. */
  sessionCookie: string;
}

/** Methods whose arguments travel in the body (the query carries them too, at lower precedence). */
const BODY_METHODS = new Set<HttpMethod>(['POST', 'PUT', 'PATCH']);

const T = {
  info: l(
    'The REST interface of this site under one language root. Descriptions, messages and localized content follow the language of the root, or the `i18n_language` parameter.',
    'Die REST-Schnittstelle dieser Website unter einem Sprachstamm. Beschreibungen, Meldungen und lokalisierte Inhalte folgen der Sprache des Stamms oder dem Parameter `i18n_language`.',
  ),
  basic: l(
    'An application password with HTTP Basic authentication: `login:password` (spaces in the password are ignored).',
    'Ein Anwendungspasswort mit HTTP-Basic-Authentifizierung: `Anmeldename:Passwort` (Leerzeichen im Passwort werden ignoriert).',
  ),
  cookie: l(
    'The session cookie of a login on this site; it only counts together with a valid `X-WP-Nonce`.',
    'Das Sitzungs-Cookie einer Anmeldung auf dieser Website; es zählt nur zusammen mit einer gültigen `X-WP-Nonce`.',
  ),
  nonce: l(
    'The REST nonce issued to the session (header `X-WP-Nonce` or parameter `_wpnonce`).',
    'Die der Sitzung ausgestellte REST-Nonce (Header `X-WP-Nonce` oder Parameter `_wpnonce`).',
  ),
  error: l('An error in the shape every route shares.', 'Ein Fehler in der Form, die alle Routen teilen.'),
  success: l('Success.', 'Erfolg.'),
  invalid: l(
    'Missing or invalid parameters (`rest_missing_callback_param`, `rest_invalid_param`).',
    'Fehlende oder ungültige Parameter (`rest_missing_callback_param`, `rest_invalid_param`).',
  ),
  unauthorized: l(
    'Not logged in, or the credentials are wrong.',
    'Nicht angemeldet, oder die Anmeldedaten sind falsch.',
  ),
  forbidden: l(
    'Logged in without the permission this route needs.',
    'Angemeldet, aber ohne die Berechtigung, die diese Route verlangt.',
  ),
  public: l(
    'Public: no credentials needed (credentials may widen what is returned).',
    'Öffentlich: keine Anmeldung nötig (mit Anmeldung kann die Antwort mehr enthalten).',
  ),
  loggedIn: l('Any logged-in user.', 'Jeder angemeldete Benutzer.'),
  capability: l('Needs the capability `%s`.', 'Erfordert die Berechtigung `%s`.'),
  custom: l('Permission: %s', 'Berechtigung: %s'),
  fields: l(
    'Comma-separated list of the fields to return (dot paths reach into objects).',
    'Kommagetrennte Liste der zurückzugebenden Felder (Punktpfade reichen in Objekte).',
  ),
  envelope: l(
    'Answer 200 with `{body, status, headers}` instead of the real status and headers.',
    'Mit 200 und `{body, status, headers}` antworten statt mit dem echten Status und den Headern.',
  ),
  pretty: l('Indent the JSON answer.', 'Die JSON-Antwort einrücken.'),
  pathVariable: l('Path variable.', 'Pfadvariable.'),
  params: l(
    '`rest_invalid_param`: each invalid parameter with its message; `rest_missing_callback_param`: the names of the missing ones.',
    '`rest_invalid_param`: jeder ungültige Parameter mit seiner Meldung; `rest_missing_callback_param`: die Namen der fehlenden.',
  ),
  descriptor: l('The site descriptor.', 'Die Beschreibung der Website.'),
  batch: l('Multi-status: one answer per request, in order.', 'Multi-Status: eine Antwort je Anfrage, in Reihenfolge.'),
};

/**
 * The security requirement of a permission. OpenAPI 3.1 lets non-OAuth requirements name
 * roles: we name the capability the route needs (also the custom checks' bypass capability).
 */
function security(permission: Permission): Json[] {
  if (permission.kind === 'public') return [{}, { applicationPassword: [] }, { sessionCookie: [], restNonce: [] }];
  const roles =
    permission.kind === 'cap'
      ? [permission.cap]
      : permission.kind === 'custom' && permission.cap
        ? [permission.cap]
        : [];
  return [{ applicationPassword: roles }, { sessionCookie: roles, restNonce: roles }];
}

/** The permission as data (`x-permission`): its kind and capability, a custom check's description. */
function permissionData(permission: Permission, lang: Lang): Json {
  if (permission.kind !== 'custom') return { ...permission };
  return { kind: 'custom', label: pick(permission.label, lang), ...(permission.cap ? { cap: permission.cap } : {}) };
}

function permissionText(permission: Permission, lang: Lang): string {
  switch (permission.kind) {
    case 'public':
      return T.public[lang];
    case 'logged_in':
      return T.loggedIn[lang];
    case 'cap':
      return T.capability[lang].replace('%s', permission.cap);
    case 'custom':
      return T.custom[lang].replace('%s', pick(permission.label, lang));
  }
}

/** The keys of the registry's arg schemas that are JSON Schema too (the rest are the server's own). */
const SCHEMA_KEYWORDS = new Set([
  'title',
  'default',
  'type',
  'format',
  'enum',
  'items',
  'properties',
  'additionalProperties',
  'patternProperties',
  'minProperties',
  'maxProperties',
  'minimum',
  'maximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'uniqueItems',
  'anyOf',
  'oneOf',
]);

/**
 * An arg schema as JSON Schema 2020-12: description localized; draft-3/4 forms modernized
 * (boolean `exclusiveMinimum`, `required: true` on a property); the server's callbacks dropped.
 */
export function jsonSchemaOf(arg: ArgSchema, lang: Lang): Json {
  const out: Json = {};
  if (arg.description !== undefined) out.description = pick(arg.description, lang);
  for (const [key, value] of Object.entries(arg)) {
    if (!SCHEMA_KEYWORDS.has(key) || value === undefined) continue;
    if (key === 'items' || key === 'additionalProperties')
      out[key] = typeof value === 'object' ? jsonSchemaOf(value as ArgSchema, lang) : value;
    else if (key === 'anyOf' || key === 'oneOf') out[key] = (value as ArgSchema[]).map((s) => jsonSchemaOf(s, lang));
    else if (key === 'properties' || key === 'patternProperties')
      out[key] = mapValues(value as Record<string, ArgSchema>, (s) => jsonSchemaOf(s, lang));
    else out[key] = value;
  }
  if (arg.exclusiveMinimum && arg.minimum !== undefined) {
    out.exclusiveMinimum = arg.minimum;
    delete out.minimum;
  }
  if (arg.exclusiveMaximum && arg.maximum !== undefined) {
    out.exclusiveMaximum = arg.maximum;
    delete out.maximum;
  }
  if (arg.properties) {
    const required = Array.isArray(arg.required)
      ? [...arg.required]
      : Object.keys(arg.properties).filter((name) => arg.properties![name]!.required === true);
    if (required.length) out.required = required;
  }
  return out;
}

function mapValues<V>(record: Record<string, V>, fn: (value: V) => Json): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(record)) out[key] = fn(value);
  return out;
}

/** `/events/(?P<event_id>\d+)` → `/events/{event_id}`, with each variable's pattern. */
export function pathTemplate(pattern: string): { path: string; variables: { name: string; pattern: string }[] } {
  const variables: { name: string; pattern: string }[] = [];
  let path = '';
  let i = 0;
  while (i < pattern.length) {
    const start = pattern.indexOf('(?P<', i);
    if (start < 0) {
      path += pattern.slice(i);
      break;
    }
    path += pattern.slice(i, start);
    const nameEnd = pattern.indexOf('>', start);
    const name = pattern.slice(start + 4, nameEnd);
    // The group's body runs to its balancing parenthesis (character classes may hold parentheses).
    let depth = 1;
    let j = nameEnd + 1;
    let inClass = false;
    for (; j < pattern.length && depth > 0; j++) {
      const c = pattern[j];
      if (c === '\\') j++;
      else if (inClass) inClass = c !== ']';
      else if (c === '[') inClass = true;
      else if (c === '(') depth++;
      else if (c === ')') depth--;
    }
    variables.push({ name, pattern: `^${pattern.slice(nameEnd + 1, j - 1)}$` });
    path += `{${name}}`;
    i = j;
  }
  return { path, variables };
}

/** Operation ids are unique across the document: method and path, in words. */
function operationId(method: HttpMethod, path: string): string {
  const words = path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return [method.toLowerCase(), ...words.map((w) => w[0]!.toUpperCase() + w.slice(1))].join('');
}

function visibleArgs(args: Args): [string, ArgSchema][] {
  return Object.entries(args).filter(([, arg]) => !arg.internal);
}

function queryParameter(name: string, arg: ArgSchema, lang: Lang): Json {
  const schema = jsonSchemaOf(arg, lang);
  const { description, ...rest } = schema;
  const param: Json = { name, in: 'query', required: arg.required === true, schema: rest };
  if (description !== undefined) param.description = description;
  // PHP-style query strings: lists as `a=1,2` (or `a[]=1&a[]=2`), maps as `a[k]=v`.
  const types = [arg.type].flat();
  if (types.includes('object')) Object.assign(param, { style: 'deepObject', explode: true });
  else if (types.includes('array')) Object.assign(param, { style: 'form', explode: false });
  return param;
}

class Builder {
  private readonly opts: OpenApiOptions;
  private readonly usedIds = new Set<string>();
  constructor(opts: OpenApiOptions) {
    this.opts = opts;
  }

  get lang(): Lang {
    return this.opts.lang;
  }

  document(registry: Registry): Json {
    const paths: Json = {};
    const tags: Json[] = [{ name: '/' }];
    for (const ns of registry.namespaces) tags.push({ name: ns });
    for (const route of registry.routes) {
      const { path, variables } = pathTemplate(route.pattern);
      const item = (paths[path] ??= {}) as Json;
      for (const endpoint of route.endpoints) {
        for (const method of endpoint.methods)
          item[method.toLowerCase()] = this.operation(route, endpoint, method, path, variables);
      }
    }
    return {
      openapi: '3.1.0',
      info: { title: this.opts.title, version: this.opts.version, description: T.info[this.lang] },
      servers: [{ url: apiRoot(this.opts.siteUrl, this.lang).replace(/\/$/, '') }],
      tags,
      paths,
      components: this.components(),
    };
  }

  private operation(
    route: CompiledRoute,
    endpoint: EndpointDef,
    method: HttpMethod,
    path: string,
    variables: { name: string; pattern: string }[],
  ): Json {
    const lang = this.lang;
    const args = visibleArgs(endpoint.args);
    // A path variable is text its pattern accepts, whatever an argument of the same name declares.
    const parameters: Json[] = variables.map((v) => {
      const declared = endpoint.args[v.name]?.description;
      const description = declared === undefined ? T.pathVariable[lang] : pick(declared, lang);
      return { name: v.name, in: 'path', required: true, description, schema: { type: 'string', pattern: v.pattern } };
    });
    const inPath = new Set(variables.map((v) => v.name));
    const rest = args.filter(([name]) => !inPath.has(name));
    let requestBody: Json | undefined;
    if (BODY_METHODS.has(method)) {
      // i18n_language is read from the query or a form body, never from JSON: a query parameter everywhere.
      parameters.push(
        ...rest.filter(([name]) => name === 'i18n_language').map(([name, arg]) => queryParameter(name, arg, lang)),
      );
      const bodyArgs = rest.filter(([name]) => name !== 'i18n_language');
      if (bodyArgs.length || endpoint.undeclaredParams) requestBody = this.requestBody(bodyArgs);
    } else {
      parameters.push(...rest.map(([name, arg]) => queryParameter(name, arg, lang)));
    }
    parameters.push(
      { $ref: '#/components/parameters/_fields' },
      { $ref: '#/components/parameters/_envelope' },
      { $ref: '#/components/parameters/_pretty' },
    );

    let id = operationId(method, path);
    while (this.usedIds.has(id)) id += '_';
    this.usedIds.add(id);
    const op: Json = {
      tags: [route.namespace || '/'],
      operationId: id,
      description: permissionText(endpoint.permission, lang),
      'x-permission': permissionData(endpoint.permission, lang),
      security: security(endpoint.permission),
      parameters,
    };
    if (requestBody) op.requestBody = requestBody;
    op.responses = this.responses(route, endpoint, method);
    return op;
  }

  private requestBody(args: [string, ArgSchema][]): Json {
    const properties: Json = {};
    for (const [name, arg] of args) properties[name] = jsonSchemaOf(arg, this.lang);
    const schema: Json = { type: 'object', properties };
    const required = args.filter(([, arg]) => arg.required === true).map(([name]) => name);
    if (required.length) schema.required = required;
    return {
      required: required.length > 0,
      content: { 'application/json': { schema }, 'application/x-www-form-urlencoded': { schema } },
    };
  }

  private responses(route: CompiledRoute, endpoint: EndpointDef, method: HttpMethod): Json {
    const lang = this.lang;
    const responses: Json = {};
    if (route.pattern === '/')
      responses['200'] = {
        description: T.descriptor[lang],
        content: { 'application/json': { schema: { $ref: '#/components/schemas/SiteDescriptor' } } },
      };
    else if (route.pattern === '/batch/v1')
      responses['207'] = {
        description: T.batch[lang],
        content: { 'application/json': { schema: { $ref: '#/components/schemas/BatchResponse' } } },
      };
    else if (route.schema && method === 'GET') {
      // The route's schema is the resource (context=help shows it); a list route answers with several.
      const item = resourceSchema(route.schema(lang));
      const schema = endpoint.returnsList ? { type: 'array', items: item } : item;
      responses['2XX'] = { description: T.success[lang], content: { 'application/json': { schema } } };
    } else responses['2XX'] = { description: T.success[lang] };
    responses['400'] = { $ref: '#/components/responses/InvalidParameters' };
    if (endpoint.permission.kind !== 'public') {
      responses['401'] = { $ref: '#/components/responses/Unauthorized' };
      responses['403'] = { $ref: '#/components/responses/Forbidden' };
    }
    responses.default = { $ref: '#/components/responses/Error' };
    return responses;
  }

  private components(): Json {
    const lang = this.lang;
    const errorContent = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };
    const global = (name: string, description: Localized, schema: Json): Json => ({
      name,
      in: 'query',
      required: false,
      description: description[lang],
      schema,
    });
    return {
      securitySchemes: {
        applicationPassword: { type: 'http', scheme: 'basic', description: T.basic[lang] },
        sessionCookie: { type: 'apiKey', in: 'cookie', name: this.opts.sessionCookie, description: T.cookie[lang] },
        restNonce: { type: 'apiKey', in: 'header', name: 'X-WP-Nonce', description: T.nonce[lang] },
      },
      parameters: {
        _fields: { ...global('_fields', T.fields, { type: 'string' }) },
        _envelope: { ...global('_envelope', T.envelope, { type: 'boolean' }), allowEmptyValue: true },
        _pretty: { ...global('_pretty', T.pretty, { type: 'boolean' }), allowEmptyValue: true },
      },
      responses: {
        Error: { description: T.error[lang], content: errorContent },
        InvalidParameters: { description: T.invalid[lang], content: errorContent },
        Unauthorized: { description: T.unauthorized[lang], content: errorContent },
        Forbidden: { description: T.forbidden[lang], content: errorContent },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['code', 'message', 'data'],
          properties: {
            code: { type: 'string', examples: ['rest_invalid_param'] },
            message: { type: 'string' },
            data: {
              type: 'object',
              required: ['status'],
              properties: {
                status: { type: 'integer' },
                params: { description: T.params[lang], type: ['object', 'array'] },
                details: { type: 'object' },
              },
            },
            additional_errors: {
              type: 'array',
              items: {
                type: 'object',
                properties: { code: { type: 'string' }, message: { type: 'string' }, data: {} },
              },
            },
          },
        },
        SiteDescriptor: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            description: { type: 'string' },
            url: { type: 'string', format: 'uri' },
            home: { type: 'string', format: 'uri' },
            gmt_offset: { type: 'number' },
            timezone_string: { type: 'string' },
            page_for_posts: { type: 'integer' },
            page_on_front: { type: 'integer' },
            show_on_front: { type: 'string' },
            namespaces: { type: 'array', items: { type: 'string' } },
            authentication: { type: 'object' },
            routes: {
              type: 'object',
              additionalProperties: {
                type: 'object',
                properties: {
                  namespace: { type: 'string' },
                  methods: { type: 'array', items: { type: 'string' } },
                  endpoints: { type: 'array' },
                },
              },
            },
          },
        },
        BatchResponse: {
          type: 'object',
          required: ['responses'],
          properties: {
            failed: { type: 'string', enum: ['validation'] },
            responses: {
              type: 'array',
              items: {
                type: ['object', 'null'],
                properties: { body: {}, status: { type: 'integer' }, headers: { type: ['object', 'array'] } },
              },
            },
          },
        },
      },
    };
  }
}

/** A route's schema (draft-04, as the reference declares it) without its `$schema`, which 2020-12 would misread. */
function resourceSchema(schema: unknown): Json {
  const { $schema: _dialect, ...rest } = schema as Json;
  return rest;
}

export function openApiDocument(registry: Registry, opts: OpenApiOptions): Json {
  return new Builder(opts).document(registry);
}
