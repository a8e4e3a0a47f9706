// The OpenAPI 3.1 description of one language root, generated from the route registry: every
// route, method and declared argument (with its schema and its description in the root's
// language), each permission as a security requirement, the response shapes the registry knows
// (route schemas, the site descriptor, batch) and the error shape every failure shares. A route
// added to the registry appears here by itself. Beside it: the JSON Schema conversions
// (json-schema.ts), the permissions (security.ts) and the shared components (components.ts).
import type { ArgSchema, Args, EndpointDef, HttpMethod, Lang } from '../types.ts';
import type { CompiledRoute, Registry } from '../registry.ts';
import { l, pick } from '../define.ts';
import { apiRoot } from '../urls.ts';
import { components } from './components.ts';
import { jsonSchemaOf, resourceSchema, type Json } from './json-schema.ts';
import { permissionData, permissionText, security } from './security.ts';

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
  success: l('Success.', 'Erfolg.'),
  pathVariable: l('Path variable.', 'Pfadvariable.'),
  descriptor: l('The site descriptor.', 'Die Beschreibung der Website.'),
  batch: l('Multi-status: one answer per request, in order.', 'Multi-Status: eine Antwort je Anfrage, in Reihenfolge.'),
};

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
      components: components(this.lang, this.opts.sessionCookie),
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
}

export function openApiDocument(registry: Registry, opts: OpenApiOptions): Json {
  return new Builder(opts).document(registry);
}
