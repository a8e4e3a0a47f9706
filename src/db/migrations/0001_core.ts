import type { SiteMigration } from '../migration.ts';
import { withIdColumn } from '../migration.ts';

// Site options, users and application passwords: what the REST core and auth need.
export const coreMigration: SiteMigration = {
  name: '0001_core',
  async up(db, dialect) {
    await db.schema
      .createTable('options')
      .addColumn('name', 'varchar(191)', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(19)', (c) => c.notNull())
      .execute();

    await withIdColumn(db.schema.createTable('users'), dialect)
      .addColumn('login', 'varchar(60)', (c) => c.notNull().unique())
      .addColumn('email', 'varchar(100)', (c) => c.notNull().unique())
      .addColumn('display_name', 'varchar(250)', (c) => c.notNull())
      .addColumn('role', 'varchar(32)', (c) => c.notNull())
      .addColumn('password_hash', 'text')
      .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('active'))
      .addColumn('created_at', 'varchar(19)', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('app_passwords')
      .addColumn('uuid', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('app_id', 'varchar(36)', (c) => c.notNull().defaultTo(''))
      .addColumn('name', 'varchar(250)', (c) => c.notNull())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', 'varchar(19)', (c) => c.notNull())
      .addColumn('last_used', 'varchar(19)')
      .addColumn('last_ip', 'varchar(45)')
      .execute();
    await db.schema.createIndex('app_passwords_user').on('app_passwords').column('user_id').execute();
  },
};
