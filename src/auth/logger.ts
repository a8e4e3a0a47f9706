// Slug of the activity-log logger that records users, logins and application passwords; its
// messages are declared with the history catalogue (src/namespaces/history/loggers/user.ts).
export const USER_LOGGER = 'SimpleUserLogger';
