import type { SiteMigration } from '../../db/migration.ts';

// Pages have a parent page (cms/v2's `parent`, the reference's post_parent); null at the top.
export const contentParentMigration: SiteMigration = {
  name: '0021_content_parent',
  async up(db) {
    await db.schema.alterTable('posts').addColumn('parent_id', 'integer').execute();
    await db.schema.createIndex('posts_parent').on('posts').column('parent_id').execute();
  },
};
