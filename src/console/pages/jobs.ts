// Translation management at /cms-admin/admin.php?page=i18n-tm/menu/translations-queue.php (the
// original's "Translation Management" and "Translation Jobs" screens, and every job's
// `edit_url`): the jobs with the i18n/tm/v1/jobs filters in the address, paged, with status,
// deadline and translator; managers assign them and send pages, posts and strings to
// translation. `&job_id=<id>` opens one job: its fields translated in place, its XLIFF
// downloaded as a file and the translated file uploaded, which completes the job. Everything
// reads and writes through the REST API as the signed-in user; the forms work without the
// page's script (client/jobs.ts only reads a chosen XLIFF file into the upload form).
import type { FastifyReply } from 'fastify';
import { listUsers } from '../../auth/user-rows.ts';
import { isRole, roleCan } from '../../auth/roles.ts';
import { ACTIVE_LANGUAGES, isActiveLanguage, languageName } from '../../namespaces/i18n-st/api.ts';
import { ASSIGNABLE_STATUSES } from '../../namespaces/i18n-tm/api.ts';
import { listContent } from '../../pages/api.ts';
import type { RestOutput } from '../../rest/pipeline.ts';
import { fmt } from '../../web/api.ts';
import type { ConsoleContext, ConsolePage, Notice } from '../context.ts';
import { pageNumber, text, texts } from '../context.ts';
import { displayLocale, type ConsoleStringKey } from '../i18n.ts';
import { ADMIN_PHP, pagePath, pagerModel } from '../pages.ts';

export const JOBS_PAGE = 'i18n-tm/menu/translations-queue.php';
const API = '/i18n/tm/v1';
const PER_PAGE = 20;
/** Statuses the filter offers (reference plugins §5.1). */
const FILTER_STATUSES = [1, 2, 3, 10, 30, 20, 40, 4, 0];
const DATE = /^\d{4}-\d{2}-\d{2}$/;

interface PageQuery {
  title: string;
  status: string;
  target_language: string;
  translated_by: string;
  sent_from: string;
  sent_to: string;
  deadline_from: string;
  deadline_to: string;
  paged: number;
}

function readQuery(q: Record<string, unknown>): PageQuery {
  const date = (v: unknown) => (DATE.test(text(v)) ? text(v) : '');
  return {
    title: text(q.title).slice(0, 200),
    status: FILTER_STATUSES.map(String).includes(text(q.status)) ? text(q.status) : '',
    target_language: isActiveLanguage(text(q.target_language)) ? text(q.target_language) : '',
    translated_by: /^\d{1,9}$/.test(text(q.translated_by)) ? text(q.translated_by) : '',
    sent_from: date(q.sent_from),
    sent_to: date(q.sent_to),
    deadline_from: date(q.deadline_from),
    deadline_to: date(q.deadline_to),
    paged: pageNumber(q.paged),
  };
}

function filterPairs(q: PageQuery): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of [
    'title',
    'status',
    'target_language',
    'translated_by',
    'sent_from',
    'sent_to',
    'deadline_from',
    'deadline_to',
  ] as const)
    if (q[k] !== '') out[k] = q[k];
  return out;
}

function pageUrl(ctx: ConsoleContext, query: Record<string, string | undefined> = {}): string {
  return ctx.url(pagePath(jobsPage, query));
}

/** The API's error answer as one line. */
function apiProblem(out: RestOutput): string {
  const body = out.body as { message?: string; data?: { params?: Record<string, string> } } | null;
  return [body?.message ?? '', ...Object.values(body?.data?.params ?? {})].filter(Boolean).join(' ');
}

interface ApiJob {
  id: number;
  type: string;
  status: number;
  needs_update: boolean;
  languages: { source: string; target: string };
  language_codes: { source: string; target: string };
  deadline: string;
  sent_date: string;
  element: { name: string };
  translator_id: number | '';
  translator_name: string;
  translation_service_id: string;
  progress: number;
  batch: { name: string };
  view_url: string;
  view_original_url: string;
}

interface ApiJobDetail extends ApiJob {
  title: string;
  note: string;
  workable: boolean;
  fields: { field_id: string; label: string; source: string; target: string; finished: boolean }[];
}

/** Active users who may translate, by name: the choices of the assignment forms. */
async function translators(ctx: ConsoleContext): Promise<{ id: number; name: string }[]> {
  const users = await listUsers(ctx.app);
  return users
    .filter((u) => u.status === 'active' && isRole(u.role) && roleCan(u.role, 'translate'))
    .map((u) => ({ id: u.id, name: u.display_name || u.login }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

function statusLabel(ctx: ConsoleContext, job: Pick<ApiJob, 'status' | 'needs_update'>): string {
  const label = ctx.t[`tmStatus_${job.status}` as ConsoleStringKey] ?? String(job.status);
  return job.needs_update ? `${label} · ${ctx.t.tmStatus_3}` : label;
}

function today(ctx: ConsoleContext): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: ctx.app.options.timeZone(),
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date());
}

function rowOf(ctx: ConsoleContext, job: ApiJob, now: string, people: { id: number; name: string }[] | null) {
  const { t } = ctx;
  return {
    id: job.id,
    title: job.element.name,
    url: pageUrl(ctx, { job_id: String(job.id) }),
    openLabel: fmt(t.tmOpenJob, { id: job.id, title: job.element.name }),
    type: t[`tmType_${job.type.replace(/[^a-z]/g, '')}` as ConsoleStringKey] ?? job.type,
    languages: `${job.languages.source} → ${job.languages.target}`,
    status: statusLabel(ctx, job),
    statusCode: job.status,
    deadline: job.deadline,
    overdue: job.deadline !== '' && job.deadline < now && job.status !== 10,
    sent: job.sent_date,
    translator: job.translator_name || t.tmNobody,
    progress: job.progress,
    batch: job.batch.name,
    assign:
      people && job.translation_service_id === 'local' && ASSIGNABLE_STATUSES.includes(job.status)
        ? {
            label: fmt(t.tmAssignLabel, { id: job.id }),
            choices: people.map((p) => ({ value: p.id, label: p.name, selected: p.id === job.translator_id })),
          }
        : null,
  };
}

async function showList(ctx: ConsoleContext, notices: Notice[], status = 200): Promise<FastifyReply> {
  const { t } = ctx;
  const q = readQuery(ctx.query);
  const manager = ctx.user.can('manage_translations');
  const args: Record<string, unknown> = { limit: PER_PAGE, offset: (q.paged - 1) * PER_PAGE, ...filterPairs(q) };
  if (!manager) delete args.translated_by;
  const out = await ctx.api('GET', `${API}/jobs`, args);
  const ok = out.status === 200;
  if (!ok) notices.push({ kind: 'error', text: fmt(t.apiError, { message: apiProblem(out) }) });
  const result = ok ? (out.body as { jobs: ApiJob[]; total: number }) : { jobs: [], total: 0 };
  const done = text(ctx.query.done);
  if (done === 'assigned') notices.push({ kind: 'success', text: t.tmAssignedNotice });
  if (done === 'sent')
    notices.push({ kind: 'success', text: fmt(t.tmSentNotice, { count: Number(text(ctx.query.count)) || 0 }) });
  const people = manager ? await translators(ctx) : null;
  const now = today(ctx);
  const pages = Math.max(1, Math.ceil(result.total / PER_PAGE));
  const base = filterPairs(q);
  const link = (paged: number) => pageUrl(ctx, { ...base, ...(paged > 1 ? { paged: String(paged) } : {}) });
  const returnTo = link(q.paged);
  const content = manager ? await listContent(ctx.app) : [];
  const model = {
    notices,
    manager,
    heading: manager ? t.tmTitle : t.tmMyJobs,
    intro: manager ? t.tmIntro : t.tmIntroTranslator,
    form: {
      action: ctx.url(ADMIN_PHP),
      page: JOBS_PAGE,
      q,
      statuses: FILTER_STATUSES.map((s) => ({ value: String(s), label: t[`tmStatus_${s}` as ConsoleStringKey] })),
      languages: ACTIVE_LANGUAGES.map((code) => ({ value: code, label: languageName(code, ctx.lang) })),
      translators: people?.map((p) => ({ value: String(p.id), label: p.name })) ?? null,
      dates: (
        [
          ['sent_from', t.tmSentFrom],
          ['sent_to', t.tmSentTo],
          ['deadline_from', t.tmDeadlineFrom],
          ['deadline_to', t.tmDeadlineTo],
        ] as const
      ).map(([name, label]) => ({ name, label, value: q[name] })),
      resetUrl: pageUrl(ctx),
    },
    summary: fmt(t.tmCount, { total: result.total.toLocaleString(displayLocale(ctx.lang)) }),
    jobs: result.jobs.map((j) => rowOf(ctx, j, now, people)),
    csrf: await ctx.csrf(),
    postUrl: pageUrl(ctx),
    returnTo,
    send: manager
      ? {
          items: content.map((c) => ({
            id: c.id,
            label: `${c.title} (${languageName(c.lang, ctx.lang)}, ${c.type === 'page' ? t.tmItemPage : t.tmItemPost})`,
          })),
          languages: ACTIVE_LANGUAGES.map((code) => ({ value: code, label: languageName(code, ctx.lang) })),
          translators: people!.map((p) => ({ value: String(p.id), label: p.name })),
        }
      : null,
    pager: pagerModel(t.pageOf, q.paged, pages, link, [['page', JOBS_PAGE], ...Object.entries(base)]),
    pageFormAction: ctx.url(ADMIN_PHP),
  };
  return ctx.html('jobs.twig', manager ? t.tmTitle : t.tmMyJobs, model, ok ? status : out.status);
}

async function showJob(
  ctx: ConsoleContext,
  jobId: string,
  notices: Notice[],
  status = 200,
  drafts: Record<string, string> = {},
): Promise<FastifyReply> {
  const { t } = ctx;
  const out = await ctx.api('GET', `${API}/jobs/${jobId}`);
  if (out.status !== 200) {
    return ctx.message(out.status, t.tmJobMissing, apiProblem(out));
  }
  const job = out.body as ApiJobDetail;
  const done = text(ctx.query.done);
  if (done === 'saved') notices.push({ kind: 'success', text: t.tmSavedNotice });
  if (done === 'completed') notices.push({ kind: 'success', text: t.tmCompletedNotice });
  if (done === 'assigned') notices.push({ kind: 'success', text: t.tmAssignedNotice });
  const manager = ctx.user.can('manage_translations');
  const people = manager ? await translators(ctx) : null;
  const row = rowOf(ctx, job, today(ctx), people);
  const model = {
    notices,
    job: {
      ...row,
      title: job.title,
      note: job.note,
      workable: job.workable,
      complete: job.status === 10,
      source: job.language_codes.source,
      target: job.language_codes.target,
      targetName: job.languages.target,
      viewUrl: job.view_url,
      originalUrl: job.view_original_url,
      downloadUrl: pageUrl(ctx, { job_id: String(job.id), download: 'xliff' }),
      fields: job.fields.map((f, i) => ({
        id: f.field_id,
        index: i,
        label: f.label,
        source: f.source,
        target: drafts[f.field_id] ?? f.target,
        rows: Math.min(12, Math.max(2, Math.ceil(f.source.length / 70) + (f.source.match(/\n/g)?.length ?? 0))),
        targetLabel: fmt(t.tmTranslationOf, { label: f.label, language: job.languages.target }),
      })),
    },
    csrf: await ctx.csrf(),
    postUrl: pageUrl(ctx, { job_id: String(job.id) }),
    listUrl: pageUrl(ctx),
  };
  return ctx.html('job.twig', fmt(t.tmJobTitle, { id: job.id, title: job.title }), model, status);
}

/** The job's XLIFF as a download: the API's file, passed on with its type and name. */
async function download(ctx: ConsoleContext, jobId: string): Promise<FastifyReply> {
  const out = await ctx.api('GET', `${API}/jobs/${jobId}/xliff`);
  if (out.status !== 200 || !out.raw)
    return showJob(
      ctx,
      jobId,
      [{ kind: 'error', text: fmt(ctx.t.apiError, { message: apiProblem(out) }) }],
      out.status,
    );
  return ctx.reply
    .code(200)
    .headers({
      'Content-Type': out.raw.contentType,
      'Content-Disposition': out.headers['Content-Disposition'] ?? 'attachment',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    })
    .send(out.raw.content);
}

/** The page's forms: assign, send to translation, save or complete a job, upload its XLIFF. */
async function act(ctx: ConsoleContext): Promise<FastifyReply> {
  if (!(await ctx.csrfOk())) return ctx.csrfFailed();
  const action = text(ctx.body.action);
  const jobId = text(ctx.query.job_id);
  const onJob = /^\d{1,9}$/.test(jobId);
  const fail = (out: RestOutput, drafts: Record<string, string> = {}) => {
    const notice: Notice = { kind: 'error', text: fmt(ctx.t.apiError, { message: apiProblem(out) }) };
    return onJob ? showJob(ctx, jobId, [notice], out.status, drafts) : showList(ctx, [notice], out.status);
  };
  if (action === 'assign') {
    const out = await ctx.api('POST', `${API}/jobs/assign`, {
      jobId: text(ctx.body.job),
      translatorId: text(ctx.body.translator),
      type: text(ctx.body.type) || undefined,
    });
    if (out.status !== 200) return fail(out);
    const back = new URL(ctx.returnTo(ctx.body.return_to, pageUrl(ctx)));
    back.searchParams.set('done', 'assigned');
    return ctx.redirect(back.toString());
  }
  if (action === 'send') {
    const out = await ctx.api('POST', `${API}/jobs/send`, {
      content_ids: texts(ctx.body.content_ids),
      target_language: text(ctx.body.target_language),
      ...(text(ctx.body.translator_id) ? { translator_id: text(ctx.body.translator_id) } : {}),
      ...(text(ctx.body.deadline) ? { deadline: text(ctx.body.deadline) } : {}),
      ...(text(ctx.body.batch_name) ? { batch_name: text(ctx.body.batch_name) } : {}),
    });
    if (out.status !== 200) return fail(out);
    return ctx.redirect(pageUrl(ctx, { done: 'sent', count: String((out.body as { jobs: unknown[] }).jobs.length) }));
  }
  if (onJob && action === 'save') {
    const fields: Record<string, string> = {};
    const given = ctx.body.fields;
    if (given && typeof given === 'object' && !Array.isArray(given)) {
      for (const [id, value] of Object.entries(given)) fields[id] = text(value);
    }
    const complete = text(ctx.body.complete) === '1';
    const out = await ctx.api('POST', `${API}/jobs/${jobId}/translations`, { fields, complete });
    if (out.status !== 200) return fail(out, fields);
    return ctx.redirect(pageUrl(ctx, { job_id: jobId, done: complete ? 'completed' : 'saved' }));
  }
  if (onJob && action === 'upload') {
    const out = await ctx.api('POST', `${API}/jobs/${jobId}/xliff`, { xliff: text(ctx.body.xliff) });
    if (out.status !== 200) return fail(out);
    return ctx.redirect(pageUrl(ctx, { job_id: jobId, done: 'completed' }));
  }
  return onJob
    ? showJob(ctx, jobId, [{ kind: 'error', text: ctx.t.badAction }], 400)
    : showList(ctx, [{ kind: 'error', text: ctx.t.badAction }], 400);
}

async function handle(ctx: ConsoleContext): Promise<FastifyReply> {
  if (ctx.isPost) return act(ctx);
  const jobId = text(ctx.query.job_id);
  const ateJobId = text(ctx.query.ate_job_id);
  if (!jobId && /^\d{1,9}$/.test(ateJobId)) {
    // The editor job's address (ate/jobs/<id> urls.editor) opens its translation job.
    const out = await ctx.api('GET', `${API}/ate/jobs/${ateJobId}`);
    if (out.status !== 200) return ctx.message(out.status, ctx.t.tmJobMissing, apiProblem(out));
    return ctx.redirect(pageUrl(ctx, { job_id: String((out.body as { i18n_job_id: number }).i18n_job_id) }), 302);
  }
  if (jobId === '') return showList(ctx, []);
  if (!/^\d{1,9}$/.test(jobId)) return ctx.message(404, ctx.t.tmJobMissing, ctx.t.notFoundText);
  return text(ctx.query.download) === 'xliff' ? download(ctx, jobId) : showJob(ctx, jobId, []);
}

export const jobsPage: ConsolePage = {
  path: ADMIN_PHP,
  adminPage: JOBS_PAGE,
  capability: 'translate',
  title: 'tmTitle',
  navOrder: 45,
  handle,
};

/** The translation management dashboard `ams/console` names (`url`): the jobs are its dashboard here. */
export const jobsDashboardPage: ConsolePage = {
  path: ADMIN_PHP,
  adminPage: 'i18n-tm/menu/main.php',
  capability: 'translate',
  title: 'tmTitle',
  handle: async (ctx) => ctx.redirect(pageUrl(ctx), 302),
};
