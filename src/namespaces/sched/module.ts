// The scheduling plugin's settings, notices and support routes (sched/v1).
import type { SiteModule } from '../../site/module.ts';
import { schedNamespace } from './routes.ts';
import { schedLogger } from './logger.ts';
import { schedMigration } from './migrations/0004_sched.ts';
import { seedDemo } from './seed.ts';

export const schedModule: SiteModule = {
  name: 'sched',
  namespaces: [schedNamespace],
  loggers: [schedLogger],
  migrations: [schedMigration],
  seed: seedDemo,
};
