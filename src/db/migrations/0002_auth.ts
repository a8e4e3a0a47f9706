import { sql } from 'kysely';
import type { SiteMigration } from '../migration.ts';

// Logins and e-mail addresses are unique regardless of case, as on the reference's MySQL
// (case-insensitive collation); the application checks first, these indexes close the race.
export const authMigration: SiteMigration = {
  name: '0002_auth',
  async up(db) {
    await db.schema.createIndex('users_login_lower').on('users').unique().expression(sql`lower(login)`).execute();
    await db.schema.createIndex('users_email_lower').on('users').unique().expression(sql`lower(email)`).execute();
  },
};
