// Which strings a translator is assigned, and into which languages (translate.ts checks writes
// with it, translatable.ts limits the list to it): a translation row with their id, a string job,
// or a field `string-<id>` of a strings batch job, each for its language — read from i18n/tm/v1's
// job tables, as it assigns jobs. Managers (manage_translations) are assigned every string.
import type { AppServices } from '../../site/services.ts';
import type { AuthUser } from '../../auth/types.ts';
import { JOB_CANCELLED } from './query.ts';

/** Managers (manage_translations) may translate every string into every language. */
export const isManager = (user: AuthUser | null) => !!user?.can('manage_translations');

/** For each of `stringIds`, the languages `userId` is assigned to translate it into (`batch`: their batchAssignments, when read already). */
export async function assignedLanguages(
  app: AppServices,
  userId: number,
  stringIds: number[],
  batch?: BatchAssignment[],
): Promise<Map<number, Set<string>>> {
  const out = new Map<number, Set<string>>();
  const add = (id: number, language: string) => {
    let set = out.get(id);
    if (!set) out.set(id, (set = new Set()));
    set.add(language);
  };
  if (!stringIds.length) return out;
  const rows = await app.db
    .selectFrom('i18n_st_translations')
    .select(['string_id', 'language'])
    .where('translator_id', '=', userId)
    .where('string_id', 'in', stringIds)
    .execute();
  for (const r of rows) add(r.string_id, r.language);
  const jobs = await app.db
    .selectFrom('tm_jobs')
    .select(['element_id', 'target_language'])
    .where('translator_id', '=', userId)
    .where('type', '=', 'string')
    .where('status', '!=', JOB_CANCELLED)
    .where('element_id', 'in', stringIds)
    .execute();
  for (const j of jobs) add(j.element_id, j.target_language);
  const wanted = new Set(stringIds);
  for (const b of batch ?? (await batchAssignments(app, userId)))
    if (wanted.has(b.stringId)) add(b.stringId, b.language);
  return out;
}

interface BatchAssignment {
  stringId: number;
  language: string;
}

/** The strings of a translator's batch jobs (fields `string-<id>`), with each job's target language. */
export async function batchAssignments(app: AppServices, userId: number): Promise<BatchAssignment[]> {
  const rows = await app.db
    .selectFrom('tm_job_fields as f')
    .innerJoin('tm_jobs as j', 'j.id', 'f.job_id')
    .select(['f.field_id', 'j.target_language'])
    .where('j.translator_id', '=', userId)
    .where('j.type', '=', 'st-batch_strings')
    .where('j.status', '!=', JOB_CANCELLED)
    .execute();
  const out: BatchAssignment[] = [];
  for (const r of rows) {
    const m = /^string-(\d{1,15})$/.exec(r.field_id);
    if (m) out.push({ stringId: Number(m[1]), language: r.target_language });
  }
  return out;
}
