import type { SiteMigration } from '../../../db/migration.ts';
import { withIdColumn } from '../../../db/migration.ts';

// Translation management (i18n/tm/v1): batches, jobs, the translatable fields of each job
// (what its XLIFF carries) and the local records of Advanced Translation Editor jobs.
export const i18nTmMigration: SiteMigration = {
  name: '0006_i18n_tm',
  async up(db, dialect) {
    await withIdColumn(db.schema.createTable('tm_batches'), dialect)
      .addColumn('name', 'varchar(250)', (c) => c.notNull())
      .addColumn('tp_id', 'integer')
      .addColumn('created_at', 'varchar(19)', (c) => c.notNull())
      .execute();

    await withIdColumn(db.schema.createTable('tm_jobs'), dialect)
      .addColumn('type', 'varchar(32)', (c) => c.notNull())
      .addColumn('element_id', 'integer', (c) => c.notNull())
      .addColumn('element_type', 'varchar(100)', (c) => c.notNull())
      .addColumn('title', 'varchar(250)', (c) => c.notNull())
      .addColumn('element_url', 'text')
      .addColumn('source_language', 'varchar(10)', (c) => c.notNull())
      .addColumn('target_language', 'varchar(10)', (c) => c.notNull())
      .addColumn('status', 'integer', (c) => c.notNull())
      .addColumn('needs_update', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('review_status', 'varchar(16)')
      .addColumn('translator_id', 'integer')
      .addColumn('batch_id', 'integer', (c) => c.references('tm_batches.id').onDelete('set null'))
      .addColumn('translation_service', 'varchar(32)', (c) => c.notNull().defaultTo('local'))
      .addColumn('tp_id', 'integer')
      .addColumn('ts_status', 'varchar(64)')
      .addColumn('editor', 'varchar(16)', (c) => c.notNull().defaultTo('ate'))
      .addColumn('editor_job_id', 'integer')
      .addColumn('automatic', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('note', 'text')
      .addColumn('sent_date', 'varchar(19)', (c) => c.notNull())
      .addColumn('deadline_date', 'varchar(10)')
      .addColumn('created_at', 'varchar(19)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(19)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('tm_jobs_translator').on('tm_jobs').columns(['translator_id', 'id']).execute();
    await db.schema.createIndex('tm_jobs_status').on('tm_jobs').columns(['status', 'id']).execute();
    await db.schema.createIndex('tm_jobs_sent').on('tm_jobs').column('sent_date').execute();
    await db.schema.createIndex('tm_jobs_deadline').on('tm_jobs').column('deadline_date').execute();
    await db.schema
      .createIndex('tm_jobs_langs')
      .on('tm_jobs')
      .columns(['source_language', 'target_language'])
      .execute();

    await withIdColumn(db.schema.createTable('tm_job_fields'), dialect)
      .addColumn('job_id', 'integer', (c) => c.notNull().references('tm_jobs.id').onDelete('cascade'))
      .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('field_id', 'varchar(191)', (c) => c.notNull())
      .addColumn('label', 'varchar(250)')
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('target', 'text')
      .addColumn('tm_suggestion', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('finished', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('wrap_tag', 'varchar(16)')
      .execute();
    await db.schema.createIndex('tm_job_fields_job').on('tm_job_fields').columns(['job_id', 'position']).execute();

    await withIdColumn(db.schema.createTable('tm_ate_jobs'), dialect, 'ate_job_id')
      .addColumn('job_id', 'integer', (c) => c.notNull().references('tm_jobs.id').onDelete('cascade'))
      .addColumn('ate_status', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('created_at', 'varchar(19)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(19)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('tm_ate_jobs_job').on('tm_ate_jobs').column('job_id').execute();
  },
};
