// Helpers for tests that run the real server (`content-site serve`) as a child process:
// start it on a free port of 127.0.0.1, capture everything it prints, kill it, read its
// memory use, and check the database it leaves behind (integrity and consistency).
import fs from 'node:fs';
import net from 'node:net';
import { spawn, type ChildProcess } from 'node:child_process';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { openDatabase } from '../../src/db/index.ts';
import { createTestApp, type DbTarget, type TestApp } from '../support/db.ts';
import { userWithRole } from '../support/http.ts';
import { BIN, NODE, ROOT, cliEnv } from '../cli/run.ts';

export interface ChildServer {
  child: ChildProcess;
  pid: number;
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** Resolves with the exit code (or signal name) once the process has ended. */
  exited: Promise<number | string>;
}

/** A fresh test database with an administrator and one application password. */
export interface SeededDb {
  t: TestApp;
  login: string;
  password: string;
  authorization: string;
}

/**
 * createTestApp, retried when PostgreSQL migrations of parallel test files collide (see
 * test/web/support.ts createWebTestApp for the cause); then an administrator with an
 * application password. The test app stays open: the checks below read through it.
 */
export async function seededDb(target: DbTarget, env: Record<string, string> = {}): Promise<SeededDb> {
  let t: TestApp;
  for (let attempt = 1; ; attempt++) {
    try {
      t = await createTestApp(target, env);
      break;
    } catch (err) {
      if (attempt >= 5 || !/kysely_migration/.test(String((err as Error).message))) throw err;
      await new Promise((r) => setTimeout(r, 50 * attempt + Math.floor(Math.random() * 100)));
    }
  }
  const admin = await userWithRole(t.app, 'administrator');
  return { t, login: admin.user.login, password: admin.password, authorization: admin.authorization };
}

/** A port of 127.0.0.1 free at the moment (for a server that must know its address before it starts). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** Starts `content-site serve` on a free port; resolves once it listens. */
export async function startChild(t: TestApp, env: Record<string, string> = {}): Promise<ChildServer> {
  const child = spawn(NODE, [BIN, 'serve'], {
    cwd: ROOT,
    // SERVER_NODE_OPTIONS: Node flags for the server only (e.g. --max-old-space-size=96 to tell a
    // leak from a lazily collected heap in a long load run).
    env: cliEnv(t, {
      PORT: '0',
      HOST: '127.0.0.1',
      SITE_URL: 'http://127.0.0.1',
      LOG_LEVEL: 'warn',
      ...(process.env.SERVER_NODE_OPTIONS ? { NODE_OPTIONS: process.env.SERVER_NODE_OPTIONS } : {}),
      ...env,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: string[] = [];
  let size = 0;
  const keep = (d: Buffer) => {
    // Bounded: a runaway logger must not take the test process down with it.
    if (size > 64 * 1024 * 1024) return;
    size += d.length;
    chunks.push(d.toString('utf8'));
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });
  const output = () => chunks.join('');
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start within 30 s:\n${output()}`));
    }, 30_000);
    const onData = () => {
      const m = /Listening on (http:\/\/\S+)\n/.exec(output());
      if (m) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${output()}`));
    });
  });
  return { child, pid: child.pid!, url, output, exited };
}

/** Kills the child (default SIGKILL: no shutdown of any kind) and waits until it is gone. */
export async function killChild(server: ChildServer, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill(signal);
  await server.exited;
}

/** Resident set size of a process in KiB (Linux /proc), or null where it cannot be read. */
export function rssKiB(pid: number): number | null {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

export interface DatabaseCheck {
  /** Problems found; empty when the database is sound. */
  problems: string[];
  events: number;
  /** The `message` context values of custom entries (history/v1/events POST) with the prefix. */
  messages: Set<string>;
}

/**
 * Integrity and consistency of the database after a crash, read through a fresh connection:
 * SQLite `PRAGMA integrity_check` and `foreign_key_check`; on both databases the activity
 * log's invariants — ids are unique, every event has exactly one context (a JSON object with at
 * least one key) and every context its event, the event counter and the run (occasions) bookkeeping match the
 * rows. On PostgreSQL the row count read through the primary-key index must equal the count
 * of a sequential scan (an index that disagrees with its table is corruption).
 */
export async function checkDatabase(t: TestApp, messagePrefix: string): Promise<DatabaseCheck> {
  const problems: string[] = [];
  if (t.databaseUrl.startsWith('sqlite:')) {
    const file = t.databaseUrl.slice('sqlite:'.length);
    const raw = new SqliteDatabase(file);
    try {
      const integrity = raw.pragma('integrity_check', { simple: false }) as { integrity_check: string }[];
      if (integrity.length !== 1 || integrity[0]!.integrity_check !== 'ok')
        problems.push(`integrity_check: ${JSON.stringify(integrity).slice(0, 500)}`);
      const fk = raw.pragma('foreign_key_check') as unknown[];
      if (fk.length) problems.push(`foreign_key_check: ${JSON.stringify(fk).slice(0, 500)}`);
    } finally {
      raw.close();
    }
  }
  const handle = openDatabase(t.databaseUrl, { pgSchema: t.pgSchema, poolSize: 1 });
  try {
    const db = handle.db;
    const one = async (query: ReturnType<typeof sql<{ n: number | string }>>): Promise<number> =>
      Number((await query.execute(db)).rows[0]?.n ?? 0);
    const events = await one(sql`select count(*) as n from history_events`);
    const contexts = (
      await sql<{
        id: number;
        message_key: string | null;
        context: string | null;
      }>`select e.id, e.message_key, x.context
      from history_events e left join history_event_contexts x on x.event_id = e.id`.execute(db)
    ).rows;
    const orphans = await one(
      sql`select count(*) as n from history_event_contexts x where not exists (select 1 from history_events e where e.id = x.event_id)`,
    );
    if (orphans) problems.push(`${orphans} contexts belong to no event`);
    const parsed = new Map<number, Record<string, unknown>>();
    for (const row of contexts) {
      if (row.context === null) {
        problems.push(`event ${row.id} has no context row`);
        continue;
      }
      try {
        const context: unknown = JSON.parse(row.context);
        if (!context || typeof context !== 'object' || Array.isArray(context) || !Object.keys(context).length)
          problems.push(`event ${row.id} has no context: ${row.context}`);
        else if (row.message_key === 'custom_entry_added') parsed.set(row.id, context as Record<string, unknown>);
      } catch {
        problems.push(`event ${row.id} has a context that is not JSON: ${row.context.slice(0, 100)}`);
      }
    }
    const dupIds = await one(
      sql`select count(*) as n from (select id from history_events group by id having count(*) > 1) d`,
    );
    if (dupIds) problems.push(`${dupIds} duplicate event ids`);
    const counter = async (name: string) =>
      one(sql`select coalesce(max(value), 0) as n from history_counters where name = ${name}`);
    const total = await counter('total_logged_events');
    if (total !== events) problems.push(`counter total_logged_events = ${total}, but there are ${events} events`);
    const heads = await one(sql`select count(*) as n from history_events where run_head = 1`);
    const headCounter = await counter('run_heads');
    if (headCounter !== heads) problems.push(`counter run_heads = ${headCounter}, but ${heads} rows are run heads`);
    const inRuns = await one(sql`select coalesce(sum(run_size), 0) as n from history_events where run_head = 1`);
    if (inRuns !== events) problems.push(`run sizes add up to ${inRuns}, but there are ${events} events`);
    if (handle.dialect === 'postgres') {
      const viaIndex = await handle.db.connection().execute(async (conn) => {
        await sql`set enable_seqscan = off`.execute(conn);
        try {
          const r = await sql<{ n: number | string }>`select count(id) as n from history_events where id > 0`.execute(
            conn,
          );
          return Number(r.rows[0]?.n ?? 0);
        } finally {
          await sql`reset enable_seqscan`.execute(conn);
        }
      });
      if (viaIndex !== events) problems.push(`index scan counts ${viaIndex} events, sequential scan ${events}`);
    }
    const messages = new Set<string>();
    for (const context of parsed.values()) {
      if (typeof context.message === 'string' && context.message.startsWith(messagePrefix))
        messages.add(context.message);
    }
    return { problems, events, messages };
  } finally {
    await handle.destroy();
  }
}

/**
 * Figures of a run for `npm run soak` (scripts/soak.ts sets SOAK_REPORT to a file): one JSON
 * line per call. Without SOAK_REPORT nothing is written.
 */
export function report(record: Record<string, unknown>): void {
  const file = process.env.SOAK_REPORT;
  if (file) fs.appendFileSync(file, JSON.stringify({ at: new Date().toISOString(), ...record }) + '\n');
}

/** No request of a load generator may hang a test: each gives up after this long. */
export const REQUEST_TIMEOUT_MS = 60_000;

/** Outcome of one HTTP request of a load generator: the status, or the network error's code. */
export async function request(
  url: string,
  init: RequestInit,
): Promise<{ status: number; body: string; headers: Headers } | { error: string }> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS), ...init });
    return { status: res.status, body: await res.text(), headers: res.headers };
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    if ((err as Error).name === 'TimeoutError') return { error: `no answer within ${REQUEST_TIMEOUT_MS} ms` };
    return { error: cause?.code ?? cause?.message ?? (err as Error).message };
  }
}
