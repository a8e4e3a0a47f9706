import { sql } from 'kysely';
import type { SiteMigration } from '../../../db/migration.ts';

// The context index (migration 0013) now also holds each block's search-text trigrams, which
// serve `search`. Blocks indexed before lack them: the index starts over, and the background
// indexer rebuilds it (about 10-20 s per million events while the server is idle, or at once
// with `content-site events index`). Until then the log is read by date, as before the index.
export const historySearchTrigramsMigration: SiteMigration = {
  name: '0014_history_search_trigrams',
  async up(db, dialect) {
    if (dialect === 'postgres') await sql`truncate history_context_terms`.execute(db);
    else await db.deleteFrom('history_context_terms').execute();
    await db.updateTable('history_counters').set({ value: 0 }).where('name', '=', 'context_index_blocks').execute();
  },
};
