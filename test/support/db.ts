// Test databases: every storage test runs on SQLite and, when TEST_DATABASE_URL is set,
// on PostgreSQL. Each test app gets its own SQLite file or PostgreSQL schema, so test
// files (and parallel test runs) never see each other's data.
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import crypto from 'node:crypto';
import { pino } from 'pino';
import { sql } from 'kysely';
import { loadConfig, type Config } from '../../src/config.ts';
import { openApp } from '../../src/app.ts';
import type { AppServices } from '../../src/site/services.ts';
import { createPgSchema, dropPgSchema } from '../../src/db/index.ts';

export interface DbTarget {
  name: 'sqlite' | 'postgres';
}

export const PG_URL = process.env.TEST_DATABASE_URL || null;

/** The database kinds to run storage tests on. */
export function dbTargets(): DbTarget[] {
  return PG_URL ? [{ name: 'sqlite' }, { name: 'postgres' }] : [{ name: 'sqlite' }];
}

export interface TestApp {
  app: AppServices;
  config: Config;
  /** The DATABASE_URL of this test database (for child processes and the CLI). */
  databaseUrl: string;
  /** PostgreSQL schema, for child processes (PGOPTIONS). */
  pgSchema?: string;
  close(): Promise<void>;
}

export async function createTestApp(target: DbTarget, env: Record<string, string> = {}): Promise<TestApp> {
  const id = `t_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'content-site-'));
  let databaseUrl: string;
  let pgSchema: string | undefined;
  if (target.name === 'postgres') {
    if (!PG_URL) throw new Error('TEST_DATABASE_URL is not set');
    pgSchema = id;
    await createPgSchema(PG_URL, pgSchema);
    databaseUrl = PG_URL;
  } else {
    databaseUrl = `sqlite:${path.join(tmp, 'site.db')}`;
  }
  // Reads get a minute, not the default 10 s: the shared test machine can be that slow, and the
  // read limit has tests of its own (test/storage/read-queries.test.ts).
  const config = loadConfig({
    PORT: '8080',
    SITE_URL: 'http://localhost:8080',
    DATABASE_URL: databaseUrl,
    DATA_DIR: tmp,
    DB_QUERY_TIMEOUT_MS: '60000',
    ...env,
  });
  const app = await openApp(config, {
    pgSchema,
    poolSize: 4,
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
  });
  return {
    app,
    config,
    databaseUrl,
    pgSchema,
    async close() {
      await app.close();
      if (pgSchema && PG_URL) await dropPgSchema(PG_URL, pgSchema);
      fs.rmSync(tmp, { recursive: true, force: true });
    },
  };
}

/** The tables of the test app's database (its own PostgreSQL schema). */
export async function tableNames(app: AppServices): Promise<string[]> {
  const tables =
    app.dialect === 'postgres'
      ? await sql<{
          name: string;
        }>`select c.relname as name from pg_class as c join pg_namespace as n on n.oid = c.relnamespace
          where n.nspname = current_schema() and c.relkind in ('r', 'p') order by 1`.execute(app.db)
      : await sql<{
          name: string;
        }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name`.execute(
          app.db,
        );
  return tables.rows.map((row) => row.name);
}

/**
 * Written by any authenticated request, refused or not: an uncached credential check counts an
 * attempt before the password is checked and gives it back after (src/auth/throttle.ts).
 */
const AUTH_BOOKKEEPING = new Set(['login_throttle']);

/**
 * A digest of every row of every table but the authentication's bookkeeping, `table:hash` each, to prove that a request wrote
 * nothing (and to tell which table it wrote). PostgreSQL hashes each table in the database, in
 * one statement (a round trip per table took 37 ms).
 */
export async function databaseDigest(app: AppServices): Promise<string> {
  const tables = (await tableNames(app)).filter((name) => !AUTH_BOOKKEEPING.has(name));
  if (app.dialect === 'postgres') {
    const parts = tables.map(
      (name) =>
        sql`select ${name} as n, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as h from ${sql.table(name)} as t`,
    );
    const row = await sql<{
      d: string;
    }>`select string_agg(n || ':' || h, ', ' order by n) as d from (${sql.join(parts, sql` union all `)}) as x`.execute(
      app.db,
    );
    return row.rows[0]!.d;
  }
  const digests: string[] = [];
  for (const name of tables) {
    const rows = await sql`select * from ${sql.table(name)} order by 1`.execute(app.db);
    digests.push(`${name}:${crypto.createHash('md5').update(JSON.stringify(rows.rows)).digest('hex')}`);
  }
  return digests.join(', ');
}
