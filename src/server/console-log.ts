// The process log on the console: JSON lines for machines (a log collector, the journal), one
// readable line per record for a person at a terminal. A dozen lines of our own rather than
// pino-pretty, which would bring fifteen packages for the same one line per record.
import { Writable } from 'node:stream';
import type { Config } from '../config.ts';

const LEVEL_NAMES: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};
/** Fields every record has, or that say nothing to a person reading along. */
const OMITTED = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'err', 'v']);

function value(v: unknown): string {
  if (typeof v === 'string') return /[\s"=]/.test(v) || v === '' ? JSON.stringify(v) : v;
  return JSON.stringify(v);
}

/** One pino record (a JSON line) as `HH:MM:SS LEVEL message key=value …`, errors with their stack below. */
export function readableLine(json: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const time = typeof record.time === 'number' ? new Date(record.time).toTimeString().slice(0, 8) : '--:--:--';
  const level = (LEVEL_NAMES[record.level as number] ?? String(record.level)).padEnd(5);
  const fields = Object.entries(record)
    .filter(([k]) => !OMITTED.has(k))
    .map(([k, v]) => `${k}=${value(v)}`);
  let line = [time, level, String(record.msg ?? ''), ...fields].join(' ').trimEnd();
  const err = record.err as { message?: string; stack?: string } | undefined;
  if (err && typeof err === 'object') line += `\n    ${(err.stack ?? err.message ?? '').split('\n').join('\n    ')}`;
  return `${line}\n`;
}

/** Whether console log lines are readable text: LOG_FORMAT, or (auto) when the stream is a terminal. */
export function wantsReadable(format: Config['logFormat'], stream: { isTTY?: boolean }): boolean {
  return format === 'pretty' || (format === 'auto' && stream.isTTY === true);
}

/** A destination for pino that writes each record to `out` as a readable line. */
export function readableStream(out: NodeJS.WritableStream): Writable {
  let pending = '';
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      pending += chunk.toString('utf8');
      let end: number;
      while ((end = pending.indexOf('\n')) >= 0) {
        out.write(readableLine(pending.slice(0, end)));
        pending = pending.slice(end + 1);
      }
      done();
    },
  });
}
