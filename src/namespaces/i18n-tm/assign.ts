// Assigning a translation job to a translator, with the state rules of reference plugins
// §5.1 / §10.
import type { AppServices } from '../../site/services.ts';
import { isRole, roleCan } from '../../auth/roles.ts';
import { findUserById } from '../../auth/user-rows.ts';
import { RestError } from '../../rest/types.ts';
import { utcNow } from '../../site/time.ts';
import { loggerEntry, recordWrite } from '../../site/activity.ts';
import { findJob, isManager, type Caller, type JobRow } from './jobs.ts';
import { i18nTmLogger } from './logger.ts';
import { MSG } from './messages.ts';
import { DEFAULT_JOB_TYPE, STATUS, STATUS_NAMES, type JobType } from './model.ts';

/** Statuses from which a job may be (re)assigned to a local translator. */
export const ASSIGNABLE_STATUSES: readonly number[] = [
  STATUS.WAITING_FOR_TRANSLATOR,
  STATUS.IN_PROGRESS,
  STATUS.IN_BASKET,
  STATUS.ATE_NEEDS_RETRY,
];

/** POST jobs/assign's validated arguments (args.ts ASSIGN_ARGS). */
export interface AssignInput {
  jobId: number;
  /** The job's type; post when not given. */
  type?: JobType;
  translatorId: number;
}

export interface AssignResult {
  assigned: number;
  job: JobRow;
  previousTranslatorId: number | null;
  previousStatus: number;
}

/** Whether the user holds the capability through their role and is active. */
export async function userHolds(
  app: AppServices,
  userId: number,
  capability: string,
): Promise<{ exists: boolean; holds: boolean; name: string; login: string }> {
  const user = await findUserById(app, userId);
  if (!user) return { exists: false, holds: false, name: '', login: '' };
  const holds = user.status === 'active' && isRole(user.role) && roleCan(user.role, capability);
  return { exists: true, holds, name: user.display_name, login: user.login };
}

/** Assigns the job to the translator and records it in the activity log. */
export async function assignJob(caller: Caller, input: AssignInput): Promise<AssignResult> {
  const { app, user: viewer, lang } = caller;
  const { jobId, translatorId } = input;
  const type = input.type ?? DEFAULT_JOB_TYPE;
  const job = await findJob(app, jobId);
  if (!job || job.type !== type) {
    throw new RestError('i18n_job_not_found', MSG.jobOfTypeNotFound(type, jobId)[lang], 404, { jobId, type });
  }
  if (!isManager(viewer)) {
    // A translator may only take a job for themselves: an unassigned job or one already theirs.
    if (translatorId !== viewer!.id) {
      throw new RestError('i18n_tm_assign_forbidden', MSG.assignOnlyYourself[lang], 403);
    }
    if (job.translator_id !== null && job.translator_id !== viewer!.id) {
      throw new RestError('i18n_tm_assign_forbidden', MSG.assignedToAnother[lang], 403);
    }
  }
  const translator = await userHolds(app, translatorId, 'translate');
  if (!translator.exists) {
    throw new RestError('i18n_tm_translator_not_found', MSG.translatorNotFound(translatorId)[lang], 400, {
      translatorId,
    });
  }
  if (!translator.holds) {
    throw new RestError('i18n_tm_not_a_translator', MSG.notATranslator(translatorId)[lang], 400, { translatorId });
  }
  if (job.translation_service !== 'local') {
    throw new RestError('i18n_tm_job_remote', MSG.jobRemote[lang], 409, {
      job_status: job.status,
      translation_service: job.translation_service,
    });
  }
  if (!ASSIGNABLE_STATUSES.includes(job.status)) {
    const name = STATUS_NAMES[job.status]?.[lang] ?? String(job.status);
    throw new RestError('i18n_tm_job_not_assignable', MSG.jobNotAssignable(name, job.status)[lang], 409, {
      job_status: job.status,
      assignable_statuses: ASSIGNABLE_STATUSES,
    });
  }
  // 1 → 1 and 20/40 keep their status; a job in progress handed to someone else waits again.
  const nextStatus =
    job.status === STATUS.IN_PROGRESS && job.translator_id !== translatorId
      ? STATUS.WAITING_FOR_TRANSLATOR
      : job.status;
  const now = utcNow();
  const updated = await app.db
    .updateTable('tm_jobs')
    .set({ translator_id: translatorId, status: nextStatus, updated_at: now })
    .where('id', '=', job.id)
    .where('status', '=', job.status)
    .returningAll()
    .executeTakeFirst();
  if (!updated) {
    throw new RestError('i18n_tm_job_changed', MSG.jobChanged[lang], 409);
  }
  await recordWrite(
    app,
    loggerEntry(i18nTmLogger, 'job_assigned', {
      job_id: updated.id,
      job_type: updated.type,
      job_title: updated.title,
      source_language: updated.source_language,
      target_language: updated.target_language,
      translator_id: translatorId,
      translator_name: translator.name,
      translator_login: translator.login,
      previous_translator_id: job.translator_id ?? '',
      previous_status: job.status,
      new_status: updated.status,
    }),
    caller,
  );
  return { assigned: translatorId, job: updated, previousTranslatorId: job.translator_id, previousStatus: job.status };
}
