// Site content: pages and posts, each in one language (en/de) and linked to its
// translations through a shared translation group id (`trid`, the id of the first item).
import type { AppServices } from '../site/services.ts';
import type { Lang } from '../rest/types.ts';
import { RestError } from '../rest/types.ts';
import { utcNow } from '../site/time.ts';
import { MAX_DB_INT } from '../db/limits.ts';
import { likeContains } from '../db/like.ts';
import { sql, type Expression, type SqlBool } from 'kysely';

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

/** Path segments the public site uses itself; they cannot be slugs. */
export const RESERVED_SLUGS = new Set(['cms-json', 'cms-admin', 'embed', 'author', 'feed', 'page']);
const SLUG_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

type Row = {
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
    if (typeof t.url !== 'string' || !/^https?:\/\//i.test(t.url))
      throw invalid('thumbnail.url must be an http(s) URL.');
    for (const k of ['width', 'height'] as const) {
      if (!Number.isInteger(t[k]) || t[k] < 1 || t[k] > 10000)
        throw invalid(`thumbnail.${k} must be an integer from 1 to 10000.`);
    }
  }
}

export async function getContent(app: AppServices, id: number): Promise<ContentItem | null> {
  if (!Number.isSafeInteger(id) || id < 1 || id > MAX_DB_INT) return null;
  const row = await app.db.selectFrom('posts').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? fromRow(row as Row) : null;
}

export async function getContentBySlug(app: AppServices, lang: Lang, slug: string): Promise<ContentItem | null> {
  const row = await app.db
    .selectFrom('posts')
    .selectAll()
    .where('lang', '=', lang)
    .where('slug', '=', slug)
    .executeTakeFirst();
  return row ? fromRow(row as Row) : null;
}

export interface ListFilter {
  lang?: Lang;
  type?: ContentType;
  status?: ContentStatus;
  authorId?: number;
}

/** Pages by menu order then title; posts newest first. Trashed items only when their status is asked for. */
export async function listContent(app: AppServices, filter: ListFilter = {}): Promise<ContentItem[]> {
  let q = app.db.selectFrom('posts').selectAll();
  if (filter.lang) q = q.where('lang', '=', filter.lang);
  if (filter.type) q = q.where('type', '=', filter.type);
  q = filter.status ? q.where('status', '=', filter.status) : q.where('status', '!=', 'trash');
  if (filter.authorId !== undefined) q = q.where('author_id', '=', filter.authorId);
  const rows = (await q.orderBy('menu_order').orderBy('created_at', 'desc').orderBy('id', 'desc').execute()) as Row[];
  return rows.map(fromRow);
}

/** The other-language versions of an item (not the item itself). */
export async function getTranslations(app: AppServices, item: ContentItem): Promise<ContentItem[]> {
  const rows = (await app.db
    .selectFrom('posts')
    .selectAll()
    .where('trid', '=', item.trid)
    .where('id', '!=', item.id)
    .orderBy('lang')
    .execute()) as Row[];
  return rows.map(fromRow);
}

export async function getAuthor(app: AppServices, id: number | null): Promise<Author | null> {
  if (id === null) return null;
  const row = await app.db
    .selectFrom('users')
    .select(['id', 'login', 'display_name'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? { id: row.id, login: row.login, displayName: row.display_name } : null;
}

export async function getAuthorByLogin(app: AppServices, login: string): Promise<Author | null> {
  const row = await app.db
    .selectFrom('users')
    .select(['id', 'login', 'display_name'])
    .where('login', '=', login)
    .executeTakeFirst();
  return row ? { id: row.id, login: row.login, displayName: row.display_name } : null;
}

/** Refuses a slug another item of the language already has (409). */
async function checkSlugFree(app: AppServices, lang: Lang, slug: string): Promise<void> {
  if (await getContentBySlug(app, lang, slug))
    throw new RestError('content_slug_exists', `The slug "${slug}" is already used in ${lang}.`, 409);
}

/** Refuses a parent that is not a page of the same language, or that would make a loop. */
async function checkParent(
  app: AppServices,
  item: { id?: number; type: ContentType; lang: Lang },
  parentId: number | null | undefined,
): Promise<void> {
  if (parentId == null) return;
  if (item.type !== 'page') throw invalid('only pages have a parent.');
  let cursor = await getContent(app, parentId);
  if (!cursor || cursor.type !== 'page') throw invalid(`parent: no page ${parentId}.`);
  if (cursor.lang !== item.lang) throw invalid('parent must be a page in the same language.');
  // Walk up: the item may not become its own ancestor (depth is bounded by the number of pages).
  for (let depth = 0; cursor && depth < 10_000; depth++) {
    if (cursor.id === item.id) throw invalid('parent would make the page its own ancestor.');
    cursor = cursor.parentId === null ? null : await getContent(app, cursor.parentId);
  }
}

/** Creates a page or post (service.ts's createContent records it in the activity log). */
export async function insertContent(app: AppServices, input: ContentInput): Promise<ContentItem> {
  validateInput(input);
  await checkSlugFree(app, input.lang, input.slug);
  let trid: number | null = null;
  if (input.translationOf !== undefined) {
    const original = await getContent(app, input.translationOf);
    if (!original) throw invalid(`translationOf: no item ${input.translationOf}.`);
    if (original.lang === input.lang) throw invalid('translationOf must point to an item in the other language.');
    if (original.type !== input.type) throw invalid('a translation must have the same type as its original.');
    const siblings = await getTranslations(app, original);
    if (siblings.some((s) => s.lang === input.lang))
      throw invalid(`item ${original.id} already has a ${input.lang} translation.`);
    trid = original.trid;
  }
  if (input.authorId != null && !(await getAuthor(app, input.authorId)))
    throw invalid(`authorId: no user ${input.authorId}.`);
  await checkParent(app, input, input.parentId);
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
        parent_id: input.parentId ?? null,
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
    return fromRow(
      (await tx.selectFrom('posts').selectAll().where('id', '=', inserted.id).executeTakeFirstOrThrow()) as Row,
    );
  });
  return item;
}

export type ContentPatch = Partial<
  Pick<
    ContentInput,
    'title' | 'slug' | 'content' | 'excerpt' | 'status' | 'menuOrder' | 'thumbnail' | 'authorId' | 'parentId'
  >
>;

/** Updates fields of a page or post (a trashed one is restored by giving it a status). */
export async function patchContent(app: AppServices, id: number, patch: ContentPatch): Promise<ContentItem> {
  const current = await getContent(app, id);
  if (!current) throw new RestError('content_not_found', `No page or post ${id}.`, 404);
  const merged: ContentInput = {
    type: current.type,
    lang: current.lang,
    slug: patch.slug ?? current.slug,
    title: patch.title ?? current.title,
    status: patch.status ?? (current.status === 'trash' ? undefined : current.status),
    thumbnail: patch.thumbnail === undefined ? current.thumbnail : patch.thumbnail,
  };
  validateInput(merged);
  if (patch.slug !== undefined && patch.slug !== current.slug) await checkSlugFree(app, current.lang, patch.slug);
  if (patch.authorId != null && !(await getAuthor(app, patch.authorId)))
    throw invalid(`authorId: no user ${patch.authorId}.`);
  await checkParent(app, current, patch.parentId);
  const set: Record<string, unknown> = { modified_at: utcNow() };
  if (patch.title !== undefined) set.title = patch.title;
  if (patch.slug !== undefined) set.slug = patch.slug;
  if (patch.content !== undefined) set.content = patch.content;
  if (patch.excerpt !== undefined) set.excerpt = patch.excerpt;
  if (patch.status !== undefined) set.status = patch.status;
  if (patch.menuOrder !== undefined) set.menu_order = patch.menuOrder;
  if (patch.authorId !== undefined) set.author_id = patch.authorId;
  if (patch.parentId !== undefined) set.parent_id = patch.parentId;
  if (patch.thumbnail !== undefined) {
    set.thumbnail_url = patch.thumbnail?.url ?? null;
    set.thumbnail_width = patch.thumbnail?.width ?? null;
    set.thumbnail_height = patch.thumbnail?.height ?? null;
  }
  await app.db.updateTable('posts').set(set).where('id', '=', id).execute();
  return (await getContent(app, id))!;
}

/** Moves a page or post to the trash (the public site no longer shows it). */
export async function markTrashed(app: AppServices, item: ContentItem): Promise<ContentItem> {
  await app.db.updateTable('posts').set({ status: 'trash', modified_at: utcNow() }).where('id', '=', item.id).execute();
  return (await getContent(app, item.id))!;
}

/**
 * Deletes a page or post for good. Its child pages move up to its parent, as the reference
 * does; its translations stay, still linked to each other.
 */
export async function removeContent(app: AppServices, item: ContentItem): Promise<void> {
  await app.db.transaction().execute(async (tx) => {
    await tx.updateTable('posts').set({ parent_id: item.parentId }).where('parent_id', '=', item.id).execute();
    await tx.deleteFrom('posts').where('id', '=', item.id).execute();
  });
}

export type ContentOrderBy =
  | 'author'
  | 'date'
  | 'id'
  | 'include'
  | 'modified'
  | 'parent'
  | 'relevance'
  | 'slug'
  | 'include_slugs'
  | 'title'
  | 'menu_order';

export interface ContentQuery {
  type: ContentType;
  statuses: readonly ContentStatus[];
  /**
   * Which items that are not published the caller may see: every one (`'all'`), those of one
   * author (their own), or none. Published items are always visible.
   */
  unpublishedOf: 'all' | { authorId: number } | null;
  lang?: Lang;
  search?: string;
  authors?: readonly number[];
  authorsExclude?: readonly number[];
  /** 0 stands for "no parent". */
  parents?: readonly number[];
  parentsExclude?: readonly number[];
  include?: readonly number[];
  exclude?: readonly number[];
  slugs?: readonly string[];
  menuOrder?: number;
  /** UTC bounds of the publication date, exclusive as the reference's `after`/`before`. */
  after?: string;
  before?: string;
  modifiedAfter?: string;
  modifiedBefore?: string;
  orderby: ContentOrderBy;
  order: 'asc' | 'desc';
  offset: number;
  limit: number;
}

/** One page of pages or posts matching a query, and how many match in all. */
export async function queryContent(
  app: AppServices,
  q: ContentQuery,
): Promise<{ items: ContentItem[]; total: number }> {
  const conditions = (eb: any): Expression<SqlBool> => {
    const and: Expression<SqlBool>[] = [eb('type', '=', q.type)];
    if (q.statuses.length) and.push(eb('status', 'in', q.statuses));
    const published = eb('status', '=', 'publish');
    if (q.unpublishedOf === null) and.push(published);
    else if (q.unpublishedOf !== 'all') and.push(eb.or([published, eb('author_id', '=', q.unpublishedOf.authorId)]));
    if (q.lang) and.push(eb('lang', '=', q.lang));
    if (q.search) {
      and.push(
        eb.or([
          likeContains(app.dialect, sql.ref('title'), q.search, true),
          likeContains(app.dialect, sql.ref('content'), q.search, true),
          likeContains(app.dialect, sql.ref('excerpt'), q.search, true),
        ]),
      );
    }
    if (q.authors?.length) and.push(eb('author_id', 'in', q.authors));
    if (q.authorsExclude?.length)
      and.push(eb.or([eb('author_id', 'is', null), eb('author_id', 'not in', q.authorsExclude)]));
    if (q.parents?.length) {
      const ids = q.parents.filter((p) => p !== 0);
      const top = q.parents.includes(0);
      and.push(
        eb.or([...(ids.length ? [eb('parent_id', 'in', ids)] : []), ...(top ? [eb('parent_id', 'is', null)] : [])]),
      );
    }
    if (q.parentsExclude?.length) {
      const ids = q.parentsExclude.filter((p) => p !== 0);
      if (ids.length) and.push(eb.or([eb('parent_id', 'is', null), eb('parent_id', 'not in', ids)]));
      if (q.parentsExclude.includes(0)) and.push(eb('parent_id', 'is not', null));
    }
    if (q.include?.length) and.push(eb('id', 'in', q.include));
    if (q.exclude?.length) and.push(eb('id', 'not in', q.exclude));
    if (q.slugs?.length) and.push(eb('slug', 'in', q.slugs));
    if (q.menuOrder !== undefined) and.push(eb('menu_order', '=', q.menuOrder));
    if (q.after) and.push(eb('created_at', '>', q.after));
    if (q.before) and.push(eb('created_at', '<', q.before));
    if (q.modifiedAfter) and.push(eb('modified_at', '>', q.modifiedAfter));
    if (q.modifiedBefore) and.push(eb('modified_at', '<', q.modifiedBefore));
    return eb.and(and);
  };
  const counted = await app.db
    .selectFrom('posts')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where(conditions)
    .executeTakeFirstOrThrow();
  const dir = q.order;
  let list = app.db.selectFrom('posts').selectAll().where(conditions);
  const byPosition = (column: 'id' | 'slug', values: readonly (number | string)[]) =>
    sql`case ${sql.join(
      values.map((v, i) => sql`when ${sql.ref(column)} = ${v} then ${i}`),
      sql` `,
    )} else ${values.length} end`;
  switch (q.orderby) {
    case 'include':
      list = q.include?.length ? list.orderBy(byPosition('id', q.include), dir) : list.orderBy('created_at', dir);
      break;
    case 'include_slugs':
      list = q.slugs?.length ? list.orderBy(byPosition('slug', q.slugs), dir) : list.orderBy('created_at', dir);
      break;
    case 'relevance':
      // The reference ranks a match in the title above one in the text only.
      list = list
        .orderBy(
          sql`case when ${likeContains(app.dialect, sql.ref('title'), q.search ?? '', true)} then 0 else 1 end`,
          dir === 'desc' ? 'asc' : 'desc',
        )
        .orderBy('created_at', 'desc');
      break;
    default:
      list = list.orderBy(
        (
          {
            author: 'author_id',
            date: 'created_at',
            id: 'id',
            modified: 'modified_at',
            parent: 'parent_id',
            slug: 'slug',
            title: 'title',
            menu_order: 'menu_order',
          } as const
        )[q.orderby],
        dir,
      );
  }
  const rows = (await list.orderBy('id', dir).limit(q.limit).offset(q.offset).execute()) as Row[];
  return { items: rows.map(fromRow), total: Number(counted.n) };
}
