// Doing translation jobs (the routes beyond the contract's list; DECISIONS.md): one job with
// its fields, saving its translations in place or from an uploaded XLIFF, completing it —
// which applies the texts to what the job names (the page or post's language version, the
// strings of the string registry) — and sending pages, posts and strings to translation.
// Managers (manage_translations) work on every job; translators on the jobs assigned to them.
// Every write is recorded in the activity log here, once it has committed.
import type { AppServices } from '../../site/services.ts';
import type { AuthUser } from '../../auth/types.ts';
import type { ActivityOrigin } from '../../site/activity.ts';
import { recordWrite } from '../../site/activity.ts';
import type { Lang } from '../../rest/types.ts';
import { restError } from '../../rest/define.ts';
import { utcNow } from '../../site/time.ts';
import {
  createContent,
  getContent,
  getContentBySlug,
  getTranslations,
  permalink,
  RESERVED_SLUGS,
  updateContent,
  type ContentItem,
} from '../../pages/api.ts';
import { isActiveLanguage, saveStringTranslation } from '../i18n-st/api.ts';
import { userHolds } from './assign.ts';
import { findJob, isManager, jobNotFound, toJobObjects, type JobObject, type JobRow } from './jobs.ts';
import { I18N_TM_LOGGER_SLUG } from './logger.ts';
import { MSG } from './messages.ts';
import { STATUS } from './model.ts';
import { readXliffTargets } from './xliff-import.ts';

/** Who asks, and where from: a RestRequest satisfies it. */
export interface Caller extends ActivityOrigin {
  app: AppServices;
  user: AuthUser | null;
  lang: Lang;
}

/** Longest text of one field. */
export const MAX_FIELD_TEXT = 65536;
/** Items one request may send to translation. */
export const MAX_SEND_ITEMS = 100;
export const MAX_SEND_STRINGS = 500;

/** Statuses in which a job's translation can be written: waiting, in progress, complete (corrections, updates). */
const WORKABLE: readonly number[] = [STATUS.WAITING_FOR_TRANSLATOR, STATUS.IN_PROGRESS, STATUS.COMPLETE];
/** Statuses of a job still being worked on: a second one for the same item and language is refused. */
const OPEN: readonly number[] = [
  STATUS.WAITING_FOR_TRANSLATOR,
  STATUS.IN_PROGRESS,
  STATUS.IN_BASKET,
  STATUS.ATE_NEEDS_RETRY,
];

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
  applied: { content_id: number | null; string_ids: number[] };
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
    {
      logger: I18N_TM_LOGGER_SLUG,
      messageKey: input.complete ? 'job_completed' : 'job_translation_saved',
      context: {
        job_id: job.id,
        job_type: job.type,
        job_title: job.title,
        source_language: job.source_language,
        target_language: job.target_language,
        via,
        fields: Object.keys(input.fields).join(','),
        content_id: applied.content_id ?? '',
        string_ids: applied.string_ids.join(','),
      },
    },
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

// ---------------------------------------------------------------- applying a completed job

const CONTENT_FIELDS = { title: 'title', body: 'content', excerpt: 'excerpt' } as const;

async function applyJob(caller: Caller, job: JobRow, targets: Map<string, string>): Promise<SaveResult['applied']> {
  if (job.type === 'post') return { content_id: await applyToContent(caller, job, targets), string_ids: [] };
  if (job.type === 'st-batch_strings' || job.type === 'string')
    return { content_id: null, string_ids: await applyToStrings(caller, job, targets) };
  return { content_id: null, string_ids: [] };
}

/** The target language version of the job's page or post, updated or created; null when the original is gone. */
async function applyToContent(caller: Caller, job: JobRow, targets: Map<string, string>): Promise<number | null> {
  const app = caller.app;
  const source = await getContent(app, job.element_id);
  const lang = job.target_language;
  if (
    !source ||
    `post_${source.type}` !== job.element_type ||
    source.lang !== job.source_language ||
    (lang !== 'en' && lang !== 'de')
  )
    return null;
  const patch: { title?: string; content?: string; excerpt?: string } = {};
  for (const [field, key] of Object.entries(CONTENT_FIELDS)) {
    const text = targets.get(field);
    if (text !== undefined) patch[key] = text;
  }
  const existing = (await getTranslations(app, source)).find((t) => t.lang === lang);
  if (existing) return (await updateContent(app, existing.id, patch, caller)).id;
  const created = await createContent(
    app,
    {
      type: source.type,
      lang,
      slug: await freeSlug(app, lang, patch.title ?? source.title, source.slug),
      title: patch.title ?? source.title,
      content: patch.content ?? '',
      excerpt: patch.excerpt ?? '',
      status: source.status,
      authorId: source.authorId,
      translationOf: source.id,
      menuOrder: source.menuOrder,
      thumbnail: source.thumbnail,
    },
    caller,
  );
  return created.id;
}

/** A slug made from the translated title that no item of the language uses yet. */
async function freeSlug(app: AppServices, lang: 'en' | 'de', title: string, fallback: string): Promise<string> {
  const base =
    title
      .toLowerCase()
      .replace(/ä/g, 'ae')
      .replace(/ö/g, 'oe')
      .replace(/ü/g, 'ue')
      .replace(/ß/g, 'ss')
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 180)
      .replace(/-+$/, '') || fallback;
  for (let n = 1; ; n++) {
    const slug = n === 1 ? base : `${base}-${n}`;
    if (!RESERVED_SLUGS.has(slug) && !(await getContentBySlug(app, lang, slug))) return slug;
  }
}

/** The strings a completed string job names (fields `string-<id>`, or the job's element), translated. */
async function applyToStrings(caller: Caller, job: JobRow, targets: Map<string, string>): Promise<number[]> {
  const wanted = new Map<number, string>();
  if (job.type === 'string') {
    const first = [...targets.values()][0];
    if (first !== undefined) wanted.set(job.element_id, first);
  } else {
    for (const [field, text] of targets) {
      const m = /^string-(\d{1,9})$/.exec(field);
      if (m) wanted.set(Number(m[1]), text);
    }
  }
  if (!wanted.size || !isActiveLanguage(job.target_language)) return [];
  const existing = await caller.app.db
    .selectFrom('i18n_st_strings')
    .select(['id', 'language'])
    .where('id', 'in', [...wanted.keys()])
    .execute();
  const applied: number[] = [];
  for (const s of existing) {
    if (s.language === job.target_language) continue;
    await saveStringTranslation(caller.app, s.id, job.target_language, {
      value: wanted.get(s.id)!,
      status: STATUS.COMPLETE,
      jobId: job.id,
      translatorId: job.translator_id ?? (isManager(caller.user) ? null : caller.user!.id),
      method: 'local-translator',
      editor: 'classic',
    });
    applied.push(s.id);
  }
  return applied.sort((a, b) => a - b);
}

// ---------------------------------------------------------------- sending to translation

export interface SendInput {
  contentIds: number[];
  stringIds: number[];
  targetLanguage: string;
  translatorId?: number;
  deadline?: string;
  batchName?: string;
}

/**
 * POST jobs/send: a job per page or post (fields title, body, excerpt) and one job for the
 * strings, into `targetLanguage`, waiting for the translator (or for anyone) in a new batch.
 */
export async function sendToTranslation(caller: Caller, input: SendInput): Promise<{ jobs: JobObject[] }> {
  const app = caller.app;
  const lang = input.targetLanguage;
  if (!input.contentIds.length && !input.stringIds.length) {
    throw restError(caller, 'i18n_tm_nothing_to_send', MSG.nothingToSend, 400);
  }
  if (input.translatorId !== undefined) {
    const who = await userHolds(app, input.translatorId, 'translate');
    if (!who.holds) {
      throw restError(caller, 'i18n_tm_not_a_translator', MSG.notATranslator(input.translatorId), 400, {
        translator_id: input.translatorId,
      });
    }
  }
  const items: ContentItem[] = [];
  for (const id of new Set(input.contentIds)) {
    const item = await getContent(app, id);
    if (!item) throw restError(caller, 'content_not_found', MSG.contentNotFound(id), 404, { content_id: id });
    if (item.lang === lang) {
      throw restError(caller, 'i18n_tm_same_language', MSG.contentInLanguage(id, lang), 400, { content_id: id });
    }
    items.push(item);
  }
  const strings = input.stringIds.length
    ? await app.db
        .selectFrom('i18n_st_strings')
        .select(['id', 'name', 'value', 'language'])
        .where('id', 'in', [...new Set(input.stringIds)])
        .orderBy('id')
        .execute()
    : [];
  const missingString = input.stringIds.find((id) => !strings.some((s) => s.id === id));
  if (missingString !== undefined) {
    throw restError(caller, 'i18n_st_string_not_found', MSG.stringNotFound(missingString), 404);
  }
  const sameLanguage = strings.find((s) => s.language === lang);
  if (sameLanguage) {
    throw restError(caller, 'i18n_tm_same_language', MSG.stringInLanguage(sameLanguage.id, lang), 400);
  }
  const stringSource = strings[0]?.language;
  if (strings.some((s) => s.language !== stringSource)) {
    throw restError(caller, 'i18n_tm_mixed_languages', MSG.stringsMixLanguages, 400);
  }
  if (items.length) {
    const open = await app.db
      .selectFrom('tm_jobs')
      .select(['id', 'element_id'])
      .where('type', '=', 'post')
      .where(
        'element_id',
        'in',
        items.map((i) => i.id),
      )
      .where('target_language', '=', lang)
      .where('status', 'in', OPEN)
      .executeTakeFirst();
    if (open) {
      throw restError(caller, 'i18n_tm_job_exists', MSG.openJobExists(open.element_id, open.id, lang), 409, {
        job_id: open.id,
      });
    }
  }
  const now = utcNow();
  const urls = await Promise.all(items.map((i) => permalink(app, i)));
  const base = {
    target_language: lang,
    status: STATUS.WAITING_FOR_TRANSLATOR,
    needs_update: 0,
    review_status: null,
    translator_id: input.translatorId ?? null,
    translation_service: 'local',
    tp_id: null,
    ts_status: null,
    editor: 'classic',
    editor_job_id: null,
    automatic: 0,
    note: null,
    sent_date: now,
    deadline_date: input.deadline ?? null,
    created_at: now,
    updated_at: now,
  };
  const ids = await app.db.transaction().execute(async (tx) => {
    const batch = await tx
      .insertInto('tm_batches')
      .values({ name: input.batchName || `Sent ${now}`, tp_id: null, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const out: number[] = [];
    for (const [k, item] of items.entries()) {
      const job = await tx
        .insertInto('tm_jobs')
        .values({
          ...base,
          type: 'post',
          element_id: item.id,
          element_type: `post_${item.type}`,
          title: item.title.slice(0, 250),
          element_url: urls[k]!,
          source_language: item.lang,
          batch_id: batch.id,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const fields = [
        { field_id: 'title', label: 'Title', source: item.title, wrap_tag: 'h1' },
        { field_id: 'body', label: 'Body', source: item.content, wrap_tag: null },
        { field_id: 'excerpt', label: 'Excerpt', source: item.excerpt, wrap_tag: null },
      ].filter((f) => f.source !== '');
      await tx
        .insertInto('tm_job_fields')
        .values(
          fields.map((f, position) => ({
            ...f,
            job_id: job.id,
            position,
            target: null,
            tm_suggestion: 0,
            finished: 0,
          })),
        )
        .execute();
      out.push(job.id);
    }
    if (strings.length) {
      const job = await tx
        .insertInto('tm_jobs')
        .values({
          ...base,
          type: 'st-batch_strings',
          element_id: batch.id,
          element_type: 'st-batch_strings',
          element_url: null,
          title: `Strings: ${strings.map((s) => s.name).join(', ')}`.slice(0, 250),
          source_language: stringSource!,
          batch_id: batch.id,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await tx
        .insertInto('tm_job_fields')
        .values(
          strings.map((s, position) => ({
            job_id: job.id,
            position,
            field_id: `string-${s.id}`,
            label: s.name.slice(0, 250),
            source: s.value,
            target: null,
            tm_suggestion: 0,
            finished: 0,
            wrap_tag: null,
          })),
        )
        .execute();
      out.push(job.id);
    }
    return out;
  });
  await recordWrite(
    app,
    {
      logger: I18N_TM_LOGGER_SLUG,
      messageKey: 'jobs_sent',
      context: {
        count: ids.length,
        job_ids: ids.join(','),
        target_language: lang,
        translator_id: input.translatorId ?? '',
        content_ids: items.map((i) => i.id).join(','),
        string_ids: strings.map((s) => s.id).join(','),
      },
    },
    caller,
  );
  const rows = await app.db
    .selectFrom('tm_jobs as j')
    .leftJoin('tm_batches as b', 'b.id', 'j.batch_id')
    .selectAll('j')
    .select(['b.name as batch_name', 'b.tp_id as batch_tp_id'])
    .where('j.id', 'in', ids)
    .orderBy('j.id')
    .execute();
  return { jobs: await toJobObjects(app, rows, caller.lang) };
}
