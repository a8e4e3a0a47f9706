// URLs under the API roots.
import qs from 'qs';
import type { Lang } from './types.ts';

/** `{base_url}/<lang>/cms-json` + route, with an optional query string (arrays in bracket form). */
export function restUrl(siteUrl: string, lang: Lang, route: string, query?: Record<string, unknown>): string {
  const base = `${siteUrl}/${lang}/cms-json${route.startsWith('/') ? route : '/' + route}`;
  if (!query || !Object.keys(query).length) return base;
  return `${base}?${qs.stringify(query, { arrayFormat: 'brackets', encodeValuesOnly: false })}`;
}

export function apiRoot(siteUrl: string, lang: Lang): string {
  return `${siteUrl}/${lang}/cms-json/`;
}
