// The kernel's migrations (site options, users and passwords, the server processes, the shared
// authentication state). Modules bring their own (SiteModule.migrations); src/modules.ts
// merges them in name order. 0007_content made the tables of pages, sliders and oEmbed at once,
// so it stays here.
import type { SiteMigration } from '../migration.ts';
import { coreMigration } from './0001_core.ts';
import { authMigration } from './0002_auth.ts';
import { contentMigration } from './0007_content.ts';
import { serverProcessesMigration } from './0015_server_processes.ts';
import { authSharedStateMigration } from './0016_auth_shared_state.ts';
import { userLocaleMigration } from './0018_user_locale.ts';
import { passwordResetKeysMigration } from './0020_password_reset_keys.ts';

export const KERNEL_MIGRATIONS: SiteMigration[] = [
  coreMigration,
  authMigration,
  contentMigration,
  serverProcessesMigration,
  authSharedStateMigration,
  userLocaleMigration,
  passwordResetKeysMigration,
];
