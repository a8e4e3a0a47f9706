import type { SiteMigration } from '../migration.ts';
import { withIdColumn } from '../migration.ts';

// Site content (pages and posts with their en/de translations), sliders with their slides,
// and the oEmbed proxy cache.
export const contentMigration: SiteMigration = {
  name: '0007_content',
  async up(db, dialect) {
    await withIdColumn(db.schema.createTable('posts'), dialect)
      .addColumn('type', 'varchar(20)', (c) => c.notNull())
      .addColumn('lang', 'varchar(10)', (c) => c.notNull())
      .addColumn('slug', 'varchar(200)', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('excerpt', 'text', (c) => c.notNull())
      .addColumn('status', 'varchar(20)', (c) => c.notNull())
      .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('trid', 'integer')
      .addColumn('menu_order', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('thumbnail_url', 'text')
      .addColumn('thumbnail_width', 'integer')
      .addColumn('thumbnail_height', 'integer')
      .addColumn('created_at', 'varchar(19)', (c) => c.notNull())
      .addColumn('modified_at', 'varchar(19)', (c) => c.notNull())
      .addUniqueConstraint('posts_lang_slug', ['lang', 'slug'])
      .execute();
    await db.schema.createIndex('posts_trid').on('posts').column('trid').execute();

    await withIdColumn(db.schema.createTable('sliders'), dialect)
      .addColumn('alias', 'varchar(100)', (c) => c.notNull().unique())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('settings', 'text', (c) => c.notNull())
      .addColumn('created_at', 'varchar(19)', (c) => c.notNull())
      .addColumn('modified_at', 'varchar(19)', (c) => c.notNull())
      .execute();

    await withIdColumn(db.schema.createTable('slider_slides'), dialect)
      .addColumn('slider_id', 'integer', (c) => c.notNull().references('sliders.id').onDelete('cascade'))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('image', 'text', (c) => c.notNull())
      .addColumn('thumb', 'text', (c) => c.notNull())
      .addColumn('link', 'text', (c) => c.notNull())
      .addColumn('params', 'text', (c) => c.notNull())
      .addColumn('layers', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('slider_slides_slider')
      .on('slider_slides')
      .columns(['slider_id', 'position'])
      .execute();

    await db.schema
      .createTable('oembed_cache')
      .addColumn('cache_key', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'varchar(19)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('oembed_cache_expires').on('oembed_cache').column('expires_at').execute();
  },
};
