import { sql } from 'kysely';
import type { SiteMigration } from '../../../db/migration.ts';
import { withIdColumn } from '../../../db/migration.ts';

// The activity log (history/v1): one row per event, its context key/values, and counters.
// Every filter of GET /events is served by an index: the values the reference keeps only in
// the context (acting user id, client IP, sticky flag, message key) are copied into columns.
export const historyMigration: SiteMigration = {
  name: '0003_history',
  async up(db, dialect) {
    await withIdColumn(db.schema.createTable('history_events'), dialect)
      /** UTC `YYYY-MM-DD HH:MM:SS`. */
      .addColumn('date', 'varchar(19)', (c) => c.notNull())
      .addColumn('logger', 'varchar(64)', (c) => c.notNull())
      .addColumn('level', 'varchar(20)', (c) => c.notNull())
      /** The un-interpolated template as written (English source string). */
      .addColumn('message', 'text', (c) => c.notNull())
      .addColumn('message_key', 'varchar(100)')
      .addColumn('occasions_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('initiator', 'varchar(16)', (c) => c.notNull())
      /** Copy of context `_user_id`. */
      .addColumn('user_id', 'integer')
      /** Copy of context `_server_remote_addr` (anonymised, lower case). */
      .addColumn('remote_addr', 'varchar(64)')
      .addColumn('sticky', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('backfilled', 'integer', (c) => c.notNull().defaultTo(0))
      /**
       * Occasions of the whole log, kept up to date on every write: 1 when this row is the
       * newest of a run of consecutive rows (date, id order) with the same occasions id.
       */
      .addColumn('run_head', 'integer', (c) => c.notNull().defaultTo(1))
      /** On run heads: the number of rows in the run. */
      .addColumn('run_size', 'integer', (c) => c.notNull().defaultTo(1))
      /** Lower-cased template, logger, level and placeholder values: what `search` scans. */
      .addColumn('search_text', 'text', (c) => c.notNull())
      /** Unused (metadata_search reads the context rows); kept so databases migrated early keep working. Always ''. */
      .addColumn('meta_text', 'text', (c) => c.notNull())
      .execute();
    const idx = (name: string, ...columns: string[]) =>
      db.schema.createIndex(name).on('history_events').columns(columns).execute();
    await idx('history_events_date', 'date', 'id');
    await idx('history_events_logger', 'logger', 'date', 'id');
    await idx('history_events_level', 'level', 'date', 'id');
    await idx('history_events_initiator', 'initiator', 'date', 'id');
    await idx('history_events_occasions', 'occasions_id', 'date', 'id');
    await idx('history_events_user', 'user_id', 'date', 'id');
    await idx('history_events_addr', 'remote_addr', 'date', 'id');
    await idx('history_events_message_key', 'logger', 'message_key', 'date', 'id');
    // The unfiltered overview pages through run heads only.
    await db.schema
      .createIndex('history_events_run_heads')
      .on('history_events')
      .columns(['date', 'id'])
      .where(sql.ref('run_head'), '=', 1)
      .execute();
    // Few events are sticky: a partial index stays tiny and costs writes nothing.
    await db.schema
      .createIndex('history_events_sticky')
      .on('history_events')
      .columns(['date', 'id'])
      .where(sql.ref('sticky'), '=', 1)
      .execute();

    // Clustered on the event: one B-tree holds an event's context rows side by side.
    let contexts = db.schema
      .createTable('history_contexts')
      .addColumn('event_id', 'integer', (c) => c.notNull())
      /** Position of the key within the event's context (later keys win on read). */
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('key', 'varchar(255)', (c) => c.notNull())
      .addColumn('value', 'text')
      .addPrimaryKeyConstraint('history_contexts_pk', ['event_id', 'seq']);
    if (dialect === 'sqlite') contexts = contexts.modifyEnd(sql`without rowid`);
    await contexts.execute();

    await db.schema
      .createTable('history_counters')
      .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('value', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
  },
};
