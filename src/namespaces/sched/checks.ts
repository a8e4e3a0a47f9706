// Live checks of this server, shared by GET notices-errors and GET support_status:
// SMTP reachability, free disk space of the data folder, the site timezone, the database.
import fs from 'node:fs';
import net from 'node:net';
import tls from 'node:tls';
import { sql } from 'kysely';
import type { AppServices } from '../../site/services.ts';
import { isValidTimeZone } from '../../site/time.ts';

export interface DiskInfo {
  freeBytes: number;
  totalBytes: number;
}

/** Hooks tests use to simulate conditions (a full disk) that cannot be produced for real. */
export interface CheckHooks {
  statfs?: (dir: string) => Promise<DiskInfo>;
  smtpTimeoutMs?: number;
}

export const DISK_ERROR_BYTES = 100 * 1024 * 1024;
export const DISK_WARNING_BYTES = 1024 * 1024 * 1024;
export const DISK_WARNING_RATIO = 0.05;

export async function diskInfo(dir: string, hooks: CheckHooks = {}): Promise<DiskInfo> {
  if (hooks.statfs) return hooks.statfs(dir);
  const s = await fs.promises.statfs(dir);
  return { freeBytes: s.bavail * s.bsize, totalBytes: s.blocks * s.bsize };
}

export type DiskLevel = 'good' | 'warning' | 'error';
export function diskLevel(d: DiskInfo): DiskLevel {
  if (d.freeBytes < DISK_ERROR_BYTES) return 'error';
  if (d.freeBytes < DISK_WARNING_BYTES || (d.totalBytes > 0 && d.freeBytes / d.totalBytes < DISK_WARNING_RATIO))
    return 'warning';
  return 'good';
}

export function formatBytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  let v = n;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(i === 0 ? 0 : 1)} ${units[i]}`;
}

export interface SmtpResult {
  ok: boolean;
  host: string;
  port: number;
  message: string;
}

/** Connects to the SMTP server of SMTP_URL and waits for its 220 greeting. */
export function checkSmtp(smtpUrl: string, timeoutMs = 3000): Promise<SmtpResult> {
  let u: URL;
  try {
    u = new URL(smtpUrl);
  } catch {
    return Promise.resolve({ ok: false, host: '', port: 0, message: 'SMTP_URL is not a valid URL' });
  }
  const secure = u.protocol === 'smtps:';
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const port = Number(u.port || (secure ? 465 : 587));
  return new Promise((resolve) => {
    let done = false;
    let buffer = '';
    const finish = (ok: boolean, message: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ ok, host, port, message });
    };
    const socket = secure
      ? tls.connect({ host, port, servername: host, rejectUnauthorized: true })
      : net.connect({ host, port });
    const timer = setTimeout(() => finish(false, `no answer within ${timeoutMs} ms`), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('latin1');
      if (/\r?\n/.test(buffer)) {
        if (buffer.startsWith('220')) {
          socket.write('QUIT\r\n');
          finish(true, buffer.split(/\r?\n/)[0].slice(0, 200));
        } else finish(false, `unexpected greeting: ${buffer.split(/\r?\n/)[0].slice(0, 200)}`);
      }
    });
    socket.on('error', (err: NodeJS.ErrnoException) =>
      finish(false, err.code ? `${err.code}: ${err.message}` : err.message),
    );
    socket.on('close', () => finish(false, 'connection closed before the greeting'));
  });
}

export interface TimezoneState {
  stored: boolean;
  value: string;
  valid: boolean;
}

export function siteTimezoneState(app: AppServices): TimezoneState {
  const value = app.options.get('timezone_string');
  const str = typeof value === 'string' ? value : '';
  return { stored: app.options.isStored('timezone_string'), value: str, valid: str !== '' && isValidTimeZone(str) };
}

export async function databaseVersion(
  app: AppServices,
): Promise<{ engine: string; version: string; encoding: string }> {
  if (app.dialect === 'postgres') {
    const v = await sql<{ server_version: string }>`show server_version`.execute(app.db);
    const e = await sql<{ server_encoding: string }>`show server_encoding`.execute(app.db);
    return {
      engine: 'PostgreSQL',
      version: v.rows[0]?.server_version ?? 'unknown',
      encoding: e.rows[0]?.server_encoding ?? 'unknown',
    };
  }
  const v = await sql<{ v: string }>`select sqlite_version() as v`.execute(app.db);
  const e = await sql<{ encoding: string }>`pragma encoding`.execute(app.db);
  return { engine: 'SQLite', version: v.rows[0]?.v ?? 'unknown', encoding: e.rows[0]?.encoding ?? 'unknown' };
}
