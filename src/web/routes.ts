// The site's own HTML pages outside the API: login and the application authorization flow
// (reference rest-core §6.5); the former list of application passwords is now the console's profile.
//
//   {base_url}/cms-login.php                          GET form, POST log in; POST ?action=logout
//   {base_url}/cms-login.php?action=rp&key=…&login=…  GET/POST: set a password with a one-time link
//   {base_url}/cms-admin/authorize-application.php    GET form, POST approve / reject
//   {base_url}/cms-admin/application-passwords.php    now part of the console's profile: redirects there
//   {base_url}/cms-includes/web.css                   the pages' one style sheet
//
// Every page is rendered by Twig with auto-escaping, carries the security headers of
// pageHeaders(), is never cached, and every form carries a CSRF token bound to the session
// (or, on the login form, to a login-nonce cookie); a missing or wrong token is a 403 page.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppServices } from '../site/services.ts';
import { chunkPassword, createAppPassword } from '../auth/app-passwords.ts';
import { failedLoginEntry, USER_LOGGER } from '../auth/logger.ts';
import { checkPasswordResetKey, resetPasswordWithKey } from '../auth/password-reset.ts';
import { reserveLoginAttempt } from '../auth/throttle.ts';
import { isEmail } from '../rest/schema/formats.ts';
import { findUserByEmail, findUserByLogin, throwawayPasswordHash, toAuthUser, verifyUserPassword, type UserRow } from '../auth/users.ts';
import type { BodyInput } from '../rest/pipeline.ts';
import { RestError, type Lang } from '../rest/types.ts';
import type { ActivityOrigin } from '../site/activity.ts';
import { chooseLang, fmt, segments, STRINGS, type Strings } from './i18n.ts';
import { render } from './render.ts';
import {
  LOGIN_NONCE_COOKIE, SESSION_COOKIE, checkCsrf, createSession, csrfToken, destroySession, destroyUserSessions, isTokenShaped, loadSession,
  randomToken, type CsrfBinding, type WebSession,
} from './session.ts';
import {
  APP_NAME_MAX, PATHS, addQueryArgs, atSiteAddress, locationSafe, pageUrl, readAuthorizeParams, sameSiteRedirect, siteAddress, textParam,
  type AuthorizeParams, type Problem,
} from './urls.ts';

const CSS_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'static', 'web.css');

/**
 * Security headers of every page and redirect. `formAction: false` on the authorize page:
 * browsers apply CSP form-action to the redirect that follows the form post, and that
 * redirect goes to the application's own (validated) success or reject URL.
 */
export function pageHeaders(opts: { formAction?: boolean } = {}): Record<string, string> {
  const csp = ["default-src 'none'", "style-src 'self'", "img-src 'self'", "base-uri 'none'", "frame-ancestors 'none'"];
  if (opts.formAction !== false) csp.push("form-action 'self'");
  return {
    'Content-Security-Policy': csp.join('; '),
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cache-Control': 'no-store, no-cache, must-revalidate, max-age=0, private',
    Pragma: 'no-cache',
    Expires: 'Wed, 11 Jan 1984 05:00:00 GMT',
    'X-Robots-Tag': 'noindex, nofollow',
  };
}

export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = Object.create(null); // the names are the client's
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (name && !(name in out)) out[name] = value;
  }
  return out;
}

/** Per-request state of a page handler. */
interface Ctx {
  request: FastifyRequest;
  reply: FastifyReply;
  lang: Lang;
  t: Strings;
  query: Record<string, unknown>;
  body: Record<string, unknown>;
  cookies: Record<string, string>;
  session: WebSession | null;
  /** Cookies to set with the response. */
  setCookies: string[];
}

export async function registerWebRoutes(server: FastifyInstance, app: AppServices): Promise<void> {
  const site = siteAddress(app.config.siteUrl);
  const css = fs.readFileSync(CSS_FILE, 'utf8');
  // Failed logins without a real hash to check use this one (see verifyUserPassword).
  await throwawayPasswordHash();

  const cookie = (name: string, value: string, maxAge?: number): string => {
    const parts = [`${name}=${value}`, `Path=${site.basePath || '/'}`, 'HttpOnly', 'SameSite=Lax'];
    if (maxAge !== undefined) parts.push(`Max-Age=${maxAge}`);
    if (site.https) parts.push('Secure');
    return parts.join('; ');
  };

  async function context(request: FastifyRequest, reply: FastifyReply): Promise<Ctx> {
    const query = (request.query ?? {}) as Record<string, unknown>;
    const bodyInput = request.body as BodyInput | undefined;
    const body = bodyInput?.type === 'form' ? bodyInput.params : {};
    const lang = chooseLang(query.lang, request.headers['accept-language']);
    const cookies = parseCookies(request.headers.cookie);
    const session = await loadSession(app, cookies[SESSION_COOKIE]);
    const setCookies: string[] = [];
    // A cookie of an ended session (expired, logged out elsewhere, user disabled) is dropped.
    if (!session && cookies[SESSION_COOKIE] !== undefined) setCookies.push(cookie(SESSION_COOKIE, '', 0));
    return { request, reply, lang, t: STRINGS[lang], query, body, cookies, session, setCookies };
  }

  /** The `lang` argument for our own links: kept only when the visitor chose it explicitly. */
  const langArg = (ctx: Ctx): string | undefined => (ctx.query.lang === ctx.lang ? ctx.lang : undefined);

  async function layout(ctx: Ctx, title: string, canonical: { path: string; query?: Record<string, string | undefined> }, wide = false) {
    const user = ctx.session?.user ?? null;
    const langLinks = (['en', 'de'] as const).map((l) => ({
      lang: l,
      label: l === 'en' ? 'English' : 'Deutsch',
      url: pageUrl(site, canonical.path, { ...canonical.query, lang: l }),
      current: l === ctx.lang,
    }));
    return {
      lang: ctx.lang,
      t: ctx.t,
      title,
      siteName: String(app.options.get('blogname') ?? ''),
      cssUrl: site.basePath + PATHS.css,
      langLinks,
      user: user ? { login: user.login, displayName: user.display_name } : null,
      loggedInAs: user ? fmt(ctx.t.loggedInAs, { user: user.display_name }) : '',
      csrf: ctx.session ? await csrfToken(app, { kind: 'session', idHash: ctx.session.idHash }) : '',
      logoutUrl: pageUrl(site, PATHS.login, { action: 'logout', lang: ctx.lang }),
      passwordsUrl: `${pageUrl(site, PATHS.profile)}#application-passwords`,
      mainClass: wide ? 'wide' : '',
    };
  }

  function sendHtml(ctx: Ctx, status: number, html: string, headers: Record<string, string> = {}, formAction = true): FastifyReply {
    const reply = ctx.reply.code(status).headers({ ...pageHeaders({ formAction }), 'Content-Type': 'text/html; charset=utf-8', ...headers });
    if (ctx.setCookies.length) reply.header('Set-Cookie', ctx.setCookies);
    return reply.send(html);
  }

  function redirect(ctx: Ctx, status: 302 | 303, location: string): FastifyReply {
    const reply = ctx.reply.code(status).headers({ ...pageHeaders(), Location: locationSafe(location) });
    if (ctx.setCookies.length) reply.header('Set-Cookie', ctx.setCookies);
    return reply.send();
  }

  async function errorPage(
    ctx: Ctx,
    status: number,
    opts: { title: string; heading: string; paragraphs: string[]; problems?: { param: string; message: string; value: string }[]; backUrl?: string; canonical: { path: string; query?: Record<string, string | undefined> } },
  ): Promise<FastifyReply> {
    const html = render('error.twig', {
      ...(await layout(ctx, opts.title, opts.canonical)),
      heading: opts.heading,
      paragraphs: opts.paragraphs,
      problems: opts.problems ?? [],
      backUrl: opts.backUrl ?? '',
    });
    return sendHtml(ctx, status, html);
  }

  async function csrfFailed(ctx: Ctx, backUrl: string, canonical: { path: string; query?: Record<string, string | undefined> }): Promise<FastifyReply> {
    return errorPage(ctx, 403, { title: ctx.t.csrfTitle, heading: ctx.t.csrfTitle, paragraphs: [ctx.t.csrfText], backUrl, canonical });
  }

  function origin(ctx: Ctx, user: UserRow | null): ActivityOrigin {
    return user ? { user: toAuthUser(user), ip: ctx.request.ip } : { user: null, ip: ctx.request.ip, initiator: 'web_user' };
  }

  /** Sends an anonymous visitor to the login page, to come back to `returnTo` afterwards. */
  function toLogin(ctx: Ctx, returnTo: string, status: 302 | 303 = 302): FastifyReply {
    return redirect(ctx, status, pageUrl(site, PATHS.login, { redirect_to: returnTo, lang: langArg(ctx) }));
  }

  /**
   * An unexpected failure (database down…) still answers with an HTML page carrying the
   * security headers, never with a stack trace.
   */
  function guarded(handler: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>) {
    return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
      try {
        return await handler(request, reply);
      } catch (err) {
        app.log.error({ err, url: request.url }, 'web page failed');
        const lang = chooseLang((request.query as Record<string, unknown> | undefined)?.lang, request.headers['accept-language']);
        const text = lang === 'de' ? 'Auf der Website ist ein Fehler aufgetreten. Bitte versuche es später erneut.' : 'There has been an error on the site. Please try again later.';
        return reply
          .code(500)
          .headers({ ...pageHeaders(), 'Content-Type': 'text/html; charset=utf-8' })
          .send(`<!DOCTYPE html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${STRINGS[lang].errorTitle}</title></head><body><main><h1>${STRINGS[lang].errorTitle}</h1><p>${text}</p></main></body></html>`);
      }
    };
  }

  // --- style sheet ---
  server.get(PATHS.css, async (_request, reply) =>
    reply
      .code(200)
      .headers({ 'Content-Type': 'text/css; charset=utf-8', 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'public, max-age=3600' })
      .send(css),
  );

  // --- login and logout ---

  async function showLogin(ctx: Ctx, status: number, opts: { login?: string; notice?: { kind: string; text: string } | null; redirectTo: string | null; headers?: Record<string, string> }) {
    let nonce = ctx.cookies[LOGIN_NONCE_COOKIE];
    if (!isTokenShaped(nonce)) {
      nonce = randomToken();
      ctx.setCookies.push(cookie(LOGIN_NONCE_COOKIE, nonce));
    }
    const redirectTo = opts.redirectTo ?? '';
    const html = render('login.twig', {
      ...(await layout(ctx, ctx.t.loginTitle, { path: PATHS.login, query: { redirect_to: redirectTo || undefined } })),
      heading: segments(ctx.t.loginHeading, { site: String(app.options.get('blogname') ?? '') }),
      notice: opts.notice ?? null,
      formAction: pageUrl(site, PATHS.login, { lang: ctx.lang }),
      csrf: await csrfToken(app, { kind: 'login', nonce }),
      redirectTo,
      login: opts.login ?? '',
    });
    return sendHtml(ctx, status, html, opts.headers);
  }

  server.get(PATHS.login, guarded(async (request, reply) => {
    const ctx = await context(request, reply);
    // Reached at another address (http://127.0.0.1:8080 for SITE_URL http://localhost:8080):
    // the form would post to the site's address, so it is shown there.
    if (!atSiteAddress(site, request.headers)) return redirect(ctx, 302, site.origin + site.basePath + request.url);
    if (ctx.query.action === 'rp') return showResetPassword(ctx, 200, textParam(ctx.query.login) ?? '', textParam(ctx.query.key) ?? '', null);
    const target = sameSiteRedirect(site, ctx.query.redirect_to);
    // Logged in already: straight on, unless asked to log in again (`reauth=1`, as the reference).
    if (ctx.session && ctx.query.reauth !== '1') return redirect(ctx, 302, target ?? pageUrl(site, PATHS.dashboard));
    let notice: { kind: string; text: string } | null = null;
    if (ctx.query.loggedout === 'true') notice = { kind: 'success', text: ctx.t.loggedOut };
    else if (ctx.query.password === 'reset') notice = { kind: 'success', text: ctx.t.rpDone };
    else if (target) notice = { kind: 'info', text: ctx.t.loginToContinue };
    return showLogin(ctx, 200, { notice, redirectTo: target });
  }));

  server.post(PATHS.login, guarded(async (request, reply) => {
    const ctx = await context(request, reply);
    if (ctx.query.action === 'logout') return logout(ctx);
    if (ctx.query.action === 'rp') return resetPassword(ctx);
    const target = sameSiteRedirect(site, ctx.body.redirect_to);
    const nonce = ctx.cookies[LOGIN_NONCE_COOKIE];
    const binding: CsrfBinding | null = isTokenShaped(nonce) ? { kind: 'login', nonce } : null;
    if (!(await checkCsrf(app, binding, ctx.body._csrf))) {
      return csrfFailed(ctx, pageUrl(site, PATHS.login, { redirect_to: target ?? undefined, lang: langArg(ctx) }), { path: PATHS.login });
    }
    const login = textParam(ctx.body.log) ?? '';
    const password = textParam(ctx.body.pwd) ?? '';
    if (login.trim() === '' || password === '') {
      return showLogin(ctx, 200, { login, notice: { kind: 'error', text: ctx.t.loginEmpty }, redirectTo: target });
    }
    const attempt = await reserveLoginAttempt(app.db, request.ip);
    if (!attempt.granted) {
      return showLogin(ctx, 429, {
        login,
        notice: { kind: 'error', text: fmt(ctx.t.loginThrottled, { seconds: attempt.retryAfter }) },
        redirectTo: target,
        headers: { 'Retry-After': String(attempt.retryAfter) },
      });
    }
    const name = login.trim();
    // Logins are at most 60 and e-mail addresses 100 characters: longer input is no user.
    const row = name.length > 100 ? undefined : ((await findUserByLogin(app, name)) ?? (isEmail(name) ? await findUserByEmail(app, name) : undefined));
    // One password hash whatever the reason of a failure (see verifyUserPassword).
    const ok = await verifyUserPassword(row, password, app);
    if (!row || !ok) {
      await app.activity.log(failedLoginEntry(name, row), origin(ctx, null));
      return showLogin(ctx, 200, { login, notice: { kind: 'error', text: ctx.t.loginFailed }, redirectTo: target });
    }
    await attempt.release();
    // A fresh session id on every login (no session fixation); the previous one ends.
    if (ctx.session) await destroySession(app, ctx.session.idHash);
    const { cookieValue, session } = await createSession(app, row.id, request.ip, String(request.headers['user-agent'] ?? ''));
    ctx.setCookies = ctx.setCookies.filter((c) => !c.startsWith(`${SESSION_COOKIE}=`));
    ctx.setCookies.push(cookie(SESSION_COOKIE, cookieValue), cookie(LOGIN_NONCE_COOKIE, '', 0));
    await app.activity.log({ logger: USER_LOGGER, messageKey: 'user_logged_in', context: { user_login: session.user.login } }, origin(ctx, session.user));
    return redirect(ctx, 302, target ?? pageUrl(site, PATHS.dashboard));
  }));

  // --- set a password with a one-time link (reference: wp-login.php?action=rp) ---

  /** The form for a valid link, the form again with `problem`, or an error page for a link that does not work. */
  async function showResetPassword(ctx: Ctx, status: number, login: string, key: string, problem: string | null): Promise<FastifyReply> {
    const canonical = { path: PATHS.login, query: { action: 'rp', key, login } };
    let user;
    try {
      user = await checkPasswordResetKey(app, login, key);
    } catch (err) {
      if (!(err instanceof RestError) || err.status >= 500) throw err;
      const text = err.code === 'expired_key' ? ctx.t.rpExpired : ctx.t.rpInvalid;
      return errorPage(ctx, 400, { title: ctx.t.rpTitle, heading: ctx.t.rpTitle, paragraphs: [text], canonical, backUrl: pageUrl(site, PATHS.login, { lang: langArg(ctx) }) });
    }
    // The form is bound to the login-nonce cookie, as the login form is.
    let nonce = ctx.cookies[LOGIN_NONCE_COOKIE];
    if (!isTokenShaped(nonce)) {
      nonce = randomToken();
      ctx.setCookies.push(cookie(LOGIN_NONCE_COOKIE, nonce));
    }
    const html = render('reset-password.twig', {
      ...(await layout(ctx, ctx.t.rpTitle, canonical)),
      heading: fmt(ctx.t.rpHeading, { user: user.login }),
      notice: problem,
      formAction: pageUrl(site, PATHS.login, { action: 'rp', lang: ctx.lang }),
      csrf: await csrfToken(app, { kind: 'login', nonce }),
      login: user.login,
      key,
    });
    return sendHtml(ctx, status, html);
  }

  async function resetPassword(ctx: Ctx): Promise<FastifyReply> {
    const login = textParam(ctx.body.login) ?? '';
    const key = textParam(ctx.body.key) ?? '';
    const nonce = ctx.cookies[LOGIN_NONCE_COOKIE];
    if (!(await checkCsrf(app, isTokenShaped(nonce) ? { kind: 'login', nonce } : null, ctx.body._csrf))) {
      return csrfFailed(ctx, pageUrl(site, PATHS.login, { action: 'rp', key, login, lang: langArg(ctx) }), { path: PATHS.login });
    }
    const password = textParam(ctx.body.pass1) ?? '';
    if (password !== (textParam(ctx.body.pass2) ?? '')) return showResetPassword(ctx, 400, login, key, ctx.t.rpMismatch);
    let user;
    try {
      user = await resetPasswordWithKey(app, login, key, password, ctx.request.ip);
    } catch (err) {
      if (!(err instanceof RestError) || err.status >= 500) throw err;
      // A refused password shows the form again; a link that stopped working, its error page.
      return showResetPassword(ctx, 400, login, key, err.code === 'password_too_short' ? ctx.t.rpTooShort : null);
    }
    // As after any new password: the user's sessions end.
    await destroyUserSessions(app, user.id);
    return redirect(ctx, 303, pageUrl(site, PATHS.login, { password: 'reset', lang: langArg(ctx) }));
  }

  async function logout(ctx: Ctx): Promise<FastifyReply> {
    const done = pageUrl(site, PATHS.login, { loggedout: 'true', lang: langArg(ctx) });
    if (!ctx.session) {
      // Nothing to end (already logged out or expired): no state changes, nothing to forge.
      return redirect(ctx, 303, done);
    }
    if (!(await checkCsrf(app, { kind: 'session', idHash: ctx.session.idHash }, ctx.body._csrf))) {
      return csrfFailed(ctx, pageUrl(site, PATHS.dashboard), { path: PATHS.login });
    }
    await destroySession(app, ctx.session.idHash);
    ctx.setCookies.push(cookie(SESSION_COOKIE, '', 0));
    await app.activity.log({ logger: USER_LOGGER, messageKey: 'user_logged_out', context: { user_login: ctx.session.user.login } }, origin(ctx, ctx.session.user));
    return redirect(ctx, 303, done);
  }

  // --- authorize application ---

  const authorizeQuery = (p: AuthorizeParams, lang?: string): Record<string, string | undefined> => ({
    app_name: p.appName || undefined,
    app_id: p.appId || undefined,
    success_url: p.successUrl || undefined,
    reject_url: p.rejectUrl || undefined,
    lang,
  });

  async function badRequest(ctx: Ctx, problems: Problem[], source: Record<string, unknown>): Promise<FastifyReply> {
    return errorPage(ctx, 400, {
      title: ctx.t.authorizeTitle,
      heading: ctx.t.requestNotAllowed,
      paragraphs: [ctx.t.requestProblems],
      problems: problems.map((p) => ({
        param: p.param,
        message: p.code === 'app_name_too_long' ? fmt(ctx.t[p.code], { max: APP_NAME_MAX }) : ctx.t[p.code],
        value: typeof source[p.param] === 'string' ? truncate(source[p.param] as string, 300) : '',
      })),
      backUrl: pageUrl(site, PATHS.profile),
      // The language links keep the request as it was (only its text parameters).
      canonical: { path: PATHS.authorize, query: ctx.request.method === 'GET' ? textOnly(ctx.query) : {} },
    });
  }

  async function showAuthorize(ctx: Ctx, status: number, p: AuthorizeParams, notice: string | null): Promise<FastifyReply> {
    const user = ctx.session!.user;
    const t = ctx.t;
    const appName = p.appName.trim();
    const html = render('authorize.twig', {
      ...(await layout(ctx, t.authorizeTitle, { path: PATHS.authorize, query: authorizeQuery(p) })),
      notice: notice ? { kind: 'error', text: notice } : null,
      intro: appName ? segments(t.authorizeNamed, { app: appName }) : segments(t.authorizeGeneric, {}),
      actingAs: segments(t.authorizeActingAs, { user: user.display_name === user.login ? user.login : `${user.display_name} (${user.login})` }),
      formAction: pageUrl(site, PATHS.authorize, { lang: ctx.lang }),
      appName: p.appName,
      appId: p.appId,
      successUrl: p.successUrl,
      rejectUrl: p.rejectUrl,
      nameMax: APP_NAME_MAX,
      approveUrl: p.successUrl ? addQueryArgs(p.successUrl, { site_url: app.config.siteUrl, user_login: user.login, password: '[------]' }).replace('%5B------%5D', '[------]') : '',
      approveText: fmt(t.approveSendsTo, { url: '' }).trim(),
      rejectTarget: rejectTarget(p) ?? '',
      rejectText: fmt(t.rejectSendsTo, { url: '' }).trim(),
    });
    return sendHtml(ctx, status, html, {}, false);
  }

  /** Where "reject" sends the user: reject_url, else success_url, with success=false; null → our list. */
  function rejectTarget(p: AuthorizeParams): string | null {
    if (p.rejectUrl) return addQueryArgs(p.rejectUrl, { success: 'false' });
    if (p.successUrl) return addQueryArgs(p.successUrl, { success: 'false' });
    return null;
  }

  server.get(PATHS.authorize, guarded(async (request, reply) => {
    const ctx = await context(request, reply);
    if (!ctx.session) return toLogin(ctx, site.origin + site.basePath + request.url);
    const { params, problems } = readAuthorizeParams(ctx.query, site, true);
    if (problems.length) return badRequest(ctx, problems, ctx.query);
    return showAuthorize(ctx, 200, params, null);
  }));

  server.post(PATHS.authorize, guarded(async (request, reply) => {
    const ctx = await context(request, reply);
    const { params, problems } = readAuthorizeParams(ctx.body, site, false);
    const getUrl = pageUrl(site, PATHS.authorize, authorizeQuery(problems.length ? { appName: '', appId: '', successUrl: '', rejectUrl: '' } : params, langArg(ctx)));
    if (!ctx.session) return toLogin(ctx, getUrl, 303);
    if (!(await checkCsrf(app, { kind: 'session', idHash: ctx.session.idHash }, ctx.body._csrf))) {
      return csrfFailed(ctx, problems.length ? pageUrl(site, PATHS.profile) : getUrl, { path: PATHS.authorize });
    }
    if (problems.length) return badRequest(ctx, problems, ctx.body);
    const user = ctx.session.user;
    const action = ctx.body.action;
    if (action === 'reject') {
      return redirect(ctx, 302, rejectTarget(params) ?? pageUrl(site, PATHS.profile, { rejected: '1' }));
    }
    if (action !== 'approve') return showAuthorize(ctx, 400, params, ctx.t.unknownAction);
    let created;
    try {
      created = await createAppPassword(app, user.id, { name: params.appName, appId: params.appId || undefined }, origin(ctx, user));
    } catch (err) {
      if (!(err instanceof RestError) || err.status >= 500) throw err;
      const message =
        err.code === 'application_password_empty_name' ? ctx.t.emptyName
        : err.code === 'application_password_duplicate_name' ? ctx.t.duplicateName
        : err.code === 'application_password_name_too_long' ? fmt(ctx.t.app_name_too_long, { max: APP_NAME_MAX })
        : err.code === 'invalid_app_id' ? ctx.t.invalid_app_id
        : err.message;
      return showAuthorize(ctx, err.status, params, message);
    }
    if (params.successUrl) {
      // Reference order and form: site_url, user_login, then the raw 24-character password.
      return redirect(ctx, 302, addQueryArgs(params.successUrl, { site_url: app.config.siteUrl, user_login: user.login, password: created.password }));
    }
    const html = render('created.twig', {
      ...(await layout(ctx, ctx.t.createdTitle, { path: PATHS.profile })),
      heading: segments(ctx.t.createdHeading, { app: created.name }),
      password: chunkPassword(created.password),
      copy: segments(ctx.t.createdCopy, { login: user.login }),
    });
    return sendHtml(ctx, 200, html);
  }));

  // --- the former application-passwords page: now part of the console's profile ---

  server.route({
    method: ['GET', 'POST'],
    url: PATHS.legacyPasswords,
    handler: (request, reply) => {
      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      return reply.code(request.method === 'GET' ? 302 : 303).headers({ ...pageHeaders(), Location: `${site.origin}${site.basePath}${PATHS.profile}${query}#application-passwords` }).send();
    },
  });
}

function textOnly(query: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(query)) if (typeof v === 'string' && k !== 'lang') out[k] = v;
  return out;
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

