// WordPress sources for the importer's tests: the fixture of ../shared/fixtures/wordpress
// (a database made by real WordPress 7.1) loaded into a fresh MariaDB database of its own,
// optionally under another table prefix or without some tables. MariaDB's address comes from
// TEST_MYSQL_URL (default mysql://root@127.0.0.1:3306); tests skip when it is not reachable.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import mysql from 'mysql2/promise';
import { runCli } from '../../src/cli/main.ts';
import type { TestApp } from '../support/db.ts';

export const MYSQL_URL = (process.env.TEST_MYSQL_URL || 'mysql://root@127.0.0.1:3306').replace(/\/+$/, '');
export const FIXTURE_DIR = path.resolve(import.meta.dirname, '../../../shared/fixtures/wordpress');
const DUMP = path.join(FIXTURE_DIR, 'wordpress-7.1.sql.gz');

/** Why the importer's tests cannot run here (no MariaDB, no fixture), or null. */
export async function skipReason(): Promise<string | null> {
  if (!fs.existsSync(DUMP)) return `the WordPress fixture is not at ${DUMP}`;
  try {
    const c = await mysql.createConnection({ uri: MYSQL_URL, connectTimeout: 3000 });
    await c.end();
    return null;
  } catch (err) {
    return `MariaDB is not reachable at ${MYSQL_URL} (${(err as Error).message}); set TEST_MYSQL_URL`;
  }
}

export interface SourceDb {
  name: string;
  url: string;
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  drop(): Promise<void>;
}

let dumpText: string | null = null;

/** The fixture's SQL, with its table prefix `wp_` replaced (table names and the prefixed meta keys and options). */
function fixtureSql(prefix: string): string {
  dumpText ??= zlib.gunzipSync(fs.readFileSync(DUMP)).toString('utf8');
  if (prefix === 'wp_') return dumpText;
  return dumpText
    .replaceAll('`wp_', `\`${prefix}`)
    .replaceAll("'wp_capabilities'", `'${prefix}capabilities'`)
    .replaceAll("'wp_user_level'", `'${prefix}user_level'`)
    .replaceAll("'wp_user_roles'", `'${prefix}user_roles'`);
}

/** Loads SQL text with MariaDB's own client (several times faster on a dump than statements sent one by one). */
async function loadSql(database: string, text: string): Promise<void> {
  const url = new URL(MYSQL_URL);
  const child = spawn(
    fs.existsSync('/usr/bin/mariadb') ? '/usr/bin/mariadb' : 'mysql',
    [
      `--host=${url.hostname}`,
      `--port=${url.port || 3306}`,
      `--user=${decodeURIComponent(url.username || 'root')}`,
      database,
    ],
    {
      stdio: ['pipe', 'ignore', 'pipe'],
      env: { ...process.env, MYSQL_PWD: decodeURIComponent(url.password) },
    },
  );
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? 1)));
  // One transaction for the rows (the dump's DDL commits on its own): a commit per statement waits for the disk each time.
  child.stdin.write('SET autocommit = 0; SET unique_checks = 0; SET foreign_key_checks = 0;\n');
  child.stdin.end(`${text}\nCOMMIT;\n`);
  if ((await exited) !== 0) throw new Error(`loading the fixture failed: ${stderr}`);
}

/** A new database of its own holding the fixture (or `sql` given). */
export async function createSource(opts: { prefix?: string; sql?: string; fixture?: boolean } = {}): Promise<SourceDb> {
  const name = `cs_import_${process.pid}_${crypto.randomBytes(3).toString('hex')}`;
  const admin = await mysql.createConnection({ uri: MYSQL_URL, multipleStatements: true });
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.end();
  const url = `${MYSQL_URL}/${name}`;
  if (opts.fixture !== false) await loadSql(name, fixtureSql(opts.prefix ?? 'wp_'));
  const conn = await mysql.createConnection({ uri: url, multipleStatements: true, dateStrings: true });
  if (opts.sql) await conn.query(opts.sql);
  return {
    name,
    url,
    async query<T>(text: string, params: unknown[] = []) {
      const [rows] = await conn.query(text, params);
      return rows as T[];
    },
    async drop() {
      await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await conn.end();
    },
  };
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `content-site <args>` in this process against the test app's database. */
export async function cli(t: TestApp, args: string[]): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const sink = (write: (s: string) => void) =>
    ({ write: (chunk: string | Uint8Array) => (write(String(chunk)), true) }) as unknown as NodeJS.WritableStream;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: t.databaseUrl,
    DATA_DIR: t.config.dataDir,
    SITE_URL: t.config.siteUrl,
  };
  // node-postgres reads PGOPTIONS from the process's environment when it connects: the test app's schema, while the command runs.
  const saved = process.env.PGOPTIONS;
  if (t.pgSchema) process.env.PGOPTIONS = `-c search_path=${t.pgSchema}`;
  try {
    const code = await runCli(args, { stdout: sink((s) => (stdout += s)), stderr: sink((s) => (stderr += s)), env });
    return { code, stdout, stderr };
  } finally {
    if (saved === undefined) delete process.env.PGOPTIONS;
    else process.env.PGOPTIONS = saved;
  }
}

/** The site's data tables as text (everything but the importer's own run records), to compare before and after. */
export async function snapshot(t: TestApp): Promise<string> {
  const tables = [
    'users',
    'app_passwords',
    'posts',
    'options',
    'history_events',
    'history_event_contexts',
    'history_counters',
    'history_stats_hourly',
    'history_stats_daily',
    'history_stats_hourly_levels',
    'history_stats_daily_users',
    'history_stats_daily_failed_logins',
    'sched_settings',
    'import_map',
    'import_marks',
    'i18n_st_strings',
    'i18n_st_translations',
    'i18n_st_packages',
    'tm_jobs',
    'tm_job_fields',
    'sliders',
    'slider_slides',
  ] as const;
  const out: string[] = [];
  for (const table of tables) {
    const rows = await t.app.db.selectFrom(table).selectAll().execute();
    const lines = rows.map((r) => JSON.stringify(r)).sort();
    out.push(`${table}: ${lines.join('\n')}`);
  }
  return out.join('\n');
}
