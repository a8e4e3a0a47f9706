// The rules of a user's fields: login, e-mail address, display name, role, status, language and
// login password. Each check throws the 400 that names the field (the REST API, the console and
// the CLI show its message); creation and profile changes share them, so both refuse the same values.
import { RestError } from '../rest/types.ts';
import { isEmail } from '../rest/schema/formats.ts';
import { ROLES, isRole, type Role } from './roles.ts';

export type UserStatus = 'active' | 'disabled';

/** The languages a user may choose; '' for none (the browser's language). */
export const LOCALES = ['', 'en', 'de'] as const;

// The reference's strict login charset minus spaces (logins are typed in shells and URLs);
// no colon, which would break HTTP Basic `login:password`.
const LOGIN_PATTERN = /^[A-Za-z0-9_.@-]+$/;
const LOGIN_MAX = 60;
const EMAIL_MAX = 100;
const DISPLAY_NAME_MAX = 250;
const PASSWORD_MIN = 8;

function invalid(code: string, message: string): RestError {
  return new RestError(code, message, 400);
}

/** A login (already trimmed): not empty, not too long, in the login charset. */
export function assertLogin(login: string): void {
  if (!login) throw invalid('empty_user_login', 'Cannot create a user with an empty login name.');
  if (login.length > LOGIN_MAX)
    throw invalid('user_login_too_long', `Logins may not be longer than ${LOGIN_MAX} characters.`);
  if (!LOGIN_PATTERN.test(login))
    throw invalid('invalid_username', `Invalid login "${login}": use only letters, digits and _ . @ -.`);
}

/**
 * An e-mail address (already trimmed) by the REST format's rule (WordPress's is_email), which lets
 * a newline before `@` through (PHP's `$`); WordPress strips such characters with sanitize_email
 * before storing, we refuse them.
 */
export function assertEmail(email: string): void {
  if (email.length > EMAIL_MAX || !isEmail(email) || /[\u0000-\u001f\u007f]/.test(email))
    throw invalid('invalid_email', `Invalid e-mail address "${email}".`);
}

/** A display name (already trimmed): not empty, not too long. */
export function assertDisplayName(name: string): void {
  if (!name) throw invalid('empty_display_name', 'The display name may not be empty.');
  if (name.length > DISPLAY_NAME_MAX)
    throw invalid('invalid_display_name', `Display names may not be longer than ${DISPLAY_NAME_MAX} characters.`);
}

export function validateRole(role: string): Role {
  if (!isRole(role)) throw invalid('invalid_role', `Unknown role "${role}"; roles are: ${ROLES.join(', ')}.`);
  return role;
}

export function assertUserStatus(status: UserStatus): void {
  if (status !== 'active' && status !== 'disabled')
    throw invalid('invalid_user_status', `Unknown user status "${String(status)}".`);
}

export function assertLocale(locale: string): void {
  if (!(LOCALES as readonly string[]).includes(locale))
    throw invalid('invalid_locale', `Unknown language "${locale}"; languages are: en, de.`);
}

/** Refuses a login password that is too short (`password_too_short`). */
export function validatePassword(password: string): void {
  if (password.length < PASSWORD_MIN)
    throw invalid('password_too_short', `Passwords must be at least ${PASSWORD_MIN} characters long.`);
}
