// The WordPress database, read with mysql2 on one connection: a read-only transaction with a
// consistent snapshot, so that every table is read as of one moment while the site goes on
// working, and nothing can be written to it by mistake.
import mysql from 'mysql2/promise';
import { ImportError } from '../errors.ts';

export type SourceRow = Record<string, unknown>;

export interface SourceAddress {
  host: string;
  port: number;
  user: string;
  database: string;
}

/** Parses `mysql://user:pass@host:3306/dbname` (also `mariadb://`); throws an ImportError when it is not one. */
export function parseMysqlUrl(text: string): { address: SourceAddress; password: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ImportError(`--from: "${text}" is not a mysql:// URL or a .sql/.sql.gz file`);
  }
  if (url.protocol !== 'mysql:' && url.protocol !== 'mariadb:')
    throw new ImportError(
      `--from: unsupported scheme "${url.protocol}" (use mysql://user:password@host:3306/database)`,
    );
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!database) throw new ImportError('--from: the URL names no database (mysql://user:password@host:3306/database)');
  return {
    address: {
      host: url.hostname || '127.0.0.1',
      port: Number(url.port || 3306),
      user: decodeURIComponent(url.username || 'root'),
      database,
    },
    password: decodeURIComponent(url.password),
  };
}

/** One line for a failed connection or query, without the password. */
export function describeSourceError(err: unknown, address: SourceAddress): string {
  const e = err as { code?: string; message?: string };
  const where = `${address.user}@${address.host}:${address.port}/${address.database}`;
  switch (e.code) {
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'EHOSTUNREACH':
    case 'ETIMEDOUT':
    case 'ECONNRESET':
      return `cannot reach the WordPress database at ${where} (${e.code})`;
    case 'ER_ACCESS_DENIED_ERROR':
    case 'ER_DBACCESS_DENIED_ERROR':
      return `the WordPress database at ${where} refused the login: ${e.message}`;
    case 'ER_BAD_DB_ERROR':
      return `the WordPress database ${where} does not exist`;
    default:
      return `reading the WordPress database at ${where} failed: ${e.code ? `${e.code}: ` : ''}${(e.message ?? String(err)).split('\n')[0]}`;
  }
}

export class SourceConnection {
  readonly address: SourceAddress;
  private readonly connection: mysql.Connection;

  private constructor(address: SourceAddress, connection: mysql.Connection) {
    this.address = address;
    this.connection = connection;
  }

  static async open(url: string): Promise<SourceConnection> {
    const { address, password } = parseMysqlUrl(url);
    let connection: mysql.Connection | undefined;
    try {
      connection = await mysql.createConnection({
        host: address.host,
        port: address.port,
        user: address.user,
        password,
        database: address.database,
        charset: 'utf8mb4_unicode_ci',
        // DATETIME as the text stored (WordPress writes UTC or site-local text; no conversion).
        dateStrings: true,
        supportBigNumbers: true,
        connectTimeout: 10_000,
      });
      // Never write to the source, and read every table as of the same moment.
      await connection.query('SET SESSION TRANSACTION READ ONLY');
      await connection.query("SET SESSION time_zone = '+00:00'");
      await connection.query('START TRANSACTION WITH CONSISTENT SNAPSHOT');
      return new SourceConnection(address, connection);
    } catch (err) {
      await connection?.end().catch(() => {});
      throw new ImportError(describeSourceError(err, address));
    }
  }

  async query<T extends SourceRow = SourceRow>(text: string, params: unknown[] = []): Promise<T[]> {
    try {
      const [rows] = await this.connection.query(text, params);
      return rows as T[];
    } catch (err) {
      throw new ImportError(describeSourceError(err, this.address));
    }
  }

  async close(): Promise<void> {
    await this.connection.end().catch(() => this.connection.destroy());
  }
}
