// `content-site serve`: check the files, open the database, prepare a first start, listen, shut
// down gracefully.
import path from 'node:path';
import { pino, type Logger } from 'pino';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { openApp, type AppServices } from '../app.ts';
import { buildServer } from './http.ts';
import { startContextIndexer } from '../namespaces/history/context-index.ts';
import { exposedFiles, prepareStorage } from './storage.ts';

export interface RunningServer {
  app: AppServices;
  server: FastifyInstance;
  /** The address the server listens on, e.g. http://127.0.0.1:8080. */
  address: string;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Runs once the database is migrated, before listening (first-start seeding). */
  prepare?: (app: AppServices) => Promise<void>;
  /** Install SIGTERM/SIGINT handlers that finish in-flight requests, then exit. */
  handleSignals?: boolean;
}

/**
 * The process log: to stdout and appended to `<dataDir>/logs/server.log`, the file the
 * support routes (sched/v1 support_debug/wp) read and clear.
 */
function serverLogger(config: Config): Logger {
  const file = pino.destination({ dest: path.join(config.dataDir, 'logs', 'server.log'), mkdir: true, append: true, sync: false });
  const level = (process.env.LOG_LEVEL ?? 'info') as pino.Level;
  return pino({ level }, pino.multistream([{ level, stream: process.stdout }, { level, stream: file }]));
}

export async function startServer(config: Config, opts: StartOptions = {}): Promise<RunningServer> {
  prepareStorage(config);
  const app = await openApp(config, { logger: serverLogger(config) });
  const exposed = exposedFiles(config);
  if (exposed.length) {
    app.log.warn({ files: exposed }, 'others than the owner may open the data folder or the database files, which hold password hashes and the site secrets: chmod 700 the folder, 600 the files');
  }
  if (opts.prepare) await opts.prepare(app);
  const server = await buildServer(app);
  const address = await server.listen({ port: config.port, host: config.host });
  const contextIndexer = startContextIndexer(app);
  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= (async () => {
      await server.close(); // stops accepting, waits for in-flight requests
      await contextIndexer.stop();
      await app.close();
    })();
    return stopping;
  };
  if (opts.handleSignals) {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      process.once(signal, () => {
        app.log.info({ signal }, 'shutting down');
        stop().then(
          () => process.exit(0),
          (err) => {
            app.log.error({ err }, 'shutdown failed');
            process.exit(1);
          },
        );
      });
    }
  }
  app.log.info({ address, site: config.siteUrl, database: app.dbHandle.location }, 'content-site listening');
  return { app, server, address, stop };
}
