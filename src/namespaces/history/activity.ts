// Placeholder until the activity log storage lands (issue: history/v1): events are
// written to the process log so nothing is silently dropped.
import type { AppServices } from '../../app.ts';
import type { ActivityLog } from '../../site/activity.ts';

export function createActivityLog(app: AppServices): ActivityLog {
  let next = 0;
  return {
    async log(entry, origin) {
      app.log.info({ activity: entry, user: origin.user?.login ?? null }, 'activity');
      return ++next;
    },
  };
}
