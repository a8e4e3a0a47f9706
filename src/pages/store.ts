// Site content: pages and posts, each in one language (en/de) and linked to its
// translations through a shared translation group id (`trid`, the id of the first item).
import type { AppServices } from '../site/services.ts';
import type { ActivityOrigin } from '../site/activity.ts';
import type { Lang } from '../rest/types.ts';
import { RestError } from '../rest/types.ts';
import { utcNow } from '../site/time.ts';
import { MAX_DB_INT } from '../db/limits.ts';
import { contentLogger } from './logger.ts';

export type ContentType = 'page' | 'post';
export type ContentStatus = 'publish' | 'draft' | 'pending' | 'private';
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


/** Path segments the public site uses itself; they cannot be slugs. */
export const RESERVED_SLUGS = new Set(['cms-json', 'cms-admin', 'embed', 'author', 'feed', 'page']);
const SLUG_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

type Row = {
  id: number; type: string; lang: string; slug: string; title: string; content: string; excerpt: string; status: string;
  author_id: number | null; trid: number | null; menu_order: number; thumbnail_url: string | null;
  thumbnail_width: number | null; thumbnail_height: number | null; created_at: string; modified_at: string;
};

function fromRow(r: Row): ContentItem {
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
    trid: r.trid ?? r.id,
    menuOrder: r.menu_order,
    thumbnail: r.thumbnail_url ? { url: r.thumbnail_url, width: r.thumbnail_width ?? 0, height: r.thumbnail_height ?? 0 } : null,
    createdAt: r.created_at,
    modifiedAt: r.modified_at,
  };
}

function invalid(message: string): RestError {
  return new RestError('content_invalid', message, 400);
}

function validateInput(input: ContentInput): void {
  if (input.type !== 'page' && input.type !== 'post') throw invalid('type must be page or post.');
  if (input.lang !== 'en' && input.lang !== 'de') throw invalid('lang must be en or de.');
  if (typeof input.slug !== 'string' || !SLUG_RE.test(input.slug) || input.slug.length > 200) {
    throw invalid('slug must be lowercase letters, digits and single hyphens (at most 200 characters).');
  }
  if (RESERVED_SLUGS.has(input.slug)) throw invalid(`slug "${input.slug}" is reserved.`);
  if (typeof input.title !== 'string' || input.title.trim() === '') throw invalid('title must be a non-empty string.');
  if (input.status !== undefined && !CONTENT_STATUSES.includes(input.status)) throw invalid('status is not valid.');
  const t = input.thumbnail;
  if (t) {
    if (typeof t.url !== 'string' || !/^https?:\/\//i.test(t.url)) throw invalid('thumbnail.url must be an http(s) URL.');
    for (const k of ['width', 'height'] as const) {
      if (!Number.isInteger(t[k]) || t[k] < 1 || t[k] > 10000) throw invalid(`thumbnail.${k} must be an integer from 1 to 10000.`);
    }
  }
}

export async function getContent(app: AppServices, id: number): Promise<ContentItem | null> {
  if (!Number.isSafeInteger(id) || id < 1 || id > MAX_DB_INT) return null;
  const row = await app.db.selectFrom('posts').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? fromRow(row as Row) : null;
}

export async function getContentBySlug(app: AppServices, lang: Lang, slug: string): Promise<ContentItem | null> {
  const row = await app.db.selectFrom('posts').selectAll().where('lang', '=', lang).where('slug', '=', slug).executeTakeFirst();
  return row ? fromRow(row as Row) : null;
}

export interface ListFilter {
  lang?: Lang;
  type?: ContentType;
  status?: ContentStatus;
  authorId?: number;
}

/** Pages by menu order then title; posts newest first. */
export async function listContent(app: AppServices, filter: ListFilter = {}): Promise<ContentItem[]> {
  let q = app.db.selectFrom('posts').selectAll();
  if (filter.lang) q = q.where('lang', '=', filter.lang);
  if (filter.type) q = q.where('type', '=', filter.type);
  if (filter.status) q = q.where('status', '=', filter.status);
  if (filter.authorId !== undefined) q = q.where('author_id', '=', filter.authorId);
  const rows = (await q.orderBy('menu_order').orderBy('created_at', 'desc').orderBy('id', 'desc').execute()) as Row[];
  return rows.map(fromRow);
}

/** The other-language versions of an item (not the item itself). */
export async function getTranslations(app: AppServices, item: ContentItem): Promise<ContentItem[]> {
  const rows = (await app.db.selectFrom('posts').selectAll().where('trid', '=', item.trid).where('id', '!=', item.id).orderBy('lang').execute()) as Row[];
  return rows.map(fromRow);
}

export async function getAuthor(app: AppServices, id: number | null): Promise<Author | null> {
  if (id === null) return null;
  const row = await app.db.selectFrom('users').select(['id', 'login', 'display_name']).where('id', '=', id).executeTakeFirst();
  return row ? { id: row.id, login: row.login, displayName: row.display_name } : null;
}

export async function getAuthorByLogin(app: AppServices, login: string): Promise<Author | null> {
  const row = await app.db.selectFrom('users').select(['id', 'login', 'display_name']).where('login', '=', login).executeTakeFirst();
  return row ? { id: row.id, login: row.login, displayName: row.display_name } : null;
}

const CLI_ORIGIN: ActivityOrigin = { user: null, ip: '127.0.0.1', initiator: 'cms_cli' };

/** Creates a page or post and records it in the activity log. */
export async function createContent(app: AppServices, input: ContentInput, origin: ActivityOrigin = CLI_ORIGIN): Promise<ContentItem> {
  validateInput(input);
  if (await getContentBySlug(app, input.lang, input.slug)) {
    throw new RestError('content_slug_exists', `The slug "${input.slug}" is already used in ${input.lang}.`, 409);
  }
  let trid: number | null = null;
  if (input.translationOf !== undefined) {
    const original = await getContent(app, input.translationOf);
    if (!original) throw invalid(`translationOf: no item ${input.translationOf}.`);
    if (original.lang === input.lang) throw invalid('translationOf must point to an item in the other language.');
    if (original.type !== input.type) throw invalid('a translation must have the same type as its original.');
    const siblings = await getTranslations(app, original);
    if (siblings.some((s) => s.lang === input.lang)) throw invalid(`item ${original.id} already has a ${input.lang} translation.`);
    trid = original.trid;
  }
  if (input.authorId != null && !(await getAuthor(app, input.authorId))) throw invalid(`authorId: no user ${input.authorId}.`);
  const now = utcNow();
  const item = await app.db.transaction().execute(async (tx) => {
    const inserted = await tx
      .insertInto('posts')
      .values({
        type: input.type,
        lang: input.lang,
        slug: input.slug,
        title: input.title,
        content: input.content ?? '',
        excerpt: input.excerpt ?? '',
        status: input.status ?? 'publish',
        author_id: input.authorId ?? null,
        trid,
        menu_order: input.menuOrder ?? 0,
        thumbnail_url: input.thumbnail?.url ?? null,
        thumbnail_width: input.thumbnail?.width ?? null,
        thumbnail_height: input.thumbnail?.height ?? null,
        created_at: input.createdAt ?? now,
        modified_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (trid === null) await tx.updateTable('posts').set({ trid: inserted.id }).where('id', '=', inserted.id).execute();
    return fromRow((await tx.selectFrom('posts').selectAll().where('id', '=', inserted.id).executeTakeFirstOrThrow()) as Row);
  });
  await app.activity.log(
    {
      logger: contentLogger.slug,
      messageKey: 'content_created',
      context: { content_id: item.id, content_type: item.type, content_title: item.title, content_lang: item.lang, content_slug: item.slug, content_status: item.status },
    },
    origin,
  );
  return item;
}

export type ContentPatch = Partial<Pick<ContentInput, 'title' | 'content' | 'excerpt' | 'status' | 'menuOrder' | 'thumbnail' | 'authorId'>>;

/** Updates fields of a page or post and records it in the activity log. */
export async function updateContent(app: AppServices, id: number, patch: ContentPatch, origin: ActivityOrigin = CLI_ORIGIN): Promise<ContentItem> {
  const current = await getContent(app, id);
  if (!current) throw new RestError('content_not_found', `No page or post ${id}.`, 404);
  const merged: ContentInput = {
    type: current.type, lang: current.lang, slug: current.slug,
    title: patch.title ?? current.title,
    status: patch.status ?? current.status,
    thumbnail: patch.thumbnail === undefined ? current.thumbnail : patch.thumbnail,
  };
  validateInput(merged);
  if (patch.authorId != null && !(await getAuthor(app, patch.authorId))) throw invalid(`authorId: no user ${patch.authorId}.`);
  const set: Record<string, unknown> = { modified_at: utcNow() };
  if (patch.title !== undefined) set.title = patch.title;
  if (patch.content !== undefined) set.content = patch.content;
  if (patch.excerpt !== undefined) set.excerpt = patch.excerpt;
  if (patch.status !== undefined) set.status = patch.status;
  if (patch.menuOrder !== undefined) set.menu_order = patch.menuOrder;
  if (patch.authorId !== undefined) set.author_id = patch.authorId;
  if (patch.thumbnail !== undefined) {
    set.thumbnail_url = patch.thumbnail?.url ?? null;
    set.thumbnail_width = patch.thumbnail?.width ?? null;
    set.thumbnail_height = patch.thumbnail?.height ?? null;
  }
  await app.db.updateTable('posts').set(set).where('id', '=', id).execute();
  const item = (await getContent(app, id))!;
  await app.activity.log(
    {
      logger: contentLogger.slug,
      messageKey: 'content_updated',
      context: { content_id: item.id, content_type: item.type, content_title: item.title, content_lang: item.lang, changed_fields: Object.keys(patch).join(',') },
    },
    origin,
  );
  return item;
}
