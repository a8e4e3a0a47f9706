import { sql } from 'kysely';
import type { SiteMigration } from '../../../db/migration.ts';
import { createKeepingTriggers, indexingByMigration, SEARCH_FTS, startFtsIndexOver } from '../index/fts.ts';
import { CREATE_HEADS_TABLE } from '../index/search-heads.ts';

// SQLite's search index holds each keyed event's head (template, logger and level) as a token
// of its own (index/search-heads.ts) instead of its text. The index is emptied and filled
// again: at once for a small log; a big one is caught up by the serving process, newest first,
// while searches test the rows as before (the index's pending counter). PostgreSQL's trigram
// index is unchanged.
export const historySearchHeadsMigration: SiteMigration = {
  name: '0029_history_search_heads',
  async up(db, dialect) {
    if (dialect !== 'sqlite') return;
    await sql.raw(CREATE_HEADS_TABLE).execute(db);
    await createKeepingTriggers(db, SEARCH_FTS);
    await startFtsIndexOver(db, SEARCH_FTS, (await indexingByMigration(db)).fill);
  },
};
