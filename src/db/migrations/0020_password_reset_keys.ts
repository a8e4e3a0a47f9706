import type { SiteMigration } from '../migration.ts';

// One-time keys of the set-password links (`content-site user reset-password`, and the first
// start): at most one per user, a new one replacing the old, as WordPress keeps one
// user_activation_key. Only the key's SHA-256 is stored, so a copy of the table opens nothing.
export const passwordResetKeysMigration: SiteMigration = {
  name: '0020_password_reset_keys',
  async up(db) {
    await db.schema
      .createTable('password_reset_keys')
      .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('key_hash', 'varchar(64)', (c) => c.notNull())
      .addColumn('created_at', 'varchar(19)', (c) => c.notNull())
      .addColumn('expires_at', 'varchar(19)', (c) => c.notNull())
      .execute();
  },
};
