// The site console at {base_url}/cms-admin/: server-rendered pages (Twig, auto-escaped, the
// web pages' security headers) that work before and without their scripts, which the browser
// code in client/ enhances. Pages read and write through the REST API in-process as the
// signed-in user; their scripts call the same API over HTTP with the session cookie and its
// `wp_rest` nonce (src/web/rest-cookie-auth.ts). See docs/console.md.
//
// registerConsole() is the console's one hook into the server (src/server/http.ts).
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppServices } from '../site/services.ts';
import { toAuthUser } from '../auth/user-rows.ts';
import type { Lang } from '../rest/types.ts';
import {
  chooseLang,
  isLang,
  parseCookies,
  restNonce,
  SESSION_COOKIE,
  loadSession,
  PATHS,
  pageUrl,
  siteAddress,
} from '../web/api.ts';
import { OUT_DIR, ensureClientBuild } from './build.ts';
import { ConsoleContext, consoleHeaders, renderTemplate, type LayoutData, type ConsolePage } from './context.ts';
import { CONSOLE_STRINGS } from './i18n.ts';
import { ADMIN_PHP, pagePath } from './pages.ts';
import { avatarOf } from './avatar.ts';
import { dashboardPage } from './pages/dashboard.ts';
import { historyPages } from './pages/history.ts';
import { jobsDashboardPage, jobsPage } from './pages/jobs.ts';
import { schedPage } from './pages/sched.ts';
import { slidersPage } from './pages/sliders.ts';
import { stringsPage } from './pages/strings.ts';
import { contentPages } from './pages/content.ts';
import { userPages } from './pages/users.ts';
import { xmlConfigPage } from './pages/xml-config.ts';

export const ASSETS_PATH = '/cms-admin/assets/';

/** Every page of the console (part 2 appends its own). */
export const CONSOLE_PAGES: ConsolePage[] = [
  dashboardPage,
  ...historyPages,
  stringsPage,
  jobsPage,
  jobsDashboardPage,
  xmlConfigPage,
  schedPage,
  slidersPage,
  ...contentPages,
  ...userPages,
];

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/** The built browser files, held in memory: name → bytes and type. */
async function loadAssets(): Promise<{
  files: Map<string, { body: Buffer; type: string }>;
  entry: (name: string) => string;
}> {
  const manifest = await ensureClientBuild();
  const files = new Map<string, { body: Buffer; type: string }>();
  for (const name of fs.readdirSync(OUT_DIR)) {
    const type = CONTENT_TYPES[path.extname(name)];
    if (type) files.set(name, { body: fs.readFileSync(path.join(OUT_DIR, name)), type });
  }
  return { files, entry: (name) => manifest[name] ?? '' };
}

/** The console's language for a user: their own choice, else the browser's. */
export function consoleLang(locale: string, acceptLanguage: string | undefined): Lang {
  return isLang(locale) ? locale : chooseLang(undefined, acceptLanguage);
}

export async function registerConsole(server: FastifyInstance, app: AppServices): Promise<void> {
  const site = siteAddress(app.config.siteUrl);
  const assets = await loadAssets();
  const assetUrl = (entry: string) => site.basePath + ASSETS_PATH + assets.entry(entry);

  server.get(`${ASSETS_PATH}:file`, async (request: FastifyRequest<{ Params: { file: string } }>, reply) => {
    const file = assets.files.get(request.params.file);
    if (!file)
      return reply
        .code(404)
        .headers({ 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' })
        .send('Not found');
    // Names carry a hash of their content: a changed file has a new name.
    return reply
      .code(200)
      .headers({
        'Content-Type': file.type,
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'public, max-age=31536000, immutable',
      })
      .send(file.body);
  });

  async function layout(ctx: ConsoleContext, title: string): Promise<LayoutData> {
    const { t, user } = ctx;
    const current = ctx.request.url;
    const nav = CONSOLE_PAGES.filter(
      (p) => p.navOrder !== undefined && (p.capability === null || user.can(p.capability)),
    )
      .sort((a, b) => a.navOrder! - b.navOrder!)
      .map((p) => ({ label: t[p.title], url: ctx.url(pagePath(p)), current: p === ctx.page }));
    return {
      lang: ctx.lang,
      t,
      siteName: String(app.options.get('blogname') ?? ''),
      documentTitle: title,
      cssUrl: assetUrl('console.css'),
      jsUrl: assetUrl('console.js'),
      restRoot: `${site.basePath}/${ctx.lang}/cms-json/`,
      restNonce: await restNonce(app, ctx.session),
      csrf: await ctx.csrf(),
      homeUrl: ctx.url('/cms-admin/'),
      nav,
      me: {
        displayName: user.displayName,
        login: user.login,
        avatar: avatarOf(user.displayName, user.id),
        profileUrl: ctx.url('/cms-admin/profile.php'),
      },
      logoutUrl: pageUrl(site, PATHS.login, { action: 'logout', lang: ctx.lang }),
      languageForm: { action: ctx.url('/cms-admin/profile.php'), returnTo: site.origin + current },
      pageId: ctx.page.adminPage ?? path.basename(ctx.page.path, '.php'),
      timeZone: app.options.timeZone(),
    };
  }

  async function handle(
    request: FastifyRequest,
    reply: FastifyReply,
    page: ConsolePage | undefined,
  ): Promise<FastifyReply> {
    const cookies = parseCookies(request.headers.cookie);
    const session = await loadSession(app, cookies[SESSION_COOKIE]);
    if (!session) {
      // Back to this page after logging in (a form post cannot be repeated: to the dashboard).
      const back = request.method === 'GET' ? site.origin + request.url : site.origin + site.basePath + '/cms-admin/';
      reply
        .code(request.method === 'GET' ? 302 : 303)
        .headers({ ...consoleHeaders(), Location: pageUrl(site, PATHS.login, { redirect_to: back }) });
      // The cookie of an ended session is dropped, as the web pages do.
      if (cookies[SESSION_COOKIE] !== undefined)
        reply.header(
          'Set-Cookie',
          `${SESSION_COOKIE}=; Path=${site.basePath || '/'}; HttpOnly; SameSite=Lax; Max-Age=0`,
        );
      return reply.send();
    }
    const user = toAuthUser(session.user);
    const lang = consoleLang(session.user.locale, request.headers['accept-language']);
    const t = CONSOLE_STRINGS[lang];
    const target = page ?? notFoundPage;
    const ctx = new ConsoleContext({
      app,
      site,
      request,
      reply,
      session,
      user,
      lang,
      t,
      page: target,
      restApi: server.restApi,
      layout,
    });
    if (!page) return ctx.message(404, t.notFoundTitle, t.notFoundText);
    if (page.capability !== null && !user.can(page.capability))
      return ctx.message(403, t.forbiddenTitle, t.forbiddenText);
    return page.handle(ctx);
  }

  /** Unexpected failures still answer with a page of ours, never a stack trace. */
  const guarded =
    (find: (request: FastifyRequest) => ConsolePage | undefined) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      try {
        return await handle(request, reply, find(request));
      } catch (err) {
        app.log.error({ err, url: request.url }, 'console page failed');
        const lang = chooseLang(undefined, request.headers['accept-language']);
        const t = CONSOLE_STRINGS[lang];
        const html = renderTemplate('failure.twig', { lang, t });
        return reply
          .code(500)
          .headers({ ...consoleHeaders(), 'Content-Type': 'text/html; charset=utf-8' })
          .send(html);
      }
    };

  const byAdminPage = new Map(CONSOLE_PAGES.filter((p) => p.adminPage).map((p) => [p.adminPage!, p]));
  server.route({
    method: ['GET', 'POST'],
    url: ADMIN_PHP,
    handler: guarded((request) => byAdminPage.get(String((request.query as Record<string, unknown>).page ?? ''))),
  });
  for (const page of CONSOLE_PAGES.filter((p) => !p.adminPage)) {
    const urls = page === dashboardPage ? ['/cms-admin/', '/cms-admin/index.php', '/cms-admin'] : [page.path];
    for (const url of urls) server.route({ method: ['GET', 'POST'], url, handler: guarded(() => page) });
  }
}

const notFoundPage: ConsolePage = {
  path: ADMIN_PHP,
  capability: null,
  title: 'notFoundTitle',
  handle: (ctx) => ctx.message(404, ctx.t.notFoundTitle, ctx.t.notFoundText),
};
