// Server processes that share one database learn of each other through a row each in
// `server_processes`, refreshed every HEARTBEAT_MS and removed on shutdown (a crashed process's
// row simply stops being refreshed). The table works the same on SQLite and PostgreSQL and
// needs no file locks, process tables or host access. Two situations earn a warning:
//  - several processes advertise different addresses (SITE_URL not set, or set differently):
//    the index, links and redirects then depend on which process answers;
//  - several processes share an SQLite file: SQLite serves one server process (caches are
//    per process and are not told of the others' writes); several need PostgreSQL.
import crypto from 'node:crypto';
import os from 'node:os';
import type { AppServices } from '../site/services.ts';
import { formatUtc, utcNow } from '../site/time.ts';
import type { ServerProcessesTable } from '../db/schema.ts';

export const HEARTBEAT_MS = 15_000;
/** A row not refreshed for this long belongs to a process that is gone. */
const STALE_MS = 3 * HEARTBEAT_MS;

export interface PeerWatch {
  /** Checks now (start-up, tests): warns about processes not warned about before. */
  check(): Promise<void>;
  /** Stops the heartbeat and removes this process's row. */
  stop(): Promise<void>;
}

/** Warnings about the live processes `rows` (this one included) on this database; empty when all is well. */
export function peerWarnings(
  app: Pick<AppServices, 'dialect' | 'dbHandle'>,
  self: string,
  rows: ServerProcessesTable[],
): string[] {
  const others = rows.filter((r) => r.id !== self);
  if (!others.length) return [];
  const describe = (r: ServerProcessesTable) => `pid ${r.pid} on ${r.host}, listening on ${r.address}`;
  const warnings: string[] = [];
  if (app.dialect === 'sqlite') {
    warnings.push(
      `${others.length === 1 ? 'another server process uses' : `${others.length} other server processes use`} the same SQLite file ` +
        `${app.dbHandle.location} (${others.map(describe).join('; ')}): SQLite serves one server process, whose caches do not see ` +
        "the others' changes. Stop the others, or run several processes on PostgreSQL (DATABASE_URL=postgres://…).",
    );
  }
  const addresses = [...new Set(rows.map((r) => r.site_url))];
  if (addresses.length > 1 || rows.some((r) => !r.site_url_configured)) {
    warnings.push(
      `${rows.length} server processes share this database and advertise ${addresses.length > 1 ? `different addresses (${addresses.join(', ')})` : `the address ${addresses[0]} without SITE_URL set`}: ` +
        'set SITE_URL to the public address of the site on every process, so that the index, links and redirects name it.',
    );
  }
  return warnings;
}

/** Registers this serving process and warns (through the app's log) about others on its database. */
export async function watchPeers(app: AppServices, address: string): Promise<PeerWatch> {
  const self = crypto.randomUUID();
  const startedAt = utcNow();
  const register = () =>
    app.db
      .insertInto('server_processes')
      .values({
        id: self,
        host: os.hostname(),
        pid: process.pid,
        address,
        site_url: app.config.siteUrl,
        site_url_configured: app.config.siteUrlConfigured ? 1 : 0,
        started_at: startedAt,
        seen_at: utcNow(),
      })
      .execute();
  await register();
  const warned = new Set<string>();
  const check = async () => {
    const cutoff = formatUtc(new Date(Date.now() - STALE_MS));
    await app.db.deleteFrom('server_processes').where('seen_at', '<', cutoff).where('id', '!=', self).execute();
    const rows = await app.db.selectFrom('server_processes').selectAll().orderBy('started_at').orderBy('id').execute();
    const fresh = rows.filter((r) => r.id !== self && !warned.has(r.id));
    if (!fresh.length) return;
    for (const r of fresh) warned.add(r.id);
    for (const warning of peerWarnings(app, self, rows)) app.log.warn(warning);
  };
  const beat = async () => {
    const [updated] = await app.db
      .updateTable('server_processes')
      .set({ seen_at: utcNow() })
      .where('id', '=', self)
      .execute();
    // Paused for longer than STALE_MS (a suspended machine): another process removed the row.
    if (!updated?.numUpdatedRows) await register();
    await check();
  };
  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    running = beat().catch((err: unknown) => app.log.warn({ err }, 'server process heartbeat failed'));
  }, HEARTBEAT_MS);
  timer.unref();
  await check();
  return {
    check,
    async stop() {
      clearInterval(timer);
      await running;
      await app.db.deleteFrom('server_processes').where('id', '=', self).execute();
    },
  };
}
