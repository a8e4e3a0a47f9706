// Login sessions of the web pages, stored in the database (table web_sessions) so that every
// process of the site shares them, and the CSRF tokens of their forms.
//
// - The session cookie carries 256 random bits; the table holds only its SHA-256, so a copy
//   of the table does not hand out live sessions. Sessions expire SESSION_TTL_MS after login
//   (absolute), end on logout, and die with their user or when the user is disabled.
// - CSRF tokens are HMAC-SHA256 values, keyed with the site's secret (table web_keys), of the
//   session they belong to: a logged-in session, or, for the login form, a random "login
//   nonce" cookie. A token is useless without the cookie it is bound to, and cannot be made
//   without the key.
import crypto from 'node:crypto';
import type { AppServices } from '../site/services.ts';
import { findUserById, type UserRow } from '../auth/user-rows.ts';
import { formatUtc } from '../site/time.ts';
import { isTokenShaped, randomToken, tokenHash } from '../auth/tokens.ts';

export const SESSION_COOKIE = 'cms_session';
export const LOGIN_NONCE_COOKIE = 'cms_login_nonce';
export const SESSION_TTL_MS = 48 * 3600 * 1000;

export interface WebSession {
  idHash: string;
  user: UserRow;
  expiresAt: string;
}

export async function createSession(
  app: AppServices,
  userId: number,
  ip: string,
  userAgent: string,
  now = new Date(),
): Promise<{ cookieValue: string; session: WebSession }> {
  const cookieValue = randomToken();
  const idHash = tokenHash(cookieValue);
  const expiresAt = formatUtc(new Date(now.getTime() + SESSION_TTL_MS));
  // Expired sessions of anyone are cleared whenever someone logs in.
  await app.db.deleteFrom('web_sessions').where('expires_at', '<=', formatUtc(now)).execute();
  await app.db
    .insertInto('web_sessions')
    .values({
      id_hash: idHash,
      user_id: userId,
      created_at: formatUtc(now),
      expires_at: expiresAt,
      ip: ip.slice(0, 45),
      user_agent: userAgent.slice(0, 255),
    })
    .execute();
  const user = await findUserById(app, userId);
  if (!user) throw new Error(`user ${userId} vanished while logging in`);
  return { cookieValue, session: { idHash, user, expiresAt } };
}

/** The live session of a cookie value, or null (unknown, expired, user gone or disabled). */
export async function loadSession(
  app: AppServices,
  cookieValue: unknown,
  now = new Date(),
): Promise<WebSession | null> {
  if (!isTokenShaped(cookieValue)) return null;
  const idHash = tokenHash(cookieValue);
  const row = await app.db
    .selectFrom('web_sessions')
    .select(['user_id', 'expires_at'])
    .where('id_hash', '=', idHash)
    .executeTakeFirst();
  if (!row) return null;
  if (row.expires_at <= formatUtc(now)) {
    await app.db.deleteFrom('web_sessions').where('id_hash', '=', idHash).execute();
    return null;
  }
  const user = await findUserById(app, row.user_id);
  if (!user || user.status !== 'active') return null;
  return { idHash, user, expiresAt: row.expires_at };
}

export async function destroySession(app: AppServices, idHash: string): Promise<void> {
  await app.db.deleteFrom('web_sessions').where('id_hash', '=', idHash).execute();
}

/** Ends every session of a user (after a password change), but the one of `keepIdHash`. */
export async function destroyUserSessions(app: AppServices, userId: number, keepIdHash?: string): Promise<void> {
  let q = app.db.deleteFrom('web_sessions').where('user_id', '=', userId);
  if (keepIdHash) q = q.where('id_hash', '!=', keepIdHash);
  await q.execute();
}

// --- CSRF ---

const keys = new WeakMap<AppServices, Promise<Buffer>>();

async function readKey(app: AppServices): Promise<Buffer> {
  const row = await app.db.selectFrom('web_keys').select('value').where('name', '=', 'csrf').executeTakeFirst();
  if (row) return Buffer.from(row.value, 'base64url');
  // The migration creates the key; should it have been removed, the first process to notice
  // makes a new one (a concurrent process's insert wins and both then read the same key).
  await app.db
    .insertInto('web_keys')
    .values({ name: 'csrf', value: randomToken() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const again = await app.db
    .selectFrom('web_keys')
    .select('value')
    .where('name', '=', 'csrf')
    .executeTakeFirstOrThrow();
  return Buffer.from(again.value, 'base64url');
}

function csrfKey(app: AppServices): Promise<Buffer> {
  let key = keys.get(app);
  if (!key) {
    key = readKey(app);
    key.catch(() => keys.delete(app));
    keys.set(app, key);
  }
  return key;
}

export type CsrfBinding = { kind: 'session'; idHash: string } | { kind: 'login'; nonce: string };

/** HMAC-SHA256 (base64url, 43 characters) of `subject` under the site's secret key. */
export async function signWithSiteKey(app: AppServices, subject: string): Promise<string> {
  const key = await csrfKey(app);
  return crypto.createHmac('sha256', key).update(subject, 'utf8').digest('base64url');
}

export async function csrfToken(app: AppServices, binding: CsrfBinding): Promise<string> {
  return signWithSiteKey(app, binding.kind === 'session' ? `session|${binding.idHash}` : `login|${binding.nonce}`);
}

export async function checkCsrf(app: AppServices, binding: CsrfBinding | null, submitted: unknown): Promise<boolean> {
  if (!binding || typeof submitted !== 'string' || submitted.length !== 43) return false;
  return sameToken(submitted, await csrfToken(app, binding));
}

/** Compares a submitted token with the expected one in constant time. */
export function sameToken(submitted: string, expected: string): boolean {
  const a = Buffer.from(submitted);
  const b = Buffer.from(expected);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}
