import type { SiteMigration } from '../../../db/migration.ts';

// Translating strings in the console (i18n/st/v1 strings/translations): the `context` filter
// in list order, and a translator's strings (their translation rows) without a scan of the
// translations.
export const i18nStTranslationWorkMigration: SiteMigration = {
  name: '0019_i18n_st_translation_work',
  async up(db) {
    await db.schema
      .createIndex('i18n_st_strings_context')
      .on('i18n_st_strings')
      .columns(['context', 'kind', 'id'])
      .execute();
    await db.schema
      .createIndex('i18n_st_translations_translator')
      .on('i18n_st_translations')
      .columns(['translator_id', 'string_id'])
      .execute();
  },
};
