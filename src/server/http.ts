// The HTTP adapter: Fastify receives requests on the two language roots and hands them to
// the REST pipeline as plain inputs; it owns bodies, authentication and the fixed headers.
import http from 'node:http';
import { Readable } from 'node:stream';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import type { AppServices } from '../site/services.ts';
import type { WarmUp } from '../site/module.ts';
import { authenticateRequest } from '../auth/authenticate.ts';
import { authErrorIn } from '../auth/messages.ts';
import { RestApi, normalizeRoute, parseQuery } from '../rest/api.ts';
import { databaseError } from '../rest/database-errors.ts';
import { jsonChunks } from '../rest/json-list.ts';
import { errorOutput, requestLanguage, type BodyInput, type RestInput, type RestOutput } from '../rest/pipeline.ts';
import { MSG } from '../rest/messages.ts';
import { RestError, type Lang, type NamespaceDef } from '../rest/types.ts';
import { apiRoot } from '../rest/urls.ts';
import { NAMESPACES } from '../modules.ts';
import { registerWebRoutes, authenticateCookie } from '../web/api.ts';
import { registerConsole } from '../console/api.ts';
import { renderNotFound, renderPublicPath } from '../pages/api.ts';
import { logAccess } from './access-log.ts';
import { registerHealthRoutes } from './health.ts';
import { registerApiDocs } from './api-docs.ts';

export const BODY_LIMIT = 1024 * 1024;

const NO_CACHE = {
  Expires: 'Wed, 11 Jan 1984 05:00:00 GMT',
  'Cache-Control': 'no-cache, must-revalidate, max-age=0, no-store, private',
};

declare module 'fastify' {
  interface FastifyInstance {
    restApi: RestApi;
  }
}

function languageOf(value: unknown): Lang | null {
  return value === 'en' || value === 'de' ? value : null;
}

/** Headers every REST response carries (reference rest-core §8). */
function fixedHeaders(siteUrl: string, lang: Lang): Record<string, string> {
  return {
    'Content-Type': 'application/json; charset=UTF-8',
    'X-Robots-Tag': 'noindex',
    Link: `<${apiRoot(siteUrl, lang)}>; rel="https://api.w.org/"`,
    'X-Content-Type-Options': 'nosniff',
    'Access-Control-Expose-Headers': 'X-WP-Total, X-WP-TotalPages, Link',
    'Access-Control-Allow-Headers': 'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type',
  };
}

/** Time to render and send a timeout error after the reads' deadline. */
const ANSWER_MARGIN_MS = 5000;

export interface BuildOptions {
  /** The namespaces to serve (default: the site's); tests pass their own. */
  namespaces?: readonly NamespaceDef[];
  /** Start-up work under way that readiness waits for (src/server/start.ts). */
  warmUps?: readonly WarmUp[];
}

export async function buildServer(app: AppServices, opts: BuildOptions = {}): Promise<FastifyInstance> {
  // Created before Fastify so the server factory can reach it (fast path of the index).
  let api: RestApi | null = null;
  const indexHeaders = {
    en: indexResponseHeaders(app.config.siteUrl, 'en'),
    de: indexResponseHeaders(app.config.siteUrl, 'de'),
  };
  const server = Fastify({
    serverFactory: (handler) => {
      const { timeouts } = app.config;
      // Node checks these limits on a timer; check often enough for short test limits too.
      // A request being answered must not be cut as idle before its reads have timed out and
      // their error is sent (when the idle limit is set shorter than the read limit).
      const answerWithin = app.config.reads.timeoutMs + ANSWER_MARGIN_MS;
      const httpServer = http.createServer(
        { connectionsCheckingInterval: Math.min(1000, timeouts.headers) },
        (req, res) => {
          const idleLimit = req.socket.timeout; // 0 or undefined: none
          if (idleLimit && idleLimit < answerWithin) req.socket.setTimeout(answerWithin);
          if (app.config.accessLog) logAccess(app.log, req, res);
          if (api && serveCachedIndex(api, indexHeaders, req, res)) return;
          handler(req, res);
        },
      );
      // Slow or idle clients cannot hold the server: header, whole-request and keep-alive limits.
      httpServer.headersTimeout = timeouts.headers;
      httpServer.requestTimeout = Math.max(timeouts.request, timeouts.headers);
      httpServer.keepAliveTimeout = timeouts.keepAlive;
      // A connection that never sends a byte is not covered by the header limit: cut it when idle.
      httpServer.timeout = Math.max(timeouts.request, timeouts.headers);
      httpServer.maxHeadersCount = 200;
      return httpServer;
    },
    loggerInstance: app.log as FastifyBaseLogger,
    // Fastify's own per-request lines would cost more than the requests themselves; errors are
    // logged, and ACCESS_LOG switches on one line per request (logAccess).
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT,
    // Behind a reverse proxy (TRUST_PROXY), the client's address comes from X-Forwarded-For: login
    // throttling and the activity log see the client, not the proxy.
    trustProxy: app.config.trustProxy,
    exposeHeadRoutes: false,
    routerOptions: { querystringParser: (text: string) => parseQuery(text) },
    // A path that cannot even be decoded matches no route.
    frameworkErrors: (error, request, reply) => {
      const lang = request.url.startsWith('/de/') ? 'de' : 'en';
      const err =
        error.code === 'FST_ERR_BAD_URL'
          ? new RestError('rest_no_route', MSG.noRoute[lang], 404)
          : new RestError('rest_bad_request', MSG.badRequest[lang], 400);
      void send(reply, lang, request, errorOutput(err, { query: {}, body: { type: 'none' }, auth: null }));
    },
    // Requests already accepted when shutdown starts are finished, not refused.
    return503OnClosing: false,
  });
  api = new RestApi(app, opts.namespaces ?? NAMESPACES);
  const restApi = api;
  server.decorate('restApi', restApi);
  const fixed = { en: fixedHeaders(app.config.siteUrl, 'en'), de: fixedHeaders(app.config.siteUrl, 'de') };

  // Bodies are kept raw: JSON is parsed by the pipeline after routing (so an unknown route
  // with broken JSON is still a 404, as the reference orders it).
  server.removeAllContentTypeParsers();
  for (const jsonType of ['application/json', /^application\/[a-z0-9.+-]+\+json/i]) {
    server.addContentTypeParser(jsonType, { parseAs: 'string' }, (_req, body, done) => {
      done(null, { type: 'json', raw: body as string } satisfies BodyInput);
    });
  }
  server.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, { type: 'form', params: parseQuery(body as string) } satisfies BodyInput);
  });

  function send(reply: FastifyReply, lang: Lang, request: FastifyRequest, out: RestOutput): FastifyReply {
    const headers: Record<string, string> = { ...fixed[lang] };
    const origin = request.headers.origin;
    if (typeof origin === 'string') {
      headers['Access-Control-Allow-Origin'] = origin;
      headers['Access-Control-Allow-Methods'] = 'OPTIONS, GET, POST, PUT, PATCH, DELETE';
      headers['Access-Control-Allow-Credentials'] = 'true';
      headers.Vary = 'Origin';
    } else if (!out.loggedIn && request.method === 'GET') {
      headers.Vary = 'Origin';
    }
    if (out.loggedIn || (out.overridden && out.status >= 400 && out.status < 500)) Object.assign(headers, NO_CACHE);
    Object.assign(headers, out.headers);
    if (out.raw) {
      headers['Content-Type'] = out.raw.contentType;
      if (/^text\/html/i.test(out.raw.contentType)) Object.assign(headers, HTML_DOCUMENT_HEADERS);
    }
    reply.code(out.status).headers(headers);
    if (request.method === 'HEAD') return reply.send();
    if (out.raw) return reply.send(out.raw.content);
    if (out.body === undefined) return reply.send();
    // Lists read as they are sent (rest/json-list.ts); a read that fails midway ends the
    // connection, the status being sent already.
    if (out.listed) return reply.send(Readable.from(jsonChunks(out.body, out.pretty ? 4 : 0)));
    return reply.send(out.pretty ? JSON.stringify(out.body, null, 4) : JSON.stringify(out.body));
  }

  async function handleRest(
    request: FastifyRequest,
    reply: FastifyReply,
    lang: Lang,
    routePath: string | null,
    query: Record<string, unknown>,
  ) {
    const body: BodyInput = (request.body as BodyInput | undefined) ?? { type: 'none' };
    let input: RestInput = {
      method: request.method,
      route: routePath ?? '/',
      query,
      body,
      headers: request.headers,
      rootLang: lang,
      ip: request.ip,
      auth: null,
      streams: true,
    };
    if (routePath === null)
      return send(reply, lang, request, errorOutput(new RestError('rest_no_route', MSG.noRoute[lang], 404), input));
    let refreshedNonce: string | null = null;
    try {
      let auth = await authenticateRequest(app, request.headers.authorization, request.ip);
      if (!auth)
        ({ auth, refreshedNonce } = await authenticateCookie(app, { headers: request.headers, query, body }, lang));
      input = { ...input, auth };
    } catch (err) {
      if (err instanceof RestError)
        return send(reply, lang, request, errorOutput(authErrorIn(err, requestLanguage(input)), input));
      throw err;
    }
    const out = await restApi.dispatch(input);
    if (refreshedNonce) out.headers['X-WP-Nonce'] = refreshedNonce;
    return send(reply, lang, request, out);
  }

  const allMethods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

  /** The 404 page: the site's layout in the language of the path (English outside /de/). */
  async function notFound(reply: FastifyReply, lang: Lang = 'en'): Promise<FastifyReply> {
    let page;
    try {
      page = await renderNotFound(app, lang);
    } catch (err) {
      // Without the database the page cannot be laid out: the plain one still says what happened.
      app.log.warn({ err }, 'the 404 page could not be rendered');
      return plainNotFound(reply);
    }
    return reply
      .code(404)
      .headers(page.headers)
      .send(reply.request.method === 'HEAD' ? undefined : page.body);
  }

  const restRoot = async (request: FastifyRequest<{ Params: { lang: string; '*'?: string } }>, reply: FastifyReply) => {
    const lang = languageOf(request.params.lang);
    if (!lang) return notFound(reply);
    const raw = request.url.split('?')[0]!;
    const route = raw.slice(raw.indexOf('/cms-json') + '/cms-json'.length);
    return handleRest(request, reply, lang, normalizeRoute(route), (request.query ?? {}) as Record<string, unknown>);
  };
  server.route({ method: [...allMethods], url: '/:lang/cms-json', handler: restRoot });
  server.route({ method: [...allMethods], url: '/:lang/cms-json/*', handler: restRoot });

  /** Public pages of the site under `/<lang>/…` (GET and HEAD only). */
  const publicPage = async (request: FastifyRequest, reply: FastifyReply, lang: Lang) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return notFound(reply, lang);
    const raw = request.url.split('?')[0]!;
    const query: Record<string, string> = {};
    for (const [k, v] of Object.entries((request.query ?? {}) as Record<string, unknown>))
      if (typeof v === 'string') query[k] = v;
    const page = await renderPublicPath(app, lang, raw.slice(lang.length + 1), query);
    if (!page) return notFound(reply, lang);
    return reply
      .code(page.status)
      .headers(page.headers)
      .send(request.method === 'HEAD' ? undefined : page.body);
  };
  server.route({
    method: ['GET', 'HEAD'],
    url: '/:lang/*',
    handler: async (request: FastifyRequest<{ Params: { lang: string } }>, reply) => {
      const lang = languageOf(request.params.lang);
      return lang ? publicPage(request, reply, lang) : notFound(reply);
    },
  });

  // `{base_url}/<lang>/?rest_route=/…` — the plain-permalink form of the API; without it, the front page.
  const langRoot = async (request: FastifyRequest<{ Params: { lang: string } }>, reply: FastifyReply) => {
    const lang = languageOf(request.params.lang);
    const query = { ...((request.query ?? {}) as Record<string, unknown>) };
    if (!lang) return notFound(reply);
    if (!('rest_route' in query)) return publicPage(request, reply, lang);
    const routeParam = query.rest_route;
    delete query.rest_route;
    if (typeof routeParam !== 'string') {
      const input = { query, body: { type: 'none' } as BodyInput, auth: null };
      return send(
        reply,
        lang,
        request,
        errorOutput(new RestError('rest_path_invalid_type', MSG.routeTypeInvalid[lang], 400), input),
      );
    }
    return handleRest(request, reply, lang, normalizeRoute(routeParam), query);
  };
  server.route({ method: [...allMethods], url: '/:lang', handler: langRoot });
  server.route({ method: [...allMethods], url: '/:lang/', handler: langRoot });

  // The bare site address opens the English front page.
  server.route({ method: ['GET', 'HEAD'], url: '/', handler: (_request, reply) => reply.redirect('/en/', 302) });

  await registerWebRoutes(server, app);
  registerHealthRoutes(server, app, opts.warmUps ?? []);
  registerApiDocs(server, app, restApi);
  await registerConsole(server, app);

  server.setNotFoundHandler((request, reply) => notFound(reply, request.url.startsWith('/de/') ? 'de' : 'en'));

  server.setErrorHandler((error: { code?: string; statusCode?: number; message?: string }, request, reply) => {
    const lang = languageOf((request.params as { lang?: string } | undefined)?.lang) ?? 'en';
    const input = { query: {}, body: { type: 'none' } as BodyInput, auth: null };
    const dbError = databaseError(error, lang);
    let err: RestError;
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
      err = new RestError('rest_request_too_large', MSG.tooLarge[lang], 413);
    else if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
      err = new RestError('rest_unsupported_media_type', MSG.unsupportedMediaType[lang], 415);
    else if (dbError) err = dbError;
    else if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500)
      err = new RestError('rest_bad_request', error.message ?? 'Bad request.', error.statusCode);
    else {
      app.log.error({ err: error, url: request.url }, 'request failed');
      err = new RestError('internal_server_error', MSG.internal[lang], 500);
    }
    return send(reply, lang, request, errorOutput(err, input));
  });

  return server;
}

const INDEX_PATHS: Record<string, Lang> = {
  '/en/cms-json/': 'en',
  '/en/cms-json': 'en',
  '/de/cms-json/': 'de',
  '/de/cms-json': 'de',
};

function indexResponseHeaders(siteUrl: string, lang: Lang): Record<string, string> {
  return { ...fixedHeaders(siteUrl, lang), Vary: 'Origin', Allow: 'GET' };
}

/**
 * The index is the most requested document and the same for every anonymous caller: a plain
 * `GET /<lang>/cms-json/` (no query, no credentials, no Origin) is answered from its cached
 * bytes before the framework is involved. Anything else takes the full pipeline.
 */
function serveCachedIndex(
  api: RestApi,
  headers: Record<Lang, Record<string, string>>,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): boolean {
  if (
    req.method !== 'GET' ||
    req.headers.authorization ||
    req.headers['x-wp-nonce'] ||
    req.headers.origin ||
    req.headers['x-http-method-override']
  )
    return false;
  const lang = INDEX_PATHS[req.url ?? ''];
  if (!lang) return false;
  const { bytes } = api.siteDescriptor(lang, lang, false);
  res.writeHead(200, { ...headers[lang], 'Content-Length': bytes.length });
  res.end(bytes);
  return true;
}

/**
 * Security headers of HTML documents the adapter itself answers with (the plain 404 page) and of
 * HTML the REST API returns raw (the email report preview): nothing runs, nothing is loaded
 * but styles and images, no framing by other sites, no referrer.
 */
export const HTML_DOCUMENT_HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; base-uri 'none'; form-action 'none'; frame-ancestors 'self'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'SAMEORIGIN',
};

function plainNotFound(reply: FastifyReply): FastifyReply {
  return reply
    .code(404)
    .header('Content-Type', 'text/html; charset=UTF-8')
    .headers(HTML_DOCUMENT_HEADERS)
    .send(
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not found</title></head><body><h1>Not found</h1><p>The page you asked for does not exist.</p></body></html>',
    );
}
