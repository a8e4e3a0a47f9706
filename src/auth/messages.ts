// The authentication errors in German, for requests under the German root: the reference's
// messages come translated with the site's locale (its de_DE texts), markup included. The code
// and status stay as thrown; English is what authenticate.ts throws.
import { RestError, type Lang } from '../rest/types.ts';

const GERMAN: Record<string, (data: Record<string, unknown>) => string> = {
  invalid_email: () =>
    '<strong>Fehler:</strong> Unbekannte E-Mail-Adresse. Überprüfe sie noch einmal oder versuche es mit deinem Benutzernamen.',
  invalid_username: () =>
    '<strong>Fehler:</strong> Unbekannter Benutzername. Überprüfe ihn noch einmal oder versuche es mit deiner E-Mail-Adresse.',
  incorrect_password: () => 'Das angegebene Passwort ist kein gültiges Anwendungspasswort.',
  application_passwords_disabled: () => 'Anwendungspasswörter sind nicht verfügbar.',
  application_passwords_disabled_for_user: () =>
    'Anwendungspasswörter sind für dein Konto nicht verfügbar. Bitte kontaktiere den Administrator der Website, um Unterstützung zu erhalten.',
  too_many_login_attempts: (data) =>
    `Zu viele fehlgeschlagene Anmeldeversuche von deiner Adresse. Versuche es in ${String(data.retry_after)} Sekunden erneut.`,
};

/** An authentication error in the request's language (a copy; English errors are returned as they are). */
export function authErrorIn(err: RestError, lang: Lang): RestError {
  const german = GERMAN[err.code];
  if (lang !== 'de' || !german) return err;
  const localized = new RestError(err.code, german(err.data), err.status, err.data);
  localized.headers = { ...err.headers };
  return localized;
}
