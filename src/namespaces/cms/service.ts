// cms/v2 pages and posts: listing, reading, creating, updating, trashing and deleting, with
// the reference's wp/v2 rules (class-wp-rest-posts-controller). The writes go through the
// pages' service, which records each in the activity log; the public site reads the same rows,
// so it shows a change at once.
import type { Localized, RestRequest } from '../../rest/types.ts';
import { RestError, RestResponse } from '../../rest/types.ts';
import { restError } from '../../rest/define.ts';
import {
  CONTENT_STATUSES,
  createContent,
  deleteContent,
  getContent,
  getContentBySlug,
  getTranslations,
  queryContent,
  RESERVED_SLUGS,
  slugify,
  trashContent,
  updateContent,
  type ContentItem,
  type ContentOrderBy,
  type ContentPatch,
  type ContentStatus,
  type ContentType,
} from '../../pages/api.ts';
import { utcBound } from './dates.ts';
import { canDelete, canEdit, canRead, canSetStatus, CAPABILITIES, unpublishedVisibleTo } from './permissions.ts';
import { MSG } from './messages.ts';
import { presentItem, REST_BASE, type Context } from './present.ts';

/** What the `status` filter's `any` stands for: every status but the trash (the reference's exclude_from_search). */
const ANY_STATUSES = CONTENT_STATUSES;

/** The item of this type with the id, or the reference's 404. */
async function loadItem(req: RestRequest, type: ContentType, id: number): Promise<ContentItem> {
  const item = await getContent(req.app, id);
  if (!item || item.type !== type) throw restError(req, 'rest_post_invalid_id', MSG.invalidId, 404);
  return item;
}

const requestItems = new WeakMap<RestRequest, Promise<ContentItem>>();

/**
 * The item a `/<id>` request names, loaded once per request: the permission checks (the
 * matched endpoint's, and the route's others for `Allow`) and the handler share it.
 */
function requestItem(req: RestRequest, type: ContentType): Promise<ContentItem> {
  let item = requestItems.get(req);
  if (!item) {
    item = loadItem(req, type, Number(req.params.id));
    requestItems.set(req, item);
  }
  return item;
}

/** `_embed` (all links) or `_embed=author,up` (those): null when not asked for. */
function embedRequest(req: RestRequest): ReadonlySet<string> | null {
  if (!req.has('_embed')) return null;
  const value = req.query._embed;
  const names =
    typeof value === 'string'
      ? value
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== '' && s !== '1' && s !== 'true')
      : [];
  return new Set(names);
}

export interface ListParams {
  context: Context;
  page: number;
  per_page: number;
  offset?: number;
  search?: string;
  after?: string;
  before?: string;
  modified_after?: string;
  modified_before?: string;
  author: number[];
  author_exclude: number[];
  include: number[];
  exclude: number[];
  parent?: number[];
  parent_exclude?: number[];
  menu_order?: number;
  order: 'asc' | 'desc';
  orderby: ContentOrderBy;
  slug?: string[];
  status: string[];
  lang?: 'en' | 'de';
}

/** GET cms/v2/pages|posts: one page of items with X-WP-Total, X-WP-TotalPages and Link. */
export async function listItems(req: RestRequest, type: ContentType, p: ListParams): Promise<RestResponse> {
  if (p.orderby === 'relevance' && !p.search) {
    throw restError(req, 'rest_no_search_term_defined', MSG.noSearchTerm, 400);
  }
  if (p.orderby === 'include' && !p.include.length) {
    throw restError(req, 'rest_orderby_include_missing_include', MSG.orderbyIncludeMissing, 400);
  }
  const statuses = p.status.includes('any') ? ANY_STATUSES : (p.status as ContentStatus[]);
  const offset = p.offset ?? (p.page - 1) * p.per_page;
  const { items, total } = await queryContent(req.app, {
    type,
    statuses,
    unpublishedOf: unpublishedVisibleTo(req.user, type),
    ...(p.lang ? { lang: p.lang } : {}),
    ...(p.search ? { search: p.search } : {}),
    authors: p.author,
    authorsExclude: p.author_exclude,
    include: p.include,
    exclude: p.exclude,
    ...(p.parent ? { parents: p.parent } : {}),
    ...(p.parent_exclude ? { parentsExclude: p.parent_exclude } : {}),
    ...(p.slug?.length ? { slugs: p.slug } : {}),
    ...(p.menu_order !== undefined ? { menuOrder: p.menu_order } : {}),
    ...(p.after ? { after: utcBound(req.app, p.after) } : {}),
    ...(p.before ? { before: utcBound(req.app, p.before) } : {}),
    ...(p.modified_after ? { modifiedAfter: utcBound(req.app, p.modified_after) } : {}),
    ...(p.modified_before ? { modifiedBefore: utcBound(req.app, p.modified_before) } : {}),
    orderby: p.orderby,
    order: p.order,
    offset,
    limit: p.per_page,
  });
  const totalPages = Math.ceil(total / p.per_page);
  if (p.page > totalPages && total > 0) {
    throw restError(req, 'rest_post_invalid_page_number', MSG.pageTooLarge, 400);
  }
  const embed = embedRequest(req);
  const body = [];
  for (const item of items) body.push(await presentItem(req, item, p.context, embed));
  const headers: Record<string, string> = { 'X-WP-Total': String(total), 'X-WP-TotalPages': String(totalPages) };
  const query = { ...req.query };
  const links: string[] = [];
  if (p.page > 1)
    links.push(
      `<${req.restUrl(`/cms/v2/${REST_BASE[type]}`, { ...query, page: Math.min(p.page - 1, totalPages) })}>; rel="prev"`,
    );
  if (p.page < totalPages)
    links.push(`<${req.restUrl(`/cms/v2/${REST_BASE[type]}`, { ...query, page: p.page + 1 })}>; rel="next"`);
  if (links.length) headers.Link = links.join(', ');
  return new RestResponse(body, 200, headers);
}

/** GET cms/v2/pages|posts/<id> (its permission check has found it readable). */
export async function getItem(req: RestRequest, type: ContentType, context: Context): Promise<Record<string, unknown>> {
  return presentItem(req, await requestItem(req, type), context, embedRequest(req));
}

/** A slug free in the language: the wanted one, else with -2, -3… (the reference's wp_unique_post_slug). */
async function uniqueSlug(
  req: RestRequest,
  type: ContentType,
  lang: 'en' | 'de',
  wanted: string,
  selfId?: number,
): Promise<string> {
  const base = wanted || type;
  for (let n = 1; n < 10_000; n++) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    if (RESERVED_SLUGS.has(candidate)) continue;
    const holder = await getContentBySlug(req.app, lang, candidate);
    if (!holder || holder.id === selfId) return candidate;
  }
  throw restError(req, 'rest_post_invalid_slug', MSG.noFreeSlug, 400);
}

/** A `title`, `content` or `excerpt` argument: a string, or the reference's `{raw: …}`. */
export function rawText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && typeof (value as { raw?: unknown }).raw === 'string')
    return (value as { raw: string }).raw;
  return undefined;
}

export interface WriteParams {
  title?: string;
  content?: string;
  excerpt?: string;
  slug?: string;
  status?: ContentStatus;
  author?: number;
  parent?: number;
  menu_order?: number;
  lang?: 'en' | 'de';
  translations?: Record<string, number>;
}

function checkStatus(req: RestRequest, type: ContentType, status: ContentStatus | undefined): void {
  if (status && !canSetStatus(req.user!, type, status)) {
    throw restError(req, 'rest_cannot_publish', MSG.cannotPublish, 403);
  }
}

function checkAuthor(req: RestRequest, type: ContentType, author: number | undefined, message: Localized): void {
  if (author !== undefined && author !== req.user!.id && !req.user!.can(CAPABILITIES[type].editOthers)) {
    throw restError(req, 'rest_cannot_edit_others', message, 403);
  }
}

/** POST cms/v2/pages|posts: 201 with the new item (edit context) and its Location. */
export async function createItem(req: RestRequest, type: ContentType, p: WriteParams): Promise<RestResponse> {
  checkStatus(req, type, p.status ?? 'draft');
  checkAuthor(req, type, p.author, MSG.cannotCreateAsUser);
  const lang = p.lang ?? req.rootLang;
  const other = lang === 'en' ? 'de' : 'en';
  const translationOf = p.translations?.[other];
  if (p.translations?.[lang] !== undefined) {
    throw restError(req, 'rest_invalid_param', MSG.ownTranslation, 400);
  }
  const title = p.title ?? '';
  const slug = await uniqueSlug(req, type, lang, slugify(p.slug ?? title));
  const item = await createContent(
    req.app,
    {
      type,
      lang,
      slug,
      title,
      content: p.content ?? '',
      excerpt: p.excerpt ?? '',
      // The reference creates drafts unless told otherwise.
      status: p.status ?? 'draft',
      authorId: p.author ?? req.user!.id,
      ...(p.parent ? { parentId: p.parent } : {}),
      ...(p.menu_order !== undefined ? { menuOrder: p.menu_order } : {}),
      ...(translationOf !== undefined ? { translationOf } : {}),
    },
    req,
  );
  const url = req.restUrl(`/cms/v2/${REST_BASE[type]}/${item.id}`);
  return new RestResponse(await presentItem(req, item, 'edit', null), 201, { Location: url });
}

/** POST/PUT/PATCH cms/v2/pages|posts/<id> (its permission check has found it editable): the item, edit context. */
export async function updateItem(
  req: RestRequest,
  type: ContentType,
  p: WriteParams,
): Promise<Record<string, unknown>> {
  const current = await requestItem(req, type);
  checkStatus(req, type, p.status);
  checkAuthor(req, type, p.author, MSG.cannotUpdateAsUser);
  if (p.lang !== undefined && p.lang !== current.lang) {
    throw restError(req, 'rest_invalid_param', MSG.langFixed, 400);
  }
  if (p.translations !== undefined) {
    const linked: Record<string, number> = { [current.lang]: current.id };
    for (const t of await getTranslations(req.app, current)) linked[t.lang] = t.id;
    const asked = { ...p.translations, [current.lang]: current.id };
    if (Object.keys(asked).some((k) => asked[k] !== linked[k])) {
      throw restError(req, 'rest_invalid_param', MSG.translationsOnCreate, 400);
    }
  }
  const patch: ContentPatch = {};
  if (p.title !== undefined) patch.title = p.title;
  if (p.content !== undefined) patch.content = p.content;
  if (p.excerpt !== undefined) patch.excerpt = p.excerpt;
  if (p.status !== undefined) patch.status = p.status;
  if (p.author !== undefined) patch.authorId = p.author;
  if (p.parent !== undefined) patch.parentId = p.parent === 0 ? null : p.parent;
  if (p.menu_order !== undefined) patch.menuOrder = p.menu_order;
  if (p.slug !== undefined) patch.slug = await uniqueSlug(req, type, current.lang, slugify(p.slug), current.id);
  const item = await updateContent(req.app, current.id, patch, req);
  return presentItem(req, item, 'edit', null);
}

/** DELETE cms/v2/pages|posts/<id>: to the trash, or for good with `force` ({deleted, previous}). */
export async function deleteItem(
  req: RestRequest,
  type: ContentType,
  force: boolean,
): Promise<Record<string, unknown>> {
  const item = await requestItem(req, type);
  if (force) {
    const previous = await presentItem(req, item, 'edit', null);
    await deleteContent(req.app, item, req);
    return { deleted: true, previous };
  }
  if (item.status === 'trash') {
    throw restError(req, 'rest_already_trashed', MSG.alreadyTrashed, 410);
  }
  return presentItem(req, await trashContent(req.app, item, req), 'edit', null);
}

/** Permission of GET <id>: a readable item; edit context needs edit rights on it. */
export async function readPermission(req: RestRequest, type: ContentType): Promise<boolean | RestError> {
  const item = await requestItem(req, type);
  if (req.params.context === 'edit' && !canEdit(req.user, item)) {
    return restError(req, 'rest_forbidden_context', MSG.cannotEdit, req.user ? 403 : 401);
  }
  return canRead(req.user, item);
}

/** Permission of writes to <id>: logged in (else 401 before anything is revealed), the item exists, and the rule holds. */
export async function itemPermission(
  req: RestRequest,
  type: ContentType,
  rule: 'edit' | 'delete',
): Promise<boolean | RestError> {
  if (!req.user) return false;
  const item = await requestItem(req, type);
  if (rule === 'edit' && !canEdit(req.user, item)) {
    return restError(req, 'rest_cannot_edit', MSG.cannotEdit, 403);
  }
  if (rule === 'delete' && !canDelete(req.user, item)) {
    return restError(req, 'rest_cannot_delete', MSG.cannotDelete, 403);
  }
  return true;
}
