// Advanced Translation Editor jobs, kept as local records linked to translation jobs
// (conventions: nothing is sent to the vendor's editor service).
import { sql, type Selectable, type Transaction } from 'kysely';
import type { AppServices } from '../../site/services.ts';
import type { Database, TmAteJobsTable } from '../../db/schema.ts';
import { RestError, type Lang } from '../../rest/types.ts';
import { restError } from '../../rest/define.ts';
import { utcNow } from '../../site/time.ts';
import { loggerEntry, recordWrite } from '../../site/activity.ts';
import { findJob, jobNotFound, type Caller, type JobRow } from './jobs.ts';
import { i18nTmLogger } from './logger.ts';
import { MSG } from './messages.ts';
import {
  ATE_STATUS,
  ATE_STATUS_CODES,
  ATE_STATUS_NAMES,
  STATUS,
  languageName,
  parsePositiveInt,
  scalarText,
} from './model.ts';

export type AteJobRow = Selectable<TmAteJobsTable>;

/** Job statuses from which a job may get an (new) editor job. */
const ATE_CREATABLE: readonly number[] = [
  STATUS.WAITING_FOR_TRANSLATOR,
  STATUS.IN_PROGRESS,
  STATUS.IN_BASKET,
  STATUS.ATE_NEEDS_RETRY,
];

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

// PostgreSQL's serial does not advance on explicit ids; keep it ahead of them.
async function syncAteSequence(tx: Transaction<Database>, app: AppServices): Promise<void> {
  if (app.dialect !== 'postgres') return;
  await sql`SELECT setval(pg_get_serial_sequence('tm_ate_jobs', 'ate_job_id'), GREATEST((SELECT COALESCE(MAX(ate_job_id), 0) FROM tm_ate_jobs), 1))`.execute(
    tx,
  );
}

/** Next job status once an editor job exists: retry and basket jobs are now waiting. */
function statusAfterAte(job: JobRow): number {
  return job.status === STATUS.ATE_NEEDS_RETRY || job.status === STATUS.IN_BASKET
    ? STATUS.WAITING_FOR_TRANSLATOR
    : job.status;
}

function assertCreatable(job: JobRow, lang: Lang): void {
  if (job.translation_service !== 'local') {
    throw restError({ lang }, 'i18n_tm_job_remote', MSG.jobNotInEditor(job.id), 409, { job_id: job.id });
  }
  const allowed = ATE_CREATABLE.includes(job.status) || (job.status === STATUS.COMPLETE && job.needs_update === 1);
  if (!allowed) {
    throw restError({ lang }, 'i18n_tm_ate_invalid_job_status', MSG.editorJobNotCreatable(job.id, job.status), 409, {
      job_id: job.id,
      job_status: job.status,
    });
  }
}

// ---------------------------------------------------------------- POST /ate/jobs

export interface AteCreateResult {
  code: number;
  status: string;
  message: string;
  jobs: Record<string, number>;
}

/** Local job ids named by a creation payload: `jobs: [{id|job_id|i18n_job_id}]` or `job_ids`. */
export function jobIdsOfPayload(payload: Record<string, unknown>): number[] | string {
  const ids: number[] = [];
  const add = (v: unknown, where: string): string | null => {
    const n = parsePositiveInt(v);
    if (n === null) return `${where} must be a job id (positive integer).`;
    if (!ids.includes(n)) ids.push(n);
    return null;
  };
  if (payload.jobs !== undefined) {
    const list = Array.isArray(payload.jobs)
      ? payload.jobs
      : isPlainObject(payload.jobs)
        ? Object.values(payload.jobs)
        : null;
    if (!list) return 'jobs must be a list of {i18n_job_id} objects.';
    for (const [i, item] of list.entries()) {
      const id = isPlainObject(item) ? (item.i18n_job_id ?? item.job_id ?? item.id) : item;
      const err = add(id, `jobs[${i}].i18n_job_id`);
      if (err) return err;
    }
  }
  if (payload.job_ids !== undefined) {
    const text = scalarText(payload.job_ids);
    if (!Array.isArray(payload.job_ids) && text === null) return 'job_ids must be a list of job ids.';
    const list = Array.isArray(payload.job_ids)
      ? payload.job_ids
      : text!
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
    for (const [i, id] of list.entries()) {
      const err = add(id, `job_ids[${i}]`);
      if (err) return err;
    }
  }
  if (payload.i18n_job_id !== undefined) {
    const err = add(payload.i18n_job_id, 'i18n_job_id');
    if (err) return err;
  }
  if (!ids.length) return 'Name the jobs to create: jobs (list of {i18n_job_id}), job_ids or i18n_job_id.';
  return ids;
}

export async function createAteJobs(caller: Caller, payload: Record<string, unknown>): Promise<AteCreateResult> {
  const { app, lang } = caller;
  const ids = jobIdsOfPayload(payload);
  if (typeof ids === 'string') {
    throw restError({ lang }, 'i18n_tm_ate_invalid_payload', MSG.editorJobsRequestInvalid(ids), 400, {
      params: { jobs: ids },
    });
  }
  if (ids.length > 500) throw restError({ lang }, 'i18n_tm_ate_invalid_payload', MSG.editorJobsTooMany, 400);
  const now = utcNow();
  const created = await app.db.transaction().execute(async (tx) => {
    const rows = await tx.selectFrom('tm_jobs').selectAll().where('id', 'in', ids).execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const id of ids) {
      const job = byId.get(id);
      if (!job) throw jobNotFound(id, lang);
      assertCreatable(job, lang);
    }
    const out: Record<string, number> = {};
    for (const id of ids) {
      const job = byId.get(id)!;
      const data = {
        source_language: job.source_language,
        target_language: job.target_language,
        title: job.title,
        created_by: 'local',
      };
      const ate = await tx
        .insertInto('tm_ate_jobs')
        .values({
          job_id: id,
          ate_status: ATE_STATUS.CREATED,
          data: JSON.stringify(data),
          created_at: now,
          updated_at: now,
        })
        .returning('ate_job_id')
        .executeTakeFirstOrThrow();
      await tx
        .updateTable('tm_jobs')
        .set({ editor: 'ate', editor_job_id: ate.ate_job_id, status: statusAfterAte(job), updated_at: now })
        .where('id', '=', id)
        .execute();
      out[String(id)] = ate.ate_job_id;
    }
    return out;
  });
  const jobIds = Object.keys(created);
  await recordWrite(
    app,
    loggerEntry(i18nTmLogger, 'ate_jobs_created', {
      count: jobIds.length,
      job_ids: jobIds.join(', '),
      ate_job_ids: Object.values(created).join(','),
    }),
    caller,
  );
  return { code: 200, status: 'OK', message: MSG.editorJobsCreated[lang], jobs: created };
}

// ---------------------------------------------------------------- POST /ate/jobs/store

/** POST ate/jobs/store's validated arguments (args.ts ATE_STORE_ARGS). */
export interface AteStoreInput {
  jobId: number;
  ateJob: AteJobData;
}

/** The editor job named by `ate_job_data` (ateDataOf). */
export interface AteJobData {
  ateJobId: number;
  ateStatus: number | null;
  data: Record<string, unknown>;
}

/**
 * The editor job named by `ate_job_data`: a list whose object items are merged
 * (`[{"ate_job_id": 123, "ate_status": 1}]`), a list starting with the id (`[123]`, also the
 * query form `ate_job_data=123`), or an object (as older clients send).
 */
export function ateDataOf(value: unknown): AteJobData | string {
  // Merged in place, so the cost is linear in the items' keys (a copy per item was quadratic,
  // and runs before the permission check); no prototype, so `__proto__` is a key like any other.
  const data: Record<string, unknown> = Object.create(null);
  if (Array.isArray(value)) {
    if (!value.length) return 'ate_job_data must name the editor job: [{"ate_job_id": <id>}].';
    for (const item of value) {
      if (isPlainObject(item)) Object.assign(data, item);
      else if (data.ate_job_id === undefined) data.ate_job_id = item;
    }
  } else if (isPlainObject(value)) {
    Object.assign(data, value);
  } else {
    return 'ate_job_data must be an array.';
  }
  const ateJobId = parsePositiveInt(data.ate_job_id);
  if (ateJobId === null) return 'ate_job_data.ate_job_id must be a positive integer.';
  let ateStatus: number | null = null;
  if (data.ate_status !== undefined && data.ate_status !== null) {
    const s =
      typeof data.ate_status === 'string' && /^\d+$/.test(data.ate_status) ? Number(data.ate_status) : data.ate_status;
    if (typeof s !== 'number' || !ATE_STATUS_CODES.includes(s))
      return `ate_job_data.ate_status must be one of ${ATE_STATUS_CODES.join(', ')}.`;
    ateStatus = s;
  }
  data.ate_job_id = ateJobId;
  return { ateJobId, ateStatus, data };
}

/** Links the editor job to the local job (created, or merged into the link it has) and records it. */
export async function storeAteJob(
  caller: Caller,
  input: AteStoreInput,
): Promise<{ jobId: number; ateJobId: number; created: boolean }> {
  const { app, lang } = caller;
  const { jobId, ateJob: parsed } = input;
  const now = utcNow();
  const stored = await app.db.transaction().execute(async (tx) => {
    const job = await tx.selectFrom('tm_jobs').selectAll().where('id', '=', jobId).executeTakeFirst();
    if (!job) throw jobNotFound(jobId, lang);
    if (job.translation_service !== 'local') assertCreatable(job, lang);
    const existing = await tx
      .selectFrom('tm_ate_jobs')
      .selectAll()
      .where('ate_job_id', '=', parsed.ateJobId)
      .executeTakeFirst();
    if (existing && existing.job_id !== jobId) {
      throw restError(
        { lang },
        'i18n_tm_ate_job_conflict',
        MSG.editorJobLinked(parsed.ateJobId, existing.job_id),
        409,
        { ate_job_id: parsed.ateJobId, i18n_job_id: existing.job_id },
      );
    }
    if (existing) {
      const merged = { ...(JSON.parse(existing.data) as Record<string, unknown>), ...parsed.data };
      await tx
        .updateTable('tm_ate_jobs')
        .set({ data: JSON.stringify(merged), ate_status: parsed.ateStatus ?? existing.ate_status, updated_at: now })
        .where('ate_job_id', '=', parsed.ateJobId)
        .execute();
    } else {
      await tx
        .insertInto('tm_ate_jobs')
        .values({
          ate_job_id: parsed.ateJobId,
          job_id: jobId,
          ate_status: parsed.ateStatus ?? ATE_STATUS.CREATED,
          data: JSON.stringify(parsed.data),
          created_at: now,
          updated_at: now,
        })
        .execute();
      await syncAteSequence(tx, app);
    }
    await tx
      .updateTable('tm_jobs')
      .set({ editor: 'ate', editor_job_id: parsed.ateJobId, status: statusAfterAte(job), updated_at: now })
      .where('id', '=', jobId)
      .execute();
    return { jobId, ateJobId: parsed.ateJobId, created: !existing };
  });
  await recordWrite(
    app,
    loggerEntry(i18nTmLogger, 'ate_job_stored', {
      job_id: stored.jobId,
      ate_job_id: stored.ateJobId,
      created: stored.created,
    }),
    caller,
  );
  return stored;
}

// ---------------------------------------------------------------- GET /ate/jobs/<id>

export interface AteJobObject {
  ate_job_id: number;
  i18n_job_id: number;
  ate_status: number;
  ate_status_name: string;
  job_status: number;
  needs_update: boolean;
  title: string;
  source_language: string;
  target_language: string;
  languages: { source: string; target: string };
  translator_id: number | '';
  is_current: boolean;
  urls: { editor: string; job: string };
  data: Record<string, unknown>;
  created: string;
  updated: string;
}

/** The unknown editor job's 404; `id` as the caller gave it. */
export function editorJobNotFound(id: number | string, lang: Lang): RestError {
  return restError({ lang }, 'i18n_tm_ate_job_not_found', MSG.editorJobNotFound(id), 404);
}

export async function getAteJob(app: AppServices, ateJobId: number, lang: Lang = 'en'): Promise<AteJobObject> {
  const ate = await app.db.selectFrom('tm_ate_jobs').selectAll().where('ate_job_id', '=', ateJobId).executeTakeFirst();
  if (!ate) throw editorJobNotFound(ateJobId, lang);
  const job = (await findJob(app, ate.job_id))!;
  const site = app.config.siteUrl;
  return {
    ate_job_id: ate.ate_job_id,
    i18n_job_id: ate.job_id,
    ate_status: ate.ate_status,
    ate_status_name: ATE_STATUS_NAMES[ate.ate_status] ?? String(ate.ate_status),
    job_status: job.status,
    needs_update: job.needs_update === 1,
    title: job.title,
    source_language: job.source_language,
    target_language: job.target_language,
    languages: { source: languageName(job.source_language, lang), target: languageName(job.target_language, lang) },
    translator_id: job.translator_id ?? '',
    is_current: job.editor_job_id === ate.ate_job_id,
    urls: {
      editor: `${site}/cms-admin/admin.php?page=i18n-tm/menu/translations-queue.php&ate_job_id=${ate.ate_job_id}`,
      job: `${site}/cms-admin/admin.php?page=i18n-tm/menu/translations-queue.php&job_id=${ate.job_id}`,
    },
    data: JSON.parse(ate.data) as Record<string, unknown>,
    created: ate.created_at,
    updated: ate.updated_at,
  };
}
