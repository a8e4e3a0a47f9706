// String translation at /cms-admin/admin.php?page=i18n-st/menu/string-translation.php (the
// original's "String Translation" screen): the strings by domain, context, package and status
// with the i18n/st/v1 filters in the address, paged; each translation edited in place with its
// status; bulk actions; the strings' settings for managers. Everything reads and writes through
// the REST API (strings/translations, strings/<id>/translations, strings/translations/bulk,
// strings/filters, string-packages, strings/settings). The page's script (client/strings.ts)
// saves over HTTP without leaving the page; without it, the forms post here and come back.
import type { FastifyReply } from 'fastify';
import { ACTIVE_LANGUAGES, isActiveLanguage, languageName } from '../../namespaces/i18n-st/api.ts';
import type { RestOutput } from '../../rest/pipeline.ts';
import { fmt } from '../../web/api.ts';
import type { ConsoleContext, ConsolePage, Notice } from '../context.ts';
import { pageNumber, text, texts } from '../context.ts';
import { displayLocale, type ConsoleStringKey } from '../i18n.ts';
import { ADMIN_PHP, pagePath, pagerModel } from '../pages.ts';

export const STRINGS_PAGE = 'i18n-st/menu/string-translation.php';
const PER_PAGE = 20;
const API = '/i18n/st/v1';
/** Statuses offered by the filter, and (the first, third and last) set by a translator. */
const FILTER_STATUSES = [0, 1, 2, 3, 10];
const EDIT_STATUSES = [0, 3, 10];
const BULK_CHOICES: { value: string; label: ConsoleStringKey }[] = [
  { value: 'status:10', label: 'stBulkComplete' },
  { value: 'status:3', label: 'stBulkNeedsUpdate' },
  { value: 'status:0', label: 'stBulkNotTranslated' },
  { value: 'delete', label: 'stBulkDelete' },
];

/** The filters of the page, as its address holds them. */
interface PageQuery {
  search: string;
  domain: string;
  context: string;
  package: string;
  status: string;
  language: string;
  paged: number;
}

function readQuery(q: Record<string, unknown>): PageQuery {
  return {
    search: text(q.search),
    domain: text(q.domain),
    context: text(q.context),
    package: /^\d{1,15}$/.test(text(q.package)) ? text(q.package) : '',
    status: FILTER_STATUSES.map(String).includes(text(q.status)) ? text(q.status) : '',
    language: isActiveLanguage(text(q.language)) ? text(q.language) : '',
    paged: pageNumber(q.paged),
  };
}

/** The address's filters, without empty ones (paging apart). */
function filterPairs(q: PageQuery): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of ['search', 'domain', 'context', 'package', 'status', 'language'] as const)
    if (q[k] !== '') out[k] = q[k];
  return out;
}

function pageUrl(ctx: ConsoleContext, query: Record<string, string | undefined> = {}, hash = ''): string {
  return ctx.url(pagePath(stringsPage, query)) + hash;
}

/** The API's error answer as one line. */
function apiProblem(out: RestOutput): string {
  const body = out.body as { message?: string; data?: { params?: Record<string, string> } } | null;
  return [body?.message ?? '', ...Object.values(body?.data?.params ?? {})].filter(Boolean).join(' ');
}

interface ApiTranslation {
  status: number;
  value: string | null;
}

interface ApiItem {
  id: number;
  language: string;
  domain: string;
  context: string | null;
  name: string;
  title: string;
  translations: Record<string, ApiTranslation>;
  editable: string[];
}

async function showPage(ctx: ConsoleContext, notices: Notice[], status = 200): Promise<FastifyReply> {
  const { t } = ctx;
  const q = readQuery(ctx.query);
  const manager = ctx.user.can('manage_translations');
  const args: Record<string, unknown> = { limit: PER_PAGE, offset: (q.paged - 1) * PER_PAGE };
  if (q.search) args.title = q.search;
  if (q.domain) args.domain = q.domain;
  if (q.context) args.context = q.context;
  if (q.package) args.package = q.package;
  if (q.status) args.translationStatuses = [q.status];
  if (q.language) args.targetLanguageCode = q.language;
  const out = await ctx.api('GET', `${API}/strings/translations`, args);
  const ok = out.status === 200;
  if (!ok) notices.push({ kind: 'error', text: fmt(t.apiError, { message: apiProblem(out) }) });
  const result = ok ? (out.body as { totalCount: number; items: ApiItem[] }) : { totalCount: 0, items: [] };
  const done = text(ctx.query.done);
  if (done === 'saved') notices.push({ kind: 'success', text: t.stSavedNotice });
  if (done === 'settings') notices.push({ kind: 'success', text: t.stSettingsSaved });
  if (done === 'bulk') {
    notices.push({ kind: 'success', text: fmt(t.stBulkDone, { count: Number(text(ctx.query.count)) || 0 }) });
    const skipped = Number(text(ctx.query.skipped)) || 0;
    if (skipped) notices.push({ kind: 'info', text: fmt(t.stBulkSkipped, { count: skipped }) });
  }

  const pages = Math.max(1, Math.ceil(result.totalCount / PER_PAGE));
  const base = filterPairs(q);
  const link = (paged: number) => pageUrl(ctx, { ...base, ...(paged > 1 ? { paged: String(paged) } : {}) });
  const returnTo = link(q.paged);
  const nameOf = (code: string) => languageName(code, ctx.lang);
  const items = result.items.map((item) => ({
    id: item.id,
    language: item.language,
    sourceLabel: fmt(t.stSourceIn, { language: nameOf(item.language) }),
    title: item.title,
    meta: [
      fmt(t.stMeta, { domain: item.domain }),
      item.context ? fmt(t.stMetaContext, { context: item.context }) : '',
      fmt(t.stName, { name: item.name }),
    ]
      .filter(Boolean)
      .join(' · '),
    selectLabel: fmt(t.stSelect, { text: item.title.slice(0, 60) }),
    translations: Object.entries(item.translations).map(([language, tr]) => ({
      language,
      value: tr.value ?? '',
      status: tr.status,
      statusLabel: t[`stStatus_${tr.status}` as ConsoleStringKey] ?? String(tr.status),
      editable: item.editable.includes(language),
      label: fmt(t.stTranslationInto, { language: nameOf(language) }),
      statusOf: fmt(t.stStatusOf, { language: nameOf(language) }),
      saveLabel: fmt(t.stSaveLabel, { language: nameOf(language), text: item.title.slice(0, 60) }),
      choices: (EDIT_STATUSES.includes(tr.status) ? EDIT_STATUSES : [tr.status, ...EDIT_STATUSES]).map((s) => ({
        value: s,
        label: t[`stStatus_${s}` as ConsoleStringKey],
        selected: s === tr.status,
      })),
    })),
  }));

  const [domains, packages, settings] = manager
    ? await Promise.all([
        ctx.api('GET', `${API}/strings/filters`),
        ctx.api('GET', `${API}/string-packages`, { limit: 100, sorting: { by: 'title', order: 'asc' } }),
        ctx.api('GET', `${API}/strings/settings`),
      ])
    : [null, null, null];
  const model = {
    notices,
    manager,
    intro: manager ? t.stIntro : t.stIntroTranslator,
    form: {
      action: ctx.url(ADMIN_PHP),
      page: STRINGS_PAGE,
      q,
      domains: domains?.status === 200 ? (domains.body as { domains: string[] }).domains : null,
      packages:
        packages?.status === 200
          ? (packages.body as { id: number; title: string }[]).map((p) => ({ id: String(p.id), title: p.title }))
          : [],
      statuses: FILTER_STATUSES.map((s) => ({ value: String(s), label: t[`stStatus_${s}` as ConsoleStringKey] })),
      languages: ACTIVE_LANGUAGES.map((code) => ({ value: code, label: nameOf(code) })),
      resetUrl: pageUrl(ctx),
    },
    summary: fmt(t.stCount, { total: result.totalCount.toLocaleString(displayLocale(ctx.lang)) }),
    items,
    csrf: await ctx.csrf(),
    postUrl: pageUrl(ctx),
    returnTo,
    bulkChoices: BULK_CHOICES.map((c) => ({ value: c.value, label: t[c.label] })),
    pager: pagerModel(t.pageOf, q.paged, pages, link, [['page', STRINGS_PAGE], ...Object.entries(base)]),
    pageFormAction: ctx.url(ADMIN_PHP),
    settings: settings?.status === 200 ? settingsModel(ctx, settings.body as Record<string, unknown>) : null,
    clientStrings: JSON.stringify(
      Object.fromEntries((['stSaving', 'stSaved', 'stBulkNone', 'loadFailed'] as const).map((k) => [k, t[k]])),
    ),
  };
  return ctx.html('strings.twig', t.stTitle, model, ok ? status : out.status);
}

function settingsModel(ctx: ConsoleContext, s: Record<string, unknown>) {
  const { t } = ctx;
  return {
    autoregister: [0, 1, 2].map((v) => ({
      value: v,
      label: t[`stAutoregister_${v}` as ConsoleStringKey],
      selected: s.autoregisterType === v,
    })),
    backend: s.shouldRegisterBackendStrings === 1,
    detectJs: s.detectStringsInJS === 1,
  };
}

/** The page's forms without its script: save one translation, a bulk action, the settings. */
async function act(ctx: ConsoleContext): Promise<FastifyReply> {
  if (!(await ctx.csrfOk())) return ctx.csrfFailed();
  const back = new URL(ctx.returnTo(ctx.body.return_to, pageUrl(ctx)));
  const action = text(ctx.body.action);
  let out: RestOutput;
  if (action === 'save') {
    const id = text(ctx.body.string_id);
    if (!/^\d{1,15}$/.test(id)) return showPage(ctx, [{ kind: 'error', text: ctx.t.badAction }], 400);
    out = await ctx.api('POST', `${API}/strings/${id}/translations`, {
      language: text(ctx.body.language),
      value: text(ctx.body.value),
      status: text(ctx.body.status),
    });
    back.searchParams.set('done', 'saved');
    back.hash = `string-${id}`;
  } else if (action === 'bulk') {
    const ids = texts(ctx.body.ids);
    if (!ids.length) return showPage(ctx, [{ kind: 'error', text: ctx.t.stBulkNone }], 400);
    const choice = text(ctx.body.bulk_action);
    out = await ctx.api(
      'POST',
      `${API}/strings/translations/bulk`,
      choice.startsWith('status:') ? { ids, action: 'set_status', status: choice.slice(7) } : { ids, action: choice },
    );
    back.searchParams.set('done', 'bulk');
    const result = out.body as { updated?: number; skipped?: unknown[] } | null;
    back.searchParams.set('count', String(result?.updated ?? 0));
    back.searchParams.set('skipped', String(result?.skipped?.length ?? 0));
  } else if (action === 'settings' && ctx.user.can('manage_translations')) {
    out = await ctx.api('POST', `${API}/strings/settings`, {
      autoregisterType: text(ctx.body.autoregisterType),
      shouldRegisterBackendStrings: ctx.body.shouldRegisterBackendStrings === '1' ? 1 : 0,
      setDetectStringsInJS: ctx.body.setDetectStringsInJS === '1' ? 1 : 0,
    });
    back.searchParams.set('done', 'settings');
  } else {
    return showPage(ctx, [{ kind: 'error', text: ctx.t.badAction }], 400);
  }
  if (out.status >= 300)
    return showPage(ctx, [{ kind: 'error', text: fmt(ctx.t.apiError, { message: apiProblem(out) }) }], out.status);
  return ctx.redirect(back.toString());
}

export const stringsPage: ConsolePage = {
  path: ADMIN_PHP,
  adminPage: STRINGS_PAGE,
  capability: 'translate',
  title: 'stTitle',
  navOrder: 40,
  handle: (ctx) => (ctx.isPost ? act(ctx) : showPage(ctx, [])),
};
