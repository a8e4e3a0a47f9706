// Login, sessions and application authorization pages.
import type { SiteModule } from '../site/module.ts';
import { webCommands } from './commands.ts';
import { sessionsMigration } from './migrations/0008_sessions.ts';

export const webModule: SiteModule = {
  name: 'web',
  commands: webCommands,
  migrations: [sessionsMigration],
};
