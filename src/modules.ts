// The modules of the site, in order. The one list the hosts read: the REST index lists the
// namespaces in this order (contract §1), the CLI its commands, the first start seeds in it
// (the pages before the sliders that link to them), and the activity log's logger catalogue
// and the migrations are built from it.
import type { SiteMigration } from './db/migration.ts';
import { KERNEL_MIGRATIONS } from './db/migrations/index.ts';
import type { NamespaceDef } from './rest/types.ts';
import type { CliCommand } from './cli/command.ts';
import { LoggerCatalogue } from './site/loggers.ts';
import type { SiteModule } from './site/module.ts';
import { pagesModule } from './pages/module.ts';
import { schedModule } from './namespaces/sched/module.ts';
import { oembedModule } from './namespaces/oembed/module.ts';
import { i18nModule } from './namespaces/i18n/module.ts';
import { i18nStModule } from './namespaces/i18n-st/module.ts';
import { i18nTmModule } from './namespaces/i18n-tm/module.ts';
import { indexOnlyAfterCmsModule, indexOnlyModule, legalxModule } from './namespaces/index-only/module.ts';
import { cmsModule } from './namespaces/cms/module.ts';
import { sliderxModule } from './namespaces/sliderx/module.ts';
import { historyModule } from './namespaces/history/module.ts';
import { webModule } from './web/module.ts';
import { importModule } from './import/wordpress/module.ts';

export const MODULES: readonly SiteModule[] = [
  pagesModule,
  schedModule,
  oembedModule,
  i18nModule,
  i18nStModule,
  i18nTmModule,
  legalxModule,
  sliderxModule,
  historyModule,
  indexOnlyModule,
  cmsModule,
  indexOnlyAfterCmsModule,
  webModule,
  importModule,
];

/** Every REST namespace of the site, in the order of the index. */
export const NAMESPACES: readonly NamespaceDef[] = MODULES.flatMap((m) => m.namespaces ?? []);

/** The CLI commands the modules contribute (after the host's own). */
export const MODULE_COMMANDS: readonly CliCommand[] = MODULES.flatMap((m) => m.commands ?? []);

/** Every logger of the activity log. */
export const LOGGER_CATALOGUE = new LoggerCatalogue(MODULES.flatMap((m) => m.loggers ?? []));

/**
 * Every migration, kernel and modules', in name order: the order they were written in and
 * the order Kysely applies them.
 */
export const MIGRATIONS: readonly SiteMigration[] = [
  ...KERNEL_MIGRATIONS,
  ...MODULES.flatMap((m) => m.migrations ?? []),
].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
