// Slug of the activity-log logger that records users, logins and application passwords; its
// messages are declared with the activity log's built-in loggers (src/namespaces/history/loggers/user.ts).
import type { ActivityEntry } from '../site/activity.ts';

export const USER_LOGGER = 'SimpleUserLogger';

/** Failed and refused logins group into one occasion in the activity log, as the reference's logger does. */
export const FAILED_LOGIN_OCCASION = `${USER_LOGGER}/failed_user_login`;

/** The event of a failed login: with a wrong password for `user`, or for a login that names no user. */
export function failedLoginEntry(
  attempted: string,
  user?: { id: number; email: string; login: string },
): ActivityEntry {
  return user
    ? {
        logger: USER_LOGGER,
        messageKey: 'user_login_failed',
        level: 'warning',
        context: { login_id: user.id, login_email: user.email, login: user.login, _occasionsID: FAILED_LOGIN_OCCASION },
      }
    : {
        logger: USER_LOGGER,
        messageKey: 'user_unknown_login_failed',
        level: 'warning',
        context: { failed_username: attempted, _occasionsID: FAILED_LOGIN_OCCASION },
      };
}
