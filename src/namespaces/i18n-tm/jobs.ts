// Translation jobs: the list with every filter of GET /jobs (reference plugins §5.2), the
// job object, and assignment to a translator with the state rules of §5.1 / §10.
import { sql, type Expression, type Kysely, type Selectable, type SqlBool, type ExpressionBuilder } from 'kysely';
import type { AppServices } from '../../site/services.ts';
import { ROLE_CAPABILITIES, isRole } from '../../auth/roles.ts';
import type { Database, TmJobsTable } from '../../db/schema.ts';
import type { DialectName } from '../../db/index.ts';
import { likeContains } from '../../db/like.ts';
import { MAX_ALTERNATIVES, MAX_LIST_ITEMS } from '../../db/limits.ts';
import { RestError, type Lang } from '../../rest/types.ts';
import { utcNow } from '../../site/time.ts';
import {
  DEFAULT_JOB_TYPE, JOB_TYPES, MAX_ID, NEEDS_UPDATE_VALUES, SCOPES, STATUS, STATUS_NAMES, invalidParam, languageName,
  parseDate, parseJobIdList, parsePositiveInt, parseSorting, parseStatusList, parseStringList, scalarText,
  type JobType, type Scope, type Sorting,
} from './model.ts';

export type JobRow = Selectable<TmJobsTable>;

/** Who is asking: the request's user (AuthUser satisfies it), or null for internal calls. */
export interface Viewer {
  id: number;
  can(cap: string): boolean;
}

/** Managers see every job; translators only their own. */
export function isManager(viewer: Viewer | null): boolean {
  return viewer === null || viewer.can('manage_translations');
}

// ---------------------------------------------------------------- filters

export interface JobFilters {
  localJobIds?: number[];
  scope?: Scope;
  id?: number;
  titles?: string[];
  sourceLanguage?: string;
  targetLanguages?: string[];
  statuses?: number[];
  needsUpdate?: 'include' | 'exclude';
  limit?: number;
  offset?: number;
  sorting: Sorting[];
  translatedBy?: number;
  sentFrom?: string;
  sentTo?: string;
  deadlineFrom?: string;
  deadlineTo?: string;
}

// Per-parameter checks, used both by the route's `validate` callbacks and by parseJobQuery.
export const JOB_FILTER_CHECKS: Record<string, (value: unknown) => true | string> = {
  local_job_ids: (v) => {
    const ids = parseJobIdList(v);
    if (ids === null) return 'local_job_ids must be a comma-separated list of job ids.';
    return ids.length <= MAX_LIST_ITEMS ? true : `local_job_ids may list at most ${MAX_LIST_ITEMS} jobs.`;
  },
  // Each title part is one alternative of an OR; each language one bound value.
  title: (v) => (parseStringList(v).length <= MAX_ALTERNATIVES ? true : `title may hold at most ${MAX_ALTERNATIVES} parts.`),
  target_language: (v) => (parseStringList(v).length <= MAX_LIST_ITEMS ? true : `target_language may list at most ${MAX_LIST_ITEMS} languages.`),
  scope: (v) => (typeof v === 'string' && (v === '' || (SCOPES as readonly string[]).includes(v)) ? true : `scope must be one of ${SCOPES.join(', ')}.`),
  id: (v) => (v === '' || v === 0 || parsePositiveInt(v) !== null ? true : 'id must be a positive integer.'),
  status: (v) => (parseStatusList(v) !== null ? true : 'status must be a comma-separated list of status codes (0, 1, 2, 3, 4, 9, 10, 20, 30, 40, 42, 102).'),
  needs_update: (v) => (v === '' || (NEEDS_UPDATE_VALUES as readonly unknown[]).includes(v) ? true : 'needs_update must be include or exclude.'),
  limit: (v) => (Number.isInteger(typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v) ? true : 'limit must be an integer.'),
  offset: (v) => (Number.isInteger(typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v) ? true : 'offset must be an integer.'),
  sorting: (v) => {
    const s = parseSorting(v);
    return typeof s === 'string' ? s : true;
  },
  translated_by: (v) => (v === '' || parsePositiveInt(v) !== null ? true : 'translated_by must be a user id.'),
  sent_from: (v) => (v === '' || parseDate(v) !== null ? true : 'sent_from must be a date YYYY-MM-DD.'),
  sent_to: (v) => (v === '' || parseDate(v) !== null ? true : 'sent_to must be a date YYYY-MM-DD.'),
  deadline_from: (v) => (v === '' || parseDate(v) !== null ? true : 'deadline_from must be a date YYYY-MM-DD.'),
  deadline_to: (v) => (v === '' || parseDate(v) !== null ? true : 'deadline_to must be a date YYYY-MM-DD.'),
};

const present = (v: unknown) => v !== undefined && v !== null && v !== '';

/** Parses the `GET /jobs` parameters; throws 400 rest_invalid_param for bad values. */
export function parseJobQuery(params: Record<string, unknown>): JobFilters {
  for (const [name, check] of Object.entries(JOB_FILTER_CHECKS)) {
    const value = params[name];
    if (value === undefined || value === null) continue;
    const verdict = check(value);
    if (verdict !== true) throw invalidParam(name, verdict);
  }
  const f: JobFilters = { sorting: [] };
  if (present(params.local_job_ids)) {
    const ids = parseJobIdList(params.local_job_ids)!;
    if (ids.length) f.localJobIds = ids;
  }
  if (present(params.scope)) f.scope = params.scope as Scope;
  if (present(params.id) && params.id !== 0) f.id = parsePositiveInt(params.id)!;
  if (present(params.title)) {
    const titles = parseStringList(params.title);
    if (titles.length) f.titles = titles;
  }
  if (present(params.source_language)) f.sourceLanguage = (scalarText(params.source_language) ?? '').replace(/\u0000/g, '').trim();
  if (present(params.target_language)) {
    const langs = parseStringList(params.target_language);
    if (langs.length) f.targetLanguages = langs;
  }
  if (params.status !== undefined && params.status !== null) {
    const statuses = parseStatusList(params.status)!;
    if (statuses.length) f.statuses = statuses;
  }
  if (present(params.needs_update)) f.needsUpdate = params.needs_update as 'include' | 'exclude';
  const limit = present(params.limit) ? Number(params.limit) : 0;
  if (limit > 0) {
    f.limit = Math.min(limit, MAX_ID);
    const offset = present(params.offset) ? Number(params.offset) : 0;
    if (offset > 0) f.offset = Math.min(offset, MAX_ID);
  }
  f.sorting = present(params.sorting) ? (parseSorting(params.sorting) as Sorting[]) : [];
  if (present(params.translated_by)) f.translatedBy = parsePositiveInt(params.translated_by)!;
  for (const [key, from, to] of [['sent', 'sent_from', 'sent_to'], ['deadline', 'deadline_from', 'deadline_to']] as const) {
    const a = present(params[from]) ? parseDate(params[from]) : null;
    const b = present(params[to]) ? parseDate(params[to]) : null;
    if (a && b && a > b) throw invalidParam(to, `${to} must not be before ${from}.`);
    if (key === 'sent') {
      if (a) f.sentFrom = a;
      if (b) f.sentTo = b;
    } else {
      if (a) f.deadlineFrom = a;
      if (b) f.deadlineTo = b;
    }
  }
  return f;
}

function whereFilters(eb: ExpressionBuilder<Database & { j: TmJobsTable }, 'j'>, f: JobFilters, viewer: Viewer | null, dialect: DialectName): Expression<SqlBool> {
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

export async function listJobs(app: AppServices, params: Record<string, unknown>, viewer: Viewer | null, lang: Lang): Promise<JobList> {
  const f = parseJobQuery(params);
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
      case 'id': q = q.orderBy('j.id', s.direction); break;
      case 'title': q = q.orderBy('j.title', s.direction); break;
      case 'batch_name': q = q.orderBy('b.name', s.direction); break;
      case 'language': q = q.orderBy('j.source_language', s.direction).orderBy('j.target_language', s.direction); break;
      case 'sent_date': q = q.orderBy('j.sent_date', s.direction); break;
      case 'deadline_date': q = q.orderBy('j.deadline_date', s.direction); break;
      case 'status': q = q.orderBy('j.status', s.direction); break;
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
  const users = translatorIds.length ? await app.db.selectFrom('users').select(['id', 'display_name']).where('id', 'in', translatorIds).execute() : [];
  const progress = new Map(progressRows.map((p) => [p.job_id, { total: Number(p.total), done: Number(p.done ?? 0) }]));
  const names = new Map(users.map((u) => [u.id, u.display_name]));
  const site = app.config.siteUrl;
  return rows.map((r) => {
    const p = progress.get(r.id);
    const pct = r.status === STATUS.COMPLETE ? 100 : p && p.total ? Math.round((p.done / p.total) * 100) : 0;
    const isPost = r.type === 'post';
    const element: Record<string, unknown> = { name: r.title, url: r.type === 'string' || r.type === 'st-batch_strings' ? null : r.element_url };
    if (isPost) {
      element.status = r.status === STATUS.COMPLETE ? 'publish' : 'draft';
      element.type = { value: r.element_type, label: ELEMENT_TYPE_LABELS[r.element_type]?.[lang] ?? r.element_type };
    }
    const inReview = r.review_status === 'NEEDS_REVIEW' || r.review_status === 'EDITING';
    const viewUrl = isPost && (r.status === STATUS.COMPLETE || inReview)
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
      translation_service: r.translation_service === 'local' ? (lang === 'de' ? 'Lokal' : 'Local') : r.translation_service,
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

export function jobNotFound(id: number, lang: Lang = 'en'): RestError {
  return new RestError(
    'i18n_job_not_found',
    lang === 'de' ? `Es gibt keinen Übersetzungsauftrag mit der ID ${id}.` : `There is no translation job with the ID ${id}.`,
    404,
  );
}

// ---------------------------------------------------------------- assignment

/** Statuses from which a job may be (re)assigned to a local translator. */
export const ASSIGNABLE_STATUSES: readonly number[] = [STATUS.WAITING_FOR_TRANSLATOR, STATUS.IN_PROGRESS, STATUS.IN_BASKET, STATUS.ATE_NEEDS_RETRY];

export interface AssignInput {
  jobId: unknown;
  type?: unknown;
  translatorId: unknown;
}

export const ASSIGN_CHECKS = {
  jobId: (v: unknown): true | string => (parsePositiveInt(v) !== null ? true : 'jobId must be a positive integer.'),
  translatorId: (v: unknown): true | string => (parsePositiveInt(v) !== null ? true : 'translatorId must be a positive integer (a user id).'),
  type: (v: unknown): true | string => (v === '' || (JOB_TYPES as readonly unknown[]).includes(v) ? true : `type must be one of ${JOB_TYPES.join(', ')}.`),
};

export interface AssignResult {
  assigned: number;
  job: JobRow;
  previousTranslatorId: number | null;
  previousStatus: number;
}

/** Whether the user holds the capability through their role and is active. */
export async function userHolds(app: AppServices, userId: number, capability: string): Promise<{ exists: boolean; holds: boolean; name: string }> {
  const user = await app.db.selectFrom('users').select(['id', 'role', 'status', 'display_name']).where('id', '=', userId).executeTakeFirst();
  if (!user) return { exists: false, holds: false, name: '' };
  const holds = user.status === 'active' && isRole(user.role) && ROLE_CAPABILITIES[user.role].has(capability);
  return { exists: true, holds, name: user.display_name };
}

export async function assignJob(app: AppServices, input: AssignInput, viewer: Viewer | null, lang: Lang = 'en'): Promise<AssignResult> {
  for (const [name, check] of Object.entries(ASSIGN_CHECKS)) {
    const value = (input as unknown as Record<string, unknown>)[name];
    if (name === 'type' && (value === undefined || value === null)) continue;
    if (value === undefined || value === null) {
      throw new RestError('rest_missing_callback_param', `Missing parameter(s): ${name}`, 400, { params: [name] });
    }
    const verdict = check(value);
    if (verdict !== true) throw invalidParam(name, verdict);
  }
  const jobId = parsePositiveInt(input.jobId)!;
  const translatorId = parsePositiveInt(input.translatorId)!;
  const type = (input.type ? scalarText(input.type) : DEFAULT_JOB_TYPE) as JobType;
  const de = lang === 'de';

  const job = await findJob(app, jobId);
  if (!job || job.type !== type) {
    throw new RestError(
      'i18n_job_not_found',
      de ? `Es gibt keinen Übersetzungsauftrag vom Typ „${type}“ mit der ID ${jobId}.` : `There is no translation job of type "${type}" with the ID ${jobId}.`,
      404,
      { jobId, type },
    );
  }
  if (!isManager(viewer)) {
    // A translator may only take a job for themselves: an unassigned job or one already theirs.
    if (translatorId !== viewer!.id) {
      throw new RestError('i18n_tm_assign_forbidden', de ? 'Sie dürfen Aufträge nur sich selbst zuweisen.' : 'You may only assign jobs to yourself.', 403);
    }
    if (job.translator_id !== null && job.translator_id !== viewer!.id) {
      throw new RestError('i18n_tm_assign_forbidden', de ? 'Dieser Auftrag ist einem anderen Übersetzer zugewiesen.' : 'This job is assigned to another translator.', 403);
    }
  }
  const translator = await userHolds(app, translatorId, 'translate');
  if (!translator.exists) {
    throw new RestError('i18n_tm_translator_not_found', de ? `Es gibt keinen Benutzer mit der ID ${translatorId}.` : `There is no user with the ID ${translatorId}.`, 400, { translatorId });
  }
  if (!translator.holds) {
    throw new RestError(
      'i18n_tm_not_a_translator',
      de ? `Der Benutzer ${translatorId} ist kein aktiver Übersetzer (Berechtigung „translate“).` : `User ${translatorId} is not an active translator (capability "translate").`,
      400,
      { translatorId },
    );
  }
  if (job.translation_service !== 'local') {
    throw new RestError(
      'i18n_tm_job_remote',
      de ? 'Der Auftrag liegt bei einem Übersetzungsdienst und kann keinem lokalen Übersetzer zugewiesen werden.' : 'The job is with a translation service and cannot be assigned to a local translator.',
      409,
      { job_status: job.status, translation_service: job.translation_service },
    );
  }
  if (!ASSIGNABLE_STATUSES.includes(job.status)) {
    const name = STATUS_NAMES[job.status]?.[lang] ?? String(job.status);
    throw new RestError(
      'i18n_tm_job_not_assignable',
      de ? `Ein Auftrag im Status „${name}“ (${job.status}) kann nicht zugewiesen werden.` : `A job with status "${name}" (${job.status}) cannot be assigned.`,
      409,
      { job_status: job.status, assignable_statuses: ASSIGNABLE_STATUSES },
    );
  }
  // 1 → 1 and 20/40 keep their status; a job in progress handed to someone else waits again.
  const nextStatus = job.status === STATUS.IN_PROGRESS && job.translator_id !== translatorId ? STATUS.WAITING_FOR_TRANSLATOR : job.status;
  const now = utcNow();
  const updated = await app.db
    .updateTable('tm_jobs')
    .set({ translator_id: translatorId, status: nextStatus, updated_at: now })
    .where('id', '=', job.id)
    .where('status', '=', job.status)
    .returningAll()
    .executeTakeFirst();
  if (!updated) {
    throw new RestError('i18n_tm_job_changed', de ? 'Der Auftrag wurde gleichzeitig geändert; bitte erneut versuchen.' : 'The job was changed concurrently; please retry.', 409);
  }
  return { assigned: translatorId, job: updated, previousTranslatorId: job.translator_id, previousStatus: job.status };
}
