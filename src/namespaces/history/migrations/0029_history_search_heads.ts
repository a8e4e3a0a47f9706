import { sql } from 'kysely';
import type { SiteMigration } from '../../../db/migration.ts';
import { createKeepingTriggers, fillFtsIndex, indexingByMigration, SEARCH_FTS } from '../index/fts.ts';
import { CREATE_HEADS_TABLE } from '../index/search-heads.ts';
import { newestEventId } from '../model/counters.ts';

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
    await sql.raw(`insert into ${SEARCH_FTS.table} (${SEARCH_FTS.table}) values ('delete-all')`).execute(db);
    const { fill, pendingBelow } = await indexingByMigration(db);
    if (fill) await fillFtsIndex(db, SEARCH_FTS);
    const counters: [string, number][] = [
      [SEARCH_FTS.pending, pendingBelow],
      [SEARCH_FTS.tailFrom, (await newestEventId(db)) + 1],
    ];
    for (const [name, value] of counters)
      await db
        .insertInto('history_counters')
        .values({ name, value })
        .onConflict((oc) => oc.column('name').doUpdateSet({ value }))
        .execute();
  },
};
