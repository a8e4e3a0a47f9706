// Configuration by environment, read once at start-up.
import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  /** Base address of the site, without trailing slash. */
  siteUrl: string;
  databaseUrl: string;
  /** Folder for local files (SQLite database, outbox, debug logs). */
  dataDir: string;
  /** SMTP server for outgoing mail; without it mail goes to `<dataDir>/outbox`. */
  smtpUrl: string | null;
  /** Test-only: lets the oEmbed proxy reach loopback/private addresses. */
  allowPrivateOutbound: boolean;
  /** Limits that keep slow or idle clients from holding the server (milliseconds). */
  timeouts: { headers: number; request: number; keepAlive: number };
}

function positiveMs(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms <= 0) throw new Error(`${name} must be a positive number of milliseconds, got ${value}`);
  return ms;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got ${env.PORT}`);
  const siteUrl = (env.SITE_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  return {
    port,
    host: env.HOST ?? '127.0.0.1',
    siteUrl,
    databaseUrl: env.DATABASE_URL ?? 'sqlite:data/site.db',
    dataDir: path.resolve(env.DATA_DIR ?? 'data'),
    smtpUrl: env.SMTP_URL || null,
    allowPrivateOutbound: env.CONTENT_SITE_ALLOW_PRIVATE_OUTBOUND === '1',
    timeouts: {
      headers: positiveMs(env.HTTP_HEADERS_TIMEOUT_MS, 10_000, 'HTTP_HEADERS_TIMEOUT_MS'),
      request: positiveMs(env.HTTP_REQUEST_TIMEOUT_MS, 30_000, 'HTTP_REQUEST_TIMEOUT_MS'),
      keepAlive: positiveMs(env.HTTP_KEEPALIVE_TIMEOUT_MS, 10_000, 'HTTP_KEEPALIVE_TIMEOUT_MS'),
    },
  };
}
