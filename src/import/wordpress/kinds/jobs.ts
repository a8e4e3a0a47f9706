// WPML translation jobs into i18n/tm/v1's: `icl_translate_job` (the newest revision of each
// translation, `revision` NULL), joined to `icl_translation_status` (status, translator,
// service, batch, needs update) and `icl_translations` (what is translated, from and into which
// language: the element is the group's original), with the job's fields from `icl_translate`
// (WPML keeps them base64-encoded). Posts point to our ids of the imported pages and posts;
// translators to the imported users. Jobs into languages this site lacks are left out.
import { STORED_STATUS_CODES, STATUS } from '../../../namespaces/i18n-tm/api.ts';
import { isActiveLanguage } from '../../../namespaces/i18n-st/api.ts';
import { mysqlDate, type ImportKind } from '../context.ts';
import { fingerprint } from '../state.ts';

const BATCH = 500;

interface WpJob {
  job_id: number;
  rid: number;
  translator_id: number;
  translated: number;
  title: string | null;
  deadline_date: string | null;
  completed_date: string | null;
  editor: string | null;
  status: number;
  needs_update: number;
  translation_service: string;
  batch_id: number;
  tp_id: number | null;
  ts_status: string | null;
  timestamp: string;
  element_type: string;
  language_code: string;
  source_language_code: string | null;
  original_id: number | null;
}

interface WpField {
  job_id: number;
  field_type: string;
  field_wrap_tag: string;
  field_format: string;
  field_data: string;
  field_data_translated: string;
  field_finished: number;
}

/** A field's text: WPML stores them base64-encoded (`field_format` base64). */
function fieldText(value: string, format: string): string {
  return format === 'base64' ? Buffer.from(value, 'base64').toString('utf8') : value;
}

export const jobsKind: ImportKind = {
  name: 'jobs',
  plugin: {
    name: 'WPML Translation Management',
    tables: ['icl_translate_job', 'icl_translation_status', 'icl_translations', 'icl_translate'],
  },
  async run(ctx, report) {
    const { wp, app, state } = ctx;
    report.available = await wp.count('icl_translate_job', 'revision IS NULL');
    const stage = ctx.progress.stage('jobs', report.available);
    const known = await state.mappings('jobs');
    const users = await state.mappings('users');
    const content = await state.mappings('content');
    let done = 0;
    const select = `SELECT j.job_id, j.rid, j.translator_id, j.translated, j.title, j.deadline_date, j.completed_date, j.editor,
        s.status, s.needs_update, s.translation_service, s.batch_id, s.tp_id, s.ts_status, s.timestamp,
        t.element_type, t.language_code, t.source_language_code,
        (SELECT o.element_id FROM ${wp.table('icl_translations')} o WHERE o.trid = t.trid AND o.source_language_code IS NULL LIMIT 1) AS original_id
      FROM ${wp.table('icl_translate_job')} j
      JOIN ${wp.table('icl_translation_status')} s ON s.rid = j.rid
      JOIN ${wp.table('icl_translations')} t ON t.translation_id = s.translation_id`;
    for await (const jobs of wp.batches<WpJob & Record<string, unknown>>(
      select,
      'j.job_id',
      0,
      BATCH,
      'j.revision IS NULL',
    )) {
      const fields = await wp.db.query<WpField & Record<string, unknown>>(
        `SELECT job_id, field_type, field_wrap_tag, field_format, field_data, field_data_translated, field_finished FROM ${wp.table('icl_translate')} WHERE job_id IN (?) ORDER BY tid`,
        [jobs.map((j) => j.job_id)],
      );
      for (const j of jobs) {
        stage.update(++done);
        const source = String(j.source_language_code ?? '');
        const target = String(j.language_code);
        if (!isActiveLanguage(source) || !isActiveLanguage(target)) {
          report.skip(`job between languages this site does not have (${source || '?'} → ${target})`);
          continue;
        }
        const type = j.element_type.startsWith('post_')
          ? 'post'
          : j.element_type.startsWith('package_')
            ? 'package'
            : 'string';
        const element = type === 'post' ? content.get(String(j.original_id)) : undefined;
        if (type === 'post' && !element) {
          report.skip('job for a page or post that was not imported');
          continue;
        }
        const status = STORED_STATUS_CODES.includes(Number(j.status)) ? Number(j.status) : STATUS.NOT_TRANSLATED;
        const translator = Number(j.translator_id)
          ? Number(users.get(String(j.translator_id))?.targetId ?? 0) || null
          : null;
        const sent = mysqlDate(j.timestamp) ?? '1970-01-01 00:00:00';
        const row = {
          type,
          element_id: element ? Number(element.targetId) : Number(j.original_id ?? 0),
          element_type: String(j.element_type),
          title: String(j.title ?? ''),
          element_url: null,
          source_language: source,
          target_language: target,
          status,
          needs_update: Number(j.needs_update) ? 1 : 0,
          review_status: null,
          translator_id: translator,
          batch_id: null,
          translation_service: String(j.translation_service || 'local'),
          tp_id: j.tp_id === null ? null : Number(j.tp_id),
          ts_status: j.ts_status === null ? null : String(j.ts_status),
          editor: j.editor === 'ate' ? 'ate' : j.editor === 'wp' || j.editor === 'wordpress' ? 'none' : 'classic',
          editor_job_id: null,
          automatic: 0,
          note: null,
          sent_date: sent,
          deadline_date: mysqlDate(j.deadline_date)?.slice(0, 10) ?? null,
          created_at: sent,
          updated_at: mysqlDate(j.completed_date) ?? sent,
        };
        const jobFields = fields
          .filter((f) => Number(f.job_id) === Number(j.job_id))
          .map((f, position) => ({
            position,
            field_id: String(f.field_type),
            label: null,
            source: fieldText(String(f.field_data ?? ''), String(f.field_format)),
            target: f.field_data_translated ? fieldText(String(f.field_data_translated), String(f.field_format)) : null,
            tm_suggestion: 0,
            finished: Number(f.field_finished) ? 1 : 0,
            wrap_tag: f.field_wrap_tag ? String(f.field_wrap_tag) : null,
          }));
        const checksum = fingerprint({ row, jobFields });
        const previous = known.get(String(j.job_id));
        if (!report.tally(previous, checksum) || ctx.dryRun) continue;
        await app.db.transaction().execute(async (tx) => {
          let id = previous ? Number(previous.targetId) : null;
          if (id !== null && (await tx.selectFrom('tm_jobs').select('id').where('id', '=', id).executeTakeFirst())) {
            await tx.updateTable('tm_jobs').set(row).where('id', '=', id).execute();
            await tx.deleteFrom('tm_job_fields').where('job_id', '=', id).execute();
          } else {
            id = (await tx.insertInto('tm_jobs').values(row).returning('id').executeTakeFirstOrThrow()).id;
          }
          const jobId = id;
          if (jobFields.length)
            await tx
              .insertInto('tm_job_fields')
              .values(jobFields.map((f) => ({ ...f, job_id: jobId })))
              .execute();
          await state.map(tx, 'jobs', j.job_id, jobId, checksum);
        });
      }
    }
    stage.finish(
      `${report.imported} new, ${report.updated} updated, ${report.unchanged} unchanged, ${report.skippedTotal} skipped`,
    );
  },
};
