// Checking a user's interactive-login password at one password hash's cost whatever the outcome
// (its rule is in user-fields.ts; setting one is a user write, users.ts's setUserPassword).
import crypto from 'node:crypto';
import type { AppServices } from '../site/services.ts';
import { hashPassword, needsRehash, verifyPassword } from './passwords.ts';
import type { UserRow } from './user-rows.ts';

let throwaway: Promise<string> | undefined;

/**
 * The hash of a random password, made once per process and checked where there is no real one.
 * Servers make it before they serve, so that the first such check costs no more than the others.
 */
export function throwawayPasswordHash(): Promise<string> {
  return (throwaway ??= hashPassword(crypto.randomBytes(16).toString('base64url')));
}

/**
 * Checks an interactive-login password (users without one can only use app passwords). Costs
 * one password hash whatever the outcome: for no user, a user without a password or a disabled
 * one, the throwaway hash is checked instead, so that the time of a failure tells nothing.
 * With `app`, a hash in an imported format (WordPress's) is replaced by ours once it matched.
 */
export async function verifyUserPassword(
  row: UserRow | undefined,
  password: string,
  app?: AppServices,
): Promise<boolean> {
  const usable = row !== undefined && row.status === 'active' && row.password_hash !== null;
  const stored = usable ? row.password_hash! : await throwawayPasswordHash();
  const matches = await verifyPassword(password, stored);
  if (!usable || !matches) return false;
  if (app && needsRehash(stored)) {
    // Only if unchanged meanwhile: a password set concurrently wins.
    await app.db
      .updateTable('users')
      .set({ password_hash: await hashPassword(password) })
      .where('id', '=', row.id)
      .where('password_hash', '=', stored)
      .execute();
  }
  return true;
}
