// String translation (i18n/st/v1): the string registry, packages and the translation queue.
import type { SiteModule } from '../../site/module.ts';
import { generateCommand } from '../../cli/generate.ts';
import { i18nStNamespace } from './routes.ts';
import { i18nStLogger } from './logger.ts';
import { i18nStMigration } from './migrations/0005_i18n_st.ts';
import { i18nStTranslationWorkMigration } from './migrations/0019_i18n_st_translation_work.ts';
import { generateStrings } from './generate-strings.ts';
import { seedDemo } from './seed.ts';

export const i18nStModule: SiteModule = {
  name: 'i18n-st',
  namespaces: [i18nStNamespace],
  loggers: [i18nStLogger],
  commands: [
    generateCommand('strings', 'Add N generated translatable strings with translations (benchmarks).', generateStrings),
  ],
  migrations: [i18nStMigration, i18nStTranslationWorkMigration],
  seed: seedDemo,
};
