// The benchmark's bulk generator of translation jobs (the `jobs generate` command): many jobs
// in chunked multi-row inserts, spread over the demo translators (seed.ts), not demo content.
import type { Insertable } from 'kysely';
import type { AppServices } from '../../site/services.ts';
import type { TmJobFieldsTable, TmJobsTable } from '../../db/schema.ts';
import { vacuumAfterBulkLoad } from '../../db/index.ts';
import { utcNow } from '../../site/time.ts';
import { STATUS } from './model.ts';
import { daysAgo, dayFromNow, ensureDemoTranslators } from './seed.ts';

const TITLES = [
  'Partner onboarding',
  'Quarterly report',
  'Product update',
  'Case study',
  'Event recap',
  'Pricing',
  'FAQ',
  'Support hours',
  'Webinar',
  'Newsletter',
];
const GEN_STATUSES = [
  STATUS.WAITING_FOR_TRANSLATOR,
  STATUS.IN_PROGRESS,
  STATUS.COMPLETE,
  STATUS.COMPLETE,
  STATUS.IN_BASKET,
  STATUS.ATE_NEEDS_RETRY,
  STATUS.NOT_TRANSLATED,
];
const GEN_TYPES = ['post', 'post', 'post', 'package', 'st-batch_strings', 'string'] as const;

/**
 * Inserts `count` jobs (two fields each) in chunked multi-row inserts; deterministic for a
 * given count. Jobs are spread over the demo translators, ten batches and the last year.
 * Returns the number of jobs created.
 */
export async function generateJobs(app: AppServices, count: number): Promise<number> {
  if (!Number.isInteger(count) || count < 0) throw new Error(`count must be a non-negative integer, got ${count}`);
  if (count === 0) return 0;
  const translators = await ensureDemoTranslators(app);
  const now = Date.now();
  const stamp = utcNow();
  const site = app.config.siteUrl;
  const batchIds: number[] = [];
  await app.db.transaction().execute(async (tx) => {
    for (let i = 0; i < 10; i++) {
      const b = await tx
        .insertInto('tm_batches')
        .values({ name: `Generated batch ${i + 1}`, tp_id: null, created_at: stamp })
        .returning('id')
        .executeTakeFirstOrThrow();
      batchIds.push(b.id);
    }
  });
  const CHUNK = 500;
  for (let start = 0; start < count; start += CHUNK) {
    const n = Math.min(CHUNK, count - start);
    const rows: Insertable<TmJobsTable>[] = [];
    for (let k = 0; k < n; k++) {
      const i = start + k;
      const type = GEN_TYPES[i % GEN_TYPES.length]!;
      const status = GEN_STATUSES[(i * 7) % GEN_STATUSES.length]!;
      const deDirection = i % 5 === 0;
      const title = `${TITLES[i % TITLES.length]} ${i + 1}`;
      rows.push({
        type,
        element_id: 1000 + i,
        element_type:
          type === 'post'
            ? i % 2
              ? 'post_post'
              : 'post_page'
            : type === 'package'
              ? 'package_gravity_form'
              : 'st-batch_strings',
        title,
        element_url: type === 'post' ? `${site}/en/generated-${i + 1}/` : null,
        source_language: deDirection ? 'de' : 'en',
        target_language: deDirection ? 'en' : 'de',
        status,
        needs_update: status === STATUS.COMPLETE && i % 9 === 0 ? 1 : 0,
        review_status: status === STATUS.COMPLETE ? (i % 11 === 0 ? 'NEEDS_REVIEW' : 'ACCEPTED') : null,
        translator_id: status === STATUS.IN_BASKET ? null : (translators[i % translators.length] ?? null),
        batch_id: batchIds[i % batchIds.length]!,
        translation_service: i % 23 === 0 ? 'lingua-pro' : 'local',
        tp_id: null,
        ts_status: null,
        editor: i % 4 === 0 ? 'classic' : 'ate',
        editor_job_id: null,
        automatic: i % 13 === 0 ? 1 : 0,
        note: null,
        sent_date: daysAgo(i % 365, now),
        deadline_date: i % 3 === 0 ? dayFromNow((i % 60) - 20, now) : null,
        created_at: stamp,
        updated_at: stamp,
      });
    }
    await app.db.transaction().execute(async (tx) => {
      const ids = await tx.insertInto('tm_jobs').values(rows).returning('id').execute();
      const fields: Insertable<TmJobFieldsTable>[] = [];
      ids.forEach(({ id }, k) => {
        const row = rows[k]!;
        const done = row.status === STATUS.COMPLETE;
        fields.push({
          job_id: id,
          position: 0,
          field_id: 'title',
          label: 'Title',
          source: row.title,
          target: done ? `${row.title} (de)` : null,
          tm_suggestion: 0,
          finished: done ? 1 : 0,
          wrap_tag: 'h1',
        });
        fields.push({
          job_id: id,
          position: 1,
          field_id: 'body',
          label: 'Body',
          source: `<p>Generated content for ${row.title}.</p>`,
          target: null,
          tm_suggestion: 0,
          finished: 0,
          wrap_tag: null,
        });
      });
      await tx.insertInto('tm_job_fields').values(fields).execute();
    });
  }
  if (count >= 1000) await vacuumAfterBulkLoad(app.db, app.dialect, ['tm_batches', 'tm_jobs', 'tm_job_fields']);
  return count;
}
