// One import run: opens the source (read-only, one snapshot), records the run, lets each
// selected kind do its part in order, and ends with the report: printed, stored with the run
// and written as one event of the importer's logger. A failure stops the run with one line;
// what the kinds committed until then stays, with its mappings, for the next run to finish.
import type { AppServices } from '../../site/services.ts';
import { loggerEntry, type ActivityOrigin } from '../../site/activity.ts';
import { type ConflictRule, type ImportContext, type ImportKind } from './context.ts';
import { ImportError } from './errors.ts';
import { historyKind } from './kinds/history.ts';
import { contentKind } from './kinds/content.ts';
import { schedKind } from './kinds/sched.ts';
import { siteKind } from './kinds/site.ts';
import { usersKind } from './kinds/users.ts';
import { stringsKind } from './kinds/strings.ts';
import { jobsKind } from './kinds/jobs.ts';
import { slidersKind } from './kinds/sliders.ts';
import { importerLogger } from './logger.ts';
import { Progress } from './progress.ts';
import { ImportReport, type KindName } from './report.ts';
import { SourceConnection } from './source/connection.ts';
import { WordPressSource } from './source/site.ts';
import { RunState } from './state.ts';

/** Every kind, in the order of a run (users before what they wrote; content before the log that links to it). */
export const KINDS: ImportKind[] = [
  siteKind,
  schedKind,
  usersKind,
  contentKind,
  historyKind,
  stringsKind,
  jobsKind,
  slidersKind,
];

export interface ImportOptions {
  /** mysql://user:password@host:port/database */
  from: string;
  prefix?: string;
  dryRun?: boolean;
  only?: KindName[];
  onConflict?: ConflictRule;
  includeTrash?: boolean;
  uploadsDir?: string | null;
  /** Progress and stage lines (stderr). */
  progressStream: NodeJS.WritableStream;
  origin: ActivityOrigin;
}

export async function importWordPress(app: AppServices, opts: ImportOptions): Promise<ImportReport> {
  const connection = await SourceConnection.open(opts.from);
  try {
    const wp = await WordPressSource.open(connection, opts.prefix);
    const siteUrl = await wp.siteUrl();
    // The site itself names the source, so that a dump and the live database of one site share their mappings.
    const source = `wordpress:${siteUrl || `${connection.address.host}:${connection.address.port}/${connection.address.database}`}|${wp.prefix}`;
    const report = new ImportReport(siteUrl || connection.address.database, opts.dryRun ?? false);
    const state = new RunState(app.db, source);
    const ctx: ImportContext = {
      app,
      wp,
      state,
      report,
      progress: new Progress(opts.progressStream),
      dryRun: opts.dryRun ?? false,
      onConflict: opts.onConflict ?? 'skip',
      includeTrash: opts.includeTrash ?? false,
      uploadsDir: opts.uploadsDir ?? null,
    };
    const selected = KINDS.filter((k) => !opts.only || opts.only.includes(k.name));
    const runId = ctx.dryRun ? null : await state.beginRun();
    try {
      for (const kind of selected) {
        const kindReport = report.kind(kind.name);
        const missing = kind.plugin?.tables.filter((t) => !wp.has(t)) ?? [];
        if (kind.plugin && missing.length) {
          kindReport.skippedBecause = `${kind.plugin.name} is not installed at the source (no table ${missing.map((t) => wp.prefix + t).join(', ')})`;
          continue;
        }
        await kind.run(ctx, kindReport);
      }
    } catch (err) {
      report.error = err instanceof Error ? err.message.split('\n')[0]! : String(err);
      report.seconds = (Date.now() - report.startedAt) / 1000;
      if (runId !== null) {
        await state.endRun(runId, 'failed', report);
        await logRun(app, report, opts.origin);
      }
      throw err instanceof ImportError ? err : new ImportError(`import stopped: ${report.error}`);
    }
    report.seconds = (Date.now() - report.startedAt) / 1000;
    if (runId !== null) {
      await state.endRun(runId, 'done', report);
      // A run that changed nothing leaves the site as it was: no event either.
      if (report.changed()) await logRun(app, report, opts.origin);
    }
    return report;
  } finally {
    await connection.close();
  }
}

async function logRun(app: AppServices, report: ImportReport, origin: ActivityOrigin): Promise<void> {
  const failed = report.error !== null;
  await app.activity.log(
    loggerEntry(
      importerLogger,
      failed ? 'import_failed' : 'import_finished',
      {
        source_url: report.source,
        import_summary: report.summary(),
        ...(failed ? { import_error: report.error } : {}),
        import_report: JSON.stringify(report),
      },
      { level: failed ? 'error' : 'info' },
    ),
    origin,
  );
}
