// Doing translation jobs (the routes beyond the contract's list; DECISIONS.md): one job with
// its fields, and saving its translations in place or from an uploaded XLIFF; completing it
// applies the texts to what the job names (apply-job.ts). Sending to translation is send-jobs.ts.
// Managers (manage_translations) work on every job; translators on the jobs assigned to them.
// Every write is recorded in the activity log here, once it has committed.
import type { AppServices } from '../../site/services.ts';
import { loggerEntry, recordWrite } from '../../site/activity.ts';
import { restError } from '../../rest/define.ts';
import { utcNow } from '../../site/time.ts';
import { applyJob, type AppliedTexts } from './apply-job.ts';
import { findJob, isManager, jobNotFound, toJobObjects, type Caller, type JobObject, type JobRow } from './jobs.ts';
import { i18nTmLogger } from './logger.ts';
import { MSG } from './messages.ts';
import { STATUS } from './model.ts';
import { readXliffTargets } from './xliff-import.ts';

/** Longest text of one field. */
export const MAX_FIELD_TEXT = 65536;

/** Statuses in which a job's translation can be written: waiting, in progress, complete (corrections, updates). */
const WORKABLE: readonly number[] = [STATUS.WAITING_FOR_TRANSLATOR, STATUS.IN_PROGRESS, STATUS.COMPLETE];

/** The job, when the caller may see it: managers every job, translators their own. */
async function jobFor(caller: Caller, jobId: number): Promise<JobRow> {
  const job = await findJob(caller.app, jobId);
  if (!job) throw jobNotFound(jobId, caller.lang);
  if (!isManager(caller.user) && job.translator_id !== caller.user!.id) {
    throw restError(caller, 'i18n_tm_job_forbidden', MSG.jobNotYours, 403);
  }
  return job;
}

// ---------------------------------------------------------------- reading

export interface JobField {
  field_id: string;
  label: string;
  source: string;
  target: string;
  finished: boolean;
}

export interface JobDetail extends JobObject {
  title: string;
  note: string;
  /** Whether the caller may write its translation now. */
  workable: boolean;
  fields: JobField[];
}

export async function getJobDetail(caller: Caller, jobId: number): Promise<JobDetail> {
  const job = await jobFor(caller, jobId);
  const batch =
    job.batch_id === null
      ? undefined
      : await caller.app.db
          .selectFrom('tm_batches')
          .select(['name', 'tp_id'])
          .where('id', '=', job.batch_id)
          .executeTakeFirst();
  const [object] = await toJobObjects(
    caller.app,
    [{ ...job, batch_name: batch?.name ?? null, batch_tp_id: batch?.tp_id ?? null }],
    caller.lang,
  );
  const fields = await fieldsOf(caller.app, job.id);
  return {
    ...object!,
    title: job.title,
    note: job.note ?? '',
    workable: job.translation_service === 'local' && WORKABLE.includes(job.status),
    fields: fields.map((f) => ({
      field_id: f.field_id,
      label: f.label ?? f.field_id,
      source: f.source,
      target: f.target ?? '',
      finished: f.finished === 1,
    })),
  };
}

function fieldsOf(app: AppServices, jobId: number) {
  return app.db
    .selectFrom('tm_job_fields')
    .selectAll()
    .where('job_id', '=', jobId)
    .orderBy('position')
    .orderBy('id')
    .execute();
}

// ---------------------------------------------------------------- writing a translation

export interface SaveResult {
  job: JobDetail;
  /** What a completed job wrote: the language version of its page or post, and strings. */
  applied: AppliedTexts;
}

/**
 * POST jobs/<id>/translations: stores the texts of the named fields; with `complete`, every
 * field needs a text, the job becomes complete and its texts are applied.
 */
export async function saveJobTranslations(
  caller: Caller,
  jobId: number,
  input: { fields: Record<string, unknown>; complete: boolean },
  via: 'editor' | 'xliff' = 'editor',
): Promise<SaveResult> {
  const job = await jobFor(caller, jobId);
  if (job.translation_service !== 'local' || !WORKABLE.includes(job.status)) {
    throw restError(caller, 'i18n_tm_job_not_workable', MSG.jobNotWorkable(job.id, job.status), 409, {
      job_status: job.status,
    });
  }
  const rows = await fieldsOf(caller.app, job.id);
  const byId = new Map(rows.map((r) => [r.field_id, r]));
  // Own properties only: a field named like an Object method is not inherited text.
  const given = (id: string): unknown => (Object.hasOwn(input.fields, id) ? input.fields[id] : undefined);
  for (const [id, value] of Object.entries(input.fields)) {
    if (!byId.has(id)) {
      throw restError(caller, 'i18n_tm_unknown_field', MSG.unknownField(job.id, id), 400, { params: { fields: id } });
    }
    if (typeof value !== 'string' || value.length > MAX_FIELD_TEXT) {
      throw restError(caller, 'rest_invalid_param', MSG.fieldTextInvalid(id, MAX_FIELD_TEXT), 400, {
        params: { fields: id },
      });
    }
  }
  const targets = new Map(rows.map((r) => [r.field_id, (given(r.field_id) as string | undefined) ?? r.target ?? '']));
  if (input.complete) {
    const missing = [...targets].filter(([, v]) => v.trim() === '').map(([id]) => id);
    if (missing.length) {
      throw restError(caller, 'i18n_tm_job_incomplete', MSG.jobIncomplete(missing.join(', ')), 400, {
        fields: missing,
      });
    }
  }
  const now = utcNow();
  const translatorId = job.translator_id ?? (isManager(caller.user) ? null : caller.user!.id);
  await caller.app.db.transaction().execute(async (tx) => {
    for (const r of rows) {
      const value = given(r.field_id);
      if (typeof value !== 'string') continue;
      await tx
        .updateTable('tm_job_fields')
        .set({ target: value === '' ? null : value, finished: value.trim() === '' ? 0 : 1, tm_suggestion: 0 })
        .where('id', '=', r.id)
        .execute();
    }
    await tx
      .updateTable('tm_jobs')
      .set({
        status: input.complete ? STATUS.COMPLETE : STATUS.IN_PROGRESS,
        ...(input.complete ? { needs_update: 0, review_status: null } : {}),
        translator_id: translatorId,
        updated_at: now,
      })
      .where('id', '=', job.id)
      .execute();
  });
  const applied = input.complete ? await applyJob(caller, job, targets) : { content_id: null, string_ids: [] };
  await recordWrite(
    caller.app,
    loggerEntry(i18nTmLogger, input.complete ? 'job_completed' : 'job_translation_saved', {
      job_id: job.id,
      job_type: job.type,
      job_title: job.title,
      source_language: job.source_language,
      target_language: job.target_language,
      via,
      fields: Object.keys(input.fields).join(','),
      content_id: applied.content_id ?? '',
      string_ids: applied.string_ids.join(','),
    }),
    caller,
  );
  return { job: await getJobDetail(caller, job.id), applied };
}

/** POST jobs/<id>/xliff: the targets of an uploaded XLIFF file, checked, then saved and the job completed. */
export async function uploadJobXliff(caller: Caller, jobId: number, content: string): Promise<SaveResult> {
  const job = await jobFor(caller, jobId);
  const ids = (await fieldsOf(caller.app, job.id)).map((f) => f.field_id);
  const targets = readXliffTargets(content, job, ids, caller.lang);
  return saveJobTranslations(caller, job.id, { fields: Object.fromEntries(targets), complete: true }, 'xliff');
}
