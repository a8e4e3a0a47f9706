// Every migration of the site, in order. Modules append theirs here.
import type { SiteMigration } from '../migration.ts';
import { coreMigration } from './0001_core.ts';
import { authMigration } from './0002_auth.ts';
import { historyMigration } from './0003_history.ts';
import { schedMigration } from './0004_sched.ts';
import { i18nStMigration } from './0005_i18n_st.ts';
import { i18nTmMigration } from './0006_i18n_tm.ts';
import { contentMigration } from './0007_content.ts';
import { sessionsMigration } from './0008_sessions.ts';
import { historyStatsMigration } from './0009_history_stats.ts';
import { historyStatsWritersMigration } from './0010_history_stats_writers.ts';
import { historyEventContextsMigration } from './0011_history_event_contexts.ts';
import { historyAddrCollationMigration } from './0012_history_addr_collation.ts';
import { historyContextTermsMigration } from './0013_history_context_terms.ts';
import { historySearchTrigramsMigration } from './0014_history_search_trigrams.ts';
import { serverProcessesMigration } from './0015_server_processes.ts';
import { authSharedStateMigration } from './0016_auth_shared_state.ts';
import { importMigration } from './0017_import.ts';
import { userLocaleMigration } from './0018_user_locale.ts';
import { passwordResetKeysMigration } from './0019_password_reset_keys.ts';

export const MIGRATIONS: SiteMigration[] = [
  coreMigration,
  authMigration,
  historyMigration,
  schedMigration,
  i18nStMigration,
  i18nTmMigration,
  contentMigration,
  sessionsMigration,
  historyStatsMigration,
  historyStatsWritersMigration,
  historyEventContextsMigration,
  historyAddrCollationMigration,
  historyContextTermsMigration,
  historySearchTrigramsMigration,
  serverProcessesMigration,
  authSharedStateMigration,
  importMigration,
  userLocaleMigration,
  passwordResetKeysMigration,
];
