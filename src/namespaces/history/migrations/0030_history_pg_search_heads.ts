import type { SiteMigration } from '../../../db/migration.ts';
import { indexingByMigration } from '../index/fts.ts';
import { createPgSearchHeads, SEARCH_REST_PENDING } from '../index/pg-search-heads.ts';
import { createPgIndex, PG_SEARCH_REST } from '../index/search.ts';

// PostgreSQL: the heads of the search texts as rows of their own and a trigram index of what
// follows them (index/pg-search-heads.ts), so that a template's words are found by their
// messages instead of in most of the log. The heads are read here (one pass, about 1 s per
// million events); the index is built here for a small log, and concurrently by the serving
// process for a big one, while searches test the whole texts as before (its pending counter).
// SQLite has its heads since migration 0029.
export const historyPgSearchHeadsMigration: SiteMigration = {
  name: '0030_history_pg_search_heads',
  async up(db, dialect) {
    if (dialect !== 'postgres') return;
    await createPgSearchHeads(db);
    const { fill, pendingBelow } = await indexingByMigration(db);
    // Without pg_trgm there is no index to build: the whole texts are tested, as before.
    const built = fill && (await createPgIndex(db, PG_SEARCH_REST, false));
    await db
      .insertInto('history_counters')
      .values({ name: SEARCH_REST_PENDING, value: built ? 0 : Math.max(pendingBelow, 1) })
      .execute();
  },
};
