// The application authorization flow (reference rest-core §6.5): the form, approving (a new
// application password) and rejecting.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppServices } from '../site/services.ts';
import { chunkPassword, createAppPassword } from '../auth/app-passwords.ts';
import { RestError } from '../rest/types.ts';
import { fmt, segments } from './i18n.ts';
import type { Ctx, PageKit } from './page.ts';
import { render } from './render.ts';
import { checkCsrf } from './session.ts';
import {
  APP_NAME_MAX,
  PATHS,
  addQueryArgs,
  pageUrl,
  readAuthorizeParams,
  type AuthorizeParams,
  type Problem,
  type SiteAddress,
} from './urls.ts';

export function registerAuthorizePage(
  server: FastifyInstance,
  app: AppServices,
  site: SiteAddress,
  kit: PageKit,
): void {
  const { context, langArg, layout, sendHtml, redirect, errorPage, csrfFailed, origin, toLogin, guarded } = kit;

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

  async function showAuthorize(
    ctx: Ctx,
    status: number,
    p: AuthorizeParams,
    notice: string | null,
  ): Promise<FastifyReply> {
    const user = ctx.session!.user;
    const t = ctx.t;
    const appName = p.appName.trim();
    const html = render('authorize.twig', {
      ...(await layout(ctx, t.authorizeTitle, { path: PATHS.authorize, query: authorizeQuery(p) })),
      notice: notice ? { kind: 'error', text: notice } : null,
      intro: appName ? segments(t.authorizeNamed, { app: appName }) : segments(t.authorizeGeneric, {}),
      actingAs: segments(t.authorizeActingAs, {
        user: user.display_name === user.login ? user.login : `${user.display_name} (${user.login})`,
      }),
      formAction: pageUrl(site, PATHS.authorize, { lang: ctx.lang }),
      appName: p.appName,
      appId: p.appId,
      successUrl: p.successUrl,
      rejectUrl: p.rejectUrl,
      nameMax: APP_NAME_MAX,
      approveUrl: p.successUrl
        ? addQueryArgs(p.successUrl, {
            site_url: app.config.siteUrl,
            user_login: user.login,
            password: '[------]',
          }).replace('%5B------%5D', '[------]')
        : '',
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

  server.get(
    PATHS.authorize,
    guarded(async (request, reply) => {
      const ctx = await context(request, reply);
      if (!ctx.session) return toLogin(ctx, site.origin + site.basePath + request.url);
      const { params, problems } = readAuthorizeParams(ctx.query, site, true);
      if (problems.length) return badRequest(ctx, problems, ctx.query);
      return showAuthorize(ctx, 200, params, null);
    }),
  );

  server.post(
    PATHS.authorize,
    guarded(async (request, reply) => {
      const ctx = await context(request, reply);
      const { params, problems } = readAuthorizeParams(ctx.body, site, false);
      const getUrl = pageUrl(
        site,
        PATHS.authorize,
        authorizeQuery(
          problems.length ? { appName: '', appId: '', successUrl: '', rejectUrl: '' } : params,
          langArg(ctx),
        ),
      );
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
        created = await createAppPassword(
          app,
          user.id,
          { name: params.appName, appId: params.appId || undefined },
          origin(ctx, user),
        );
      } catch (err) {
        if (!(err instanceof RestError) || err.status >= 500) throw err;
        const message =
          err.code === 'application_password_empty_name'
            ? ctx.t.emptyName
            : err.code === 'application_password_duplicate_name'
              ? ctx.t.duplicateName
              : err.code === 'application_password_name_too_long'
                ? fmt(ctx.t.app_name_too_long, { max: APP_NAME_MAX })
                : err.code === 'invalid_app_id'
                  ? ctx.t.invalid_app_id
                  : err.message;
        return showAuthorize(ctx, err.status, params, message);
      }
      if (params.successUrl) {
        // Reference order and form: site_url, user_login, then the raw 24-character password.
        return redirect(
          ctx,
          302,
          addQueryArgs(params.successUrl, {
            site_url: app.config.siteUrl,
            user_login: user.login,
            password: created.password,
          }),
        );
      }
      const html = render('created.twig', {
        ...(await layout(ctx, ctx.t.createdTitle, { path: PATHS.profile })),
        heading: segments(ctx.t.createdHeading, { app: created.name }),
        password: chunkPassword(created.password),
        copy: segments(ctx.t.createdCopy, { login: user.login }),
      });
      return sendHtml(ctx, 200, html);
    }),
  );
}

function textOnly(query: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(query)) if (typeof v === 'string' && k !== 'lang') out[k] = v;
  return out;
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
