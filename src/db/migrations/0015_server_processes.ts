import type { SiteMigration } from '../migration.ts';

// The server processes running on this database, one row each, refreshed while they run
// (src/server/peers.ts): how a process learns that others share its database, to warn when
// they advertise different addresses or share an SQLite file.
export const serverProcessesMigration: SiteMigration = {
  name: '0015_server_processes',
  async up(db) {
    await db.schema
      .createTable('server_processes')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('host', 'varchar(255)', (c) => c.notNull())
      .addColumn('pid', 'integer', (c) => c.notNull())
      .addColumn('address', 'varchar(300)', (c) => c.notNull())
      .addColumn('site_url', 'varchar(2000)', (c) => c.notNull())
      .addColumn('site_url_configured', 'integer', (c) => c.notNull())
      .addColumn('started_at', 'varchar(19)', (c) => c.notNull())
      .addColumn('seen_at', 'varchar(19)', (c) => c.notNull())
      .execute();
  },
};
