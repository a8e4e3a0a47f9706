// What a console page handler works with: the signed-in user and their language, the request's
// arguments, the REST API called in-process as that user, and rendering inside the layout.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppServices } from '../site/services.ts';
import type { AuthUser } from '../auth/types.ts';
import type { RestApi } from '../rest/api.ts';
import type { BodyInput, RestOutput } from '../rest/pipeline.ts';
import type { Lang } from '../rest/types.ts';
import type { ActivityOrigin } from '../site/activity.ts';
import {
  templateRenderer,
  pageHeaders,
  checkCsrf,
  csrfToken,
  type WebSession,
  addQueryArgs,
  sameSiteRedirect,
  type SiteAddress,
} from '../web/api.ts';
import type { ConsoleStringKey, ConsoleStrings } from './i18n.ts';

export const renderTemplate = templateRenderer(path.join(path.dirname(fileURLToPath(import.meta.url)), 'templates'));

/** The pages' security headers, with our own scripts and same-origin requests (the REST API) allowed. */
export function consoleHeaders(): Record<string, string> {
  const headers = pageHeaders();
  headers['Content-Security-Policy'] += "; script-src 'self'; connect-src 'self'";
  return headers;
}

export interface Notice {
  kind: 'success' | 'error' | 'info';
  text: string;
}

/** Layout data that does not depend on the page (built once per request by index.ts). */
export type LayoutData = Record<string, unknown>;

/** A page of the console (src/console/pages.ts lists where they live). */
export interface ConsolePage {
  /** Path below the site's base address (`/cms-admin/profile.php`, `/cms-admin/admin.php`). */
  path: string;
  /** For `/cms-admin/admin.php`: the `page` argument that selects this page. */
  adminPage?: string;
  /** Capability needed to open the page; null: every logged-in user. */
  capability: string | null;
  /** Its title (a string key), also its label in the navigation. */
  title: ConsoleStringKey;
  /** Position in the navigation; pages without one are reached through links only. */
  navOrder?: number;
  /** Handles GET (and HEAD) and POST requests of a logged-in user who may open the page. */
  handle(ctx: ConsoleContext): Promise<FastifyReply>;
}

export class ConsoleContext {
  readonly app: AppServices;
  readonly site: SiteAddress;
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  readonly session: WebSession;
  readonly user: AuthUser;
  readonly lang: Lang;
  readonly t: ConsoleStrings;
  readonly query: Record<string, unknown>;
  readonly body: Record<string, unknown>;
  readonly page: ConsolePage;
  private readonly restApi: RestApi;
  private readonly layoutData: (ctx: ConsoleContext, title: string) => Promise<LayoutData>;

  constructor(init: {
    app: AppServices;
    site: SiteAddress;
    request: FastifyRequest;
    reply: FastifyReply;
    session: WebSession;
    user: AuthUser;
    lang: Lang;
    t: ConsoleStrings;
    page: ConsolePage;
    restApi: RestApi;
    layout: (ctx: ConsoleContext, title: string) => Promise<LayoutData>;
  }) {
    this.app = init.app;
    this.site = init.site;
    this.request = init.request;
    this.reply = init.reply;
    this.session = init.session;
    this.user = init.user;
    this.lang = init.lang;
    this.t = init.t;
    this.page = init.page;
    this.restApi = init.restApi;
    this.layoutData = init.layout;
    this.query = (init.request.query ?? {}) as Record<string, unknown>;
    const body = init.request.body as BodyInput | undefined;
    this.body = body?.type === 'form' ? body.params : {};
  }

  get isPost(): boolean {
    return this.request.method === 'POST';
  }

  /** The origin of writes this page makes, for the activity log. */
  get origin(): ActivityOrigin {
    return { user: this.user, ip: this.request.ip };
  }

  /** An absolute URL of the site from a path below its base (`/cms-admin/…`). */
  url(pathAndQuery: string, query: Record<string, string | undefined> = {}): string {
    return addQueryArgs(this.site.origin + this.site.basePath + pathAndQuery, query);
  }

  /**
   * A REST request run in-process as the signed-in user (the same pipeline, validation and
   * permissions as over HTTP), answered in the console's language.
   */
  api(method: 'GET' | 'POST' | 'DELETE', route: string, params: Record<string, unknown> = {}): Promise<RestOutput> {
    return this.restApi.dispatch({
      method,
      route,
      query: method === 'GET' ? params : {},
      body: method === 'GET' ? { type: 'none' } : { type: 'form', params },
      headers: {},
      rootLang: this.lang,
      ip: this.request.ip,
      auth: { user: this.user, appPasswordUuid: null },
    });
  }

  /** The CSRF token of this session, for the page's forms. */
  csrf(): Promise<string> {
    return csrfToken(this.app, { kind: 'session', idHash: this.session.idHash });
  }

  /** Whether a POST carries the CSRF token of this session. */
  csrfOk(): Promise<boolean> {
    return checkCsrf(this.app, { kind: 'session', idHash: this.session.idHash }, this.body._csrf);
  }

  /** A same-site return address from a form field, or the fallback. */
  returnTo(value: unknown, fallback: string): string {
    return sameSiteRedirect(this.site, value) ?? fallback;
  }

  async html(template: string, title: string, data: Record<string, unknown>, status = 200): Promise<FastifyReply> {
    const html = renderTemplate(template, { ...(await this.layoutData(this, title)), title, ...data });
    return this.reply
      .code(status)
      .headers({ ...consoleHeaders(), 'Content-Type': 'text/html; charset=utf-8' })
      .send(html);
  }

  /** A piece of a page (fetched by the page's script), rendered without the layout. */
  fragment(template: string, data: Record<string, unknown>, status = 200): FastifyReply {
    const html = renderTemplate(template, { t: this.t, lang: this.lang, ...data });
    return this.reply
      .code(status)
      .headers({ ...consoleHeaders(), 'Content-Type': 'text/html; charset=utf-8' })
      .send(html);
  }

  redirect(location: string, status: 302 | 303 = 303): FastifyReply {
    return this.reply
      .code(status)
      .headers({ ...consoleHeaders(), Location: location })
      .send();
  }

  message(status: number, title: string, text: string): Promise<FastifyReply> {
    return this.html('message.twig', title, { heading: title, text }, status);
  }

  csrfFailed(): Promise<FastifyReply> {
    return this.message(403, this.t.csrfTitle, this.t.csrfText);
  }
}

/** The first value of a form or query argument as text ('' when absent or not text). */
export function text(value: unknown): string {
  if (Array.isArray(value)) return text(value[0]);
  return typeof value === 'string' ? value : '';
}

/** The `paged` argument of a list page: a whole number above 1, else the first page. */
export function pageNumber(value: unknown): number {
  const paged = Number(text(value));
  return Number.isInteger(paged) && paged > 1 ? paged : 1;
}

/** A form or query argument as a list of texts. */
export function texts(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : typeof value === 'object' ? Object.values(value) : [value];
  return list.filter((v): v is string => typeof v === 'string');
}
