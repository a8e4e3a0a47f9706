// What a bench run found, collected for BENCHMARKS.md (bench/run.ts writes it): the scenario
// rows, notes, key ratios and data-generation times. Shared by bench/run.ts and bench/cold-run.ts.
import { log } from './processes.ts';

export interface Row {
  db: string;
  scenario: string;
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  rssMb: number;
  target?: string;
  met?: boolean;
  note?: string;
}

export const RSS_LIMIT_MB = 250;
export const rows: Row[] = [];
export const notes: string[] = [];
export const keyRatios: string[] = [];
export const generation: { db: string; what: string; command: string; seconds: number; target?: number }[] = [];

export function addRow(row: Row): void {
  rows.push(row);
  const verdict = row.target ? `  [${row.met ? 'met' : 'MISSED'}: ${row.target}]` : '';
  log(
    `${row.db.padEnd(8)} ${row.scenario.padEnd(56)} c=${String(row.connections).padEnd(3)} ${String(row.rps).padStart(7)} req/s  p50 ${row.p50} ms  p99 ${row.p99} ms  err ${row.errors}  non-2xx ${row.non2xx}  rss ${row.rssMb} MB${verdict}${row.note ? `  (${row.note})` : ''}`,
  );
}

export function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
}
