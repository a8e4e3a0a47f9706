// The one logging function of the server: every successful write of every namespace, and
// every login and failed login, is recorded through it into the activity log (history/v1).
import type { Logger } from 'pino';
import type { AuthUser } from '../auth/types.ts';

export type LogLevel = 'emergency' | 'alert' | 'critical' | 'error' | 'warning' | 'notice' | 'info' | 'debug';
export type Initiator = 'cms_user' | 'web_user' | 'cms' | 'cms_cli' | 'other';

/** Who caused an event and from where; a RestRequest satisfies it. */
export interface ActivityOrigin {
  user: AuthUser | null;
  ip: string;
  /** True when the event comes from a REST API request. */
  rest?: boolean;
  /** Overrides the initiator derived from user/ip (e.g. `cms_cli` for the CLI). */
  initiator?: Initiator;
}

/**
 * Writes from the command line (and its seeds): recorded as `cms_cli` without an address, as
 * the original records WP-CLI, where no request, hence no remote address, exists.
 */
export const CLI_ORIGIN: ActivityOrigin = { user: null, ip: '', initiator: 'cms_cli' };

export interface ActivityEntry {
  /** Logger slug from the logger catalogue, e.g. "SimpleUserLogger". */
  logger: string;
  /** Message key of that logger, e.g. "user_logged_in". */
  messageKey: string;
  level?: LogLevel;
  /** Placeholder values and details; stored as the event's context. */
  context?: Record<string, unknown>;
  /** UTC `YYYY-MM-DD HH:MM:SS`; now when omitted. */
  date?: string;
}

export interface ActivityLog {
  /** Records one event; returns its id. */
  log(entry: ActivityEntry, origin: ActivityOrigin): Promise<number>;
}

/**
 * Records the activity-log entry of a write that has committed. The write happened, so the
 * answer says so: a failed log write goes to the process log and never turns it into an error.
 */
export async function recordWrite(
  app: { activity: ActivityLog; log: Logger },
  entry: ActivityEntry,
  origin: ActivityOrigin,
): Promise<void> {
  try {
    await app.activity.log(entry, origin);
  } catch (err) {
    app.log.error({ err, logger: entry.logger, messageKey: entry.messageKey }, 'activity log write failed');
  }
}

/**
 * A logger of the activity log: who may read its events and the messages it writes.
 * Templates use `{placeholder}` names from the event context. Each module declares its
 * loggers in its `logger.ts` and lists them in its SiteModule; the LoggerCatalogue
 * (`app.loggers`) holds them all.
 */
export interface LoggerDef<Key extends string = string> {
  slug: string;
  name: { en: string; de: string };
  /** "Using plugin X" style label shown as `via`; null when none. */
  via?: { en: string; de: string } | null;
  /** Capability needed to read this logger's events. */
  capability: string;
  messages: Record<Key, { en: string; de: string }>;
  /**
   * The message types a UI can filter by (the reference's `labels.search`, shown by
   * search-options as `search_data`): a label for the logger's messages, optionally one for
   * "all of them", and labelled sets of message keys.
   */
  search?: {
    label: { en: string; de: string };
    labelAll?: { en: string; de: string };
    options: { label: { en: string; de: string }; messageKeys: NoInfer<Key>[] }[];
  };
}

/**
 * Declares a logger keeping the names of its message keys in its type, so that an entry
 * (loggerEntry) naming a key the logger does not have fails to compile.
 */
export function defineLogger<const Key extends string>(def: LoggerDef<Key>): LoggerDef<Key> {
  return def;
}

/** The entry of `logger`'s message `messageKey`: a key the logger lacks does not compile. */
export function loggerEntry<Key extends string>(
  logger: LoggerDef<Key>,
  messageKey: NoInfer<Key>,
  context?: Record<string, unknown>,
  extra: Pick<ActivityEntry, 'level' | 'date'> = {},
): ActivityEntry {
  return { logger: logger.slug, messageKey, ...(context ? { context } : {}), ...extra };
}
