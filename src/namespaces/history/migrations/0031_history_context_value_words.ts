import { sql } from 'kysely';
import type { SiteMigration } from '../../../db/migration.ts';
import { CONTEXT_FTS, indexingByMigration } from '../index/fts.ts';
import { CONTEXT_VALUES_PENDING, fillAllContextValues } from '../index/context-values.ts';
import { defineValueWords } from '../index/value-words.ts';
import { setCounter } from '../model/counters.ts';

// PostgreSQL: the table of the contexts' values holds them as words their trigram index reads
// whole, punctuation included (index/value-words.ts). Every writer calls the function redefined
// here. A small log's table is written again here, its index kept up to date meanwhile; a big
// one's is emptied, filled again by the serving process a slice at a time and then indexed
// concurrently, metadata_search testing the contexts meanwhile (as after migration 0028). Stop
// older processes first: they would read the words as values.
export const historyContextValueWordsMigration: SiteMigration = {
  name: '0031_history_context_value_words',
  async up(db, dialect) {
    if (dialect !== 'postgres') return;
    await defineValueWords(db);
    await sql`truncate history_context_values`.execute(db);
    const { fill, pendingBelow } = await indexingByMigration(db);
    if (fill) {
      await fillAllContextValues(db);
      await setCounter(db, CONTEXT_VALUES_PENDING, 0);
      return;
    }
    await setCounter(db, CONTEXT_VALUES_PENDING, pendingBelow);
    // Built after the table is filled: a GIN index grows slower row by row than built at once.
    await sql`drop index if exists history_context_values_trgm`.execute(db);
    await setCounter(db, CONTEXT_FTS.pending, pendingBelow);
  },
};
