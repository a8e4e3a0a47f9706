// Resolves the caller of a request from its HTTP Basic application-password credentials
// (reference rest-core §6.2–6.3). Credentials are always checked (the reference ignores them
// until a first application password exists; we do not).
import type { AppServices } from '../site/services.ts';
import { RestError } from '../rest/types.ts';
import { matchAppPassword, recordAppPasswordUse } from './app-passwords.ts';
import { credentialCache } from './credential-cache.ts';
import { failedLoginEntry, userLogger } from './logger.ts';
import { loggerEntry } from '../site/activity.ts';
import { reserveLoginAttempt } from './throttle.ts';
import type { AuthUser } from './types.ts';
import { isEmail } from '../rest/schema/formats.ts';
import { findUserByEmail, findUserByLogin, toAuthUser } from './user-rows.ts';

export interface Authenticated {
  user: AuthUser;
  /** The application password used; null for the web session's cookie (with its nonce). */
  appPasswordUuid: string | null;
}

/** `Basic <base64>` (scheme case-insensitive, base64 alphabet, ≤ 2 `=`), split at the first colon. */
export function parseBasicAuth(authorization: string | undefined): { username: string; password: string } | null {
  const m = /^Basic\s+([A-Za-z0-9+/]+={0,2})$/i.exec(authorization?.trim() ?? '');
  if (!m) return null;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

// The reference's messages, HTML included: clients compare them.
const UNKNOWN_EMAIL = '<strong>Error:</strong> Unknown email address. Check again or try your username.';
const UNKNOWN_USERNAME = '<strong>Error:</strong> Unknown username. Check again or try your email address.';
const INCORRECT_PASSWORD = 'The provided password is an invalid application password.';
const DISABLED_FOR_USER =
  'Application passwords are not available for your account. Please contact the site administrator for assistance.';

/**
 * Returns null for anonymous requests (no Basic credentials); throws a RestError (401, or
 * 429 when throttled) for bad credentials.
 */
export async function authenticateRequest(
  app: AppServices,
  authorization: string | undefined,
  ip: string,
): Promise<Authenticated | null> {
  if (!authorization) return null;
  const cache = credentialCache(app);
  // Credentials verified moments ago pass even while the IP is throttled: only someone who
  // knows the password can produce this exact header. (Only headers that parsed are cached.)
  let cached = cache.get(authorization);
  if (cached && cache.stale()) {
    // Another process may have revoked them meanwhile: look (at most every FRESH_MS).
    await cache.sync();
    cached = cache.get(authorization);
  }
  if (cached) return cached;
  const credentials = parseBasicAuth(authorization);
  if (!credentials) return null;
  return cache.verifyOnce(ip, authorization, () => verify(app, authorization, credentials, ip));
}

/** Checks credentials that are not cached; caches them when good. */
async function verify(
  app: AppServices,
  header: string,
  credentials: { username: string; password: string },
  ip: string,
): Promise<Authenticated> {
  const cache = credentialCache(app);
  // Counted before the password is checked: concurrent attempts cannot overtake the limit.
  const attempt = await reserveLoginAttempt(app.db, ip);
  if (!attempt.granted) {
    const wait = attempt.retryAfter;
    const err = new RestError(
      'too_many_login_attempts',
      `Too many failed login attempts from your address. Try again in ${wait} seconds.`,
      429,
      { retry_after: wait },
    );
    err.headers['Retry-After'] = String(wait);
    throw err;
  }

  const generation = cache.generation;
  const { username, password } = credentials;
  const row =
    (await findUserByLogin(app, username)) ?? (isEmail(username) ? await findUserByEmail(app, username) : undefined);
  // Checked for unknown users too (against a throwaway hash): a failure costs the same either way.
  const match = await matchAppPassword(app, row?.id, password);
  if (!row || !match) {
    await app.activity.log(failedLoginEntry(username, row), { user: null, ip, rest: true, initiator: 'web_user' });
    if (row) throw new RestError('incorrect_password', INCORRECT_PASSWORD, 401);
    throw isEmail(username)
      ? new RestError('invalid_email', UNKNOWN_EMAIL, 401)
      : new RestError('invalid_username', UNKNOWN_USERNAME, 401);
  }
  // Checked after the password so that guessers learn nothing about the account's state.
  if (row.status !== 'active') throw new RestError('application_passwords_disabled_for_user', DISABLED_FOR_USER, 401);
  await attempt.release();

  const user = toAuthUser(row);
  // A "login" is the first use of a password in 24 hours: logging every request would
  // drown the activity log, logging never would hide who uses the API.
  if (await recordAppPasswordUse(app, match, ip)) {
    await app.activity.log(loggerEntry(userLogger, 'user_logged_in', { application_password_name: match.name }), {
      user,
      ip,
      rest: true,
    });
  }
  cache.set(header, user, match.uuid, generation);
  return { user, appPasswordUuid: match.uuid };
}
