// The REST API of the site: the registry with its root routes (site descriptor, batch,
// namespace indexes) and the pipeline that runs requests against it.
import qs from 'qs';
import type { AppServices } from '../site/services.ts';
import type { Lang, NamespaceDef, RestRequest, RouteDef } from './types.ts';
import { RestError, RestResponse } from './types.ts';
import { PUBLIC, endpoint, l, route } from './define.ts';
import { Registry } from './registry.ts';
import { RestPipeline, errorOutput, type PreparedRequest, type RestInput, type RestOutput } from './pipeline.ts';
import { describeRoutes } from './describe.ts';
import { MSG } from './messages.ts';
import { restUrl } from './urls.ts';
import { zoneOffsetHours } from '../site/time.ts';

export const BATCH_MAX_ITEMS = 25;

/** An index document with its serialized forms, built once and reused. */
export interface IndexDocument {
  data: Record<string, unknown>;
  json: string;
  bytes: Buffer;
}

function indexDocument(data: Record<string, unknown>): IndexDocument {
  const json = JSON.stringify(data);
  return { data, json, bytes: Buffer.from(json) };
}

const CONTEXT_ARG = {
  description: l(
    'Scope under which the request is made; determines fields present in response.',
    'Bereich, in dem die Anfrage gestellt wird; bestimmt die Felder der Antwort.',
  ),
  default: 'view',
};

export class RestApi {
  readonly registry: Registry;
  readonly pipeline: RestPipeline;
  readonly app: AppServices;
  /** Serialized index documents, per root, effective language and context (never rebuilt per request). */
  private readonly indexCache = new Map<string, IndexDocument>();

  constructor(app: AppServices, namespaces: readonly NamespaceDef[]) {
    this.app = app;
    this.registry = new Registry([this.rootRoute(), this.batchRoute()], namespaces, (ns) =>
      this.namespaceIndexRoute(ns),
    );
    this.pipeline = new RestPipeline(this.registry, app);
    app.options.onChange(() => this.indexCache.clear());
  }

  dispatch(input: RestInput): Promise<RestOutput> {
    return this.pipeline.dispatch(input);
  }

  // ---- GET / -------------------------------------------------------------------------

  private rootRoute(): RouteDef {
    return {
      path: '/',
      endpoints: [
        endpoint('GET', {
          args: { context: CONTEXT_ARG },
          permission: PUBLIC,
          handler: (req) => this.siteDescriptor(req.rootLang, req.lang, req.params.context === 'help').data,
        }),
      ],
    };
  }

  /** The site descriptor (contract §2.1), cached with its JSON text. */
  siteDescriptor(rootLang: Lang, lang: Lang, help: boolean): IndexDocument {
    const key = `${rootLang}|${lang}|${help}`;
    const cached = this.indexCache.get(key);
    if (cached) return cached;
    const { siteUrl } = this.app.config;
    const options = this.app.options;
    const timezone = options.get('timezone_string');
    const data: Record<string, unknown> = {
      name: options.get('blogname'),
      description: options.get('blogdescription'),
      url: siteUrl,
      home: `${siteUrl}/${lang}`,
      gmt_offset: zoneOffsetHours(timezone),
      timezone_string: timezone,
      page_for_posts: Number(options.get('page_for_posts')) || 0,
      page_on_front: Number(options.get('page_on_front')) || 0,
      show_on_front: options.get('show_on_front'),
      namespaces: this.registry.namespaces,
      authentication: {
        'application-passwords': { endpoints: { authorization: `${siteUrl}/cms-admin/authorize-application.php` } },
      },
      routes: describeRoutes(this.registry.routes, { lang, help, restUrl: (r) => restUrl(siteUrl, rootLang, r) }),
    };
    const entry = indexDocument(data);
    this.indexCache.set(key, entry);
    return entry;
  }

  // ---- GET /<namespace> --------------------------------------------------------------

  private namespaceIndexRoute(ns: string): RouteDef {
    return route('', [
      endpoint('GET', {
        args: {
          namespace: { description: l('The namespace to describe.', 'Der zu beschreibende Namensraum.'), default: ns },
          context: CONTEXT_ARG,
        },
        permission: PUBLIC,
        handler: (req) => this.namespaceIndex(req),
      }),
    ]);
  }

  private namespaceIndex(req: RestRequest): unknown {
    // Untyped (as in the reference), so a map may arrive; String() of one from the query throws.
    const ns = typeof req.params.namespace === 'string' ? req.params.namespace : '';
    const routes = this.registry.routesOf(ns);
    if (!routes) throw new RestError('rest_invalid_namespace', MSG.invalidNamespace[req.lang], 404);
    const help = req.params.context === 'help';
    const key = `ns|${req.rootLang}|${req.lang}|${help}|${ns}`;
    let cached = this.indexCache.get(key);
    if (!cached) {
      const data = {
        namespace: ns,
        routes: describeRoutes(routes, { lang: req.lang, help, restUrl: (r) => req.restUrl(r) }),
        _links: { up: [{ href: req.restUrl('/') }] },
      };
      cached = indexDocument(data);
      this.indexCache.set(key, cached);
    }
    return cached.data;
  }

  // ---- POST /batch/v1 ----------------------------------------------------------------

  private batchRoute(): RouteDef {
    return route('/batch/v1', [
      endpoint('POST', {
        args: {
          validation: {
            description: l(
              'Whether all requests must validate before any runs.',
              'Ob alle Anfragen gültig sein müssen, bevor eine ausgeführt wird.',
            ),
            type: 'string',
            enum: ['require-all-validate', 'normal'],
            default: 'normal',
          },
          requests: {
            description: l(
              'The requests to run, in order (at most 25).',
              'Die auszuführenden Anfragen in Reihenfolge (höchstens 25).',
            ),
            type: 'array',
            maxItems: BATCH_MAX_ITEMS,
            items: {
              type: 'object',
              properties: {
                method: { type: 'string', enum: ['POST', 'PUT', 'PATCH', 'DELETE'], default: 'POST' },
                path: { type: 'string', required: true },
                body: { type: 'object', properties: {}, additionalProperties: true },
                headers: {
                  type: 'object',
                  properties: {},
                  additionalProperties: { type: ['string', 'array'], items: { type: 'string' } },
                },
              },
            },
            required: true,
            validate: (value: unknown, req: RestRequest) =>
              Array.isArray(value) && value.length > 0
                ? true
                : l('requests must contain at least 1 item.', 'requests muss mindestens 1 Element enthalten.')[
                    req.lang
                  ],
          },
        },
        permission: PUBLIC, // each item checks its own permission as the caller
        handler: (req) => this.runBatch(req),
      }),
    ]);
  }

  private async runBatch(req: RestRequest): Promise<RestResponse> {
    type Item = {
      method?: string;
      path: string;
      body?: Record<string, unknown>;
      headers?: Record<string, string | string[]>;
    };
    const items = req.params.requests as Item[];
    const auth = req.user ? { user: req.user, appPasswordUuid: req.appPasswordUuid } : null;

    // Phase 1: match and validate every item; nothing runs yet.
    const prepared = [];
    for (const item of items) {
      const input = this.batchItemInput(item, req, auth);
      if (input instanceof RestError) {
        prepared.push(errorOutput(input, { query: {}, body: { type: 'none' }, auth }));
        continue;
      }
      prepared.push(await this.pipeline.prepare(input, input.method));
    }
    const failed = prepared.map((p) => !('req' in p));

    if (req.params.validation === 'require-all-validate' && failed.some(Boolean)) {
      const responses = prepared.map((p) => ('req' in p ? null : envelope(p)));
      return new RestResponse({ failed: 'validation', responses }, 207);
    }
    // Phase 2: run in order; earlier side effects stay even when later items fail. A run of
    // consecutive items on one endpoint that declares itself independent (concurrentInBatch)
    // is started together, in order, so that their writes can share a transaction.
    const responses: Record<string, unknown>[] = [];
    for (let i = 0; i < prepared.length; ) {
      const p = prepared[i]!;
      if (!('req' in p)) {
        responses.push(envelope(p));
        i++;
        continue;
      }
      let end = i + 1;
      if (p.match.endpoint.concurrentInBatch) {
        while (end < prepared.length) {
          const next = prepared[end]!;
          if (!('req' in next) || next.match.endpoint !== p.match.endpoint) break;
          end++;
        }
      }
      const run = prepared.slice(i, end) as PreparedRequest[];
      const outputs =
        run.length === 1
          ? [await this.pipeline.execute(p)]
          : await Promise.all(run.map((item) => this.pipeline.execute(item)));
      for (const out of outputs) responses.push(envelope(out));
      i = end;
    }
    return new RestResponse({ responses }, 207);
  }

  private batchItemInput(
    item: {
      method?: string;
      path: string;
      body?: Record<string, unknown>;
      headers?: Record<string, string | string[]>;
    },
    req: RestRequest,
    auth: RestInput['auth'],
  ): RestInput | RestError {
    const path = item.path;
    if (!path.startsWith('/')) return new RestError('parse_path_failed', MSG.parsePathFailed[req.lang], 400);
    const q = path.indexOf('?');
    const routePath = normalizeRoute(q === -1 ? path : path.slice(0, q));
    if (routePath === null) return new RestError('parse_path_failed', MSG.parsePathFailed[req.lang], 400);
    if (routePath.toLowerCase() === '/batch/v1')
      return new RestError('rest_batch_not_allowed', MSG.batchNotAllowed[req.lang], 400);
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(item.headers ?? {})) headers[name.toLowerCase()] = value;
    return {
      method: item.method ?? 'POST',
      route: routePath,
      query: q === -1 ? {} : parseQuery(path.slice(q + 1)),
      body: { type: 'form', params: item.body ?? {} },
      headers,
      rootLang: req.lang,
      ip: req.ip,
      auth,
      inBatch: true,
    };
  }
}

function envelope(out: RestOutput): Record<string, unknown> {
  return { body: out.body ?? null, status: out.status, headers: Object.keys(out.headers).length ? out.headers : [] };
}

/** Query strings as PHP reads them: `a[]=1&a[]=2` lists, `a[k]=v` maps, the last duplicate wins. */
export function parseQuery(text: string): Record<string, unknown> {
  return qs.parse(text, {
    depth: 5,
    arrayLimit: 100,
    parameterLimit: 1000,
    duplicates: 'last',
    allowPrototypes: false,
    plainObjects: true,
  }) as Record<string, unknown>;
}

/** Decodes a route path and strips the trailing slash; '' becomes '/'. Null when undecodable. */
export function normalizeRoute(path: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return null;
  }
  const trimmed = decoded.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed.startsWith('/') ? trimmed : '/' + trimmed;
}
