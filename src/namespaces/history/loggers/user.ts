import { defineLogger } from '../../../site/activity.ts';
import { option, t } from './define.ts';

/** Logins, failed logins, users and application passwords. Written by the auth code. */
export const userLogger = defineLogger({
  slug: 'SimpleUserLogger',
  name: t('User Logger', 'Benutzer-Protokoll'),
  via: null,
  capability: 'edit_users',
  messages: {
    user_login_failed: t(
      'Failed to login with username "{login}" (incorrect password entered)',
      'Anmeldung mit Benutzername „{login}“ fehlgeschlagen (falsches Passwort eingegeben)',
    ),
    user_unknown_login_failed: t(
      'Failed to login with username "{failed_username}" (username does not exist)',
      'Anmeldung mit Benutzername „{failed_username}“ fehlgeschlagen (Benutzername existiert nicht)',
    ),
    // Ours (src/auth/throttle.ts): the attempts the login throttle refused in one window, without checking them.
    user_login_attempts_refused: t(
      'Refused {refused_attempts} more login attempts after too many failed logins',
      'Nach zu vielen fehlgeschlagenen Anmeldungen {refused_attempts} weitere Anmeldeversuche abgewiesen',
    ),
    user_logged_in: t('Logged in', 'Angemeldet'),
    user_unknown_logged_in: t('Unknown user logged in', 'Unbekannter Benutzer angemeldet'),
    user_logged_out: t('Logged out', 'Abgemeldet'),
    user_updated_profile: t(
      'Edited the profile for user "{edited_user_login}" ({edited_user_email})',
      'Profil von Benutzer „{edited_user_login}“ ({edited_user_email}) bearbeitet',
    ),
    user_created: t(
      'Created user {created_user_login} ({created_user_email}) with role {created_user_role}',
      'Benutzer {created_user_login} ({created_user_email}) mit Rolle {created_user_role} angelegt',
    ),
    user_deleted: t(
      'Deleted user {deleted_user_login} ({deleted_user_email})',
      'Benutzer {deleted_user_login} ({deleted_user_email}) gelöscht',
    ),
    user_password_reseted: t('Reset their password', 'Eigenes Passwort zurückgesetzt'),
    user_requested_password_reset_link: t(
      "Requested a password reset link for user with login '{user_login}' and email '{user_email}'",
      "Link zum Zurücksetzen des Passworts für Benutzer mit Login '{user_login}' und E-Mail '{user_email}' angefordert",
    ),
    user_session_destroy_others: t('Logged out from all other sessions', 'Von allen anderen Sitzungen abgemeldet'),
    user_session_destroy_everywhere: t(
      'Logged out "{user_display_name}" from all sessions',
      '„{user_display_name}“ von allen Sitzungen abgemeldet',
    ),
    user_disabled: t(
      'Disabled user "{edited_user_login}" ({edited_user_email})',
      'Benutzer „{edited_user_login}“ ({edited_user_email}) deaktiviert',
    ),
    user_enabled: t(
      'Enabled user "{edited_user_login}" ({edited_user_email})',
      'Benutzer „{edited_user_login}“ ({edited_user_email}) aktiviert',
    ),
    user_role_updated: t(
      'Changed role for user "{edited_user_login}" to "{new_role}" from "{old_role}"',
      'Rolle von Benutzer „{edited_user_login}“ von „{old_role}“ zu „{new_role}“ geändert',
    ),
    user_role_added: t(
      'Added role(s) "{roles}" to user "{edited_user_login}"',
      'Rolle(n) „{roles}“ zu Benutzer „{edited_user_login}“ hinzugefügt',
    ),
    user_role_removed: t(
      'Removed role(s) "{roles}" from user "{edited_user_login}"',
      'Rolle(n) „{roles}“ von Benutzer „{edited_user_login}“ entfernt',
    ),
    user_admin_email_confirm_correct_clicked: t(
      'Verified that administration email for website is correct',
      'Bestätigt, dass die Administrations-E-Mail der Website korrekt ist',
    ),
    user_application_password_created: t(
      'Added application password "{application_password_name}" for user "{edited_user_login}"',
      'Anwendungspasswort „{application_password_name}“ für Benutzer „{edited_user_login}“ hinzugefügt',
    ),
    user_application_password_revoked: t(
      'Revoked application password "{application_password_name}" for user "{edited_user_login}"',
      'Anwendungspasswort „{application_password_name}“ für Benutzer „{edited_user_login}“ widerrufen',
    ),
    user_admin_page_access_denied: t(
      'Attempted to access restricted admin page "{admin_page}"',
      'Versuchter Zugriff auf gesperrte Admin-Seite „{admin_page}“',
    ),
  },
  search: {
    label: t('Users', 'Benutzer'),
    labelAll: t('All user activity', 'Alle Benutzeraktivitäten'),
    options: [
      option(t('Successful user logins', 'Erfolgreiche Anmeldungen'), 'user_logged_in', 'user_unknown_logged_in'),
      option(
        t('Failed user logins', 'Fehlgeschlagene Anmeldungen'),
        'user_login_failed',
        'user_unknown_login_failed',
        'user_login_attempts_refused',
      ),
      option(t('Failed login (known user)', 'Fehlgeschlagene Anmeldung (bekannter Benutzer)'), 'user_login_failed'),
      option(
        t('Failed login (unknown user)', 'Fehlgeschlagene Anmeldung (unbekannter Benutzer)'),
        'user_unknown_login_failed',
      ),
      option(t('User logouts', 'Abmeldungen'), 'user_logged_out'),
      option(t('Created users', 'Angelegte Benutzer'), 'user_created'),
      option(t('User profile updates', 'Profiländerungen'), 'user_updated_profile'),
      option(t('User role changes', 'Rollenänderungen'), 'user_role_updated'),
      option(t('User deletions', 'Gelöschte Benutzer'), 'user_deleted'),
      option(t('Disabled and enabled users', 'Deaktivierte und aktivierte Benutzer'), 'user_disabled', 'user_enabled'),
      option(
        t('User application password created', 'Angelegte Anwendungspasswörter'),
        'user_application_password_created',
      ),
      option(
        t('User application password deletion', 'Widerrufene Anwendungspasswörter'),
        'user_application_password_revoked',
      ),
      option(t('Admin page access denied', 'Verweigerter Zugriff auf Admin-Seiten'), 'user_admin_page_access_denied'),
    ],
  },
});
