// Simple History's events as ours, for the activity-log import (history.ts): the source's rows
// and contexts, converted one event at a time with the same date, level, logger, template,
// occasions id and context (acting users mapped to their ids here). No database work.
import type { LogLevel } from '../../../site/activity.ts';
import type { LoggerCatalogue } from '../../../site/loggers.ts';
import {
  LOG_LEVELS,
  contextJson,
  searchTextOf,
  storableText,
  type PreparedEvent,
} from '../../../namespaces/history/api.ts';
import { mysqlDate } from '../context.ts';
import type { KindReport } from '../report.ts';

/** Simple History's initiators → ours. */
const INITIATORS: Record<string, string> = {
  wp_user: 'cms_user',
  wp: 'cms',
  wp_cli: 'cms_cli',
  web_user: 'web_user',
  other: 'other',
};

export interface SourceEvent {
  id: number;
  date: string;
  logger: string | null;
  level: string | null;
  message: string | null;
  occasionsID: string | null;
  initiator: string | null;
}

export interface SourceContext {
  history_id: number;
  key: string | null;
  value: string | null;
}

/** A source event as our events row and context; a reason instead when it cannot be stored. */
export function convertEvent(
  loggers: LoggerCatalogue,
  e: SourceEvent,
  contexts: SourceContext[],
  userIds: Map<string, string>,
  report: KindReport,
): PreparedEvent | string {
  const date = mysqlDate(e.date);
  if (!date) return 'no valid date';
  let level = String(e.level ?? '').toLowerCase();
  if (!(LOG_LEVELS as string[]).includes(level)) {
    report.note(`level "${e.level}" is not a PSR-3 level: stored as info`);
    level = 'info';
  }
  const initiator = INITIATORS[String(e.initiator ?? '')];
  if (!initiator) report.note(`initiator "${e.initiator}" is not one of Simple History's: stored as other`);
  const map = new Map<string, string | null>();
  for (const c of contexts)
    if (c.key !== null) map.set(storableText(c.key), c.value === null ? null : storableText(String(c.value)));
  // The acting user is ours now: a WordPress user id brought over as another id follows it.
  const sourceUser = map.get('_user_id');
  let userId: number | null = null;
  if (sourceUser && /^\d+$/.test(sourceUser)) {
    const mapped = userIds.get(sourceUser);
    if (mapped !== undefined && mapped !== sourceUser) map.set('_user_id', mapped);
    userId = Number(mapped ?? sourceUser);
  }
  const logger = storableText(String(e.logger ?? ''));
  const template = storableText(String(e.message ?? ''));
  return {
    row: {
      date,
      logger,
      level,
      message: template,
      message_key: map.get('_message_key') ?? null,
      occasions_id: String(e.occasionsID ?? ''),
      initiator: initiator ?? 'other',
      user_id: userId,
      remote_addr: map.get('_server_remote_addr')?.toLowerCase() || null,
      sticky: map.has('_sticky') ? 1 : 0,
      backfilled: map.has('_backfilled_event') ? 1 : 0,
      search_text: searchTextOf(loggers, template, logger, level as LogLevel, map),
      meta_text: '',
    },
    context: contextJson(map),
  };
}
