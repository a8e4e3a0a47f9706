// The API's own documentation, outside the REST roots (so the index stays exactly the contract's):
//   GET /cms-api/<lang>/openapi.json  the OpenAPI 3.1 document of the root /<lang>/cms-json/,
//                                     generated from the route registry (src/rest/openapi/)
//   GET /cms-api/<lang>/              a reference page rendering it with Swagger UI, whose files
//                                     the server sends from the installed package: nothing is
//                                     loaded from anywhere else (the page's CSP allows only itself)
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppServices } from '../site/services.ts';
import type { RestApi } from '../rest/api.ts';
import { openApiDocument } from '../rest/openapi/document.ts';
import { LANGS, type Lang } from '../rest/types.ts';
import { pageHeaders, SESSION_COOKIE } from '../web/api.ts';
import { ownValue } from '../util.ts';

export const API_DOCS_PATH = '/cms-api';

const PACKAGE_VERSION = String(
  JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version,
);

const SWAGGER_DIR = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** The Swagger UI files the page uses, and the script that starts it (no inline script under the CSP). */
const ASSETS: Record<string, { file?: string; text?: string; type: string }> = {
  'swagger-ui.css': { file: 'swagger-ui.css', type: 'text/css; charset=utf-8' },
  'swagger-ui-bundle.js': { file: 'swagger-ui-bundle.js', type: 'text/javascript; charset=utf-8' },
  'favicon-32x32.png': { file: 'favicon-32x32.png', type: 'image/png' },
  'start.js': {
    // The document's address is relative to the page; validatorUrl null keeps Swagger UI from
    // sending the document to its public validator.
    text: `window.addEventListener('DOMContentLoaded', function () {
  var root = document.getElementById('swagger-ui');
  window.ui = SwaggerUIBundle({
    url: new URL(root.dataset.spec, location.href).href,
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    withCredentials: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    // Namespaces start folded: Swagger UI 5 stops rendering operations when more than about 130
    // are unfolded at once (it then shows the first few), and the API has more.
    docExpansion: 'none'
  });
});
`,
    type: 'text/javascript; charset=utf-8',
  },
};

const PAGE_TEXT = {
  en: { title: 'API reference', noscript: 'The reference needs JavaScript. The OpenAPI document itself:' },
  de: { title: 'API-Referenz', noscript: 'Die Referenz braucht JavaScript. Das OpenAPI-Dokument selbst:' },
};

/** The pages' security headers, with this page's own scripts, its document and Swagger UI's inline images. */
function referenceHeaders(): Record<string, string> {
  const headers = pageHeaders();
  headers['Content-Security-Policy'] =
    headers['Content-Security-Policy']!.replace("img-src 'self'", "img-src 'self' data:") +
    "; script-src 'self'; connect-src 'self'";
  return headers;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function referencePage(lang: Lang, siteName: string): string {
  const t = PAGE_TEXT[lang];
  const title = escapeHtml(`${t.title} – ${siteName}`);
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="icon" type="image/png" href="../assets/favicon-32x32.png">
<link rel="stylesheet" href="../assets/swagger-ui.css">
<script src="../assets/swagger-ui-bundle.js" defer></script>
<script src="../assets/start.js" defer></script>
</head>
<body>
<main id="swagger-ui" data-spec="openapi.json"><noscript><p>${escapeHtml(t.noscript)} <a href="openapi.json">openapi.json</a></p></noscript></main>
</body>
</html>
`;
}

function languageOf(value: string): Lang | null {
  return (LANGS as readonly string[]).includes(value) ? (value as Lang) : null;
}

/** The page's files, read on first use (1.5 MB that a server nobody reads the reference of never holds). */
const assetFiles = new Map<string, { body: Buffer; type: string }>();
function assetOf(name: string): { body: Buffer; type: string } | null {
  const asset = ownValue(ASSETS, name);
  if (!asset) return null;
  let loaded = assetFiles.get(name);
  if (!loaded) {
    loaded = {
      body: asset.file ? fs.readFileSync(path.join(SWAGGER_DIR, asset.file)) : Buffer.from(asset.text!),
      type: asset.type,
    };
    assetFiles.set(name, loaded);
  }
  return loaded;
}

export function registerApiDocs(server: FastifyInstance, app: AppServices, api: RestApi): void {
  // Built once per language; the title is the site's name, so a changed name rebuilds them.
  const documents = new Map<Lang, string>();
  app.options.onChange(() => documents.clear());
  const documentOf = (lang: Lang): string => {
    let json = documents.get(lang);
    if (!json) {
      const title = String(app.options.get('blogname') ?? '') || 'content-site';
      json = JSON.stringify(
        openApiDocument(api.registry, {
          siteUrl: app.config.siteUrl,
          lang,
          title,
          version: PACKAGE_VERSION,
          sessionCookie: SESSION_COOKIE,
        }),
      );
      documents.set(lang, json);
    }
    return json;
  };

  const send = (reply: FastifyReply, type: string, body: string | Buffer, headers: Record<string, string>) =>
    reply
      .code(200)
      .headers({ ...headers, 'Content-Type': type })
      .send(reply.request.method === 'HEAD' ? undefined : body);

  server.route({
    method: ['GET', 'HEAD'],
    url: `${API_DOCS_PATH}/:lang/openapi.json`,
    handler: (request: FastifyRequest<{ Params: { lang: string } }>, reply) => {
      const lang = languageOf(request.params.lang);
      if (!lang) return reply.callNotFound();
      // Public, like the index it describes; any origin may read it (no credentials involved).
      return send(reply, 'application/json; charset=utf-8', documentOf(lang), {
        'X-Content-Type-Options': 'nosniff',
        'Access-Control-Allow-Origin': '*',
        'Cache-Control': 'no-cache',
      });
    },
  });
  server.route({
    method: ['GET', 'HEAD'],
    url: `${API_DOCS_PATH}/:lang/`,
    handler: (request: FastifyRequest<{ Params: { lang: string } }>, reply) => {
      const lang = languageOf(request.params.lang);
      if (!lang) return reply.callNotFound();
      return send(
        reply,
        'text/html; charset=utf-8',
        referencePage(lang, String(app.options.get('blogname') ?? '')),
        referenceHeaders(),
      );
    },
  });
  // The page's relative addresses need the trailing slash.
  server.route({
    method: ['GET', 'HEAD'],
    url: `${API_DOCS_PATH}/:lang`,
    handler: (request: FastifyRequest<{ Params: { lang: string } }>, reply) => {
      const lang = languageOf(request.params.lang);
      // Relative, so that it holds behind a proxy that serves the site under a path.
      return lang ? reply.redirect(`${lang}/`, 301) : reply.callNotFound();
    },
  });
  server.route({
    method: ['GET', 'HEAD'],
    url: `${API_DOCS_PATH}/assets/:file`,
    handler: (request: FastifyRequest<{ Params: { file: string } }>, reply) => {
      const asset = assetOf(request.params.file);
      if (!asset) return reply.callNotFound();
      return send(reply, asset.type, asset.body, {
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'public, max-age=86400',
      });
    },
  });
}
