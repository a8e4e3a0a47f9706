// The WordPress importer: `import wordpress`, its logger and its bookkeeping tables.
import type { SiteModule } from '../../site/module.ts';
import { importCommands } from './command.ts';
import { importerLogger } from './logger.ts';
import { importMigration } from './migrations/0017_import.ts';

export const importModule: SiteModule = {
  name: 'import',
  loggers: [importerLogger],
  commands: importCommands,
  migrations: [importMigration],
};
