// Opens the database named by DATABASE_URL: SQLite (embedded default) or PostgreSQL.
import path from 'node:path';
import fs from 'node:fs';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import {
  Kysely,
  PostgresDialect,
  SqliteDialect,
  CompiledQuery,
  SqliteDriver,
  sql,
  type DatabaseConnection,
  type Driver,
  type SqliteDialectConfig,
} from 'kysely';
import type { Database } from './schema.ts';
import { errorCode, isPostgresUrl } from '../util.ts';
import { ReadPool, ReadPoolDialect } from './read-pool.ts';
import { PgReadDialect, readPoolConfig } from './pg-read.ts';
import { postgresConnection } from './pg-connection.ts';

export type DialectName = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  /**
   * For plain reads that may be long (the activity log's lists, searches and statistics): on
   * SQLite a pool of read-only connections in worker threads, on PostgreSQL a pool whose
   * queries PostgreSQL cancels after the query timeout. Neither runs transactions, and a read
   * here sees only committed data. An in-memory SQLite database reads on `db`.
   */
  readDb: Kysely<Database>;
  /**
   * SQLite: `readDb` runs in worker threads, where a long statement holds one worker instead of
   * the server, and the connections have read-worker.js's functions (`run_edges`).
   */
  readsInWorkers: boolean;
  dialect: DialectName;
  /** The SQLite file path, or the PostgreSQL URL without password. */
  location: string;
  /**
   * PostgreSQL: what a connection of another thread is opened with (its URL and server options,
   * the schema's search_path among them), as every pool here is.
   */
  pgConnection?: { connectionString?: string; options?: string };
  /** The underlying PostgreSQL pool (for LISTEN/NOTIFY), when on PostgreSQL. */
  pgPool?: pg.Pool;
  /**
   * PostgreSQL: a small pool of clients in pipeline mode for the activity log's group writes,
   * which send several statements without waiting for each answer (COPY and cursors, which
   * pipeline mode refuses, stay on `pgPool`). Its size is the number of groups in flight.
   */
  pgPipelinePool?: pg.Pool;
  destroy(): Promise<void>;
}

// COUNT(*) and BIGINT arrive as strings from pg; our ids and counts fit in a double.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
pg.types.setTypeParser(1700, (v) => Number.parseFloat(v));

export interface OpenOptions {
  /** PostgreSQL only: schema to create and use (isolates parallel test runs). */
  pgSchema?: string;
  poolSize?: number;
  /** Reads on `readDb`: the longest a query may run, and (SQLite) the worker threads (0: none). */
  reads?: ReadOptions;
  /**
   * SQLite: refuse a file that does not exist instead of creating an empty database. Every
   * command but `serve` and `migrate`: a mistyped path listed an empty new site's users.
   */
  mustExist?: boolean;
}

export interface ReadOptions {
  timeoutMs: number;
  workers: number;
}

const DEFAULT_READS: ReadOptions = { timeoutMs: 10_000, workers: 2 };
/** Page cache of each SQLite read worker (KiB): the pages a query revisits, the rest is the OS's. */
const READ_WORKER_CACHE_KIB = 2048;

/** Storage the process cannot use as asked: one line for the operator, no stack trace. */
export class StorageError extends Error {}

/** The database file of a `sqlite:` DATABASE_URL (absolute), or null for `:memory:` and PostgreSQL. */
export function sqliteFile(url: string): string | null {
  if (!url.startsWith('sqlite:')) return null;
  const file = url.slice('sqlite:'.length);
  return file === ':memory:' ? null : path.resolve(file);
}

export function openDatabase(url: string, options: OpenOptions = {}): DatabaseHandle {
  if (url.startsWith('sqlite:'))
    return openSqlite(sqliteFile(url) ?? ':memory:', options.mustExist ?? false, options.reads ?? DEFAULT_READS);
  if (isPostgresUrl(url)) return openPostgres(url, options);
  throw new Error(`DATABASE_URL must be sqlite:<path> or postgres://…, got "${url}"`);
}

/**
 * The files of an SQLite database: the database, its write-ahead log and shared-memory index.
 * They hold password hashes and the site's secrets.
 */
export function sqliteFiles(location: string): string[] {
  return [location, `${location}-wal`, `${location}-shm`];
}

/**
 * A new database file, owner-only (0600), in an owner-only folder (0700) when that is new too:
 * SQLite gives the -wal and -shm files it creates the database file's mode.
 */
function createDatabaseFile(location: string): void {
  try {
    fs.mkdirSync(path.dirname(location), { recursive: true, mode: 0o700 });
    fs.closeSync(fs.openSync(location, 'wx', 0o600));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw new StorageError(`cannot create the database ${location}: ${errorCode(err)}`);
  }
}

function openSqlite(location: string, mustExist: boolean, reads: ReadOptions): DatabaseHandle {
  if (location !== ':memory:' && !fs.existsSync(location)) {
    if (mustExist)
      throw new StorageError(`no database at ${location} (DATABASE_URL); content-site migrate or serve creates one`);
    createDatabaseFile(location);
  }
  const sqlite = new SqliteDatabase(location);
  sqlite.pragma('journal_mode = WAL');
  // NORMAL in WAL mode survives a process crash (kill -9); only power loss could drop the last commit.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SiteSqliteDialect({ database: withStatementCache(sqlite) }, sqlite) });
  const readDb =
    location === ':memory:' || reads.workers === 0
      ? db
      : new Kysely<Database>({
          dialect: new ReadPoolDialect(
            new ReadPool({
              file: location,
              size: reads.workers,
              timeoutMs: reads.timeoutMs,
              cacheKib: READ_WORKER_CACHE_KIB,
            }),
          ),
        });
  return {
    db,
    readDb,
    readsInWorkers: readDb !== db,
    dialect: 'sqlite',
    location,
    destroy: async () => {
      if (readDb !== db) await readDb.destroy();
      await db.destroy();
    },
  };
}

/**
 * SQLite ends a transaction itself on some errors (an `insert or rollback` conflict, a full disk,
 * an I/O error). Kysely then still sends ROLLBACK, which fails with "no transaction is active"
 * and hides the error that matters: a rollback with nothing to undo is skipped.
 */
class SiteSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  readonly #sqlite: SqliteDatabase.Database;
  constructor(config: SqliteDialectConfig, sqlite: SqliteDatabase.Database) {
    super(config);
    this.#config = config;
    this.#sqlite = sqlite;
  }

  override createDriver(): Driver {
    const sqlite = this.#sqlite;
    return new (class extends SqliteDriver {
      // A transaction takes the write lock when it begins, waiting for it (busy_timeout): a
      // deferred one that read first and then wrote failed at once with SQLITE_BUSY when another
      // process (a CLI command, a second server) had written in between.
      override async beginTransaction(connection: DatabaseConnection): Promise<void> {
        await connection.executeQuery(CompiledQuery.raw('begin immediate'));
      }
      override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
        if (sqlite.inTransaction) await super.rollbackTransaction(connection);
      }
    })(this.#config);
  }
}

const STATEMENT_CACHE_SIZE = 200;
/** Longer statements (multi-row inserts of every row count) are one-offs and big: not kept. */
const STATEMENT_CACHE_MAX_SQL = 2000;

/**
 * Kysely prepares every query anew; on SQLite, preparing costs as much as running a short
 * query. Short statements are kept by SQL text (least recently used dropped beyond a bound) and
 * reused: better-sqlite3 runs them synchronously on the one connection, so a statement is
 * never in use twice at once — except while a streamed query iterates it, when a fresh one
 * is prepared. SQLite re-prepares a kept statement itself after a schema change.
 */
function withStatementCache(sqlite: SqliteDatabase.Database): SqliteDialectConfig['database'] & object {
  const cache = new Map<string, SqliteDatabase.Statement>();
  const prepare = (source: string): SqliteDatabase.Statement => {
    const hit = cache.get(source);
    if (hit && !hit.busy) {
      cache.delete(source);
      cache.set(source, hit);
      return hit;
    }
    const stmt = sqlite.prepare(source);
    if (!hit && source.length <= STATEMENT_CACHE_MAX_SQL) {
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      cache.set(source, stmt);
    }
    return stmt;
  };
  return {
    prepare,
    close: () => {
      cache.clear();
      sqlite.close();
    },
  };
}

function openPostgres(url: string, options: OpenOptions): DatabaseHandle {
  const schema = options.pgSchema;
  if (schema && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name ${schema}`);
  const connection = postgresConnection(url, schema && `-c search_path=${schema}`);
  const pool = newPool({ ...connection, max: options.poolSize ?? 10 });
  const pipelinePool = newPool({ ...connection, max: 2, pipeline: true });
  const timeoutMs = (options.reads ?? DEFAULT_READS).timeoutMs;
  const readPool = newPool({ ...readPoolConfig(connection, timeoutMs), max: options.poolSize ?? 10 });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const readDb = new Kysely<Database>({ dialect: new PgReadDialect(readPool, timeoutMs) });
  const u = new URL(url);
  u.password = '';
  return {
    db,
    readDb,
    readsInWorkers: false,
    dialect: 'postgres',
    location: u.toString(),
    pgConnection: connection,
    pgPool: pool,
    pgPipelinePool: pipelinePool,
    destroy: async () => {
      await readDb.destroy();
      await db.destroy();
      await pipelinePool.end();
    },
  };
}

function newPool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool(config);
  // A client losing its connection (database restart, network cut) must not crash the process:
  // idle clients report through the pool, checked-out ones through their own 'error' event.
  // The query in flight fails and the request answers 503; the pool replaces the client.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

/** An SQL identifier, double-quoted (both databases). */
export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * PostgreSQL after a bulk load (the generators, an import): fresh planner statistics, without
 * which it plans against an empty-looking table until autovacuum gets to it (a filtered strings
 * page took 116 ms instead of 0.03 ms right after loading 100,000 strings), and the visibility
 * map, without which an index-only scan reads the rows' pages too (a page of 88 events among
 * 8,000 of 1,000,000 walked by date: 358 → 205 ms; VACUUM of those events 0.7 s).
 */
export async function vacuumAfterBulkLoad(
  db: Kysely<any>,
  dialect: DialectName | undefined,
  tables: string[],
): Promise<void> {
  if (dialect !== 'postgres') return;
  for (const table of tables) if (!/^[a-z_][a-z0-9_]*$/.test(table)) throw new Error(`invalid table name ${table}`);
  await sql.raw(`vacuum (analyze) ${tables.join(', ')}`).execute(db);
}

/** Creates a PostgreSQL schema (for isolated test databases). */
export async function createPgSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  } finally {
    await client.end();
  }
}

export async function dropPgSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}
