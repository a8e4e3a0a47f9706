import type { SiteMigration } from '../../../db/migration.ts';
import { createKeepingTriggers, FTS_INDEXES } from '../index/fts.ts';
import { newestEventId } from '../model/counters.ts';

// SQLite's search indexes (src/namespaces/history/index/fts.ts) take new events behind the
// writes, in slices of thousands, instead of in a trigger per row: each gets the counter from
// which ids are new (all events logged so far are indexed or pending already), and its triggers
// keep only the rows written among the indexed ids.
export const historySearchWriteBehindMigration: SiteMigration = {
  name: '0025_history_search_write_behind',
  async up(db, dialect) {
    if (dialect !== 'sqlite') return;
    const newFrom = (await newestEventId(db)) + 1;
    for (const index of FTS_INDEXES) {
      await db.insertInto('history_counters').values({ name: index.tailFrom, value: newFrom }).execute();
      await createKeepingTriggers(db, index);
    }
  },
};
