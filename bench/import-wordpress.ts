// The WordPress importer's bench: a WordPress-shaped MariaDB database with N Simple History
// events and their contexts (8 per event, as the plugin writes them), generated inside MariaDB
// with INSERT … SELECT over its sequence engine, then `content-site import wordpress --only
// history` in a child process, timed, with the child's peak RSS (VmHWM).
//
// Used by bench/run.ts; on its own: `node bench/import-wordpress.ts [events]` (SQLite in a
// temp folder; MariaDB at BENCH_MYSQL_URL, default mysql://root@127.0.0.1:3306).
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';

const ROOT = path.resolve(import.meta.dirname, '..');
const CLI = path.join(ROOT, 'bin', 'content-site.js');
export const MYSQL_URL = (process.env.BENCH_MYSQL_URL || 'mysql://root@127.0.0.1:3306').replace(/\/+$/, '');
/** Events per INSERT … SELECT (one commit each). */
const CHUNK = 100_000;

export interface WordPressSource {
  url: string;
  drop(): Promise<void>;
}

/** Whether MariaDB is reachable (else why not). */
export async function mysqlProblem(): Promise<string | null> {
  try {
    const c = await mysql.createConnection({ uri: MYSQL_URL, connectTimeout: 3000 });
    await c.end();
    return null;
  } catch (err) {
    return `MariaDB not reachable at ${MYSQL_URL}: ${(err as Error).message}`;
  }
}

/** A database with WordPress's core tables (empty but for the site's address) and `events` Simple History events. */
export async function createWordPressSource(events: number): Promise<WordPressSource> {
  const name = `cs_bench_wp_${crypto.randomBytes(3).toString('hex')}`;
  const admin = await mysql.createConnection({ uri: MYSQL_URL, multipleStatements: true });
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.query(`USE \`${name}\``);
  await admin.query(`
    CREATE TABLE wp_options (option_id bigint unsigned NOT NULL AUTO_INCREMENT PRIMARY KEY, option_name varchar(191) NOT NULL UNIQUE, option_value longtext NOT NULL, autoload varchar(20) NOT NULL DEFAULT 'yes');
    CREATE TABLE wp_users (ID bigint unsigned NOT NULL AUTO_INCREMENT PRIMARY KEY, user_login varchar(60) NOT NULL, user_pass varchar(255) NOT NULL, user_email varchar(100) NOT NULL, user_registered datetime NOT NULL, display_name varchar(250) NOT NULL);
    CREATE TABLE wp_usermeta (umeta_id bigint unsigned NOT NULL AUTO_INCREMENT PRIMARY KEY, user_id bigint unsigned NOT NULL, meta_key varchar(255), meta_value longtext);
    CREATE TABLE wp_posts (ID bigint unsigned NOT NULL AUTO_INCREMENT PRIMARY KEY, post_type varchar(20) NOT NULL);
    INSERT INTO wp_options (option_name, option_value) VALUES ('siteurl', 'http://bench.example'), ('home', 'http://bench.example');
    CREATE TABLE wp_simple_history (
      id bigint(20) NOT NULL AUTO_INCREMENT, date datetime NOT NULL, logger varchar(30) DEFAULT NULL, level varchar(20) DEFAULT NULL,
      message varchar(255) DEFAULT NULL, occasionsID varchar(32) DEFAULT NULL, initiator varchar(16) DEFAULT NULL,
      PRIMARY KEY (id), KEY date (date), KEY loggerdate (logger, date)
    ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb3 COLLATE=utf8mb3_general_ci;
    CREATE TABLE wp_simple_history_contexts (
      context_id bigint(20) unsigned NOT NULL AUTO_INCREMENT, history_id bigint(20) unsigned NOT NULL, \`key\` varchar(255) DEFAULT NULL, value longtext DEFAULT NULL,
      PRIMARY KEY (context_id), KEY history_id (history_id), KEY \`key\` (\`key\`)
    ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb3 COLLATE=utf8mb3_general_ci;`);
  for (let from = 1; from <= events; from += CHUNK) {
    const to = Math.min(events, from + CHUNK - 1);
    // A year of events: logins, failed-login runs (one occasions id per ten), post edits, custom entries.
    await admin.query(`
      INSERT INTO wp_simple_history (id, date, logger, level, message, occasionsID, initiator)
      SELECT seq, TIMESTAMP('2025-01-01') + INTERVAL (seq * 31) SECOND,
        ELT(1 + seq % 4, 'SimpleUserLogger', 'SimplePostLogger', 'CustomEntryLogger', 'SimpleUserLogger'),
        ELT(1 + seq % 8, 'info', 'info', 'notice', 'info', 'warning', 'info', 'debug', 'error'),
        ELT(1 + seq % 4, 'Logged in', 'Updated {post_type} "{post_title}"', 'Added a custom entry: {message}', 'Failed to login with username "{login}" (incorrect password entered)'),
        MD5(IF(seq % 4 = 3, 'failed', seq DIV 2)), ELT(1 + seq % 4, 'wp_user', 'wp_user', 'other', 'web_user')
      FROM seq_${from}_to_${to}`);
    await admin.query(`
      INSERT INTO wp_simple_history_contexts (history_id, \`key\`, value)
      SELECT s.seq, k.name, CASE k.pos
          WHEN 1 THEN ELT(1 + s.seq % 4, 'user_logged_in', 'post_updated', 'custom_entry_added', 'user_login_failed')
          WHEN 2 THEN 1 + s.seq % 40
          WHEN 3 THEN CONCAT('user', s.seq % 40)
          WHEN 4 THEN CONCAT('user', s.seq % 40, '@example.com')
          WHEN 5 THEN CONCAT('203.0.', s.seq % 200, '.0')
          WHEN 6 THEN 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36'
          WHEN 7 THEN CONCAT('Page ', s.seq % 400)
          ELSE CONCAT('Nightly job ', s.seq % 1000, ' finished') END
      FROM seq_${from}_to_${to} s
      JOIN (SELECT 1 AS pos, '_message_key' AS name UNION ALL SELECT 2, '_user_id' UNION ALL SELECT 3, '_user_login' UNION ALL SELECT 4, '_user_email'
            UNION ALL SELECT 5, '_server_remote_addr' UNION ALL SELECT 6, '_server_http_user_agent' UNION ALL SELECT 7, 'post_title' UNION ALL SELECT 8, 'message') k
      ORDER BY s.seq, k.pos`);
  }
  await admin.end();
  return {
    url: `${MYSQL_URL}/${name}`,
    async drop() {
      const c = await mysql.createConnection({ uri: MYSQL_URL });
      await c.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await c.end();
    },
  };
}

export interface ImportMeasurement {
  seconds: number;
  peakRssMb: number;
  output: string;
}

/**
 * Runs `content-site import wordpress --from <url> --only history` against the database of `env`,
 * sampling its peak RSS. The site is migrated first, untimed: commands other than `serve` and
 * `migrate` refuse a database that does not exist yet.
 */
export function measureImport(env: NodeJS.ProcessEnv, url: string): Promise<ImportMeasurement> {
  const migrated = spawnSync(process.execPath, [CLI, 'migrate'], {
    cwd: ROOT,
    env: { ...env, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  });
  if (migrated.status !== 0)
    return Promise.reject(new Error(`migrate failed (${migrated.status}): ${migrated.stderr}`));
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [CLI, 'import', 'wordpress', '--from', url, '--only', 'history'], {
      cwd: ROOT,
      env: { ...env, LOG_LEVEL: 'warn' },
    });
    let output = '';
    let peak = 0;
    const sample = () => {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) peak = Math.max(peak, Number(m[1]) / 1024);
      } catch {
        // Exited between two samples.
      }
    };
    const timer = setInterval(sample, 200);
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('exit', (code) => {
      clearInterval(timer);
      if (code !== 0) return reject(new Error(`import failed (${code}): ${output.slice(-2000)}`));
      resolve({ seconds: (performance.now() - started) / 1000, peakRssMb: Math.round(peak), output });
    });
    // VmHWM is the peak so far: read it once more just before the process ends.
    child.stdout.on('end', sample);
  });
}

if (import.meta.main) {
  const events = Number(process.argv[2] ?? 1_000_000);
  const problem = await mysqlProblem();
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
  let t = performance.now();
  const source = await createWordPressSource(events);
  console.log(`source with ${events} events generated in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'content-site-import-bench-'));
  try {
    const env = {
      ...process.env,
      DATABASE_URL: process.env.DATABASE_URL ?? `sqlite:${path.join(dir, 'site.db')}`,
      DATA_DIR: dir,
    };
    t = performance.now();
    const m = await measureImport(env, source.url);
    console.log(m.output.trim());
    console.log(`imported ${events} events in ${m.seconds.toFixed(1)} s, peak RSS ${m.peakRssMb} MB`);
  } finally {
    await source.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
