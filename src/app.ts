// Opens the site: the database (migrated), the site options, the activity log and the
// process logger, assembled into the services every handler reaches through `req.app`.
import { pino, type Logger } from 'pino';
import type { Config } from './config.ts';
import { openDatabase, type OpenOptions } from './db/index.ts';
import { migrateToLatest } from './db/migrate.ts';
import { SiteOptions } from './site/options.ts';
import type { AppServices } from './site/services.ts';
import type { ActivityLog } from './site/activity.ts';
import { createActivityLog } from './namespaces/history/activity.ts';
import { syncAdminTexts } from './namespaces/i18n/xml-config.ts';

export interface OpenAppOptions extends OpenOptions {
  logger?: Logger;
  /** Apply pending migrations (default true). */
  migrate?: boolean;
}

export async function openApp(config: Config, opts: OpenAppOptions = {}): Promise<AppServices> {
  const handle = openDatabase(config.databaseUrl, opts);
  try {
    if (opts.migrate !== false) await migrateToLatest(handle.db, handle.dialect);
    const options = new SiteOptions(handle.db, handle.pgPool);
    await options.load();
    await options.listen();
    // Background work started by option changes, one after another; close() waits for it.
    let background: Promise<void> = Promise.resolve();
    const app: AppServices = {
      config,
      db: handle.db,
      dialect: handle.dialect,
      dbHandle: handle,
      options,
      activity: undefined as unknown as ActivityLog,
      log: opts.logger ?? pino({ level: process.env.LOG_LEVEL ?? 'info' }),
      async close() {
        await options.close();
        await background;
        await handle.destroy();
      },
    };
    app.activity = createActivityLog(app);
    // Options named as admin texts by the custom XML configuration are translatable strings:
    // keep their source values in the string registry in step with the options.
    options.onChange(() => {
      background = background.then(() => syncAdminTexts(app)).then(
        () => {},
        (err: unknown) => app.log.warn({ err }, 'admin texts not synchronised'),
      );
    });
    return app;
  } catch (err) {
    await handle.destroy();
    throw err;
  }
}
