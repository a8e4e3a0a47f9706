// The login page, logout, and setting a password with a one-time link (reference:
// wp-login.php?action=rp).
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppServices } from '../site/services.ts';
import { failedLoginEntry, userLogger } from '../auth/logger.ts';
import { loggerEntry } from '../site/activity.ts';
import { checkPasswordResetKey, resetPasswordWithKey } from '../auth/password-reset.ts';
import { reserveLoginAttempt } from '../auth/throttle.ts';
import { isEmail } from '../rest/schema/formats.ts';
import { findUserByEmail, findUserByLogin } from '../auth/user-rows.ts';
import { verifyUserPassword } from '../auth/login-password.ts';
import { RestError } from '../rest/types.ts';
import { fmt, segments } from './i18n.ts';
import type { Ctx, PageKit } from './page.ts';
import { render } from './render.ts';
import {
  LOGIN_NONCE_COOKIE,
  SESSION_COOKIE,
  checkCsrf,
  createSession,
  csrfToken,
  destroySession,
  destroyUserSessions,
  type CsrfBinding,
} from './session.ts';
import { isTokenShaped, randomToken } from '../auth/tokens.ts';
import { PATHS, atSiteAddress, pageUrl, sameSiteRedirect, textParam, type SiteAddress } from './urls.ts';

export function registerLoginPages(server: FastifyInstance, app: AppServices, site: SiteAddress, kit: PageKit): void {
  const { cookie, context, langArg, layout, sendHtml, redirect, errorPage, csrfFailed, origin, guarded } = kit;

  async function showLogin(
    ctx: Ctx,
    status: number,
    opts: {
      login?: string;
      notice?: { kind: string; text: string } | null;
      redirectTo: string | null;
      headers?: Record<string, string>;
    },
  ) {
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

  server.get(
    PATHS.login,
    guarded(async (request, reply) => {
      const ctx = await context(request, reply);
      // Reached at another address (http://127.0.0.1:8080 for SITE_URL http://localhost:8080):
      // the form would post to the site's address, so it is shown there.
      if (!atSiteAddress(site, request.headers)) return redirect(ctx, 302, site.origin + site.basePath + request.url);
      if (ctx.query.action === 'rp')
        return showResetPassword(ctx, 200, textParam(ctx.query.login) ?? '', textParam(ctx.query.key) ?? '', null);
      const target = sameSiteRedirect(site, ctx.query.redirect_to);
      // Logged in already: straight on, unless asked to log in again (`reauth=1`, as the reference).
      if (ctx.session && ctx.query.reauth !== '1') return redirect(ctx, 302, target ?? pageUrl(site, PATHS.dashboard));
      let notice: { kind: string; text: string } | null = null;
      if (ctx.query.loggedout === 'true') notice = { kind: 'success', text: ctx.t.loggedOut };
      else if (ctx.query.password === 'reset') notice = { kind: 'success', text: ctx.t.rpDone };
      else if (target) notice = { kind: 'info', text: ctx.t.loginToContinue };
      return showLogin(ctx, 200, { notice, redirectTo: target });
    }),
  );

  server.post(
    PATHS.login,
    guarded(async (request, reply) => {
      const ctx = await context(request, reply);
      if (ctx.query.action === 'logout') return logout(ctx);
      if (ctx.query.action === 'rp') return resetPassword(ctx);
      const target = sameSiteRedirect(site, ctx.body.redirect_to);
      const nonce = ctx.cookies[LOGIN_NONCE_COOKIE];
      const binding: CsrfBinding | null = isTokenShaped(nonce) ? { kind: 'login', nonce } : null;
      if (!(await checkCsrf(app, binding, ctx.body._csrf))) {
        return csrfFailed(ctx, pageUrl(site, PATHS.login, { redirect_to: target ?? undefined, lang: langArg(ctx) }), {
          path: PATHS.login,
        });
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
      const row =
        name.length > 100
          ? undefined
          : ((await findUserByLogin(app, name)) ?? (isEmail(name) ? await findUserByEmail(app, name) : undefined));
      // One password hash whatever the reason of a failure (see verifyUserPassword).
      const ok = await verifyUserPassword(row, password, app);
      if (!row || !ok) {
        await app.activity.log(failedLoginEntry(name, row), origin(ctx, null));
        return showLogin(ctx, 200, { login, notice: { kind: 'error', text: ctx.t.loginFailed }, redirectTo: target });
      }
      await attempt.release();
      // A fresh session id on every login (no session fixation); the previous one ends.
      if (ctx.session) await destroySession(app, ctx.session.idHash);
      const { cookieValue, session } = await createSession(
        app,
        row.id,
        request.ip,
        String(request.headers['user-agent'] ?? ''),
      );
      ctx.setCookies = ctx.setCookies.filter((c) => !c.startsWith(`${SESSION_COOKIE}=`));
      ctx.setCookies.push(cookie(SESSION_COOKIE, cookieValue), cookie(LOGIN_NONCE_COOKIE, '', 0));
      await app.activity.log(
        loggerEntry(userLogger, 'user_logged_in', { user_login: session.user.login }),
        origin(ctx, session.user),
      );
      return redirect(ctx, 302, target ?? pageUrl(site, PATHS.dashboard));
    }),
  );

  // --- set a password with a one-time link (reference: wp-login.php?action=rp) ---

  /** The form for a valid link, the form again with `problem`, or an error page for a link that does not work. */
  async function showResetPassword(
    ctx: Ctx,
    status: number,
    login: string,
    key: string,
    problem: string | null,
  ): Promise<FastifyReply> {
    const canonical = { path: PATHS.login, query: { action: 'rp', key, login } };
    let user;
    try {
      user = await checkPasswordResetKey(app, login, key);
    } catch (err) {
      if (!(err instanceof RestError) || err.status >= 500) throw err;
      const text = err.code === 'expired_key' ? ctx.t.rpExpired : ctx.t.rpInvalid;
      return errorPage(ctx, 400, {
        title: ctx.t.rpTitle,
        heading: ctx.t.rpTitle,
        paragraphs: [text],
        canonical,
        backUrl: pageUrl(site, PATHS.login, { lang: langArg(ctx) }),
      });
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
      return csrfFailed(ctx, pageUrl(site, PATHS.login, { action: 'rp', key, login, lang: langArg(ctx) }), {
        path: PATHS.login,
      });
    }
    const password = textParam(ctx.body.pass1) ?? '';
    if (password !== (textParam(ctx.body.pass2) ?? ''))
      return showResetPassword(ctx, 400, login, key, ctx.t.rpMismatch);
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
    await app.activity.log(
      loggerEntry(userLogger, 'user_logged_out', { user_login: ctx.session.user.login }),
      origin(ctx, ctx.session.user),
    );
    return redirect(ctx, 303, done);
  }
}
