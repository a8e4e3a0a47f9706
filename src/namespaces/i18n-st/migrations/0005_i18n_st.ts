import { sql } from 'kysely';
import type { SiteMigration } from '../../../db/migration.ts';
import { withIdColumn } from '../../../db/migration.ts';

// Translation configuration (i18n/v1) and the string registry (i18n/st/v1): strings, their
// per-language translations, string packages, the run-time capture queue, and a small
// key/value table (custom XML configuration, string settings, the queue lock).
// Every filter of GET /strings is served by an index; the default order (autoregistered
// first, newest first) and the title order are index scans.
export const i18nStMigration: SiteMigration = {
  name: '0005_i18n_st',
  async up(db, dialect) {
    await db.schema
      .createTable('i18n_kv')
      .addColumn('name', 'varchar(191)', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(19)', (c) => c.notNull())
      .execute();

    await withIdColumn(db.schema.createTable('i18n_st_packages'), dialect)
      .addColumn('kind_slug', 'varchar(100)', (c) => c.notNull())
      .addColumn('name', 'varchar(191)', (c) => c.notNull())
      .addColumn('title', 'varchar(255)', (c) => c.notNull())
      .addColumn('language', 'varchar(10)', (c) => c.notNull())
      .addColumn('translator_note', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('word_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('view_link', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('edit_link', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', 'varchar(19)', (c) => c.notNull())
      .addColumn('last_edit', 'varchar(19)', (c) => c.notNull())
      .addUniqueConstraint('i18n_st_packages_kind_name', ['kind_slug', 'name'])
      .execute();
    await db.schema.createIndex('i18n_st_packages_title').on('i18n_st_packages').columns(['title', 'id']).execute();
    await db.schema.createIndex('i18n_st_packages_lang').on('i18n_st_packages').columns(['language', 'id']).execute();

    await withIdColumn(db.schema.createTable('i18n_st_strings'), dialect)
      /** sha256 of domain, context and name: the identity of a string. */
      .addColumn('key_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('language', 'varchar(10)', (c) => c.notNull())
      .addColumn('domain', 'varchar(191)', (c) => c.notNull())
      /** gettext context; '' when none (shown as null). */
      .addColumn('context', 'varchar(191)', (c) => c.notNull().defaultTo(''))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      /** Lower-cased start of the value: the title sort key. */
      .addColumn('sort_key', 'varchar(100)', (c) => c.notNull())
      .addColumn('kind', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('type', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('source', 'integer', (c) => c.notNull().defaultTo(0))
      /** JSON list of places the string was seen. */
      .addColumn('sources', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('translation_priority', 'varchar(100)', (c) => c.notNull().defaultTo('optional'))
      .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('word_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('package_id', 'integer', (c) => c.references('i18n_st_packages.id').onDelete('set null'))
      .addColumn('created_at', 'varchar(19)', (c) => c.notNull())
      .addColumn('updated_at', 'varchar(19)', (c) => c.notNull())
      .execute();
    const sIdx = (name: string, ...columns: string[]) =>
      db.schema.createIndex(name).on('i18n_st_strings').columns(columns).execute();
    // The list is ordered by kind DESC first (autoregistered strings on top), then by id or
    // title in either direction: one index per direction mix, so every order is an index scan.
    await sIdx('i18n_st_strings_kind', 'kind', 'id');
    await db.schema
      .createIndex('i18n_st_strings_kind_id_asc')
      .on('i18n_st_strings')
      .expression(sql`kind desc, id asc`)
      .execute();
    await sIdx('i18n_st_strings_title', 'kind', 'sort_key', 'id');
    await db.schema
      .createIndex('i18n_st_strings_title_asc')
      .on('i18n_st_strings')
      .expression(sql`kind desc, sort_key asc, id asc`)
      .execute();
    await sIdx('i18n_st_strings_domain', 'domain', 'kind', 'id');
    await sIdx('i18n_st_strings_priority', 'translation_priority', 'kind', 'id');
    await sIdx('i18n_st_strings_language', 'language', 'kind', 'id');
    await sIdx('i18n_st_strings_type', 'type', 'kind', 'id');
    await sIdx('i18n_st_strings_source', 'source', 'kind', 'id');
    await sIdx('i18n_st_strings_package', 'package_id');
    if (dialect === 'postgres') await tryTrigramIndex(db);

    await withIdColumn(db.schema.createTable('i18n_st_translations'), dialect)
      .addColumn('string_id', 'integer', (c) => c.notNull().references('i18n_st_strings.id').onDelete('cascade'))
      .addColumn('language', 'varchar(10)', (c) => c.notNull())
      .addColumn('value', 'text')
      .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('review_status', 'varchar(20)')
      .addColumn('job_id', 'integer')
      .addColumn('method', 'varchar(30)')
      .addColumn('editor', 'varchar(20)')
      .addColumn('translator_id', 'integer')
      .addColumn('ate_job_id', 'integer')
      .addColumn('updated_at', 'varchar(19)', (c) => c.notNull())
      .addUniqueConstraint('i18n_st_translations_string_lang', ['string_id', 'language'])
      .execute();
    await db.schema
      .createIndex('i18n_st_translations_status')
      .on('i18n_st_translations')
      .columns(['language', 'status', 'string_id'])
      .execute();

    await withIdColumn(db.schema.createTable('i18n_st_package_translations'), dialect)
      .addColumn('package_id', 'integer', (c) => c.notNull().references('i18n_st_packages.id').onDelete('cascade'))
      .addColumn('language', 'varchar(10)', (c) => c.notNull())
      .addColumn('status', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('review_status', 'varchar(20)')
      .addColumn('job_id', 'integer')
      .addColumn('method', 'varchar(30)')
      .addColumn('editor', 'varchar(20)')
      .addColumn('translator_id', 'integer')
      .addColumn('ate_job_id', 'integer')
      .addColumn('updated_at', 'varchar(19)', (c) => c.notNull())
      .addUniqueConstraint('i18n_st_package_translations_pkg_lang', ['package_id', 'language'])
      .execute();
    await db.schema
      .createIndex('i18n_st_package_translations_status')
      .on('i18n_st_package_translations')
      .columns(['language', 'status', 'package_id'])
      .execute();

    await withIdColumn(db.schema.createTable('i18n_st_queue'), dialect)
      .addColumn('language', 'varchar(10)', (c) => c.notNull())
      .addColumn('domain', 'text', (c) => c.notNull())
      .addColumn('context', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('type', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('source', 'integer', (c) => c.notNull().defaultTo(0))
      /** Where the string was seen (URL or admin screen). */
      .addColumn('page', 'varchar(255)', (c) => c.notNull().defaultTo(''))
      /** 1 once processing found the entry unusable; kept for inspection, no longer pending. */
      .addColumn('quarantined', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'varchar(19)', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('i18n_st_queue_pending').on('i18n_st_queue').columns(['quarantined', 'id']).execute();
  },
};

/**
 * PostgreSQL: the `title` filter is a substring search (ILIKE '%…%'); a trigram index serves it
 * when the pg_trgm extension is available to this database user. Without it the search scans.
 * Runs under a savepoint so a refusal (no extension, no privilege) leaves the migration intact.
 */
async function tryTrigramIndex(db: Parameters<SiteMigration['up']>[0]): Promise<void> {
  let savepoint = true;
  try {
    await sql`savepoint i18n_st_trgm`.execute(db);
  } catch {
    savepoint = false; // not inside a transaction: each statement stands alone
  }
  try {
    await sql`create extension if not exists pg_trgm with schema public`.execute(db);
    const row = await sql<{ nspname: string }>`
      select n.nspname from pg_opclass c join pg_namespace n on n.oid = c.opcnamespace where c.opcname = 'gin_trgm_ops' limit 1`.execute(
      db,
    );
    const schema = row.rows[0]?.nspname;
    if (!schema) throw new Error('pg_trgm operator class not found');
    await sql`create index i18n_st_strings_value_trgm on i18n_st_strings using gin (value ${sql.id(schema, 'gin_trgm_ops')})`.execute(
      db,
    );
    if (savepoint) await sql`release savepoint i18n_st_trgm`.execute(db);
  } catch {
    if (savepoint) await sql`rollback to savepoint i18n_st_trgm`.execute(db);
  }
}
