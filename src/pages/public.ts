// The public HTML of the site: pages, posts, the posts page, author archives and the embed
// view used by the oEmbed iframe. Every text from the database is escaped; no inline code
// runs except our own, allowed by hash in the Content-Security-Policy.
import type { AppServices } from '../site/services.ts';
import type { Lang } from '../rest/types.ts';
import { pageLabels, siteTexts, type Labels } from './labels.ts';
import { cspHash, escapeAttr, escapeHtml, safeUrl } from '../site/html.ts';
import { getAuthor, getAuthorByLogin, getContent, getContentBySlug, getTranslations, listContent } from './store.ts';
import { RESERVED_SLUGS, type Author, type ContentItem } from './content-item.ts';
import {
  apiLinkHeader,
  apiRoot,
  authorUrl,
  configuredPage,
  homeUrl,
  isFrontPage,
  isViewable,
  permalink,
} from './urls.ts';

export interface PublicResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const LANG_NAMES: Record<Lang, string> = { en: 'English', de: 'Deutsch' };

const PAGE_CSS =
  'body{font-family:system-ui,sans-serif;margin:0;color:#1d2327;line-height:1.6}' +
  'header,main,footer{max-width:46rem;margin:0 auto;padding:1rem}' +
  'header{border-bottom:1px solid #dcdcde}nav ul{list-style:none;padding:0;display:flex;gap:1rem;flex-wrap:wrap}' +
  '.site-title{font-size:1.4rem;font-weight:700;text-decoration:none;color:inherit}' +
  '.meta{color:#646970;font-size:.9rem}img{max-width:100%;height:auto}footer{color:#646970;font-size:.9rem}';
const EMBED_CSS =
  'body{font-family:system-ui,sans-serif;margin:0;color:#1d2327;background:#fff}' +
  '.embed-card{border:1px solid #dcdcde;padding:1rem;overflow:hidden}' +
  '.embed-heading{font-size:1.2rem;font-weight:700;margin:0 0 .5rem}.embed-heading a{color:inherit;text-decoration:none}' +
  '.embed-footer{margin:.75rem 0 0;color:#646970;font-size:.85rem}img{max-width:100%;height:auto}';
/** Inside the embed iframe: reports its height and link clicks to the host page with the secret. */
const EMBED_JS =
  '(function(){var m=location.hash.match(/secret=([A-Za-z0-9]{10})/);if(!m||window.parent===window)return;var s=m[1];' +
  'function send(k,v){window.parent.postMessage({message:k,value:v,secret:s},"*");}' +
  'function h(){send("height",Math.ceil(document.documentElement.getBoundingClientRect().height));}' +
  'document.addEventListener("click",function(e){var a=e.target&&e.target.closest?e.target.closest("a[href]"):null;if(a){e.preventDefault();send("link",a.href);}});' +
  'window.addEventListener("load",h);window.addEventListener("resize",h);h();})();';

const PAGE_CSP = `default-src 'none'; style-src ${cspHash(PAGE_CSS)}; img-src 'self' https: data:; base-uri 'none'; form-action 'self'; frame-ancestors 'self'`;
const EMBED_CSP = `default-src 'none'; style-src ${cspHash(EMBED_CSS)}; script-src ${cspHash(EMBED_JS)}; img-src 'self' https: data:; base-uri 'none'; form-action 'none'; frame-ancestors *`;

function htmlHeaders(app: AppServices, lang: Lang, embeddable: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': 'text/html; charset=UTF-8',
    Link: apiLinkHeader(app, lang),
    'Content-Security-Policy': embeddable ? EMBED_CSP : PAGE_CSP,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
  };
  if (!embeddable) headers['X-Frame-Options'] = 'SAMEORIGIN';
  return headers;
}

function redirect(app: AppServices, lang: Lang, location: string): PublicResponse {
  return {
    status: 301,
    headers: { Location: location, ...htmlHeaders(app, lang, false) },
    body: `<!DOCTYPE html><html><head><meta charset="utf-8"><title>301</title></head><body><a href="${escapeAttr(location)}">${escapeHtml(location)}</a></body></html>`,
  };
}

/** Plain-text content as escaped paragraphs (blank lines separate paragraphs, single newlines become <br>). */
export function paragraphs(text: string): string {
  return text
    .split(/\r?\n\s*\r?\n/)
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((p) => `<p>${escapeHtml(p).replace(/\r?\n/g, '<br>')}</p>`)
    .join('\n');
}

function oembedLinks(app: AppServices, lang: Lang, link: string): string {
  const base = `${apiRoot(app, lang)}oembed/1.0/embed?url=${encodeURIComponent(link)}`;
  return (
    `<link rel="alternate" title="oEmbed (JSON)" type="application/json+oembed" href="${escapeAttr(base)}">\n` +
    `<link rel="alternate" title="oEmbed (XML)" type="text/xml+oembed" href="${escapeAttr(base + '&format=xml')}">\n`
  );
}

interface Layout {
  lang: Lang;
  title: string;
  /** Absent on the 404 page, which is the canonical address of nothing. */
  canonical?: string;
  description?: string;
  head?: string;
  alternates: { lang: Lang; href: string }[];
  main: string;
  labels: Labels;
}

async function layout(app: AppServices, l: Layout): Promise<string> {
  const { name: site, tagline } = await siteTexts(app, l.lang);
  // Pages without a description of their own are described by the site's tagline.
  const description = l.description || tagline;
  const pages = await listContent(app, { lang: l.lang, type: 'page', status: 'publish' });
  const nav: string[] = [];
  for (const p of pages)
    nav.push(`<li><a href="${escapeAttr(await permalink(app, p))}">${escapeHtml(p.title)}</a></li>`);
  const alt = l.alternates
    .map((a) => `<link rel="alternate" hreflang="${a.lang}" href="${escapeAttr(a.href)}">\n`)
    .join('');
  const switcher = l.alternates.length
    ? `<nav aria-label="${escapeAttr(l.labels.languages)}"><ul>${l.alternates.map((a) => `<li><a href="${escapeAttr(a.href)}" hreflang="${a.lang}" lang="${a.lang}">${LANG_NAMES[a.lang]}</a></li>`).join('')}</ul></nav>`
    : '';
  return (
    `<!DOCTYPE html>\n<html lang="${l.lang}">\n<head>\n<meta charset="utf-8">\n` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">\n` +
    `<title>${escapeHtml(l.title === site ? site : `${l.title} – ${site}`)}</title>\n` +
    (description ? `<meta name="description" content="${escapeAttr(description)}">\n` : '') +
    `<link rel="https://api.w.org/" href="${escapeAttr(apiRoot(app, l.lang))}">\n` +
    (l.canonical ? `<link rel="canonical" href="${escapeAttr(l.canonical)}">\n` : '') +
    alt +
    (l.head ?? '') +
    `<style>${PAGE_CSS}</style>\n</head>\n<body>\n<header>\n` +
    `<a class="site-title" href="${escapeAttr(homeUrl(app, l.lang) + '/')}">${escapeHtml(site)}</a>\n` +
    (tagline ? `<p class="tagline">${escapeHtml(tagline)}</p>\n` : '') +
    `<nav aria-label="${escapeAttr(l.labels.menu)}"><ul>${nav.join('')}</ul></nav>\n${switcher}\n</header>\n` +
    `<main>\n${l.main}\n</main>\n<footer><p>${escapeHtml(site)}</p></footer>\n</body>\n</html>\n`
  );
}

// The reference's date formats of each language: `F j, Y` (November 25, 2026) and `j. F Y`
// (25. November 2026); one formatter per language and zone.
const DATE_LOCALES: Record<Lang, string> = { en: 'en-US', de: 'de-DE' };
const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** A stored UTC time as a date in the site's zone, written as the language writes dates. */
export function formatDate(app: AppServices, lang: Lang, utc: string): string {
  const timeZone = String(app.options.get('timezone_string') || 'UTC');
  const key = `${lang}|${timeZone}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(DATE_LOCALES[lang], { timeZone, day: 'numeric', month: 'long', year: 'numeric' });
    if (dateFormats.size >= 50) dateFormats.clear();
    dateFormats.set(key, format);
  }
  return format.format(new Date(`${utc.replace(' ', 'T')}Z`));
}

function thumbnailImg(item: ContentItem): string {
  if (!item.thumbnail) return '';
  const src = safeUrl(item.thumbnail.url);
  if (!src) return '';
  return `<img src="${escapeAttr(src)}" alt="" width="${item.thumbnail.width}" height="${item.thumbnail.height}">`;
}

async function alternatesOf(app: AppServices, item: ContentItem): Promise<{ lang: Lang; href: string }[]> {
  const out: { lang: Lang; href: string }[] = [];
  for (const t of await getTranslations(app, item))
    if (isViewable(t)) out.push({ lang: t.lang, href: await permalink(app, t) });
  return out;
}

async function renderSingular(app: AppServices, item: ContentItem): Promise<PublicResponse> {
  const link = await permalink(app, item);
  const labels = await pageLabels(app, item.lang, link);
  const author = await getAuthor(app, item.authorId);
  const meta =
    item.type === 'post'
      ? `<p class="meta"><time datetime="${escapeAttr(item.createdAt.replace(' ', 'T') + 'Z')}">${escapeHtml(formatDate(app, item.lang, item.createdAt))}</time>` +
        (author
          ? ` · ${escapeHtml(labels.by)} <a href="${escapeAttr(authorUrl(app, item.lang, author))}">${escapeHtml(author.displayName)}</a>`
          : '') +
        '</p>'
      : '';
  const main = `<article class="${item.type}">\n<h1>${escapeHtml(item.title)}</h1>\n${meta}\n${thumbnailImg(item)}\n${paragraphs(item.content)}\n</article>`;
  const body = await layout(app, {
    lang: item.lang,
    title: item.title,
    canonical: link,
    description: item.excerpt || undefined,
    head: oembedLinks(app, item.lang, link),
    alternates: await alternatesOf(app, item),
    main,
    labels,
  });
  return { status: 200, headers: htmlHeaders(app, item.lang, false), body };
}

async function postList(app: AppServices, labels: Labels, posts: ContentItem[]): Promise<string> {
  if (!posts.length) return `<p>${escapeHtml(labels.noPosts)}</p>`;
  const items: string[] = [];
  for (const p of posts) {
    items.push(
      `<article class="post"><h2><a href="${escapeAttr(await permalink(app, p))}">${escapeHtml(p.title)}</a></h2>` +
        `<p class="meta">${escapeHtml(formatDate(app, p.lang, p.createdAt))}</p>${p.excerpt ? `<p>${escapeHtml(p.excerpt)}</p>` : ''}</article>`,
    );
  }
  return items.join('\n');
}

async function renderPostsPage(
  app: AppServices,
  lang: Lang,
  page: ContentItem | null,
  canonical: string,
): Promise<PublicResponse> {
  const posts = await listContent(app, { lang, type: 'post', status: 'publish' });
  const labels = await pageLabels(app, lang, canonical);
  const title = page?.title ?? labels.posts;
  const main = `<h1>${escapeHtml(title)}</h1>\n${await postList(app, labels, posts)}`;
  const alternates = page
    ? await alternatesOf(app, page)
    : (['en', 'de'] as Lang[]).filter((x) => x !== lang).map((x) => ({ lang: x, href: `${homeUrl(app, x)}/` }));
  const body = await layout(app, { lang, title, canonical, alternates, main, labels });
  return { status: 200, headers: htmlHeaders(app, lang, false), body };
}

async function renderAuthor(app: AppServices, lang: Lang, author: Author): Promise<PublicResponse> {
  const posts = await listContent(app, { lang, type: 'post', status: 'publish', authorId: author.id });
  const canonical = authorUrl(app, lang, author);
  const labels = await pageLabels(app, lang, canonical);
  const title = `${labels.postsBy} ${author.displayName}`;
  const main = `<h1>${escapeHtml(title)}</h1>\n${await postList(app, labels, posts)}`;
  const body = await layout(app, { lang, title, canonical, alternates: [], main, labels });
  return { status: 200, headers: htmlHeaders(app, lang, false), body };
}

/** The embed view (`…/embed/`) shown inside the oEmbed iframe; embeddable by any site. */
export async function renderEmbed(app: AppServices, item: ContentItem): Promise<PublicResponse> {
  const link = await permalink(app, item);
  const { name: site } = await siteTexts(app, item.lang);
  const body =
    `<!DOCTYPE html>\n<html lang="${item.lang}">\n<head>\n<meta charset="utf-8">\n<meta name="robots" content="noindex, follow">\n` +
    `<title>${escapeHtml(`${item.title} – ${site}`)}</title>\n<link rel="canonical" href="${escapeAttr(link)}">\n<style>${EMBED_CSS}</style>\n</head>\n` +
    `<body class="embed">\n<div class="embed-card">\n<p class="embed-heading"><a href="${escapeAttr(link)}" target="_top">${escapeHtml(item.title)}</a></p>\n` +
    `${thumbnailImg(item)}\n<div class="embed-excerpt">${item.excerpt ? `<p>${escapeHtml(item.excerpt)}</p>` : paragraphs(item.content.slice(0, 400))}</div>\n` +
    `<p class="embed-footer"><a href="${escapeAttr(homeUrl(app, item.lang) + '/')}" target="_top">${escapeHtml(site)}</a></p>\n</div>\n` +
    `<script>${EMBED_JS}</script>\n</body>\n</html>\n`;
  return { status: 200, headers: htmlHeaders(app, item.lang, true), body };
}

/** The page for an address under `/<lang>/` that names nothing: in that language, in the site's layout. */
export async function renderNotFound(app: AppServices, lang: Lang): Promise<PublicResponse> {
  const home = `${homeUrl(app, lang)}/`;
  const labels = await pageLabels(app, lang, home);
  const main = `<h1>${escapeHtml(labels.notFound)}</h1>\n<p>${escapeHtml(labels.notFoundText)}</p>\n<p><a href="${escapeAttr(home)}">${escapeHtml(labels.toHome)}</a></p>`;
  const body = await layout(app, { lang, title: labels.notFound, alternates: [], main, labels });
  return { status: 404, headers: { ...htmlHeaders(app, lang, false), 'X-Robots-Tag': 'noindex' }, body };
}

function decode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/**
 * Renders a public GET under `/<lang>`: `path` is the part after the language (e.g. '/about/').
 * Null when the path is not a page of ours (the server answers 404). Paths without the
 * trailing slash and `?p=N` / `?page_id=N` are redirected (301) to the canonical address.
 */
export async function renderPublicPath(
  app: AppServices,
  lang: 'en' | 'de',
  path: string,
  query: Record<string, string>,
): Promise<PublicResponse | null> {
  if (lang !== 'en' && lang !== 'de') return null;
  if (path === '') path = '/';
  if (!path.startsWith('/')) return null;
  const segments = path.split('/').slice(1);
  const trailingSlash = segments[segments.length - 1] === '';
  if (trailingSlash) segments.pop();
  if (segments.some((s) => s === '')) return null; // '//' inside the path

  if (segments.length === 0) {
    const byId = query.p ?? query.page_id;
    if (byId !== undefined) {
      if (!/^\d{1,10}$/.test(byId)) return null;
      const item = await getContent(app, Number(byId));
      if (!item || !isViewable(item)) return null;
      return redirect(app, lang, await permalink(app, item));
    }
    const front = await configuredPage(app, 'page_on_front', lang);
    if (front && isViewable(front)) return renderSingular(app, front);
    if (app.options.get('show_on_front') === 'page' && front === null && Number(app.options.get('page_on_front')) > 0)
      return null;
    return renderPostsPage(app, lang, null, `${homeUrl(app, lang)}/`);
  }
  const decoded = segments.map(decode);
  if (decoded.some((s) => s === null)) return null;
  const [first, second, third] = decoded as string[];

  if (first === 'embed' && segments.length === 1) {
    const front = await configuredPage(app, 'page_on_front', lang);
    if (!front || !isViewable(front)) return null;
    if (!trailingSlash) return redirect(app, lang, `${homeUrl(app, lang)}/embed/`);
    return renderEmbed(app, front);
  }
  if (first === 'author' && segments.length === 2) {
    const author = await getAuthorByLogin(app, second!);
    if (!author) return null;
    if (!trailingSlash) return redirect(app, lang, authorUrl(app, lang, author));
    return renderAuthor(app, lang, author);
  }
  if (RESERVED_SLUGS.has(first!)) return null;
  if (segments.length > 2 || (segments.length === 2 && second !== 'embed') || third !== undefined) return null;
  const item = await getContentBySlug(app, lang, first!);
  if (!item || !isViewable(item)) return null;
  const link = await permalink(app, item);
  if (segments.length === 2) {
    if (!trailingSlash) return redirect(app, lang, `${link}embed/`);
    return renderEmbed(app, item);
  }
  if (await isFrontPage(app, item)) return redirect(app, lang, link);
  if (!trailingSlash) return redirect(app, lang, link);
  const postsPage = await configuredPage(app, 'page_for_posts', lang);
  if (postsPage?.id === item.id) return renderPostsPage(app, lang, item, link);
  return renderSingular(app, item);
}
