// The content store: reading and writing single pages and posts (and the authors they name).
// Writes check what the database cannot: free slugs, parents, translations, authors. The
// activity log records them in service.ts; the list query of cms/v2 is content-query.ts.
import type { AppServices } from '../site/services.ts';
import type { Lang } from '../rest/types.ts';
import { RestError } from '../rest/types.ts';
import { utcNow } from '../site/time.ts';
import { MAX_DB_INT } from '../db/limits.ts';
import {
  fromRow,
  invalidContent,
  validateInput,
  type Author,
  type ContentInput,
  type ContentItem,
  type ContentRow,
  type ContentType,
  type ContentStatus,
} from './content-item.ts';

export async function getContent(app: AppServices, id: number): Promise<ContentItem | null> {
  if (!Number.isSafeInteger(id) || id < 1 || id > MAX_DB_INT) return null;
  const row = await app.db.selectFrom('posts').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? fromRow(row as ContentRow) : null;
}

export async function getContentBySlug(app: AppServices, lang: Lang, slug: string): Promise<ContentItem | null> {
  const row = await app.db
    .selectFrom('posts')
    .selectAll()
    .where('lang', '=', lang)
    .where('slug', '=', slug)
    .executeTakeFirst();
  return row ? fromRow(row as ContentRow) : null;
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
  const rows = (await q
    .orderBy('menu_order')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute()) as ContentRow[];
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
    .execute()) as ContentRow[];
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
  if (item.type !== 'page') throw invalidContent('only pages have a parent.');
  let cursor = await getContent(app, parentId);
  if (!cursor || cursor.type !== 'page') throw invalidContent(`parent: no page ${parentId}.`);
  if (cursor.lang !== item.lang) throw invalidContent('parent must be a page in the same language.');
  // Walk up: the item may not become its own ancestor (depth is bounded by the number of pages).
  for (let depth = 0; cursor && depth < 10_000; depth++) {
    if (cursor.id === item.id) throw invalidContent('parent would make the page its own ancestor.');
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
    if (!original) throw invalidContent(`translationOf: no item ${input.translationOf}.`);
    if (original.lang === input.lang)
      throw invalidContent('translationOf must point to an item in the other language.');
    if (original.type !== input.type) throw invalidContent('a translation must have the same type as its original.');
    const siblings = await getTranslations(app, original);
    if (siblings.some((s) => s.lang === input.lang))
      throw invalidContent(`item ${original.id} already has a ${input.lang} translation.`);
    trid = original.trid;
  }
  if (input.authorId != null && !(await getAuthor(app, input.authorId)))
    throw invalidContent(`authorId: no user ${input.authorId}.`);
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
      (await tx.selectFrom('posts').selectAll().where('id', '=', inserted.id).executeTakeFirstOrThrow()) as ContentRow,
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
    throw invalidContent(`authorId: no user ${patch.authorId}.`);
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
