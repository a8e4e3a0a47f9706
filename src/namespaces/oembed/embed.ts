// oembed/1.0/embed: oEmbed data for pages and posts of this site (rest-core §9.1).
import type { AppServices } from '../../site/services.ts';
import type { Lang } from '../../rest/types.ts';
import { RestError } from '../../rest/types.ts';
import { escapeAttr, escapeHtml, randomAlnum } from '../../site/html.ts';
import {
  getAuthor,
  type ContentItem,
  authorUrl,
  embedUrl,
  homeUrl,
  permalink,
  resolveContentUrl,
} from '../../pages/api.ts';

export const DEFAULT_WIDTH = 600;
export const MIN_WIDTH = 200;

const NOT_FOUND = { en: 'Not Found', de: 'Nicht gefunden' };

export function invalidUrlError(lang: Lang): RestError {
  return new RestError('oembed_invalid_url', NOT_FOUND[lang], 404);
}

/** The reference's `absint`: a non-negative integer from anything (non-numeric → 0). */
export function absint(value: unknown): number {
  const n =
    typeof value === 'number' ? value : typeof value === 'string' ? Number.parseFloat(value.trim()) : Number.NaN;
  if (!Number.isFinite(n)) return 0;
  const i = Math.trunc(Math.abs(n));
  return Number.isSafeInteger(i) ? i : Number.MAX_SAFE_INTEGER;
}

/** width = clamp(maxwidth, 200, 600); height = max(ceil(width × 9 / 16), 200). */
export function embedSize(maxwidth: number): { width: number; height: number } {
  const width = Math.min(Math.max(absint(maxwidth), MIN_WIDTH), DEFAULT_WIDTH);
  return { width, height: Math.max(Math.ceil((width * 9) / 16), 200) };
}

/** Host-page helper: sizes the iframe and follows its link messages when the secret matches. */
export const HOST_SCRIPT =
  '(function(){if(window.cmsEmbedHost)return;window.cmsEmbedHost=1;window.addEventListener("message",function(e){' +
  'var d=e.data;if(!d||typeof d!=="object"||!/^[A-Za-z0-9]{10}$/.test(String(d.secret)))return;' +
  'var fs=document.querySelectorAll("iframe[data-secret=\\""+d.secret+"\\"]"),qs=document.querySelectorAll("blockquote[data-secret=\\""+d.secret+"\\"]");' +
  'for(var i=0;i<fs.length;i++){var f=fs[i];if(e.source!==f.contentWindow)continue;f.removeAttribute("style");' +
  'for(var j=0;j<qs.length;j++)qs[j].style.display="none";' +
  'if(d.message==="height"){var h=parseInt(d.value,10);if(!(h>0))continue;f.height=String(Math.min(Math.max(h,200),1000));}' +
  'else if(d.message==="link"){var s=document.createElement("a"),t=document.createElement("a");s.href=f.getAttribute("src");t.href=String(d.value);' +
  'if(/^https?:$/.test(t.protocol)&&t.host===s.host&&document.activeElement===f)window.top.location.href=t.href;}}});})();';

/** The embed HTML of the reference: blockquote fallback, sandboxed iframe with a secret, host script. */
export function embedHtml(
  link: string,
  embed: string,
  title: string,
  siteName: string,
  width: number,
  height: number,
  secret = randomAlnum(10),
): string {
  const iframeTitle = `&#8220;${escapeAttr(title)}&#8221; &#8212; ${escapeAttr(siteName)}`;
  return (
    `<blockquote class="wp-embedded-content" data-secret="${secret}"><a href="${escapeAttr(link)}">${escapeHtml(title)}</a></blockquote>` +
    `<iframe sandbox="allow-scripts" security="restricted" src="${escapeAttr(`${embed}#?secret=${secret}`)}" width="${width}" height="${height}" ` +
    `title="${iframeTitle}" data-secret="${secret}" frameborder="0" marginwidth="0" marginheight="0" scrolling="no" class="wp-embedded-content"></iframe>` +
    `<script>${HOST_SCRIPT}</script>`
  );
}

/** oEmbed data of one viewable item, in the reference's key order. */
export async function oembedDataFor(
  app: AppServices,
  item: ContentItem,
  maxwidth: number,
): Promise<Record<string, unknown>> {
  const { width, height } = embedSize(maxwidth);
  const siteName = String(app.options.get('blogname'));
  const home = homeUrl(app, item.lang);
  const author = await getAuthor(app, item.authorId);
  const link = await permalink(app, item);
  const data: Record<string, unknown> = {
    version: '1.0',
    provider_name: siteName,
    provider_url: home,
    author_name: author ? author.displayName : siteName,
    author_url: author ? authorUrl(app, item.lang, author) : home,
    title: item.title,
    type: 'rich',
    width,
    height,
    html: embedHtml(link, await embedUrl(app, item), item.title, siteName, width, height),
  };
  if (item.thumbnail) {
    const t = item.thumbnail;
    const tw = Math.min(t.width, width);
    data.thumbnail_url = t.url;
    data.thumbnail_width = tw;
    data.thumbnail_height = t.width > 0 ? Math.round((t.height * tw) / t.width) : t.height;
  }
  return data;
}

/** GET oembed/1.0/embed: data for a URL of this site, or 404 oembed_invalid_url. */
export async function getLocalOembed(
  app: AppServices,
  url: string,
  maxwidth: number,
  lang: Lang,
): Promise<Record<string, unknown>> {
  const item = await resolveContentUrl(app, url);
  if (!item) throw invalidUrlError(lang);
  return oembedDataFor(app, item, maxwidth);
}

function xmlEscape(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' })[c]!,
  );
}

function xmlName(key: string): string {
  if (/^\d+$/.test(key)) return 'oembed';
  const cleaned = key.replace(/[^A-Za-z0-9_.-]/g, '_');
  return /^[A-Za-z_]/.test(cleaned) ? cleaned : `_${cleaned}`;
}

function xmlNodes(data: Record<string, unknown> | unknown[]): string {
  let out = '';
  for (const [key, value] of Object.entries(data)) {
    const name = xmlName(key);
    if (value !== null && typeof value === 'object')
      out += `<${name}>${xmlNodes(value as Record<string, unknown>)}</${name}>`;
    else
      out += `<${name}>${xmlEscape(value === null || value === undefined || value === false ? '' : value === true ? '1' : String(value))}</${name}>`;
  }
  return out;
}

/** The reference's XML form: declaration, root <oembed>, one child per key, values escaped. */
export function oembedXml(data: Record<string, unknown>): string {
  return `<?xml version="1.0"?>\n<oembed>${xmlNodes(data)}</oembed>\n`;
}
