import { sql } from 'kysely';
import type { SiteMigration } from '../../../db/migration.ts';
import { CONTEXT_FTS, indexingByMigration } from '../index/fts.ts';
import { CONTEXT_VALUES_PENDING, createContextValues, fillAllContextValues } from '../index/context-values.ts';
import { createPgIndex, PG_CONTEXTS } from '../index/search.ts';
import { setCounter } from '../model/counters.ts';

// PostgreSQL: `metadata_search` reads a table of the contexts' values with its own trigram index
// (index/context-values.ts) instead of testing the contexts' JSON. A small log is filled here and
// its index replaced at once; for a big one the serving process fills the table, then builds the
// index concurrently and drops the old one, while reads test the contexts as before. SQLite's
// index of the values (migration 0024) is unchanged.
export const historyContextValuesMigration: SiteMigration = {
  name: '0028_history_context_values',
  async up(db, dialect) {
    if (dialect !== 'postgres') return;
    await createContextValues(db);
    const { fill, pendingBelow } = await indexingByMigration(db);
    if (fill) {
      await fillAllContextValues(db);
      if (await createPgIndex(db, PG_CONTEXTS, false))
        await sql`drop index if exists history_event_contexts_trgm`.execute(db);
    }
    await db.insertInto('history_counters').values({ name: CONTEXT_VALUES_PENDING, value: pendingBelow }).execute();
    // The values' index is built (concurrently) after the table is filled.
    if (!fill) await setCounter(db, CONTEXT_FTS.pending, pendingBelow);
  },
};
