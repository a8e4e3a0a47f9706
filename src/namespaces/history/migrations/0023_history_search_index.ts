import type { SiteMigration } from '../../../db/migration.ts';
import { createSearchIndex } from '../index/search.ts';
import { indexingByMigration, SEARCH_FTS } from '../index/fts.ts';

// `search` and `exclude_search` by the databases' own substring indexes of the search texts
// (src/namespaces/history/index/search.ts): SQLite an FTS5 table with the trigram tokenizer, kept
// by triggers on history_events, so that every writer (appends, batches, bulk sinks, imports)
// keeps it current; PostgreSQL a pg_trgm GIN index on search_text. Events already logged are
// indexed here when they are few; a big log is caught up by the serving process, which answers
// from the rows meanwhile (the counter says which ids are still to do).
export const historySearchIndexMigration: SiteMigration = {
  name: '0023_history_search_index',
  async up(db, dialect) {
    // The events already logged are indexed here only when there are few of them.
    const { fill, pendingBelow } = await indexingByMigration(db);
    await createSearchIndex(db, dialect, fill);
    await db.insertInto('history_counters').values({ name: SEARCH_FTS.pending, value: pendingBelow }).execute();
  },
};
