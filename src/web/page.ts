// What every page of web/ shares: the security headers, cookies, the per-request context, the
// layout, HTML and redirect answers, the error and CSRF pages, and the guard that turns an
// unexpected failure into an HTML error page.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppServices } from '../site/services.ts';
import { toAuthUser, type UserRow } from '../auth/user-rows.ts';
import type { BodyInput } from '../rest/pipeline.ts';
import type { Lang } from '../rest/types.ts';
import type { ActivityOrigin } from '../site/activity.ts';
import { chooseLang, fmt, STRINGS, type Strings } from './i18n.ts';
import { render } from './render.ts';
import { SESSION_COOKIE, csrfToken, loadSession, type WebSession } from './session.ts';
import { PATHS, locationSafe, pageUrl, type SiteAddress } from './urls.ts';

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
export interface Ctx {
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

/** A page's canonical address: its path and query, for the language links. */
export type Canonical = { path: string; query?: Record<string, string | undefined> };

/** The page helpers of one site, shared by the login and authorize pages. */
export type PageKit = ReturnType<typeof pageKit>;

export function pageKit(app: AppServices, site: SiteAddress) {
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

  async function layout(ctx: Ctx, title: string, canonical: Canonical, wide = false) {
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

  function sendHtml(
    ctx: Ctx,
    status: number,
    html: string,
    headers: Record<string, string> = {},
    formAction = true,
  ): FastifyReply {
    const reply = ctx.reply
      .code(status)
      .headers({ ...pageHeaders({ formAction }), 'Content-Type': 'text/html; charset=utf-8', ...headers });
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
    opts: {
      title: string;
      heading: string;
      paragraphs: string[];
      problems?: { param: string; message: string; value: string }[];
      backUrl?: string;
      canonical: Canonical;
    },
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

  async function csrfFailed(ctx: Ctx, backUrl: string, canonical: Canonical): Promise<FastifyReply> {
    return errorPage(ctx, 403, {
      title: ctx.t.csrfTitle,
      heading: ctx.t.csrfTitle,
      paragraphs: [ctx.t.csrfText],
      backUrl,
      canonical,
    });
  }

  function origin(ctx: Ctx, user: UserRow | null): ActivityOrigin {
    return user
      ? { user: toAuthUser(user), ip: ctx.request.ip }
      : { user: null, ip: ctx.request.ip, initiator: 'web_user' };
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
        const lang = chooseLang(
          (request.query as Record<string, unknown> | undefined)?.lang,
          request.headers['accept-language'],
        );
        const text = STRINGS[lang].errorText;
        return reply
          .code(500)
          .headers({ ...pageHeaders(), 'Content-Type': 'text/html; charset=utf-8' })
          .send(
            `<!DOCTYPE html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${STRINGS[lang].errorTitle}</title></head><body><main><h1>${STRINGS[lang].errorTitle}</h1><p>${text}</p></main></body></html>`,
          );
      }
    };
  }

  return { cookie, context, langArg, layout, sendHtml, redirect, errorPage, csrfFailed, origin, toLogin, guarded };
}
