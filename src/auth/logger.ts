// The activity-log logger of users, logins and application passwords: written by the auth code,
// listed in the activity log's catalogue with its built-in loggers (src/namespaces/history/module.ts).
import { l } from '../rest/define.ts';
import { defineLogger, loggerEntry, type ActivityEntry } from '../site/activity.ts';

/** Logins, failed logins, users and application passwords. */
export const userLogger = defineLogger({
  slug: 'SimpleUserLogger',
  name: l('User Logger', 'Benutzer-Protokoll'),
  via: null,
  capability: 'edit_users',
  messages: {
    user_login_failed: l(
      'Failed to login with username "{login}" (incorrect password entered)',
      'Anmeldung mit Benutzername „{login}“ fehlgeschlagen (falsches Passwort eingegeben)',
    ),
    user_unknown_login_failed: l(
      'Failed to login with username "{failed_username}" (username does not exist)',
      'Anmeldung mit Benutzername „{failed_username}“ fehlgeschlagen (Benutzername existiert nicht)',
    ),
    // Ours (src/auth/throttle.ts): the attempts the login throttle refused in one window, without checking them.
    user_login_attempts_refused: l(
      'Refused {refused_attempts} more login attempts after too many failed logins',
      'Nach zu vielen fehlgeschlagenen Anmeldungen {refused_attempts} weitere Anmeldeversuche abgewiesen',
    ),
    user_logged_in: l('Logged in', 'Angemeldet'),
    user_unknown_logged_in: l('Unknown user logged in', 'Unbekannter Benutzer angemeldet'),
    user_logged_out: l('Logged out', 'Abgemeldet'),
    user_updated_profile: l(
      'Edited the profile for user "{edited_user_login}" ({edited_user_email})',
      'Profil von Benutzer „{edited_user_login}“ ({edited_user_email}) bearbeitet',
    ),
    user_created: l(
      'Created user {created_user_login} ({created_user_email}) with role {created_user_role}',
      'Benutzer {created_user_login} ({created_user_email}) mit Rolle {created_user_role} angelegt',
    ),
    user_deleted: l(
      'Deleted user {deleted_user_login} ({deleted_user_email})',
      'Benutzer {deleted_user_login} ({deleted_user_email}) gelöscht',
    ),
    user_password_reseted: l('Reset their password', 'Eigenes Passwort zurückgesetzt'),
    user_requested_password_reset_link: l(
      "Requested a password reset link for user with login '{user_login}' and email '{user_email}'",
      "Link zum Zurücksetzen des Passworts für Benutzer mit Login '{user_login}' und E-Mail '{user_email}' angefordert",
    ),
    user_session_destroy_others: l('Logged out from all other sessions', 'Von allen anderen Sitzungen abgemeldet'),
    user_session_destroy_everywhere: l(
      'Logged out "{user_display_name}" from all sessions',
      '„{user_display_name}“ von allen Sitzungen abgemeldet',
    ),
    user_disabled: l(
      'Disabled user "{edited_user_login}" ({edited_user_email})',
      'Benutzer „{edited_user_login}“ ({edited_user_email}) deaktiviert',
    ),
    user_enabled: l(
      'Enabled user "{edited_user_login}" ({edited_user_email})',
      'Benutzer „{edited_user_login}“ ({edited_user_email}) aktiviert',
    ),
    user_role_updated: l(
      'Changed role for user "{edited_user_login}" to "{new_role}" from "{old_role}"',
      'Rolle von Benutzer „{edited_user_login}“ von „{old_role}“ zu „{new_role}“ geändert',
    ),
    user_role_added: l(
      'Added role(s) "{roles}" to user "{edited_user_login}"',
      'Rolle(n) „{roles}“ zu Benutzer „{edited_user_login}“ hinzugefügt',
    ),
    user_role_removed: l(
      'Removed role(s) "{roles}" from user "{edited_user_login}"',
      'Rolle(n) „{roles}“ von Benutzer „{edited_user_login}“ entfernt',
    ),
    user_admin_email_confirm_correct_clicked: l(
      'Verified that administration email for website is correct',
      'Bestätigt, dass die Administrations-E-Mail der Website korrekt ist',
    ),
    user_application_password_created: l(
      'Added application password "{application_password_name}" for user "{edited_user_login}"',
      'Anwendungspasswort „{application_password_name}“ für Benutzer „{edited_user_login}“ hinzugefügt',
    ),
    user_application_password_revoked: l(
      'Revoked application password "{application_password_name}" for user "{edited_user_login}"',
      'Anwendungspasswort „{application_password_name}“ für Benutzer „{edited_user_login}“ widerrufen',
    ),
    user_admin_page_access_denied: l(
      'Attempted to access restricted admin page "{admin_page}"',
      'Versuchter Zugriff auf gesperrte Admin-Seite „{admin_page}“',
    ),
  },
  search: {
    label: l('Users', 'Benutzer'),
    labelAll: l('All user activity', 'Alle Benutzeraktivitäten'),
    options: [
      {
        label: l('Successful user logins', 'Erfolgreiche Anmeldungen'),
        messageKeys: ['user_logged_in', 'user_unknown_logged_in'],
      },
      {
        label: l('Failed user logins', 'Fehlgeschlagene Anmeldungen'),
        messageKeys: ['user_login_failed', 'user_unknown_login_failed', 'user_login_attempts_refused'],
      },
      {
        label: l('Failed login (known user)', 'Fehlgeschlagene Anmeldung (bekannter Benutzer)'),
        messageKeys: ['user_login_failed'],
      },
      {
        label: l('Failed login (unknown user)', 'Fehlgeschlagene Anmeldung (unbekannter Benutzer)'),
        messageKeys: ['user_unknown_login_failed'],
      },
      { label: l('User logouts', 'Abmeldungen'), messageKeys: ['user_logged_out'] },
      { label: l('Created users', 'Angelegte Benutzer'), messageKeys: ['user_created'] },
      { label: l('User profile updates', 'Profiländerungen'), messageKeys: ['user_updated_profile'] },
      { label: l('User role changes', 'Rollenänderungen'), messageKeys: ['user_role_updated'] },
      { label: l('User deletions', 'Gelöschte Benutzer'), messageKeys: ['user_deleted'] },
      {
        label: l('Disabled and enabled users', 'Deaktivierte und aktivierte Benutzer'),
        messageKeys: ['user_disabled', 'user_enabled'],
      },
      {
        label: l('User application password created', 'Angelegte Anwendungspasswörter'),
        messageKeys: ['user_application_password_created'],
      },
      {
        label: l('User application password deletion', 'Widerrufene Anwendungspasswörter'),
        messageKeys: ['user_application_password_revoked'],
      },
      {
        label: l('Admin page access denied', 'Verweigerter Zugriff auf Admin-Seiten'),
        messageKeys: ['user_admin_page_access_denied'],
      },
    ],
  },
});

/** Failed and refused logins group into one occasion in the activity log, as the reference's logger does. */
export const FAILED_LOGIN_OCCASION = `${userLogger.slug}/failed_user_login`;

/** The event of a failed login: with a wrong password for `user`, or for a login that names no user. */
export function failedLoginEntry(
  attempted: string,
  user?: { id: number; email: string; login: string },
): ActivityEntry {
  return user
    ? loggerEntry(
        userLogger,
        'user_login_failed',
        { login_id: user.id, login_email: user.email, login: user.login, _occasionsID: FAILED_LOGIN_OCCASION },
        { level: 'warning' },
      )
    : loggerEntry(
        userLogger,
        'user_unknown_login_failed',
        { failed_username: attempted, _occasionsID: FAILED_LOGIN_OCCASION },
        { level: 'warning' },
      );
}
