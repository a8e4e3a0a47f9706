// A module of the site: one feature (a namespace, the pages, the importer…) and everything it
// contributes to the hosts. The hosts (src/app.ts, src/server/start.ts, src/cli/) read the one
// ordered list in src/modules.ts; nothing else names the features.
import type { NamespaceDef } from '../rest/types.ts';
import type { SiteMigration } from '../db/migration.ts';
import type { CliCommand } from '../cli/command.ts';
import type { ActivityLog, ActivityOrigin, LoggerDef } from './activity.ts';
import type { AppServices } from './services.ts';

/** Work a module runs in the server process beside the requests; stopped before the app closes. */
export interface BackgroundWork {
  stop(): Promise<void>;
  /** What it does first so that the server answers at its usual speed; the server is not ready until then. */
  warmUp?: WarmUp;
}

/** Start-up work a server's readiness (GET /readyz) waits for. */
export interface WarmUp {
  /** What is under way, in the readiness answer (e.g. "log columns"). */
  what: string;
  /** Settles when it is done or has given up; it never keeps the server from serving. */
  done: Promise<unknown>;
}

export interface SiteModule {
  /** Short name, e.g. "history" (messages and tests). */
  name: string;
  /** Its REST namespaces; the list order is the order of the REST index. */
  namespaces?: readonly NamespaceDef[];
  /** Its activity-log loggers (the logger catalogue is built from every module's). */
  loggers?: readonly LoggerDef[];
  /** Its subcommands of the `content-site` CLI. */
  commands?: readonly CliCommand[];
  /** Its migrations; names are recorded in existing databases and never change. */
  migrations?: readonly SiteMigration[];
  /** Adds its demo content; safe to run again. Runs after the demo users exist. */
  seed?: (app: AppServices, origin: ActivityOrigin) => Promise<unknown>;
  /** Starts its work in the server process (not in the CLI's short-lived processes). */
  background?: (app: AppServices) => BackgroundWork;
  /** Runs after a change of the site options (one at a time; failures are logged). */
  onOptionsChange?: (app: AppServices) => Promise<void>;
  /** The activity log's store: exactly one module provides it. */
  activityLog?: (app: AppServices) => ActivityLog;
}
