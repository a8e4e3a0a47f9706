import { sql } from 'kysely';
import type { SiteMigration } from '../../../db/migration.ts';
import { CONTEXT_FTS, createFtsIndex } from '../index/fts.ts';

// `metadata_search` by SQLite's own substring index of the contexts' values
// (src/namespaces/history/index/fts.ts): an FTS5 table with the trigram tokenizer, kept by
// triggers on history_event_contexts. Contexts already logged are indexed here when they are
// few; a big log is caught up by the serving process, which answers from the rows meanwhile.
// PostgreSQL keeps reading the contexts (and the context index's blocks).
export const historyContextSearchMigration: SiteMigration = {
  name: '0024_history_context_search',
  async up(db, dialect) {
    if (dialect !== 'sqlite') return;
    const { rows } = await sql<{ n: number | null }>`select max(id) as n from history_events`.execute(db);
    const newest = Number(rows[0]?.n ?? 0);
    const small = newest < 50_000;
    await createFtsIndex(db, CONTEXT_FTS, small);
    await db
      .insertInto('history_counters')
      .values({ name: CONTEXT_FTS.pending, value: small ? 0 : newest + 1 })
      .execute();
  },
};
