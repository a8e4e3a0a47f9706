import crypto from 'node:crypto';
import type { SiteMigration } from '../../db/migration.ts';

// Browser sessions of the site's own HTML pages (login, authorize-application, application
// passwords), shared by every process through the database, and the secret key that signs
// their CSRF tokens. The key is made here, once per database, so all processes agree on it.
export const sessionsMigration: SiteMigration = {
  name: '0008_sessions',
  async up(db) {
    await db.schema
      .createTable('web_sessions')
      // SHA-256 (hex) of the cookie value: a copy of the table does not hand out live sessions.
      .addColumn('id_hash', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'varchar(19)', (c) => c.notNull())
      .addColumn('expires_at', 'varchar(19)', (c) => c.notNull())
      .addColumn('ip', 'varchar(45)', (c) => c.notNull())
      .addColumn('user_agent', 'varchar(255)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('web_sessions_user').on('web_sessions').column('user_id').execute();
    await db.schema.createIndex('web_sessions_expires').on('web_sessions').column('expires_at').execute();

    await db.schema
      .createTable('web_keys')
      .addColumn('name', 'varchar(40)', (c) => c.primaryKey())
      .addColumn('value', 'varchar(200)', (c) => c.notNull())
      .execute();
    await db
      .insertInto('web_keys')
      .values({ name: 'csrf', value: crypto.randomBytes(32).toString('base64url') })
      .execute();
  },
};
