import { sql } from 'kysely';
import type { SiteMigration } from '../../../db/migration.ts';

// Each pair row of the context index (migration 0013) gains its pair's check: a second hash
// (index/terms.ts pairCheck), null where two pairs of a block share the term and for trigram
// rows. With it the events listed under a pair are the pair's own, so that the log's columns can
// count context_filters from the index alone (columns/total.ts). Blocks indexed before lack the
// checks: the index starts over, as in migration 0014, and the background indexer rebuilds it.
export const historyContextPairChecksMigration: SiteMigration = {
  name: '0027_history_context_pair_checks',
  async up(db, dialect) {
    if (dialect === 'postgres') await sql`truncate history_context_terms`.execute(db);
    else await db.deleteFrom('history_context_terms').execute();
    await db.updateTable('history_counters').set({ value: 0 }).where('name', '=', 'context_index_blocks').execute();
    await db.schema.alterTable('history_context_terms').addColumn('pair_check', 'bigint').execute();
  },
};
