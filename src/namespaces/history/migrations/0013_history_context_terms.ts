import { sql } from 'kysely';
import type { SiteMigration } from '../../../db/migration.ts';

// An inverted index of event contexts for context_filters (src/namespaces/history/index/):
// for each block of 4,096 consecutive event ids, one row per (key, value) pair that occurs in
// the block's contexts, holding the events' offsets within the block. Blocks are indexed in
// the background once complete, so writing an event costs nothing more; keyed by block first,
// each block's rows append to the end of the B-tree. Empty at first: the indexer fills it.
export const historyContextTermsMigration: SiteMigration = {
  name: '0013_history_context_terms',
  async up(db, dialect) {
    let table = db.schema
      .createTable('history_context_terms')
      .addColumn('block', 'integer', (c) => c.notNull())
      /** A 53-bit hash of the pair (contextTerm). */
      .addColumn('term', 'bigint', (c) => c.notNull())
      /** The events' offsets within the block, ascending, comma-separated. */
      .addColumn('ids', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('history_context_terms_pk', ['block', 'term']);
    if (dialect === 'sqlite') table = table.modifyEnd(sql`without rowid`);
    await table.execute();
    // How many blocks, from block 0 on, are indexed (COUNTER_INDEXED_BLOCKS).
    await db.insertInto('history_counters').values({ name: 'context_index_blocks', value: 0 }).execute();
  },
};
