// What a page or post is: the item and the input that creates one, how a stored row becomes an
// item, and which input is valid. The store (store.ts) and the list query (content-query.ts) share
// it. Each item is in one language (en/de) and linked to its translations through a shared
// translation group id (`trid`, the id of the first item).
import type { Lang } from '../rest/types.ts';
import { RestError } from '../rest/types.ts';

export type ContentType = 'page' | 'post';
export type ContentStatus = 'publish' | 'draft' | 'pending' | 'private' | 'trash';
/** The statuses a write may set; `trash` only trashing sets (as the reference's internal status). */
export const CONTENT_STATUSES: readonly ContentStatus[] = ['publish', 'draft', 'pending', 'private'];

export interface Thumbnail {
  url: string;
  width: number;
  height: number;
}

export interface ContentItem {
  id: number;
  type: ContentType;
  lang: Lang;
  slug: string;
  title: string;
  /** Plain text; blank lines separate paragraphs. */
  content: string;
  excerpt: string;
  status: ContentStatus;
  authorId: number | null;
  /** The parent page (pages only); null at the top. */
  parentId: number | null;
  trid: number;
  menuOrder: number;
  thumbnail: Thumbnail | null;
  /** UTC `YYYY-MM-DD HH:MM:SS`. */
  createdAt: string;
  modifiedAt: string;
}

export interface ContentInput {
  type: ContentType;
  lang: Lang;
  slug: string;
  title: string;
  content?: string;
  excerpt?: string;
  status?: ContentStatus;
  authorId?: number | null;
  parentId?: number | null;
  /** Id of an item in the other language this one translates. */
  translationOf?: number;
  menuOrder?: number;
  thumbnail?: Thumbnail | null;
  createdAt?: string;
}

export interface Author {
  id: number;
  login: string;
  displayName: string;
}

/** The reference's sanitize_title for slugs: lower case, German letters spelled out, accents dropped, hyphens. */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/ä/g, 'ae')
    .replace(/ö/g, 'oe')
    .replace(/ü/g, 'ue')
    .replace(/ß/g, 'ss')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 190)
    .replace(/-+$/, '');
}

/** Path segments the public site uses itself; they cannot be slugs. */
export const RESERVED_SLUGS = new Set(['cms-json', 'cms-admin', 'embed', 'author', 'feed', 'page']);
const SLUG_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A row of the `posts` table. */
export type ContentRow = {
  id: number;
  type: string;
  lang: string;
  slug: string;
  title: string;
  content: string;
  excerpt: string;
  status: string;
  author_id: number | null;
  parent_id: number | null;
  trid: number | null;
  menu_order: number;
  thumbnail_url: string | null;
  thumbnail_width: number | null;
  thumbnail_height: number | null;
  created_at: string;
  modified_at: string;
};

export function fromRow(r: ContentRow): ContentItem {
  return {
    id: r.id,
    type: r.type as ContentType,
    lang: r.lang as Lang,
    slug: r.slug,
    title: r.title,
    content: r.content,
    excerpt: r.excerpt,
    status: r.status as ContentStatus,
    authorId: r.author_id,
    parentId: r.parent_id,
    trid: r.trid ?? r.id,
    menuOrder: r.menu_order,
    thumbnail: r.thumbnail_url
      ? { url: r.thumbnail_url, width: r.thumbnail_width ?? 0, height: r.thumbnail_height ?? 0 }
      : null,
    createdAt: r.created_at,
    modifiedAt: r.modified_at,
  };
}

export function invalidContent(message: string): RestError {
  return new RestError('content_invalid', message, 400);
}

export function validateInput(input: ContentInput): void {
  if (input.type !== 'page' && input.type !== 'post') throw invalidContent('type must be page or post.');
  if (input.lang !== 'en' && input.lang !== 'de') throw invalidContent('lang must be en or de.');
  if (typeof input.slug !== 'string' || !SLUG_RE.test(input.slug) || input.slug.length > 200) {
    throw invalidContent('slug must be lowercase letters, digits and single hyphens (at most 200 characters).');
  }
  if (RESERVED_SLUGS.has(input.slug)) throw invalidContent(`slug "${input.slug}" is reserved.`);
  if (typeof input.title !== 'string' || input.title.trim() === '')
    throw invalidContent('title must be a non-empty string.');
  if (input.status !== undefined && !CONTENT_STATUSES.includes(input.status))
    throw invalidContent('status is not valid.');
  const t = input.thumbnail;
  if (t) {
    if (typeof t.url !== 'string' || !/^https?:\/\//i.test(t.url))
      throw invalidContent('thumbnail.url must be an http(s) URL.');
    for (const k of ['width', 'height'] as const) {
      if (!Number.isInteger(t[k]) || t[k] < 1 || t[k] > 10000)
        throw invalidContent(`thumbnail.${k} must be an integer from 1 to 10000.`);
    }
  }
}
