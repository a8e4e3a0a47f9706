// The services every handler reaches through `req.app`: configuration, database, site
// options, the activity log and the process logger. Kernel types only: features build on
// them, the host (src/app.ts) assembles them.
import type { Logger } from 'pino';
import type { Kysely } from 'kysely';
import type { Config } from '../config.ts';
import type { DatabaseHandle, DialectName } from '../db/index.ts';
import type { Database } from '../db/schema.ts';
import type { SiteOptions } from './options.ts';
import type { ActivityLog } from './activity.ts';
import type { LoggerCatalogue } from './loggers.ts';

export interface AppServices {
  config: Config;
  db: Kysely<Database>;
  /** Long plain reads, off the event loop and limited in time (DatabaseHandle.readDb). */
  readDb: Kysely<Database>;
  dialect: DialectName;
  dbHandle: DatabaseHandle;
  options: SiteOptions;
  activity: ActivityLog;
  /** Every logger of the activity log (from the module list). */
  loggers: LoggerCatalogue;
  log: Logger;
  close(): Promise<void>;
}
