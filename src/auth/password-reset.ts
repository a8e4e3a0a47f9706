// One-time set-password keys, as WordPress's password-reset links: `content-site user
// reset-password <login>` (and the first start) make a key; the link
// `/cms-login.php?action=rp&key=…&login=…` opens a page that sets the password with it.
// The key has 256 random bits and is stored only as its SHA-256 with an expiry; a user has at
// most one (a new key replaces the old); using it deletes it, so a link works once.
import crypto from 'node:crypto';
import type { AppServices } from '../site/services.ts';
import { RestError } from '../rest/types.ts';
import { loggerEntry, type ActivityOrigin } from '../site/activity.ts';
import { formatUtc } from '../site/time.ts';
import { userLogger } from './logger.ts';
import { isTokenShaped, randomToken, tokenHash } from './tokens.ts';
import { setUserPassword } from './users.ts';
import { validatePassword } from './user-fields.ts';
import { findUserByLogin, toAuthUser, type UserRow } from './user-rows.ts';

/** How long a link works unless said otherwise: a day, as WordPress's. */
export const RESET_KEY_HOURS = 24;

/** The login page (src/web), which also serves the form of the links (`action=rp`). */
export const LOGIN_PAGE_PATH = '/cms-login.php';

export function invalidResetKey(): RestError {
  return new RestError('invalid_key', 'Your password reset link appears to be invalid.', 400);
}

export function expiredResetKey(): RestError {
  return new RestError('expired_key', 'Your password reset link has expired.', 400);
}

/** A new key for the user (any earlier one stops working); the user must be active. */
export async function createPasswordResetKey(
  app: AppServices,
  user: UserRow,
  opts: { hours?: number; now?: Date } = {},
  origin?: ActivityOrigin,
): Promise<{ key: string; expiresAt: string }> {
  if (user.status !== 'active')
    throw new RestError('user_disabled', `The user "${user.login}" is disabled: enable the account first.`, 400);
  const now = opts.now ?? new Date();
  const key = randomToken();
  const expiresAt = formatUtc(new Date(now.getTime() + (opts.hours ?? RESET_KEY_HOURS) * 3600_000));
  await app.db.transaction().execute(async (tx) => {
    await tx.deleteFrom('password_reset_keys').where('user_id', '=', user.id).execute();
    await tx
      .insertInto('password_reset_keys')
      .values({ user_id: user.id, key_hash: tokenHash(key), created_at: formatUtc(now), expires_at: expiresAt })
      .execute();
  });
  if (origin) {
    await app.activity.log(
      loggerEntry(userLogger, 'user_requested_password_reset_link', { user_login: user.login, user_email: user.email }),
      origin,
    );
  }
  return { key, expiresAt };
}

/** The user a link is for, if its key is valid now; else the reason (`invalid_key`, `expired_key`). */
export async function checkPasswordResetKey(
  app: AppServices,
  login: unknown,
  key: unknown,
  now = new Date(),
): Promise<UserRow> {
  if (typeof login !== 'string' || !isTokenShaped(key) || login.length > 60) throw invalidResetKey();
  const user = await findUserByLogin(app, login);
  const row =
    user &&
    (await app.db.selectFrom('password_reset_keys').selectAll().where('user_id', '=', user.id).executeTakeFirst());
  const expected = Buffer.from(row ? row.key_hash : tokenHash(''), 'hex');
  const matches = crypto.timingSafeEqual(Buffer.from(tokenHash(key), 'hex'), expected) && row !== undefined;
  if (!user || !matches || user.status !== 'active') throw invalidResetKey();
  if (row!.expires_at <= formatUtc(now)) throw expiredResetKey();
  return user;
}

/**
 * Sets the password of the link's user and uses the key up, logged as the user resetting
 * their password. Of two concurrent uses of one key only one succeeds.
 */
export async function resetPasswordWithKey(
  app: AppServices,
  login: unknown,
  key: unknown,
  password: string,
  ip: string,
  now = new Date(),
): Promise<UserRow> {
  const user = await checkPasswordResetKey(app, login, key, now);
  // A refused password leaves the link usable for a better one.
  validatePassword(password);
  const used = await app.db
    .deleteFrom('password_reset_keys')
    .where('user_id', '=', user.id)
    .where('key_hash', '=', tokenHash(key as string))
    .where('expires_at', '>', formatUtc(now))
    .executeTakeFirst();
  if (Number(used.numDeletedRows) !== 1) throw invalidResetKey();
  const after = await setUserPassword(app, user.id, password);
  await app.activity.log(loggerEntry(userLogger, 'user_password_reseted'), { user: toAuthUser(after), ip });
  return after;
}

/** A new one-time link for the user to set a password (any earlier one stops working). */
export async function createPasswordResetLink(
  app: AppServices,
  user: UserRow,
  hours = RESET_KEY_HOURS,
  origin?: ActivityOrigin,
): Promise<{ url: string; expiresAt: string }> {
  const { key, expiresAt } = await createPasswordResetKey(app, user, { hours }, origin);
  const url = new URL(app.config.siteUrl.replace(/\/+$/, '') + LOGIN_PAGE_PATH);
  url.search = new URLSearchParams({ action: 'rp', key, login: user.login }).toString();
  return { url: url.toString(), expiresAt };
}
