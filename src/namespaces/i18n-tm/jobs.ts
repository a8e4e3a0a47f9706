// Translation jobs: the list of GET /jobs (reference plugins §5.2) with its filters
// (job-filters.ts) as SQL, the job object, and finding one job. Assigning one is assign.ts.
import { sql, type Expression, type Kysely, type Selectable, type SqlBool, type ExpressionBuilder } from 'kysely';
import type { AppServices } from '../../site/services.ts';
import type { AuthUser } from '../../auth/types.ts';
import type { ActivityOrigin } from '../../site/activity.ts';
import type { Database, TmJobsTable } from '../../db/schema.ts';
import type { DialectName } from '../../db/index.ts';
import { likeContains } from '../../db/like.ts';
import { RestError, type Lang } from '../../rest/types.ts';
import { parseJobQuery, type JobFilters } from './job-filters.ts';
import { MSG } from './messages.ts';
import { STATUS, languageName, type Sorting } from './model.ts';

export type JobRow = Selectable<TmJobsTable>;

/** Who is asking: the request's user (AuthUser satisfies it), or null for internal calls. */
export interface Viewer {
  id: number;
  can(cap: string): boolean;
}

/** Who asks, and where from (work.ts, apply-job.ts, send-jobs.ts): a RestRequest satisfies it. */
export interface Caller extends ActivityOrigin {
  app: AppServices;
  user: AuthUser | null;
  lang: Lang;
}

/** Managers see every job; translators only their own. */
export function isManager(viewer: Viewer | null): boolean {
  return viewer === null || viewer.can('manage_translations');
}

function whereFilters(
  eb: ExpressionBuilder<Database & { j: TmJobsTable }, 'j'>,
  f: JobFilters,
  viewer: Viewer | null,
  dialect: DialectName,
): Expression<SqlBool> {
  const and: Expression<SqlBool>[] = [];
  if (!isManager(viewer)) and.push(eb('j.translator_id', '=', viewer!.id));
  if (f.localJobIds) and.push(eb('j.id', 'in', f.localJobIds));
  if (f.id !== undefined) and.push(eb('j.id', '=', f.id));
  if (f.scope === 'local') and.push(eb('j.translation_service', '=', 'local'));
  if (f.scope === 'remote') and.push(eb('j.translation_service', '!=', 'local'));
  if (f.scope === 'ate') and.push(eb('j.editor', '=', 'ate'));
  if (f.titles) {
    and.push(eb.or(f.titles.map((t) => likeContains(dialect, sql`lower(${eb.ref('j.title')})`, t.toLowerCase()))));
  }
  if (f.sourceLanguage) and.push(eb('j.source_language', '=', f.sourceLanguage));
  if (f.targetLanguages) and.push(eb('j.target_language', 'in', f.targetLanguages));
  if (f.statuses) {
    const stored = f.statuses.filter((s) => s !== STATUS.NEEDS_UPDATE && s !== STATUS.NEEDS_REVIEW);
    const or: Expression<SqlBool>[] = [];
    if (stored.length) or.push(eb('j.status', 'in', stored));
    if (f.statuses.includes(STATUS.NEEDS_UPDATE)) or.push(eb('j.needs_update', '=', 1));
    if (f.statuses.includes(STATUS.NEEDS_REVIEW)) {
      or.push(eb.and([eb('j.status', '=', STATUS.COMPLETE), eb('j.review_status', 'in', ['NEEDS_REVIEW', 'EDITING'])]));
    }
    and.push(eb.or(or));
  } else {
    // Cancelled jobs are left out unless the status filter names them (reference: exclude cancelled).
    and.push(eb('j.status', '!=', STATUS.NOT_TRANSLATED));
  }
  if (f.needsUpdate === 'include') and.push(eb('j.needs_update', '=', 1));
  if (f.needsUpdate === 'exclude') and.push(eb('j.needs_update', '=', 0));
  if (f.translatedBy !== undefined) and.push(eb('j.translator_id', '=', f.translatedBy));
  if (f.sentFrom) and.push(eb('j.sent_date', '>=', `${f.sentFrom} 00:00:00`));
  if (f.sentTo) and.push(eb('j.sent_date', '<=', `${f.sentTo} 23:59:59`));
  if (f.deadlineFrom) and.push(eb('j.deadline_date', '>=', f.deadlineFrom));
  if (f.deadlineTo) and.push(eb('j.deadline_date', '<=', f.deadlineTo));
  return eb.and(and);
}

// ---------------------------------------------------------------- list

export interface JobObject {
  id: number;
  type: string;
  tp_id: number | null;
  status: number;
  needs_update: boolean;
  review_status: string | null;
  language_codes: { source: string; target: string };
  languages: { source: string; target: string };
  translation_service_id: string;
  translation_service: string;
  sent_date: string;
  deadline: string;
  ts_status: string;
  element: Record<string, unknown>;
  translator_name: string;
  translator_id: number | '';
  is_ate_job: boolean;
  automatic: boolean;
  progress: number;
  batch: { id: number | null; name: string; tp_id: number | null };
  extra_data: Record<string, unknown> | [];
  edit_url: string;
  view_url: string;
  view_original_url: string;
}

export interface JobList {
  jobs: JobObject[];
  total: number;
  last_picked_up_date: string | null;
}

type JobListRow = JobRow & { batch_name: string | null; batch_tp_id: number | null };

export async function listJobs(
  app: AppServices,
  params: Record<string, unknown>,
  viewer: Viewer | null,
  lang: Lang,
): Promise<JobList> {
  const f = parseJobQuery(params, lang);
  const db = app.db as unknown as Kysely<Database & { j: TmJobsTable }>;
  const base = db
    .selectFrom('tm_jobs as j')
    .leftJoin('tm_batches as b', 'b.id', 'j.batch_id')
    .where((eb) => whereFilters(eb as never, f, viewer, app.dialect));
  const countRow = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const total = Number(countRow?.n ?? 0);

  let q = base.selectAll('j').select(['b.name as batch_name', 'b.tp_id as batch_tp_id']);
  const sorting = f.sorting.length ? f.sorting : [{ column: 'id', direction: 'desc' } as Sorting];
  for (const s of sorting) {
    switch (s.column) {
      case 'id':
        q = q.orderBy('j.id', s.direction);
        break;
      case 'title':
        q = q.orderBy('j.title', s.direction);
        break;
      case 'batch_name':
        q = q.orderBy('b.name', s.direction);
        break;
      case 'language':
        q = q.orderBy('j.source_language', s.direction).orderBy('j.target_language', s.direction);
        break;
      case 'sent_date':
        q = q.orderBy('j.sent_date', s.direction);
        break;
      case 'deadline_date':
        q = q.orderBy('j.deadline_date', s.direction);
        break;
      case 'status':
        q = q.orderBy('j.status', s.direction);
        break;
    }
  }
  if (!sorting.some((s) => s.column === 'id')) q = q.orderBy('j.id', 'desc');
  if (f.limit) q = q.limit(f.limit).offset(f.offset ?? 0);
  const rows = (await q.execute()) as JobListRow[];
  const jobs = await toJobObjects(app, rows, lang);
  const lastPickedUp = app.options.get('i18n_tm_last_picked_up');
  return { jobs, total, last_picked_up_date: typeof lastPickedUp === 'string' ? lastPickedUp : null };
}

const ELEMENT_TYPE_LABELS: Record<string, { en: string; de: string }> = {
  post_post: { en: 'Post', de: 'Beitrag' },
  post_page: { en: 'Page', de: 'Seite' },
  post_partner: { en: 'Partner', de: 'Partner' },
  'st-batch_strings': { en: 'Strings', de: 'Zeichenketten' },
};

export async function toJobObjects(app: AppServices, rows: JobListRow[], lang: Lang): Promise<JobObject[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const translatorIds = [...new Set(rows.map((r) => r.translator_id).filter((id): id is number => id !== null))];
  // Chunked IN lists keep every query under the databases' parameter limits for large pages.
  const progressRows: { job_id: number; total: number; done: number | null }[] = [];
  for (let i = 0; i < ids.length; i += 5000) {
    const chunk = ids.slice(i, i + 5000);
    progressRows.push(
      ...(await app.db
        .selectFrom('tm_job_fields')
        .select((eb) => ['job_id', eb.fn.countAll<number>().as('total'), eb.fn.sum<number>('finished').as('done')])
        .where('job_id', 'in', chunk)
        .groupBy('job_id')
        .execute()),
    );
  }
  const users = translatorIds.length
    ? await app.db.selectFrom('users').select(['id', 'display_name']).where('id', 'in', translatorIds).execute()
    : [];
  const progress = new Map(progressRows.map((p) => [p.job_id, { total: Number(p.total), done: Number(p.done ?? 0) }]));
  const names = new Map(users.map((u) => [u.id, u.display_name]));
  const site = app.config.siteUrl;
  return rows.map((r) => {
    const p = progress.get(r.id);
    const pct = r.status === STATUS.COMPLETE ? 100 : p && p.total ? Math.round((p.done / p.total) * 100) : 0;
    const isPost = r.type === 'post';
    const element: Record<string, unknown> = {
      name: r.title,
      url: r.type === 'string' || r.type === 'st-batch_strings' ? null : r.element_url,
    };
    if (isPost) {
      element.status = r.status === STATUS.COMPLETE ? 'publish' : 'draft';
      element.type = { value: r.element_type, label: ELEMENT_TYPE_LABELS[r.element_type]?.[lang] ?? r.element_type };
    }
    const inReview = r.review_status === 'NEEDS_REVIEW' || r.review_status === 'EDITING';
    const viewUrl =
      isPost && (r.status === STATUS.COMPLETE || inReview)
        ? `${site}/${r.target_language}/?p=${r.element_id}${inReview ? `&preview=true&job_id=${r.id}` : ''}`
        : '';
    return {
      id: r.id,
      type: r.type,
      tp_id: r.tp_id,
      status: r.status,
      needs_update: r.needs_update === 1,
      review_status: r.review_status,
      language_codes: { source: r.source_language, target: r.target_language },
      languages: { source: languageName(r.source_language, lang), target: languageName(r.target_language, lang) },
      translation_service_id: r.translation_service,
      translation_service: r.translation_service === 'local' ? MSG.localService[lang] : r.translation_service,
      sent_date: r.sent_date.slice(0, 10),
      deadline: r.deadline_date ?? '',
      ts_status: r.ts_status ?? '',
      element,
      translator_name: r.translator_id ? (names.get(r.translator_id) ?? '') : '',
      translator_id: r.translator_id ? r.translator_id : '',
      is_ate_job: r.editor === 'ate',
      automatic: r.automatic === 1,
      progress: pct,
      batch: { id: r.batch_id, name: r.batch_name ?? '', tp_id: r.batch_tp_id },
      extra_data: isPost ? { icl_translate_job_id: r.id, editor_job_id: r.editor_job_id } : [],
      edit_url: `${site}/cms-admin/admin.php?page=i18n-tm/menu/translations-queue.php&job_id=${r.id}`,
      view_url: viewUrl,
      view_original_url: r.element_url ?? '',
    };
  });
}

// ---------------------------------------------------------------- single job

export async function findJob(app: AppServices, id: number): Promise<JobRow | undefined> {
  return app.db.selectFrom('tm_jobs').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The unknown job's 404; `id` as the caller gave it (a path's digits may name no possible row). */
export function jobNotFound(id: number | string, lang: Lang = 'en'): RestError {
  return new RestError('i18n_job_not_found', MSG.jobNotFound(id)[lang], 404);
}
