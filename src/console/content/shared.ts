// What the pages-and-posts screens (the list, the form, the page's actions) share: their
// addresses, the cms/v2 routes and item shape they read, the labels of types and statuses,
// and which types the user may edit.
import type { AuthUser } from '../../auth/types.ts';
import { CAPABILITIES } from '../../namespaces/cms/api.ts';
import type { ContentItem, ContentStatus, ContentType } from '../../pages/api.ts';
import type { RestOutput } from '../../rest/pipeline.ts';
import type { Lang } from '../../rest/types.ts';
import type { ConsoleContext } from '../context.ts';
import { text } from '../context.ts';
import type { ConsoleStringKey } from '../i18n.ts';
import { pagePath } from '../pages.ts';

export const LIST_PATH = '/cms-admin/edit.php';
export const EDIT_PATH = '/cms-admin/post.php';
export const NEW_PATH = '/cms-admin/post-new.php';
export const BASE: Record<ContentType, string> = { page: '/cms/v2/pages', post: '/cms/v2/posts' };
export const LANG_NAMES: Record<Lang, ConsoleStringKey> = { en: 'ctLang_en', de: 'ctLang_de' };

/** A page or post as cms/v2 answers with context=edit (the fields this page uses). */
export interface ApiItem {
  id: number;
  date: string;
  modified: string;
  slug: string;
  status: ContentStatus;
  type: ContentType;
  link: string;
  title: { raw: string };
  content: { raw: string };
  author: number;
  parent?: number;
  lang: Lang;
  translations: Record<string, number>;
}

/** What the permission rules need to know of an item. */
export function asItem(a: ApiItem): ContentItem {
  return {
    id: a.id,
    type: a.type,
    lang: a.lang,
    slug: a.slug,
    title: a.title.raw,
    content: a.content.raw,
    excerpt: '',
    status: a.status,
    authorId: a.author || null,
    parentId: a.parent || null,
    trid: a.id,
    menuOrder: 0,
    thumbnail: null,
    createdAt: '',
    modifiedAt: '',
  };
}

export function apiProblem(out: RestOutput): string {
  const body = out.body as { message?: string; data?: { params?: Record<string, string> } } | null;
  return [body?.message ?? '', ...Object.values(body?.data?.params ?? {})].filter(Boolean).join(' ');
}

/** The types the user may edit, pages first (the original's menu order). */
export function editableTypes(user: AuthUser): ContentType[] {
  return (['page', 'post'] as const).filter((type) => user.can(CAPABILITIES[type].edit));
}

export function typeOf(value: unknown, user: AuthUser): ContentType | null {
  const wanted = text(value);
  const allowed = editableTypes(user);
  if (wanted === '') return allowed[0] ?? null;
  return (allowed as string[]).includes(wanted) ? (wanted as ContentType) : null;
}

export const typeLabel = (ctx: ConsoleContext, type: ContentType) => (type === 'page' ? ctx.t.ctPages : ctx.t.ctPosts);
export const statusLabel = (ctx: ConsoleContext, status: string) =>
  ctx.t[`ctStatus_${status}` as ConsoleStringKey] ?? status;
export const editUrl = (ctx: ConsoleContext, id: number, action = 'edit') =>
  ctx.url(pagePath({ path: EDIT_PATH }, { post: String(id), action }));
