import type { SiteMigration } from '../../../db/migration.ts';
import { CONTEXT_FTS, createFtsIndex, indexingByMigration } from '../index/fts.ts';
import { createPgIndex, PG_CONTEXTS } from '../index/search.ts';

// `metadata_search` by the databases' own substring indexes of the contexts: SQLite an FTS5
// table of their values with the trigram tokenizer, kept by triggers on history_event_contexts
// (src/namespaces/history/index/fts.ts); PostgreSQL a pg_trgm GIN index of their JSON text
// (index/search.ts), found by the planner for the ILIKE the conditions test first. Contexts
// already logged are indexed here when they are few; for a big log the serving process catches
// up (SQLite) or builds the index concurrently (PostgreSQL), answering from the rows meanwhile.
export const historyContextSearchMigration: SiteMigration = {
  name: '0024_history_context_search',
  async up(db, dialect) {
    const { fill, pendingBelow } = await indexingByMigration(db);
    if (dialect === 'sqlite') await createFtsIndex(db, CONTEXT_FTS, fill);
    else if (fill) await createPgIndex(db, PG_CONTEXTS, false);
    await db.insertInto('history_counters').values({ name: CONTEXT_FTS.pending, value: pendingBelow }).execute();
  },
};
