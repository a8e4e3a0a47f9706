// GET /stats/summary and the e-mail report's sections: counts per (logger, message key) added up into
// the original's summaries.
import type { AppServices } from '../../../site/services.ts';
import { COUNTER_TOTAL, readCounter } from '../model/counters.ts';
import { countsByMessage, dateRangeInfo, statsRange, type KeyCounts } from './range.ts';
import type { StatsParams } from '../args/stats.ts';

function sum(counts: KeyCounts, logger: string, keys: string[]): number {
  return keys.reduce((total, key) => total + (counts.get(`${logger}:${key}`) ?? 0), 0);
}

export const U = 'SimpleUserLogger';
export const P = 'SimplePostLogger';
export const M = 'SimpleMediaLogger';
export const PL = 'SimplePluginLogger';
const AU = 'AvailableUpdatesLogger';
const C = 'SimpleCoreUpdatesLogger';
const N = 'NotesLogger';

export const LOGIN_KEYS = ['user_logged_in', 'user_unknown_logged_in'];
export const FAILED_LOGIN_KEYS = ['user_login_failed', 'user_unknown_login_failed'];
/** The context keys of a failed login's attempted user name. */
export const ATTEMPTED_LOGIN_KEYS = ['login', 'failed_username'];
/** An attempted name as history_stats_daily_failed_logins keys it (migration 0022): `s<name>`, `n` for null. */
export const attemptedKey = (name: string | null): string => (name === null ? 'n' : `s${name}`);
export const attemptedName = (key: string): string | null => (key === 'n' ? null : key.slice(1));

export function usersSummary(c: KeyCounts) {
  return {
    logins: sum(c, U, LOGIN_KEYS),
    failed_logins: sum(c, U, FAILED_LOGIN_KEYS),
    profile_updates: sum(c, U, ['user_updated_profile']),
    total: sum(c, U, [...LOGIN_KEYS, ...FAILED_LOGIN_KEYS, 'user_updated_profile', 'user_created', 'user_deleted']),
  };
}
export function contentSummary(c: KeyCounts) {
  return {
    created: sum(c, P, ['post_created']),
    updated: sum(c, P, ['post_updated']),
    deleted: sum(c, P, ['post_deleted']),
    total: sum(c, P, ['post_created', 'post_updated', 'post_trashed', 'post_deleted', 'post_restored']),
  };
}
export function mediaSummary(c: KeyCounts) {
  return {
    uploads: sum(c, M, ['attachment_created']),
    edits: sum(c, M, ['attachment_updated']),
    deletions: sum(c, M, ['attachment_deleted']),
    total: sum(c, M, ['attachment_created', 'attachment_updated', 'attachment_deleted']),
  };
}
export function pluginsSummary(c: KeyCounts) {
  return {
    updates: sum(c, PL, ['plugin_updated', 'plugin_bulk_updated']),
    installations: sum(c, PL, ['plugin_installed']),
    activations: sum(c, PL, ['plugin_activated']),
    total:
      sum(c, PL, [
        'plugin_updated',
        'plugin_bulk_updated',
        'plugin_installed',
        'plugin_deleted',
        'plugin_activated',
        'plugin_deactivated',
        'plugin_update_available',
      ]) + sum(c, AU, ['plugin_update_available']),
  };
}
export function coreSummary(c: KeyCounts) {
  return {
    updates: sum(c, C, ['core_updated', 'core_auto_updated']),
    available_updates: sum(c, AU, ['core_update_available']),
    total: sum(c, C, ['core_updated', 'core_auto_updated', 'core_update_available']),
  };
}
export function notesSummary(c: KeyCounts) {
  return {
    added: sum(c, N, ['note_added', 'note_reply_added']),
    resolved: sum(c, N, ['note_resolved']),
    total: sum(c, N, [
      'note_added',
      'note_reply_added',
      'note_edited',
      'note_deleted',
      'note_resolved',
      'note_reopened',
    ]),
  };
}
export { sum as countFor };

export async function statsSummary(app: AppServices, params: StatsParams) {
  const r = statsRange(app, params);
  const c = await countsByMessage(app, r);
  let total = 0;
  for (const n of c.values()) total += n;
  return {
    date_range: dateRangeInfo(app, r),
    total_events: total,
    total_events_since_install: await readCounter(app.readDb, COUNTER_TOTAL),
    totals: {
      users: usersSummary(c),
      content: contentSummary(c),
      media: mediaSummary(c),
      plugins: pluginsSummary(c),
      core: coreSummary(c),
      notes: notesSummary(c),
    },
  };
}
