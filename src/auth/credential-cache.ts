// Verified-credentials cache: without it every authenticated request would cost a user
// lookup plus one hash per stored application password of that user.
//
// - Keyed by a SHA-256 of a random per-process secret followed by the whole Authorization
//   header, so the map never holds a usable secret and a memory dump reveals nothing
//   reusable. (One-shot crypto.hash: an HMAC keyed with a Buffer re-imports its key on every
//   call and cost ~20× more — it dominated the cost of an authenticated request.)
// - Entries live CACHE_TTL_MS at most. Revoking a password, changing a role, disabling or
//   deleting a user drops the user's entries in this process at once; other processes
//   sharing the database see the change when their entries expire (≤ CACHE_TTL_MS).
// - Bounded in size: when full, the oldest entry is dropped (Map keeps insertion order).
import crypto from 'node:crypto';
import type { AppServices } from '../app.ts';
import type { AuthUser } from './types.ts';

export const CACHE_TTL_MS = 15_000;
const MAX_ENTRIES = 10_000;

interface CachedCredential {
  user: AuthUser;
  appPasswordUuid: string;
  expires: number;
}

export class CredentialCache {
  private readonly secret = crypto.randomBytes(32).toString('hex');
  private readonly entries = new Map<string, CachedCredential>();
  /**
   * Bumped by every invalidation. A verification that started before an invalidation
   * (e.g. a revoke racing a request) must not cache what it read.
   */
  generation = 0;

  private keyOf(authorization: string): string {
    return crypto.hash('sha256', this.secret + authorization, 'base64url');
  }

  get(authorization: string, now = Date.now()): { user: AuthUser; appPasswordUuid: string } | null {
    const k = this.keyOf(authorization);
    const hit = this.entries.get(k);
    if (!hit) return null;
    if (hit.expires <= now) {
      this.entries.delete(k);
      return null;
    }
    return { user: hit.user, appPasswordUuid: hit.appPasswordUuid };
  }

  /** Caches a verification that started when `generation` had the given value. */
  set(authorization: string, user: AuthUser, appPasswordUuid: string, generation: number, now = Date.now()): void {
    if (generation !== this.generation) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(this.keyOf(authorization), { user, appPasswordUuid, expires: now + CACHE_TTL_MS });
  }

  forgetUser(userId: number): void {
    this.generation++;
    for (const [k, v] of this.entries) if (v.user.id === userId) this.entries.delete(k);
  }

  forgetAppPassword(uuid: string): void {
    this.generation++;
    for (const [k, v] of this.entries) if (v.appPasswordUuid === uuid) this.entries.delete(k);
  }
}

// One cache per AppServices (tests open several apps on different databases in one process).
const caches = new WeakMap<AppServices, CredentialCache>();

export function credentialCache(app: AppServices): CredentialCache {
  let cache = caches.get(app);
  if (!cache) {
    cache = new CredentialCache();
    caches.set(app, cache);
  }
  return cache;
}
