// Pages and posts (the original's "Pages", "Posts", "Add New" and edit screens):
// /cms-admin/edit.php?post_type=page|post lists them with a status filter, search, language and
// paging; /cms-admin/post-new.php creates one (also the other language version of an item);
// /cms-admin/post.php?post=<id>&action=edit edits title, text, slug, status, parent, author and
// language version, `action=preview` shows it as it will read. Everything reads and writes
// through cms/v2 as the signed-in user; the page's script (client/content.ts) saves and trashes
// over HTTP with the cookie and nonce, the forms do the same through this page without it.
import type { FastifyReply } from 'fastify';
import { listUsers } from '../../auth/user-rows.ts';
import { roleCan, isRole } from '../../auth/roles.ts';
import type { AuthUser } from '../../auth/types.ts';
import { canDelete, canEdit, canSetStatus, CAPABILITIES } from '../../namespaces/cms/api.ts';
import type { ContentItem, ContentStatus, ContentType } from '../../pages/api.ts';
import type { RestOutput } from '../../rest/pipeline.ts';
import type { Lang } from '../../rest/types.ts';
import { fmt } from '../../web/api.ts';
import type { ConsoleContext, ConsolePage, Notice } from '../context.ts';
import { pageNumber, text } from '../context.ts';
import type { ConsoleStringKey } from '../i18n.ts';
import { pagePath, pagerModel } from '../pages.ts';

export const LIST_PATH = '/cms-admin/edit.php';
export const EDIT_PATH = '/cms-admin/post.php';
export const NEW_PATH = '/cms-admin/post-new.php';
const PER_PAGE = 20;
const BASE: Record<ContentType, string> = { page: '/cms/v2/pages', post: '/cms/v2/posts' };
const FILTER_STATUSES = ['publish', 'draft', 'pending', 'private', 'trash'] as const;
const LANG_NAMES: Record<Lang, ConsoleStringKey> = { en: 'ctLang_en', de: 'ctLang_de' };

/** A page or post as cms/v2 answers with context=edit (the fields this page uses). */
interface ApiItem {
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
function asItem(a: ApiItem): ContentItem {
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

function apiProblem(out: RestOutput): string {
  const body = out.body as { message?: string; data?: { params?: Record<string, string> } } | null;
  return [body?.message ?? '', ...Object.values(body?.data?.params ?? {})].filter(Boolean).join(' ');
}

/** The types the user may edit, pages first (the original's menu order). */
function editableTypes(user: AuthUser): ContentType[] {
  return (['page', 'post'] as const).filter((type) => user.can(CAPABILITIES[type].edit));
}

function typeOf(value: unknown, user: AuthUser): ContentType | null {
  const wanted = text(value);
  const allowed = editableTypes(user);
  if (wanted === '') return allowed[0] ?? null;
  return (allowed as string[]).includes(wanted) ? (wanted as ContentType) : null;
}

const typeLabel = (ctx: ConsoleContext, type: ContentType) => (type === 'page' ? ctx.t.ctPages : ctx.t.ctPosts);
const statusLabel = (ctx: ConsoleContext, status: string) => ctx.t[`ctStatus_${status}` as ConsoleStringKey] ?? status;
const editUrl = (ctx: ConsoleContext, id: number, action = 'edit') =>
  ctx.url(pagePath({ path: EDIT_PATH }, { post: String(id), action }));

/** Users who may write items of the type, for the author choice. */
async function possibleAuthors(ctx: ConsoleContext, type: ContentType): Promise<{ id: number; name: string }[]> {
  const rows = await listUsers(ctx.app);
  return rows
    .filter((u) => u.status === 'active' && isRole(u.role) && roleCan(u.role, CAPABILITIES[type].edit))
    .map((u) => ({ id: u.id, name: u.display_name || u.login }));
}

// ---- the list ----

async function showList(ctx: ConsoleContext, notices: Notice[]): Promise<FastifyReply> {
  const { t } = ctx;
  const type = typeOf(ctx.query.post_type, ctx.user);
  if (!type) return ctx.message(403, t.forbiddenTitle, t.forbiddenText);
  const status = (FILTER_STATUSES as readonly string[]).includes(text(ctx.query.post_status))
    ? text(ctx.query.post_status)
    : '';
  const search = text(ctx.query.s);
  const lang = text(ctx.query.lang) === 'en' || text(ctx.query.lang) === 'de' ? (text(ctx.query.lang) as Lang) : '';
  const paged = pageNumber(ctx.query.paged);
  const filter = { post_type: type, post_status: status, s: search, lang };
  const common: Record<string, unknown> = { context: 'edit', ...(search ? { search } : {}), ...(lang ? { lang } : {}) };

  const out = await ctx.api('GET', BASE[type], { ...common, status: status || 'any', per_page: PER_PAGE, page: paged });
  if (out.status !== 200) notices.push({ kind: 'error', text: fmt(t.apiError, { message: apiProblem(out) }) });
  const items = out.status === 200 ? (out.body as ApiItem[]) : [];
  const total = Number(out.headers['X-WP-Total'] ?? 0);
  const pages = Math.max(1, Number(out.headers['X-WP-TotalPages'] ?? 1));
  // The counts of the status links, as the original shows them ("Drafts (2)").
  const counts = await Promise.all(
    ['any', ...FILTER_STATUSES].map(async (s) => {
      const c = await ctx.api('GET', BASE[type], { ...common, status: s, per_page: 1, _fields: 'id' });
      return c.status === 200 ? Number(c.headers['X-WP-Total'] ?? 0) : 0;
    }),
  );
  const listUrl = (q: Record<string, string | undefined>) => ctx.url(pagePath({ path: LIST_PATH }, q));
  const done = text(ctx.query.done);
  if (done === 'trashed') notices.push({ kind: 'success', text: t.ctTrashedNotice });
  if (done === 'deleted') notices.push({ kind: 'success', text: t.ctDeletedNotice });
  if (done === 'restored') notices.push({ kind: 'success', text: t.ctRestoredNotice });

  const authors = new Map((await listUsers(ctx.app)).map((u) => [u.id, u.display_name || u.login]));
  const link = (p: number) => listUrl({ ...filter, ...(p > 1 ? { paged: String(p) } : {}) });
  const returnTo = link(paged);
  const rows = items.map((a) => {
    const item = asItem(a);
    const other = a.lang === 'en' ? 'de' : 'en';
    return {
      id: a.id,
      title: a.title.raw,
      editUrl: canEdit(ctx.user, item) ? editUrl(ctx, a.id) : '',
      previewUrl: canEdit(ctx.user, item) ? editUrl(ctx, a.id, 'preview') : '',
      viewUrl: a.status === 'publish' ? a.link : '',
      canTrash: a.status !== 'trash' && canDelete(ctx.user, item),
      canRestore: a.status === 'trash' && canEdit(ctx.user, item),
      canDelete: a.status === 'trash' && canDelete(ctx.user, item),
      status: a.status,
      statusLabel: statusLabel(ctx, a.status),
      lang: a.lang,
      langLabel: t[LANG_NAMES[a.lang]],
      translation: a.translations[other]
        ? { lang: other, label: t[LANG_NAMES[other]], url: editUrl(ctx, a.translations[other]!) }
        : null,
      author: authors.get(a.author) ?? '—',
      date: a.date.replace('T', ' ').slice(0, 16),
      labels: {
        edit: fmt(t.ctEditLabel, { title: a.title.raw }),
        preview: fmt(t.ctPreviewLabel, { title: a.title.raw }),
        view: fmt(t.ctViewLabel, { title: a.title.raw }),
        trash: fmt(t.ctTrashLabel, { title: a.title.raw }),
        restore: fmt(t.ctRestoreLabel, { title: a.title.raw }),
        delete: fmt(t.ctDeleteLabel, { title: a.title.raw }),
      },
    };
  });
  return ctx.html(
    'content-list.twig',
    typeLabel(ctx, type),
    {
      notices,
      heading: typeLabel(ctx, type),
      type,
      tabs: editableTypes(ctx.user).map((ty) => ({
        label: typeLabel(ctx, ty),
        url: listUrl({ post_type: ty }),
        current: ty === type,
      })),
      newUrl: ctx.url(pagePath({ path: NEW_PATH }, { post_type: type })),
      newLabel: type === 'page' ? t.ctNewPage : t.ctNewPost,
      statusLinks: [
        { value: '', label: t.ctAll },
        ...FILTER_STATUSES.map((s) => ({ value: s, label: statusLabel(ctx, s) })),
      ].map((s, i) => ({
        label: `${s.label} (${counts[i]})`,
        url: listUrl({ ...filter, post_status: s.value }),
        current: s.value === status,
      })),
      form: {
        action: ctx.url(LIST_PATH),
        q: filter,
        langs: (['en', 'de'] as const).map((l) => ({ value: l, label: t[LANG_NAMES[l]] })),
      },
      summary: fmt(t.ctCount, { total }),
      rows,
      csrf: await ctx.csrf(),
      postUrl: ctx.url(EDIT_PATH),
      returnTo,
      pager: pagerModel(
        t.pageOf,
        paged,
        pages,
        link,
        Object.entries(filter).filter(([, v]) => v !== ''),
      ),
      pageFormAction: ctx.url(LIST_PATH),
      clientStrings: JSON.stringify(
        Object.fromEntries((['ctSaving', 'ctSaved', 'loadFailed'] as const).map((k) => [k, t[k]])),
      ),
    },
    out.status === 200 ? 200 : out.status,
  );
}

// ---- one item: edit and preview ----

/** The item with the id, whichever type it is (cms/v2 keeps pages and posts apart), or why not. */
async function loadItem(
  ctx: ConsoleContext,
  id: string,
): Promise<{ status: number; problem: string; item: ApiItem | null }> {
  if (!/^\d{1,15}$/.test(id)) return { status: 404, problem: ctx.t.ctNotFound, item: null };
  let out = await ctx.api('GET', `${BASE.page}/${id}`, { context: 'edit' });
  if (out.status === 404) out = await ctx.api('GET', `${BASE.post}/${id}`, { context: 'edit' });
  if (out.status === 404) return { status: 404, problem: ctx.t.ctNotFound, item: null };
  return { status: out.status, problem: apiProblem(out), item: out.status === 200 ? (out.body as ApiItem) : null };
}

/** The answer when the item cannot be had. */
function itemProblem(ctx: ConsoleContext, found: { status: number; problem: string }): Promise<FastifyReply> {
  return ctx.message(found.status, found.status === 404 ? ctx.t.notFoundTitle : ctx.t.forbiddenTitle, found.problem);
}

interface FormValues {
  title: string;
  content: string;
  slug: string;
  status: string;
  parent: number;
  author: number;
  lang: Lang;
}

async function showForm(
  ctx: ConsoleContext,
  type: ContentType,
  item: ApiItem | null,
  values: FormValues,
  notices: Notice[],
  status = 200,
  translationOf = 0,
): Promise<FastifyReply> {
  const { t } = ctx;
  const caps = CAPABILITIES[type];
  const statuses = (['draft', 'pending', 'publish', 'private'] as const).filter(
    (s) => canSetStatus(ctx.user, type, s) || s === values.status,
  );
  const parents =
    type === 'page'
      ? await ctx.api('GET', BASE.page, {
          context: 'edit',
          lang: values.lang,
          status: 'any',
          per_page: 100,
          orderby: 'title',
          order: 'asc',
          _fields: 'id,title',
        })
      : null;
  const parentChoices =
    parents?.status === 200
      ? (parents.body as { id: number; title: { raw: string } }[])
          .filter((p) => p.id !== item?.id)
          .map((p) => ({ id: p.id, title: p.title.raw, selected: p.id === values.parent }))
      : [];
  const authors = ctx.user.can(caps.editOthers)
    ? (await possibleAuthors(ctx, type)).map((a) => ({ ...a, selected: a.id === values.author }))
    : [];
  const other: Lang = values.lang === 'en' ? 'de' : 'en';
  const otherId = item?.translations[other];
  const done = text(ctx.query.done);
  if (done === 'saved') notices.push({ kind: 'success', text: t.ctSavedNotice });
  if (done === 'created') notices.push({ kind: 'success', text: t.ctCreatedNotice });
  const title = item
    ? fmt(type === 'page' ? t.ctEditPage : t.ctEditPost, { title: item.title.raw })
    : type === 'page'
      ? t.ctNewPage
      : t.ctNewPost;
  return ctx.html(
    'content-edit.twig',
    title,
    {
      notices,
      heading: title,
      type,
      item: item
        ? {
            id: item.id,
            previewUrl: editUrl(ctx, item.id, 'preview'),
            viewUrl: item.status === 'publish' ? item.link : '',
            canTrash: item.status !== 'trash' && canDelete(ctx.user, asItem(item)),
            restUrl: `${BASE[type]}/${item.id}`.slice(1),
          }
        : null,
      values,
      statuses: statuses.map((s) => ({ value: s, label: statusLabel(ctx, s), selected: s === values.status })),
      parentChoices,
      authors,
      langs: (['en', 'de'] as const).map((l) => ({ value: l, label: t[LANG_NAMES[l]], selected: l === values.lang })),
      langLabel: t[LANG_NAMES[values.lang]],
      translation: item
        ? otherId
          ? { text: fmt(t.ctEditTranslation, { language: t[LANG_NAMES[other]] }), url: editUrl(ctx, otherId) }
          : {
              text: fmt(t.ctCreateTranslation, { language: t[LANG_NAMES[other]] }),
              url: ctx.url(
                pagePath({ path: NEW_PATH }, { post_type: type, lang: other, translation_of: String(item.id) }),
              ),
            }
        : null,
      translationOf,
      translationNote: translationOf
        ? fmt(t.ctTranslationOfNote, { language: t[LANG_NAMES[values.lang]], id: translationOf })
        : '',
      listUrl: ctx.url(pagePath({ path: LIST_PATH }, { post_type: type })),
      listLabel: typeLabel(ctx, type),
      csrf: await ctx.csrf(),
      action: item ? ctx.url(EDIT_PATH) : ctx.url(pagePath({ path: NEW_PATH }, { post_type: type })),
      clientStrings: JSON.stringify(
        Object.fromEntries((['ctSaving', 'ctSaved', 'loadFailed'] as const).map((k) => [k, t[k]])),
      ),
    },
    status,
  );
}

function valuesOf(item: ApiItem): FormValues {
  return {
    title: item.title.raw,
    content: item.content.raw,
    slug: item.slug,
    status: item.status,
    parent: item.parent ?? 0,
    author: item.author,
    lang: item.lang,
  };
}

/** The form's fields as cms/v2 arguments (a field the user cannot change is not sent). */
function writeArgs(ctx: ConsoleContext, type: ContentType): Record<string, unknown> {
  const b = ctx.body;
  const args: Record<string, unknown> = { title: text(b.title), content: text(b.content), status: text(b.status) };
  if (text(b.slug) !== '') args.slug = text(b.slug);
  if (type === 'page' && text(b.parent) !== '') args.parent = text(b.parent);
  if (text(b.author) !== '') args.author = text(b.author);
  return args;
}

function submittedValues(ctx: ConsoleContext, fallback: FormValues): FormValues {
  const b = ctx.body;
  return {
    ...fallback,
    title: text(b.title),
    content: text(b.content),
    slug: text(b.slug),
    status: text(b.status) || fallback.status,
    parent: Number(text(b.parent)) || 0,
    author: Number(text(b.author)) || fallback.author,
  };
}

/** Paragraphs and their lines, as the public page shows the text (the template escapes them). */
function paragraphsOf(content: string): string[][] {
  return content
    .split(/\r?\n\s*\r?\n/)
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((p) => p.split(/\r?\n/));
}

async function showItem(ctx: ConsoleContext): Promise<FastifyReply> {
  const { t } = ctx;
  const found = await loadItem(ctx, text(ctx.query.post));
  const item = found.item;
  if (!item) return itemProblem(ctx, found);
  if (text(ctx.query.action) === 'preview') {
    return ctx.html('content-preview.twig', fmt(t.ctPreviewTitle, { title: item.title.raw }), {
      heading: item.title.raw,
      lang: ctx.lang,
      itemLang: item.lang,
      notice:
        item.status === 'publish'
          ? t.ctPreviewPublished
          : fmt(t.ctPreviewUnpublished, { status: statusLabel(ctx, item.status) }),
      paragraphs: paragraphsOf(item.content.raw),
      editUrl: editUrl(ctx, item.id),
      viewUrl: item.status === 'publish' ? item.link : '',
    });
  }
  return showForm(ctx, item.type, item, valuesOf(item), []);
}

async function actOnItem(ctx: ConsoleContext): Promise<FastifyReply> {
  const { t } = ctx;
  if (!(await ctx.csrfOk())) return ctx.csrfFailed();
  const found = await loadItem(ctx, text(ctx.body.post));
  const item = found.item;
  if (!item) return itemProblem(ctx, found);
  const route = `${BASE[item.type]}/${item.id}`;
  const action = text(ctx.body.action);
  const list = new URL(
    ctx.returnTo(ctx.body.return_to, ctx.url(pagePath({ path: LIST_PATH }, { post_type: item.type }))),
  );
  let out: RestOutput;
  if (action === 'save') {
    out = await ctx.api('POST', route, writeArgs(ctx, item.type));
    if (out.status !== 200)
      return showForm(
        ctx,
        item.type,
        item,
        submittedValues(ctx, valuesOf(item)),
        [{ kind: 'error', text: fmt(t.apiError, { message: apiProblem(out) }) }],
        out.status,
      );
    return ctx.redirect(
      ctx.url(pagePath({ path: EDIT_PATH }, { post: String(item.id), action: 'edit', done: 'saved' })),
    );
  }
  if (action === 'trash') {
    out = await ctx.api('DELETE', route);
    list.searchParams.set('done', 'trashed');
  } else if (action === 'restore') {
    out = await ctx.api('POST', route, { status: 'draft' });
    list.searchParams.set('done', 'restored');
  } else if (action === 'delete') {
    out = await ctx.api('DELETE', route, { force: true });
    list.searchParams.set('done', 'deleted');
  } else {
    return ctx.message(400, t.badAction, t.badAction);
  }
  if (out.status !== 200)
    return showList(ctx, [{ kind: 'error', text: fmt(t.apiError, { message: apiProblem(out) }) }]);
  return ctx.redirect(list.toString());
}

async function newItem(ctx: ConsoleContext): Promise<FastifyReply> {
  const { t } = ctx;
  const type = typeOf(ctx.isPost ? (ctx.body.post_type ?? ctx.query.post_type) : ctx.query.post_type, ctx.user);
  if (!type) return ctx.message(403, t.forbiddenTitle, t.forbiddenText);
  const source = ctx.isPost ? ctx.body : ctx.query;
  const translationOf = /^\d{1,15}$/.test(text(source.translation_of)) ? Number(text(source.translation_of)) : 0;
  const lang: Lang = text(source.lang) === 'de' ? 'de' : text(source.lang) === 'en' ? 'en' : ctx.lang;
  const blank: FormValues = { title: '', content: '', slug: '', status: 'draft', parent: 0, author: ctx.user.id, lang };
  if (!ctx.isPost) return showForm(ctx, type, null, blank, [], 200, translationOf);
  if (!(await ctx.csrfOk())) return ctx.csrfFailed();
  const args = {
    ...writeArgs(ctx, type),
    lang,
    ...(translationOf ? { translations: { [lang === 'en' ? 'de' : 'en']: translationOf } } : {}),
  };
  const out = await ctx.api('POST', BASE[type], args);
  if (out.status !== 201)
    return showForm(
      ctx,
      type,
      null,
      submittedValues(ctx, blank),
      [{ kind: 'error', text: fmt(t.apiError, { message: apiProblem(out) }) }],
      out.status,
      translationOf,
    );
  const created = out.body as ApiItem;
  return ctx.redirect(
    ctx.url(pagePath({ path: EDIT_PATH }, { post: String(created.id), action: 'edit', done: 'created' })),
  );
}

export const contentPages: ConsolePage[] = [
  {
    path: LIST_PATH,
    capability: 'edit_posts',
    title: 'ctTitle',
    navOrder: 35,
    handle: (ctx) => (ctx.isPost ? actOnItem(ctx) : showList(ctx, [])),
  },
  {
    path: EDIT_PATH,
    capability: 'edit_posts',
    title: 'ctTitle',
    handle: (ctx) => (ctx.isPost ? actOnItem(ctx) : showItem(ctx)),
  },
  { path: NEW_PATH, capability: 'edit_posts', title: 'ctTitle', handle: newItem },
];
