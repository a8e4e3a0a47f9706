// The activity log (history/v1): its routes, the built-in loggers of the original plugin, the
// `events …` commands, its tables, demo events, the background indexers, the log's columns and the
// activity-log store every module writes through.
import type { SiteModule } from '../../site/module.ts';
import { historyNamespace } from './routes.ts';
import { createActivityLog } from './write/append.ts';
import { eventsCommands } from './commands.ts';
import { seedDemo } from './seed.ts';
import { customEntryLogger, simpleLogger } from './loggers/custom-entry.ts';
import { userLogger } from '../../auth/logger.ts';
import { historyLogger } from './loggers/history.ts';
import {
  categoriesLogger,
  commentsLogger,
  mediaLogger,
  menuLogger,
  notesLogger,
  postLogger,
} from './loggers/content.ts';
import {
  availableUpdatesLogger,
  coreFilesLogger,
  coreUpdatesLogger,
  fileEditsLogger,
  pluginLogger,
  themeLogger,
  translationsLogger,
} from './loggers/software.ts';
import {
  exportLogger,
  optionsLogger,
  privacyLogger,
  roleCapabilityLogger,
  siteHealthLogger,
} from './loggers/administration.ts';
import {
  acfLogger,
  beaverBuilderLogger,
  cronControlLogger,
  duplicatePostLogger,
  enableMediaReplaceLogger,
  jetpackLogger,
  limitLoginAttemptsLogger,
  redirectionLogger,
  userSwitchingLogger,
} from './loggers/plugins.ts';
import { historyMigration } from './migrations/0003_history.ts';
import { historyStatsMigration } from './migrations/0009_history_stats.ts';
import { historyStatsWritersMigration } from './migrations/0010_history_stats_writers.ts';
import { historyEventContextsMigration } from './migrations/0011_history_event_contexts.ts';
import { historyAddrCollationMigration } from './migrations/0012_history_addr_collation.ts';
import { historyContextTermsMigration } from './migrations/0013_history_context_terms.ts';
import { historySearchTrigramsMigration } from './migrations/0014_history_search_trigrams.ts';
import { historyStatsRollupsMigration } from './migrations/0022_history_stats_rollups.ts';
import { historySearchIndexMigration } from './migrations/0023_history_search_index.ts';
import { historyContextSearchMigration } from './migrations/0024_history_context_search.ts';
import { historySearchWriteBehindMigration } from './migrations/0025_history_search_write_behind.ts';
import { historyFiltersInOrderMigration } from './migrations/0026_history_filters_in_order.ts';
import { historyContextPairChecksMigration } from './migrations/0027_history_context_pair_checks.ts';
import { historyContextValuesMigration } from './migrations/0028_history_context_values.ts';
import { historySearchHeadsMigration } from './migrations/0029_history_search_heads.ts';
import { historyPgSearchHeadsMigration } from './migrations/0030_history_pg_search_heads.ts';
import { historyContextValueWordsMigration } from './migrations/0031_history_context_value_words.ts';
import { historyFailedLoginLatestMigration } from './migrations/0032_history_failed_login_latest.ts';
import { startContextIndexer } from './index/indexer.ts';
import { startSearchIndexing } from './index/search.ts';
import { startLogColumns } from './columns/sync.ts';

export const historyModule: SiteModule = {
  name: 'history',
  namespaces: [historyNamespace],
  loggers: [
    availableUpdatesLogger,
    categoriesLogger,
    commentsLogger,
    coreFilesLogger,
    coreUpdatesLogger,
    customEntryLogger,
    exportLogger,
    fileEditsLogger,
    mediaLogger,
    menuLogger,
    notesLogger,
    optionsLogger,
    acfLogger,
    beaverBuilderLogger,
    duplicatePostLogger,
    enableMediaReplaceLogger,
    jetpackLogger,
    limitLoginAttemptsLogger,
    pluginLogger,
    redirectionLogger,
    userSwitchingLogger,
    cronControlLogger,
    postLogger,
    privacyLogger,
    roleCapabilityLogger,
    historyLogger,
    simpleLogger,
    siteHealthLogger,
    themeLogger,
    translationsLogger,
    userLogger,
  ],
  commands: eventsCommands,
  migrations: [
    historyMigration,
    historyStatsMigration,
    historyStatsWritersMigration,
    historyEventContextsMigration,
    historyAddrCollationMigration,
    historyContextTermsMigration,
    historySearchTrigramsMigration,
    historyStatsRollupsMigration,
    historySearchIndexMigration,
    historyContextSearchMigration,
    historySearchWriteBehindMigration,
    historyFiltersInOrderMigration,
    historyContextPairChecksMigration,
    historyContextValuesMigration,
    historySearchHeadsMigration,
    historyPgSearchHeadsMigration,
    historyContextValueWordsMigration,
    historyFailedLoginLatestMigration,
  ],
  seed: seedDemo,
  background: (app) => {
    const columns = startLogColumns(app);
    const work = [startContextIndexer(app), startSearchIndexing(app), columns];
    return { stop: async () => void (await Promise.all(work.map((w) => w.stop()))), warmUp: columns.warmUp };
  },
  activityLog: createActivityLog,
};
