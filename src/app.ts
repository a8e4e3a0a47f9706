// Opens the site: the database (migrated), the site options, the activity log and the
// process logger, assembled into the services every handler reaches through `req.app`.
import { pino, type Logger } from 'pino';
import type { Config } from './config.ts';
import { openDatabase, type OpenOptions } from './db/index.ts';
import { migrateToLatest } from './db/migrate.ts';
import { SiteOptions } from './site/options.ts';
import type { AppServices } from './site/services.ts';
import type { ActivityLog } from './site/activity.ts';
import { LOGGER_CATALOGUE, MIGRATIONS, MODULES } from './modules.ts';

export interface OpenAppOptions extends OpenOptions {
  logger?: Logger;
  /** Apply pending migrations (default true). */
  migrate?: boolean;
}

export async function openApp(config: Config, opts: OpenAppOptions = {}): Promise<AppServices> {
  const handle = openDatabase(config.databaseUrl, { reads: config.reads, ...opts });
  try {
    if (opts.migrate !== false) await migrateToLatest(handle.db, handle.dialect, MIGRATIONS);
    const options = new SiteOptions(handle.db, handle.pgPool);
    await options.load();
    await options.listen();
    // Background work started by option changes, one after another; close() waits for it.
    let background: Promise<void> = Promise.resolve();
    const app: AppServices = {
      config,
      db: handle.db,
      readDb: handle.readDb,
      dialect: handle.dialect,
      dbHandle: handle,
      options,
      activity: undefined as unknown as ActivityLog,
      loggers: LOGGER_CATALOGUE,
      log: opts.logger ?? pino({ level: config.logLevel ?? 'info' }),
      async close() {
        await options.close();
        await background;
        await handle.destroy();
      },
    };
    app.activity = activityLogOf(app);
    for (const { name, onOptionsChange } of MODULES) {
      if (!onOptionsChange) continue;
      options.onChange(() => {
        background = background
          .then(() => onOptionsChange(app))
          .then(
            () => {},
            (err: unknown) =>
              app.log.warn({ err, module: name }, 'a module did not follow a change of the site options'),
          );
      });
    }
    return app;
  } catch (err) {
    await handle.destroy();
    throw err;
  }
}

/** The activity log's store, from the one module that provides it. */
function activityLogOf(app: AppServices): ActivityLog {
  const providers = MODULES.filter((m) => m.activityLog);
  if (providers.length !== 1) throw new Error(`one module provides the activity log, not ${providers.length}`);
  return providers[0]!.activityLog!(app);
}
