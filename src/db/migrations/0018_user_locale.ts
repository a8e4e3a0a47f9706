import type { SiteMigration } from '../migration.ts';

// A user's own language for the console ('' = none chosen: the browser's language decides),
// as the reference keeps a `locale` user meta.
export const userLocaleMigration: SiteMigration = {
  name: '0018_user_locale',
  async up(db) {
    await db.schema
      .alterTable('users')
      .addColumn('locale', 'varchar(5)', (c) => c.notNull().defaultTo(''))
      .execute();
  },
};
