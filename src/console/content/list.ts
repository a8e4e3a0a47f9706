// The list of pages or posts (/cms-admin/edit.php?post_type=page|post): status links with their
// counts, search, language and paging, and per row the links and buttons the user's rights allow.
import type { FastifyReply } from 'fastify';
import { listUsers } from '../../auth/user-rows.ts';
import { canDelete, canEdit } from '../../namespaces/cms/api.ts';
import type { Lang } from '../../rest/types.ts';
import { fmt } from '../../web/api.ts';
import type { ConsoleContext, Notice } from '../context.ts';
import { pageNumber, text } from '../context.ts';
import { pagePath, pagerModel } from '../pages.ts';
import {
  apiProblem,
  asItem,
  BASE,
  EDIT_PATH,
  editableTypes,
  editUrl,
  LANG_NAMES,
  LIST_PATH,
  NEW_PATH,
  statusLabel,
  typeLabel,
  typeOf,
  type ApiItem,
} from './shared.ts';

const PER_PAGE = 20;
const FILTER_STATUSES = ['publish', 'draft', 'pending', 'private', 'trash'] as const;

export async function showList(ctx: ConsoleContext, notices: Notice[]): Promise<FastifyReply> {
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
