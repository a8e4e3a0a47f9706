// A page or post as cms/v2 answers it: the fields of the reference's wp/v2 posts controller
// (prepare_item_for_response) for the request's context, our language version (`lang`,
// `translations`, as the multilingual plugins' REST fields), `_links` and, on `_embed`,
// `_embedded`.
import type { AppServices } from '../../site/services.ts';
import type { RestRequest } from '../../rest/types.ts';
import { escapeHtml } from '../../site/html.ts';
import { utcToZone } from '../../site/time.ts';
import {
  authorUrl,
  getAuthor,
  getContent,
  getTranslations,
  homeUrl,
  paragraphs,
  permalink,
  siteUrl,
  type ContentItem,
  type ContentType,
} from '../../pages/api.ts';

export type Context = 'view' | 'embed' | 'edit';

/** The REST base of each type, as the reference's `rest_base`. */
export const REST_BASE: Record<ContentType, string> = { page: 'pages', post: 'posts' };

/** The reference's date fields: `Y-m-d\TH:i:s`, local or GMT, no zone suffix. */
function isoLocal(utc: string): string {
  return utc.replace(' ', 'T');
}

/** The reference's automatic excerpt: the first 55 words of the text, then " […]". */
function excerptOf(item: ContentItem): string {
  if (item.excerpt) return item.excerpt;
  const words = item.content.split(/\s+/).filter((w) => w !== '');
  return words.length > 55 ? `${words.slice(0, 55).join(' ')} […]` : words.join(' ');
}

/** The address of an item: its permalink once published, the reference's `?p=`/`?page_id=` form before. */
export async function linkOf(app: AppServices, item: ContentItem): Promise<string> {
  if (item.status === 'publish') return permalink(app, item);
  return `${homeUrl(app, item.lang)}/?${item.type === 'page' ? 'page_id' : 'p'}=${item.id}`;
}

/** Which fields each context shows (the reference's schema `context` lists). */
const VIEW_ONLY = new Set([
  'date_gmt',
  'guid',
  'modified',
  'modified_gmt',
  'status',
  'content',
  'menu_order',
  'comment_status',
  'ping_status',
  'template',
  'meta',
  'sticky',
  'format',
  'categories',
  'tags',
  'translations',
]);

export async function presentItem(
  req: RestRequest,
  item: ContentItem,
  context: Context,
  embed: ReadonlySet<string> | null,
): Promise<Record<string, unknown>> {
  const app = req.app;
  const zone = String(app.options.get('timezone_string') || 'UTC');
  const edit = context === 'edit';
  const translations: Record<string, number> = { [item.lang]: item.id };
  for (const t of await getTranslations(app, item)) translations[t.lang] = t.id;
  const out: Record<string, unknown> = {
    id: item.id,
    date: isoLocal(utcToZone(item.createdAt, zone)),
    date_gmt: isoLocal(item.createdAt),
    guid: {
      rendered: `${siteUrl(app)}/?${item.type === 'page' ? 'page_id' : 'p'}=${item.id}`,
      ...(edit ? { raw: `${siteUrl(app)}/?${item.type === 'page' ? 'page_id' : 'p'}=${item.id}` } : {}),
    },
    modified: isoLocal(utcToZone(item.modifiedAt, zone)),
    modified_gmt: isoLocal(item.modifiedAt),
    ...(edit ? { password: '' } : {}),
    slug: item.slug,
    status: item.status,
    type: item.type,
    link: await linkOf(app, item),
    title: { ...(edit ? { raw: item.title } : {}), rendered: escapeHtml(item.title) },
    content: {
      ...(edit ? { raw: item.content } : {}),
      rendered: paragraphs(item.content),
      protected: false,
      block_version: 0,
    },
    excerpt: { ...(edit ? { raw: item.excerpt } : {}), rendered: paragraphs(excerptOf(item)), protected: false },
    author: item.authorId ?? 0,
    featured_media: 0,
  };
  if (item.type === 'page') Object.assign(out, { parent: item.parentId ?? 0, menu_order: item.menuOrder });
  Object.assign(out, { comment_status: 'closed', ping_status: 'closed', template: '', meta: [] });
  if (item.type === 'post') Object.assign(out, { sticky: false, format: 'standard', categories: [], tags: [] });
  out.lang = item.lang;
  out.translations = translations;
  if (edit) {
    out.permalink_template = `${homeUrl(app, item.lang)}/%${item.type === 'page' ? 'pagename' : 'postname'}%/`;
    out.generated_slug = item.slug;
  }
  if (context === 'embed') for (const k of VIEW_ONLY) delete out[k];

  const base = `/cms/v2/${REST_BASE[item.type]}`;
  const links: Record<string, unknown[]> = {
    self: [{ href: req.restUrl(`${base}/${item.id}`) }],
    collection: [{ href: req.restUrl(base) }],
  };
  if (item.parentId !== null) links.up = [{ embeddable: true, href: req.restUrl(`${base}/${item.parentId}`) }];
  for (const [lang, id] of Object.entries(translations)) {
    if (id !== item.id) (links.translation ??= []).push({ embeddable: true, lang, href: req.restUrl(`${base}/${id}`) });
  }
  out._links = links;

  if (embed) {
    const embedded: Record<string, unknown[]> = {};
    const author = item.authorId === null ? null : await getAuthor(app, item.authorId);
    if (author && (embed.size === 0 || embed.has('author'))) {
      embedded.author = [
        {
          id: author.id,
          name: author.displayName,
          url: '',
          description: '',
          link: authorUrl(app, item.lang, author),
          slug: author.login,
          avatar_urls: {},
        },
      ];
    }
    if (item.parentId !== null && (embed.size === 0 || embed.has('up'))) {
      const parent = await getContent(app, item.parentId);
      // Only what the caller could read by itself (the reference embeds through a request of its own).
      if (parent && parent.status === 'publish') embedded.up = [await presentItem(req, parent, 'embed', null)];
    }
    if (embed.size === 0 || embed.has('translation')) {
      const readable: unknown[] = [];
      for (const t of await getTranslations(app, item))
        if (t.status === 'publish') readable.push(await presentItem(req, t, 'embed', null));
      if (readable.length) embedded.translation = readable;
    }
    if (Object.keys(embedded).length) out._embedded = embedded;
  }
  return out;
}
