import { sql } from 'kysely';
import type { SiteMigration } from '../../../db/migration.ts';
import { createSearchIndex, SEARCH_INDEX_PENDING } from '../index/search.ts';

// `search` and `exclude_search` by the databases' own substring indexes of the search texts
// (src/namespaces/history/index/search.ts): SQLite an FTS5 table with the trigram tokenizer, kept
// by triggers on history_events, so that every writer (appends, batches, bulk sinks, imports)
// keeps it current; PostgreSQL a pg_trgm GIN index on search_text. Events already logged are
// indexed here when they are few; a big log is caught up by the serving process, which answers
// from the rows meanwhile (the counter says which ids are still to do).
export const historySearchIndexMigration: SiteMigration = {
  name: '0023_history_search_index',
  async up(db, dialect) {
    const { rows } = await sql<{ n: number | null }>`select max(id) as n from history_events`.execute(db);
    const newest = Number(rows[0]?.n ?? 0);
    const small = newest < 50_000;
    // Events up to `newest` are indexed here only when there are few of them.
    await createSearchIndex(db, dialect, small);
    await db
      .insertInto('history_counters')
      .values({ name: SEARCH_INDEX_PENDING, value: small ? 0 : newest + 1 })
      .execute();
  },
};
