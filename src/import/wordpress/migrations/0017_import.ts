import type { SiteMigration } from '../../../db/migration.ts';
import { withIdColumn } from '../../../db/migration.ts';

// State of imports from other systems (src/import): each run with its report, which source
// item became which of ours (so that a run repeated or resumed updates instead of duplicating),
// and per kind of data a high-water mark (the last source id brought over, for the activity
// log whose ids are kept as they are).
export const importMigration: SiteMigration = {
  name: '0017_import',
  async up(db, dialect) {
    await withIdColumn(db.schema.createTable('import_runs'), dialect)
      /** What was imported: e.g. `wordpress:http://old.example.com|wp_`. */
      .addColumn('source', 'varchar(300)', (c) => c.notNull())
      .addColumn('started_at', 'varchar(19)', (c) => c.notNull())
      .addColumn('finished_at', 'varchar(19)')
      /** running | done | failed (a run killed while running stays `running`). */
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      /** JSON text of the report (src/import/wordpress/report.ts). */
      .addColumn('report', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('import_map')
      .addColumn('source', 'varchar(300)', (c) => c.notNull())
      .addColumn('kind', 'varchar(32)', (c) => c.notNull())
      .addColumn('source_id', 'varchar(191)', (c) => c.notNull())
      .addColumn('target_id', 'varchar(191)', (c) => c.notNull())
      /** Fingerprint of the source item as last imported: unchanged items are not written again. */
      .addColumn('checksum', 'varchar(200)', (c) => c.notNull())
      .addPrimaryKeyConstraint('import_map_pk', ['source', 'kind', 'source_id'])
      .execute();

    await db.schema
      .createTable('import_marks')
      .addColumn('source', 'varchar(300)', (c) => c.notNull())
      .addColumn('kind', 'varchar(32)', (c) => c.notNull())
      .addColumn('mark', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('import_marks_pk', ['source', 'kind'])
      .execute();
  },
};
