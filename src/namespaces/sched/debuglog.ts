// Debug logs of sched/v1 (reference plugins.md §2.2, support_debug/*).
//
// Where the logs live (decision): `<DATA_DIR>/logs/`.
//   - `server.log` — the server's own log file (the reference's PHP error log, route segment
//     `wp`). This module only reads and clears it; the process logger writes it when the
//     server is started with its log directed there.
//   - `sched-debug.log` — this module's debug log (route segment `ssa`), written by
//     `schedDebug()` below while the developer setting `ssa_debug_mode` is on.
// GET support_debug/wp answers "" unless developer `debug_mode` is on; GET support_debug/ssa
// answers "" unless `ssa_debug_mode` is on (as the reference). Downloads are served by the same
// administrator-only routes with `?download=true` (no extra route in the contract's list).
import fs from 'node:fs';
import path from 'node:path';
import type { AppServices } from '../../site/services.ts';
import { readSectionValues } from './settings.ts';

export type LogKind = 'wp' | 'ssa';

export const LOG_FILES: Record<LogKind, string> = { wp: 'server.log', ssa: 'sched-debug.log' };
const FLAG: Record<LogKind, 'debug_mode' | 'ssa_debug_mode'> = { wp: 'debug_mode', ssa: 'ssa_debug_mode' };
/** At most this much of the end of a log is returned. */
export const TAIL_BYTES = 512 * 1024;

export function logDir(app: AppServices): string {
  return path.join(app.config.dataDir, 'logs');
}

export function logPath(app: AppServices, kind: LogKind): string {
  return path.join(logDir(app), LOG_FILES[kind]);
}

export async function debugFlagOn(app: AppServices, kind: LogKind): Promise<boolean> {
  const dev = await readSectionValues(app, 'developer');
  return dev[FLAG[kind]] === true;
}

async function tail(file: string, bytes: number): Promise<string> {
  let fh: fs.promises.FileHandle;
  try {
    fh = await fs.promises.open(file, 'r');
  } catch {
    return '';
  }
  try {
    const { size } = await fh.stat();
    const start = Math.max(0, size - bytes);
    const buf = Buffer.alloc(size - start);
    await fh.read(buf, 0, buf.length, start);
    let text = buf.toString('utf8');
    if (start > 0) text = text.slice(text.indexOf('\n') + 1); // start at a whole line
    return text;
  } finally {
    await fh.close();
  }
}

/** GET support_debug/<kind>: the tail of the log, or "" while its debug setting is off. */
export async function readDebugLog(app: AppServices, kind: LogKind): Promise<string> {
  if (!(await debugFlagOn(app, kind))) return '';
  return tail(logPath(app, kind), TAIL_BYTES);
}

/** The whole file for a download; null when it does not exist. */
export async function readWholeLog(app: AppServices, kind: LogKind): Promise<Buffer | null> {
  try {
    const content = await fs.promises.readFile(logPath(app, kind));
    return content.length ? content : null; // a cleared log is an empty file
  } catch {
    return null;
  }
}

/**
 * POST support_debug/<kind>/delete. Returns whether there was a log to clear. Truncated rather
 * than removed: the running server keeps the file open for appending.
 */
export async function clearDebugLog(app: AppServices, kind: LogKind): Promise<boolean> {
  try {
    if ((await fs.promises.stat(logPath(app, kind))).size === 0) return false;
    await fs.promises.truncate(logPath(app, kind), 0);
    return true;
  } catch {
    return false;
  }
}

export async function logExists(app: AppServices, kind: LogKind): Promise<boolean> {
  try {
    const stat = await fs.promises.stat(logPath(app, kind));
    return stat.isFile() && stat.size > 0;
  } catch {
    return false;
  }
}

/** Appends to this module's debug log while `ssa_debug_mode` is on. Never throws. */
export async function schedDebug(
  app: AppServices,
  message: string,
  context: Record<string, unknown> = {},
): Promise<void> {
  try {
    if (!(await debugFlagOn(app, 'ssa'))) return;
    await fs.promises.mkdir(logDir(app), { recursive: true, mode: 0o700 }); // DATA_DIR too when new: owner-only
    const line = `[${new Date().toISOString()}] ${message.replace(/[\r\n]+/g, ' ')}${Object.keys(context).length ? ' ' + JSON.stringify(context) : ''}\n`;
    await fs.promises.appendFile(logPath(app, 'ssa'), line, 'utf8');
  } catch (err) {
    app.log.warn({ err }, 'sched debug log could not be written');
  }
}
