// Pages and posts (the original's "Pages", "Posts", "Add New" and edit screens):
// /cms-admin/edit.php?post_type=page|post lists them with a status filter, search, language and
// paging; /cms-admin/post-new.php creates one (also the other language version of an item);
// /cms-admin/post.php?post=<id>&action=edit edits title, text, slug, status, parent, author and
// language version, `action=preview` shows it as it will read. Everything reads and writes
// through cms/v2 as the signed-in user; the page's script (client/content.ts) saves and trashes
// over HTTP with the cookie and nonce, the forms do the same through this page without it.
// The list, the form and what they share live in src/console/content/.
import type { FastifyReply } from 'fastify';
import type { RestOutput } from '../../rest/pipeline.ts';
import type { Lang } from '../../rest/types.ts';
import { fmt } from '../../web/api.ts';
import type { ConsoleContext, ConsolePage } from '../context.ts';
import { text } from '../context.ts';
import { pagePath } from '../pages.ts';
import { showForm, submittedValues, valuesOf, writeArgs, type FormValues } from '../content/form.ts';
import { showList } from '../content/list.ts';
import {
  apiProblem,
  BASE,
  EDIT_PATH,
  editUrl,
  LIST_PATH,
  NEW_PATH,
  statusLabel,
  typeOf,
  type ApiItem,
} from '../content/shared.ts';

// ---- one item: its preview, and the actions of the list and the form ----

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
