// Sending pages, posts and strings to translation (POST jobs/send, beyond the contract's list;
// DECISIONS.md): checks what is sent, then creates a batch with a job per page or post and one
// job for the strings, waiting for their translator. The write is recorded in the activity log
// here, once it has committed.
import { loggerEntry, recordWrite } from '../../site/activity.ts';
import { restError } from '../../rest/define.ts';
import { utcNow } from '../../site/time.ts';
import { getContent, permalink, type ContentItem } from '../../pages/api.ts';
import { userHolds } from './assign.ts';
import { toJobObjects, type Caller, type JobObject } from './jobs.ts';
import { i18nTmLogger } from './logger.ts';
import { MSG } from './messages.ts';
import { STATUS } from './model.ts';

/** Items one request may send to translation. */
export const MAX_SEND_ITEMS = 100;
export const MAX_SEND_STRINGS = 500;

/** Statuses of a job still being worked on: a second one for the same item and language is refused. */
const OPEN: readonly number[] = [
  STATUS.WAITING_FOR_TRANSLATOR,
  STATUS.IN_PROGRESS,
  STATUS.IN_BASKET,
  STATUS.ATE_NEEDS_RETRY,
];

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
    loggerEntry(i18nTmLogger, 'jobs_sent', {
      count: ids.length,
      job_ids: ids.join(','),
      target_language: lang,
      translator_id: input.translatorId ?? '',
      content_ids: items.map((i) => i.id).join(','),
      string_ids: strings.map((s) => s.id).join(','),
    }),
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
