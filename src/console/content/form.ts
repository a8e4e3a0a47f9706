// The edit form of a page or post, new or stored (post-new.php, post.php?action=edit): the
// choices the user's rights allow (statuses, parent, author), the other language version, and
// the form's fields read back as cms/v2 arguments or shown again after a refused save.
import type { FastifyReply } from 'fastify';
import { listUsers } from '../../auth/user-rows.ts';
import { roleCan, isRole } from '../../auth/roles.ts';
import { canDelete, canSetStatus, CAPABILITIES } from '../../namespaces/cms/api.ts';
import type { ContentType } from '../../pages/api.ts';
import type { Lang } from '../../rest/types.ts';
import { fmt } from '../../web/api.ts';
import type { ConsoleContext, Notice } from '../context.ts';
import { text } from '../context.ts';
import { pagePath } from '../pages.ts';
import {
  asItem,
  BASE,
  EDIT_PATH,
  editUrl,
  LANG_NAMES,
  LIST_PATH,
  NEW_PATH,
  statusLabel,
  typeLabel,
  type ApiItem,
} from './shared.ts';

/** Users who may write items of the type, for the author choice. */
async function possibleAuthors(ctx: ConsoleContext, type: ContentType): Promise<{ id: number; name: string }[]> {
  const rows = await listUsers(ctx.app);
  return rows
    .filter((u) => u.status === 'active' && isRole(u.role) && roleCan(u.role, CAPABILITIES[type].edit))
    .map((u) => ({ id: u.id, name: u.display_name || u.login }));
}

export interface FormValues {
  title: string;
  content: string;
  slug: string;
  status: string;
  parent: number;
  author: number;
  lang: Lang;
}

export async function showForm(
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

export function valuesOf(item: ApiItem): FormValues {
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
export function writeArgs(ctx: ConsoleContext, type: ContentType): Record<string, unknown> {
  const b = ctx.body;
  const args: Record<string, unknown> = { title: text(b.title), content: text(b.content), status: text(b.status) };
  if (text(b.slug) !== '') args.slug = text(b.slug);
  if (type === 'page' && text(b.parent) !== '') args.parent = text(b.parent);
  if (text(b.author) !== '') args.author = text(b.author);
  return args;
}

export function submittedValues(ctx: ConsoleContext, fallback: FormValues): FormValues {
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
