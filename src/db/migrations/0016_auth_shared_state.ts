import { sql } from 'kysely';
import type { SiteMigration } from '../migration.ts';

// State of authentication that every process of the site must share (issue 25):
// - login_throttle: the failed-login limit per client address, one row per address, counted in
//   the database so that the limit holds however many processes or machines serve the site
//   (src/auth/throttle.ts). Times are milliseconds since the epoch. UNLOGGED on PostgreSQL: a
//   login would otherwise wait for two WAL flushes (its attempt counted, then given back); a
//   crash empties the table, which only restarts the counts.
// - auth_counters: `credentials`, bumped in the transaction of every change that must end
//   cached credentials (a user disabled, deleted or given another role, an application password
//   revoked); each process compares it with what it last saw (src/auth/credential-cache.ts).
export const authSharedStateMigration: SiteMigration = {
  name: '0016_auth_shared_state',
  async up(db, dialect) {
    await db.schema
      .createTable('login_throttle')
      .$call((table) => (dialect === 'postgres' ? table.modifyFront(sql`unlogged`) : table))
      .addColumn('ip', 'varchar(45)', (c) => c.primaryKey())
      .addColumn('window_start', 'bigint', (c) => c.notNull())
      // Attempts let through in the window: failures plus checks still running.
      .addColumn('attempts', 'integer', (c) => c.notNull())
      .addColumn('refused', 'integer', (c) => c.notNull())
      // Refused attempts of windows already over, not yet written to the activity log.
      .addColumn('unlogged_refused', 'integer', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('login_throttle_window').on('login_throttle').column('window_start').execute();

    await db.schema
      .createTable('auth_counters')
      .addColumn('name', 'varchar(40)', (c) => c.primaryKey())
      .addColumn('value', 'bigint', (c) => c.notNull())
      .execute();
    await db.insertInto('auth_counters').values({ name: 'credentials', value: 0 }).execute();
  },
};
