// Translation management (i18n/tm/v1): translation jobs, XLIFF, ATE and AMS.
import type { SiteModule } from '../../site/module.ts';
import { generateCommand } from '../../cli/generate.ts';
import { i18nTmNamespace } from './routes.ts';
import { i18nTmLogger } from './logger.ts';
import { i18nTmMigration } from './migrations/0006_i18n_tm.ts';
import { generateJobs } from './generate-jobs.ts';
import { seedDemo } from './seed.ts';

export const i18nTmModule: SiteModule = {
  name: 'i18n-tm',
  namespaces: [i18nTmNamespace],
  loggers: [i18nTmLogger],
  commands: [
    generateCommand('jobs', 'Add N generated translation jobs spread over the translators (benchmarks).', generateJobs),
  ],
  migrations: [i18nTmMigration],
  seed: seedDemo,
};
