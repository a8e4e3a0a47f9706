// Configuration by environment, read once at start-up. Every value is checked here, so that a
// mistake is one line naming the variable and what it takes (ConfigError), never a stack trace
// from deep inside the server.
import path from 'node:path';
import ipaddr from 'ipaddr.js';
import { isPostgresUrl } from './util.ts';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  port: number;
  host: string;
  /** Base address of the site, without trailing slash. */
  siteUrl: string;
  /** Whether SITE_URL was given (otherwise siteUrl is derived from HOST and PORT). */
  siteUrlConfigured: boolean;
  databaseUrl: string;
  /** Folder for local files (SQLite database, outbox, debug logs). */
  dataDir: string;
  /** SMTP server for outgoing mail; without it mail goes to `<dataDir>/outbox`. */
  smtpUrl: string | null;
  /** Test-only: lets the oEmbed proxy reach loopback/private addresses. */
  allowPrivateOutbound: boolean;
  /** Limits that keep slow or idle clients from holding the server (milliseconds). */
  timeouts: { headers: number; request: number; keepAlive: number };
  /**
   * Reads of the activity log's lists, searches and statistics: the longest a request's reads
   * may take (DB_QUERY_TIMEOUT_MS, then 503 `rest_query_timeout`), and the SQLite read worker
   * threads (DB_READ_WORKERS; 0 reads on the main connection, without a limit).
   */
  reads: { timeoutMs: number; workers: number };
  /** LOG_LEVEL; null when not set (the server then logs `info`, other commands `warn`). */
  logLevel: LogLevel | null;
  /** LOG_FORMAT: console log lines as JSON, as readable text, or text only on a terminal. */
  logFormat: 'json' | 'pretty' | 'auto';
  /** ACCESS_LOG: one log line per HTTP request. */
  accessLog: boolean;
  /**
   * TRUST_PROXY: the reverse proxies whose X-Forwarded-For/-Proto/-Host are believed (addresses,
   * CIDR ranges or `loopback`); false: the peer address is the client.
   */
  trustProxy: string | false;
}

/** A configuration mistake: printed as one line (what is wrong, how to fix it), exit code 1. */
export class ConfigError extends Error {}

function positiveMs(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms <= 0)
    throw new ConfigError(`${name} must be a positive whole number of milliseconds, e.g. ${fallback} (got "${value}")`);
  return ms;
}

function readWorkers(value: string | undefined): number {
  if (value === undefined || value === '') return 2;
  if (/^\d$/.test(value)) return Number(value);
  throw new ConfigError(`DB_READ_WORKERS must be a number of threads from 0 to 9, e.g. 2 (got "${value}")`);
}

function oneOf<T extends string>(name: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined || value === '') return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new ConfigError(`${name} must be one of ${allowed.join(', ')} (got "${value}")`);
}

function onOff(name: string, value: string | undefined): boolean {
  const v = oneOf(name, value?.toLowerCase(), ['on', 'off', '1', '0', 'true', 'false'], 'off');
  return v === 'on' || v === '1' || v === 'true';
}

/** Addresses that mean "this machine": the site is then reached as `localhost`. */
function isLoopbackOrAny(host: string): boolean {
  return host === 'localhost' || host === '0.0.0.0' || host === '::' || host === '::1' || /^127\./.test(host);
}

function defaultSiteUrl(host: string, port: number): string {
  if (isLoopbackOrAny(host)) return `http://localhost:${port}`;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

function checkSiteUrl(value: string): string {
  let u: URL | null = null;
  try {
    u = new URL(value);
  } catch {
    // reported below
  }
  if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:') || u.username || u.password || u.search || u.hash) {
    throw new ConfigError(
      `SITE_URL must be the public address of the site, e.g. https://portal.example.com or http://localhost:8080 (got "${value}")`,
    );
  }
  return value.replace(/\/+$/, '');
}

/** The URL with its password masked, for messages. */
export function maskPassword(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*:)[^@/]*@/i, '$1***@');
}

function checkDatabaseUrl(value: string): string {
  if (value.startsWith('sqlite:') && value.length > 'sqlite:'.length) return value;
  if (isPostgresUrl(value) && URL.canParse(value)) return value;
  throw new ConfigError(
    `DATABASE_URL must be sqlite:<file> (e.g. sqlite:data/site.db) or postgres://<user>@<host>:<port>/<database> (got "${maskPassword(value)}")`,
  );
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function checkTrustProxy(value: string | undefined): string | false {
  if (value === undefined || value.trim() === '') return false;
  const entries = value.split(',').map((e) => e.trim());
  const valid = (e: string) => PROXY_NAMES.has(e) || ipaddr.isValid(e) || (e.includes('/') && ipaddr.isValidCIDR(e));
  if (entries.every(valid)) return entries.join(',');
  throw new ConfigError(
    `TRUST_PROXY must list the addresses of your reverse proxies, comma-separated (e.g. 127.0.0.1, 10.0.0.0/8 or loopback) (got "${value}")`,
  );
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const portText = env.PORT ?? '8080';
  const port = /^\d{1,5}$/.test(portText) ? Number(portText) : NaN;
  if (!(port >= 0 && port <= 65535))
    throw new ConfigError(`PORT must be a port number from 0 to 65535, e.g. 8080 (got "${portText}")`);
  const host = env.HOST ?? '127.0.0.1';
  if (host.trim() === '')
    throw new ConfigError('HOST must be an address or host name to listen on, e.g. 127.0.0.1 or 0.0.0.0 (got "")');
  const siteUrlConfigured = env.SITE_URL !== undefined && env.SITE_URL !== '';
  return {
    port,
    host,
    siteUrl: siteUrlConfigured ? checkSiteUrl(env.SITE_URL!) : defaultSiteUrl(host, port),
    siteUrlConfigured,
    databaseUrl: checkDatabaseUrl(env.DATABASE_URL || 'sqlite:data/site.db'),
    dataDir: path.resolve(env.DATA_DIR || 'data'),
    smtpUrl: env.SMTP_URL || null,
    allowPrivateOutbound: env.CONTENT_SITE_ALLOW_PRIVATE_OUTBOUND === '1',
    timeouts: {
      headers: positiveMs(env.HTTP_HEADERS_TIMEOUT_MS, 10_000, 'HTTP_HEADERS_TIMEOUT_MS'),
      request: positiveMs(env.HTTP_REQUEST_TIMEOUT_MS, 30_000, 'HTTP_REQUEST_TIMEOUT_MS'),
      keepAlive: positiveMs(env.HTTP_KEEPALIVE_TIMEOUT_MS, 10_000, 'HTTP_KEEPALIVE_TIMEOUT_MS'),
    },
    reads: {
      timeoutMs: positiveMs(env.DB_QUERY_TIMEOUT_MS, 10_000, 'DB_QUERY_TIMEOUT_MS'),
      workers: readWorkers(env.DB_READ_WORKERS),
    },
    logLevel: env.LOG_LEVEL ? oneOf('LOG_LEVEL', env.LOG_LEVEL, LOG_LEVELS, 'info') : null,
    logFormat: oneOf('LOG_FORMAT', env.LOG_FORMAT, ['auto', 'json', 'pretty'], 'auto'),
    accessLog: onOff('ACCESS_LOG', env.ACCESS_LOG),
    trustProxy: checkTrustProxy(env.TRUST_PROXY),
  };
}
