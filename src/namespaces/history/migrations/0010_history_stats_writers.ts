import { sql } from 'kysely';
import type { SiteMigration } from '../../../db/migration.ts';

// Inserts into history_events are counted into history_stats_hourly by the writers themselves
// (write/insert.ts hourlyCounts: one upsert per hour, logger and message key of a whole group), no
// longer by the insert trigger of migration 0009. On SQLite that trigger ran once per row and,
// with it, every multi-row INSERT needed a statement journal: together about a quarter of the
// database work of writing an event. Deletions and updates of dates, loggers or keys (rare,
// done by hand or by tests) stay counted by the other triggers of 0009.
export const historyStatsWritersMigration: SiteMigration = {
  name: '0010_history_stats_writers',
  async up(db, dialect) {
    if (dialect === 'sqlite') {
      await sql`drop trigger if exists history_stats_insert`.execute(db);
      return;
    }
    await sql`drop trigger if exists history_stats_insert on history_events`.execute(db);
    await sql`drop function if exists history_stats_added()`.execute(db);
  },
};
