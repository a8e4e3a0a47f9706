// Public addresses of the site content, and the reverse: which page a URL of this site names.
import type { AppServices } from '../site/services.ts';
import type { Lang } from '../rest/types.ts';
import { getContent, getContentBySlug, getTranslations } from './store.ts';
import { RESERVED_SLUGS, type Author, type ContentItem } from './content-item.ts';

export function siteUrl(app: AppServices): string {
  return app.config.siteUrl.replace(/\/+$/, '');
}

/** The language home, as the root descriptor's `home` (no trailing slash). */
export function homeUrl(app: AppServices, lang: Lang): string {
  return `${siteUrl(app)}/${lang}`;
}

export function apiRoot(app: AppServices, lang: Lang): string {
  return `${siteUrl(app)}/${lang}/cms-json/`;
}

/** The `Link` header every front-end page sends (rest-core §8). */
export function apiLinkHeader(app: AppServices, lang: Lang): string {
  return `<${apiRoot(app, lang)}>; rel="https://api.w.org/"`;
}

/** The page configured by `optionName` (page_on_front / page_for_posts) in the given language. */
export async function configuredPage(
  app: AppServices,
  optionName: 'page_on_front' | 'page_for_posts',
  lang: Lang,
): Promise<ContentItem | null> {
  if (optionName === 'page_on_front' && app.options.get('show_on_front') !== 'page') return null;
  const id = Number(app.options.get(optionName));
  if (!Number.isInteger(id) || id < 1) return null;
  const page = await getContent(app, id);
  if (!page || page.type !== 'page') return null;
  if (page.lang === lang) return page;
  return (await getTranslations(app, page)).find((t) => t.lang === lang) ?? null;
}

export async function isFrontPage(app: AppServices, item: ContentItem): Promise<boolean> {
  const front = await configuredPage(app, 'page_on_front', item.lang);
  return front?.id === item.id;
}

export async function permalink(app: AppServices, item: ContentItem): Promise<string> {
  if (await isFrontPage(app, item)) return `${homeUrl(app, item.lang)}/`;
  return `${homeUrl(app, item.lang)}/${item.slug}/`;
}

/** The embed view used by the oEmbed iframe: permalink + `embed/`. */
export async function embedUrl(app: AppServices, item: ContentItem): Promise<string> {
  return `${await permalink(app, item)}embed/`;
}

export function authorUrl(app: AppServices, lang: Lang, author: Author): string {
  return `${homeUrl(app, lang)}/author/${encodeURIComponent(author.login)}/`;
}

/** Published content is what visitors (and oEmbed) may see. */
export function isViewable(item: ContentItem): boolean {
  return item.status === 'publish';
}

function stripWww(host: string): string {
  return host.toLowerCase().replace(/^www\./, '');
}

/** Whether the URL points at this site (host compared without `www.`, as the reference). */
export function isLocalUrl(app: AppServices, url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return false;
  return stripWww(u.hostname) === stripWww(new URL(siteUrl(app)).hostname);
}

function decodeSegment(s: string): string | null {
  try {
    return decodeURIComponent(s);
  } catch {
    return null;
  }
}

/**
 * The viewable page or post a URL of this site names (rest-core §9.1): `?p=N` / `?page_id=N`
 * are honoured; query and fragment are otherwise dropped; `{base}/<lang>/` is the front page;
 * `{base}/<lang>/<slug>/` (optionally followed by `embed/`) is that item. Null otherwise.
 */
export async function resolveContentUrl(app: AppServices, url: string): Promise<ContentItem | null> {
  if (!isLocalUrl(app, url)) return null;
  const u = new URL(url);
  let item: ContentItem | null = null;
  const byId = u.searchParams.get('p') ?? u.searchParams.get('page_id');
  if (byId !== null) {
    if (!/^\d{1,10}$/.test(byId)) return null;
    item = await getContent(app, Number(byId));
  } else {
    const basePath = new URL(siteUrl(app)).pathname.replace(/\/+$/, '');
    if (!u.pathname.startsWith(basePath + '/')) return null;
    const segments = u.pathname
      .slice(basePath.length)
      .split('/')
      .filter((s) => s !== '');
    const lang = segments[0];
    if (lang !== 'en' && lang !== 'de') return null;
    let rest = segments.slice(1);
    if (rest.length && rest[rest.length - 1] === 'embed') rest = rest.slice(0, -1);
    if (rest.length === 0) item = await configuredPage(app, 'page_on_front', lang);
    else if (rest.length === 1) {
      const slug = decodeSegment(rest[0]!);
      if (slug === null || RESERVED_SLUGS.has(slug)) return null;
      item = await getContentBySlug(app, lang, slug);
    }
  }
  return item && isViewable(item) ? item : null;
}
