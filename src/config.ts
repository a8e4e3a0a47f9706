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
  };
}
