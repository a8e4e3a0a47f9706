// What every kind of data gets to do its part of a run.
import { sql } from 'kysely';
import type { AppServices } from '../../site/services.ts';
import type { Progress } from './progress.ts';
import type { ImportReport, KindName, KindReport } from './report.ts';
import type { WordPressSource } from './source/site.ts';
import type { RunState } from './state.ts';

/** What to do with a source item whose login, slug or id is taken here by something that is not its earlier import. */
export type ConflictRule = 'skip' | 'rename' | 'overwrite';
export const CONFLICT_RULES: ConflictRule[] = ['skip', 'rename', 'overwrite'];

export interface ImportContext {
  app: AppServices;
  wp: WordPressSource;
  state: RunState;
  report: ImportReport;
  progress: Progress;
  /** Count and check everything, write nothing. */
  dryRun: boolean;
  onConflict: ConflictRule;
  includeTrash: boolean;
  /** The WordPress uploads folder (`wp-content/uploads`), for attachments' files. */
  uploadsDir: string | null;
}

export interface ImportKind {
  name: KindName;
  /** Tables (without prefix) of a plugin the kind needs; when one is absent the kind is reported as skipped. */
  plugin?: { name: string; tables: string[] };
  run(ctx: ImportContext, report: KindReport): Promise<void>;
}

/**
 * After rows were inserted with explicit ids: PostgreSQL's sequence moves past them (SQLite's
 * AUTOINCREMENT does so by itself), so that ids given later do not collide.
 */
export async function syncIdSequence(
  app: AppServices,
  table: 'users' | 'posts' | 'history_events' | 'sliders' | 'slider_slides',
): Promise<void> {
  if (app.dialect !== 'postgres') return;
  await sql`select setval(pg_get_serial_sequence(${table}, 'id'), greatest((select max(id) from ${sql.table(table)}), 1))`.execute(
    app.db,
  );
}

/** A unix time (seconds) as our UTC text; null for none. */
export function unixToUtc(value: unknown): string | null {
  const n = Number(value);
  if (value === null || value === undefined || value === '' || !Number.isFinite(n) || n <= 0) return null;
  return new Date(n * 1000).toISOString().slice(0, 19).replace('T', ' ');
}

/** A MySQL DATETIME text as ours; null for WordPress's zero date. */
export function mysqlDate(value: unknown): string | null {
  const text = String(value ?? '');
  return /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(text) && !text.startsWith('0000') ? text : null;
}
