import type { SiteMigration } from '../../../db/migration.ts';
import { withIdColumn } from '../../../db/migration.ts';

// sched/v1: settings sections, notice state (dismissals, pins), support tickets and export backups.
export const schedMigration: SiteMigration = {
  name: '0004_sched',
  async up(db, dialect) {
    // One row per settings section (JSON of the stored fields); `__meta` holds module metadata.
    await db.schema
      .createTable('sched_settings')
      .addColumn('section', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(19)', (c) => c.notNull())
      .execute();

    // Dismissed and pinned notices. user_id 0 = site-wide.
    await withIdColumn(db.schema.createTable('sched_notice_state'), dialect)
      .addColumn('notice_id', 'varchar(100)', (c) => c.notNull())
      .addColumn('user_id', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('kind', 'varchar(16)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(19)', (c) => c.notNull())
      .addUniqueConstraint('sched_notice_state_unique', ['notice_id', 'user_id', 'kind'])
      .execute();

    await withIdColumn(db.schema.createTable('sched_tickets'), dialect)
      .addColumn('user_id', 'integer')
      .addColumn('name', 'varchar(250)', (c) => c.notNull())
      .addColumn('email', 'varchar(254)', (c) => c.notNull())
      .addColumn('subject', 'varchar(250)', (c) => c.notNull())
      .addColumn('message', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('stored'))
      .addColumn('created_at', 'varchar(19)', (c) => c.notNull())
      .execute();

    await withIdColumn(db.schema.createTable('sched_backups'), dialect)
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('created_at', 'varchar(19)', (c) => c.notNull())
      .execute();
  },
};
