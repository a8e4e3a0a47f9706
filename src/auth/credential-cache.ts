// Verified-credentials cache: without it every authenticated request would cost a user
// lookup plus one hash per stored application password of that user.
//
// - Keyed by a SHA-256 of a random per-process secret followed by the whole Authorization
//   header, so the map never holds a usable secret and a memory dump reveals nothing
//   reusable. (One-shot crypto.hash: an HMAC keyed with a Buffer re-imports its key on every
//   call and cost ~20× more — it dominated the cost of an authenticated request.)
// - Entries live CACHE_TTL_MS at most. Bounded in size: when full, the oldest entry is dropped
//   (Map keeps insertion order).
// - Revocation reaches every process sharing the database within FRESH_MS. Every change that must
//   end cached credentials (a user disabled, deleted or given another role, an application
//   password revoked) calls markCredentialsChanged() in its own transaction, which bumps the
//   counter `credentials` (table auth_counters). A cached entry is used only if that counter was
//   read less than FRESH_MS ago; otherwise it is read first, and when it moved every entry goes.
//   That is one single-row read per FRESH_MS per process, and only while cached credentials are
//   in use. (Polling a counter works alike on PostgreSQL, on other machines too, and on SQLite,
//   where no notifications exist; SQLite's `PRAGMA data_version` would move with every write of
//   another process, activity-log events included, and empty the cache all the time.) In the
//   process that made the change, the user's or password's entries are dropped at once.
import crypto from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { AppServices } from '../site/services.ts';
import type { Database } from '../db/schema.ts';
import type { AuthUser } from './types.ts';

export const CACHE_TTL_MS = 15_000;
export const FRESH_MS = 250;
const MAX_ENTRIES = 10_000;
const COUNTER = 'credentials';

interface CachedCredential {
  user: AuthUser;
  appPasswordUuid: string;
  expires: number;
}

export class CredentialCache {
  private readonly secret = crypto.randomBytes(32).toString('hex');
  private readonly entries = new Map<string, CachedCredential>();
  /** Verifications under way, by address and header. */
  private readonly verifying = new Map<string, Promise<unknown>>();
  private readonly readCounter: () => Promise<number>;
  /** The stored counter as last read (null: never read), and when that read began. */
  private seenCounter: number | null = null;
  private checkedAt = -Infinity;
  private checking: Promise<void> | null = null;
  /**
   * Bumped by every invalidation. A verification that started before an invalidation
   * (e.g. a revoke racing a request) must not cache what it read.
   */
  generation = 0;

  constructor(readCounter: () => Promise<number>) {
    this.readCounter = readCounter;
  }

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

  /** Whether the counter must be read again (sync()) before a cached entry may be used. */
  stale(now = Date.now()): boolean {
    return now - this.checkedAt >= FRESH_MS;
  }

  /**
   * Reads the stored counter; when it moved, drops every entry. The first read drops them too:
   * they were cached before this process knew the counter. Concurrent callers share one read.
   */
  sync(): Promise<void> {
    this.checking ??= (async () => {
      const startedAt = Date.now();
      try {
        const counter = await this.readCounter();
        if (counter !== this.seenCounter) this.forgetAll();
        this.seenCounter = counter;
        this.checkedAt = startedAt;
      } finally {
        this.checking = null;
      }
    })();
    return this.checking;
  }

  /**
   * Runs the verification of a header sent from an address, or joins the one under way: a client
   * sending many requests at once with credentials not (or no longer) cached costs one check, and
   * one attempt of the login throttle, not one per request.
   */
  verifyOnce<T>(ip: string, authorization: string, verify: () => Promise<T>): Promise<T> {
    const k = this.keyOf(`${ip}\n${authorization}`);
    let running = this.verifying.get(k) as Promise<T> | undefined;
    if (!running) {
      running = verify().finally(() => this.verifying.delete(k));
      this.verifying.set(k, running);
    }
    return running;
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

  private forgetAll(): void {
    this.generation++;
    this.entries.clear();
  }
}

/** Ends cached credentials in every process; call it in the transaction of the change. */
export async function markCredentialsChanged(tx: Transaction<Database>): Promise<void> {
  await tx
    .insertInto('auth_counters')
    .values({ name: COUNTER, value: 1 })
    .onConflict((oc) => oc.column('name').doUpdateSet((eb) => ({ value: eb('auth_counters.value', '+', 1) })))
    .execute();
}

async function readCredentialsCounter(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('auth_counters').select('value').where('name', '=', COUNTER).executeTakeFirst();
  return Number(row?.value ?? 0);
}

// One cache per AppServices (tests open several apps on different databases in one process).
const caches = new WeakMap<AppServices, CredentialCache>();

export function credentialCache(app: AppServices): CredentialCache {
  let cache = caches.get(app);
  if (!cache) {
    cache = new CredentialCache(() => readCredentialsCounter(app.db));
    caches.set(app, cache);
  }
  return cache;
}
