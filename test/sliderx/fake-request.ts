// A RestRequest for calling handlers directly in service-level tests (the HTTP pipeline has
// its own tests). Params are taken as given (already "validated").
import type { AppServices } from '../../src/site/services.ts';
import type { AuthUser } from '../../src/auth/types.ts';
import type { Lang, RestRequest } from '../../src/rest/types.ts';

export function fakeRequest(
  app: AppServices,
  opts: {
    route?: string;
    lang?: Lang;
    params?: Record<string, unknown>;
    query?: Record<string, unknown>;
    headers?: Record<string, string>;
    user?: AuthUser | null;
  } = {},
): RestRequest {
  const params = opts.params ?? {};
  const query = opts.query ?? {};
  const lang = opts.lang ?? 'en';
  const raw = { ...query, ...params };
  return {
    method: 'GET',
    route: opts.route ?? '/',
    lang,
    rootLang: lang,
    params,
    rawParams: raw,
    undeclared: {},
    has: (name: string) => name in raw,
    urlParams: Object.fromEntries(Object.entries(params).filter(([, v]) => typeof v === 'string')) as Record<
      string,
      string
    >,
    query,
    headers: opts.headers ?? {},
    user: opts.user ?? null,
    appPasswordUuid: null,
    ip: '127.0.0.1',
    inBatch: false,
    app,
    restUrl: (route: string) => `${app.config.siteUrl}/${lang}/cms-json${route}`,
  };
}
