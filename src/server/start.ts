// `content-site serve`: check the files, open the database, prepare a first start, listen, shut
// down gracefully.
import path from 'node:path';
import { pino, type Logger } from 'pino';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { openApp } from '../app.ts';
import type { AppServices } from '../site/services.ts';
import type { BackgroundWork } from '../site/module.ts';
import { buildServer } from './http.ts';
import { readableStream, wantsReadable } from './console-log.ts';
import { watchPeers } from './peers.ts';
import { MODULES } from '../modules.ts';
import { startLoginThrottleSweeper } from '../auth/throttle.ts';
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
  /** The process log (default: serverLogger(config)); tests pass their own. */
  logger?: Logger;
}

/**
 * The process log: to stderr (stdout carries the command's own messages) and appended to
 * `<dataDir>/logs/server.log`, the file the support routes (sched/v1 support_debug/wp) read and
 * clear. On the console one readable line per record at a terminal, JSON lines otherwise
 * (LOG_FORMAT decides); the file always gets JSON.
 */
export function serverLogger(config: Config): Logger {
  const file = pino.destination({
    dest: path.join(config.dataDir, 'logs', 'server.log'),
    mkdir: true,
    append: true,
    sync: false,
  });
  const level = config.logLevel ?? 'info';
  const console = wantsReadable(config.logFormat, process.stderr) ? readableStream(process.stderr) : process.stderr;
  return pino(
    { level },
    pino.multistream([
      { level, stream: console },
      { level, stream: file },
    ]),
  );
}

export async function startServer(config: Config, opts: StartOptions = {}): Promise<RunningServer> {
  prepareStorage(config);
  const app = await openApp(config, { logger: opts.logger ?? serverLogger(config) });
  const exposed = exposedFiles(config);
  if (exposed.length) {
    app.log.warn(
      { files: exposed },
      'others than the owner may open the data folder or the database files, which hold password hashes and the site secrets: chmod 700 the folder, 600 the files',
    );
  }
  let server: FastifyInstance | null = null;
  let address: string;
  let background: BackgroundWork[] = [];
  try {
    if (opts.prepare) await opts.prepare(app);
    // Started before the HTTP server is built: a large log's columns (seconds) are read meanwhile.
    background = MODULES.flatMap((m) => (m.background ? [m.background(app)] : []));
    server = await buildServer(app, { warmUps: background.flatMap((w) => (w.warmUp ? [w.warmUp] : [])) });
    address = await server.listen({ port: config.port, host: config.host });
  } catch (err) {
    // Nothing may keep the process alive after a failed start (a port in use, a database gone).
    await server?.close();
    for (const work of background) await work.stop();
    await app.close();
    throw err;
  }
  const listening = server;
  const peers = await watchPeers(app, address);
  const throttleSweeper = startLoginThrottleSweeper(app);
  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= (async () => {
      await listening.close(); // stops accepting, waits for in-flight requests
      await peers.stop();
      for (const work of background) await work.stop();
      await throttleSweeper.stop();
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
  return { app, server: listening, address, stop };
}
