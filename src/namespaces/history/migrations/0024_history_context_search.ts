import type { SiteMigration } from '../../../db/migration.ts';
import { CONTEXT_FTS, createFtsIndex, indexingByMigration } from '../index/fts.ts';
import { createPgIndex, type PgTrigramIndex } from '../index/search.ts';

/**
 * The contexts' JSON text under collation "C", which the conditions tested with ILIKE before
 * reading the values; migration 0028's index of the values alone replaces it.
 */
const PG_CONTEXTS_JSON: PgTrigramIndex = {
  name: 'history_event_contexts_trgm',
  table: 'history_event_contexts',
  column: 'context collate "C"',
  pending: CONTEXT_FTS.pending,
};

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
    else if (fill) await createPgIndex(db, PG_CONTEXTS_JSON, false);
    await db.insertInto('history_counters').values({ name: CONTEXT_FTS.pending, value: pendingBelow }).execute();
  },
};
