// Failed-login throttling per client address, for the web login and HTTP Basic authentication
// alike. Counted in the database (table login_throttle, one row per address), so the limit holds
// however many processes or machines share the database.
//
// - An attempt is counted before its password is checked (reserveLoginAttempt): of any number of
//   concurrent attempts from one address, at most MAX_FAILURES are let through per window; the
//   others are refused (429) without a check. A successful login gives its attempt back, so only
//   failures (and checks still running) use up the limit.
// - A window opens with an address's first attempt and lasts WINDOW_MS: at most MAX_FAILURES
//   checks per window, MAX_FAILURES a minute in the long run (at most twice that in a minute that
//   straddles two windows).
// - Each decision is one statement (an upsert whose update only happens under the limit), atomic
//   on PostgreSQL (row lock) and SQLite (one writer) alike.
// - Refused attempts are not logged one by one: a window's refusals become one activity-log event
//   with their count once the window is over (sweepLoginThrottle, run by every server process;
//   claiming a count is atomic, so each is logged once whichever process sweeps).
import { sql, type Kysely } from 'kysely';
import type { AppServices } from '../site/services.ts';
import type { Database } from '../db/schema.ts';
import { FAILED_LOGIN_OCCASION, userLogger } from './logger.ts';
import { loggerEntry } from '../site/activity.ts';

export const MAX_FAILURES = 10;
export const WINDOW_MS = 60_000;
const SWEEP_INTERVAL_MS = 15_000;
/** Addresses whose refusals are logged per sweep (the rest wait for the next one). */
const SWEEP_BATCH = 500;

export type LoginAttempt =
  | { granted: true /** Gives the attempt back after a successful login. */; release(): Promise<void> }
  | { granted: false /** Seconds until the address may try again. */; retryAfter: number };

/** Counts an attempt from `ip`, before its password is checked; refused beyond the limit. */
export async function reserveLoginAttempt(
  db: Kysely<Database>,
  address: string,
  now = Date.now(),
): Promise<LoginAttempt> {
  // As long as the column (an IPv6 address with a zone could be longer).
  const ip = address.slice(0, 45);
  const expired = sql<boolean>`login_throttle.window_start <= ${now - WINDOW_MS}`;
  const reserved = await db
    .insertInto('login_throttle')
    .values({ ip, window_start: now, attempts: 1, refused: 0, unlogged_refused: 0 })
    .onConflict((oc) =>
      oc
        .column('ip')
        .doUpdateSet({
          window_start: sql`case when ${expired} then ${now} else login_throttle.window_start end`,
          attempts: sql`case when ${expired} then 1 else login_throttle.attempts + 1 end`,
          refused: sql`case when ${expired} then 0 else login_throttle.refused end`,
          unlogged_refused: sql`case when ${expired} then login_throttle.unlogged_refused + login_throttle.refused else login_throttle.unlogged_refused end`,
        })
        .where((eb) => eb.or([expired, eb('login_throttle.attempts', '<', MAX_FAILURES)])),
    )
    .returning('window_start')
    .executeTakeFirst();
  if (reserved) {
    const windowStart = Number(reserved.window_start);
    return {
      granted: true,
      release: async () => {
        await db
          .updateTable('login_throttle')
          .set((eb) => ({ attempts: eb('attempts', '-', 1) }))
          .where('ip', '=', ip)
          .where('window_start', '=', windowStart)
          .where('attempts', '>', 0)
          .execute();
      },
    };
  }
  const row = await db
    .updateTable('login_throttle')
    .set((eb) => ({ refused: eb('refused', '+', 1) }))
    .where('ip', '=', ip)
    .returning('window_start')
    .executeTakeFirst();
  const end = row ? Number(row.window_start) + WINDOW_MS : now;
  return { granted: false, retryAfter: Math.max(1, Math.ceil((end - now) / 1000)) };
}

/**
 * Ends the windows that are over: their refused attempts are written to the activity log, one
 * event per address, and rows with nothing left to say are deleted. Returns what it logged.
 */
export async function sweepLoginThrottle(
  app: AppServices,
  now = Date.now(),
): Promise<{ ip: string; refused: number }[]> {
  const cutoff = now - WINDOW_MS;
  await app.db
    .updateTable('login_throttle')
    .set((eb) => ({ unlogged_refused: eb('unlogged_refused', '+', eb.ref('refused')), refused: 0 }))
    .where('window_start', '<=', cutoff)
    .where('refused', '>', 0)
    .execute();
  const pending = await app.db
    .selectFrom('login_throttle')
    .select(['ip', 'unlogged_refused'])
    .where('unlogged_refused', '>', 0)
    .limit(SWEEP_BATCH)
    .execute();
  const logged: { ip: string; refused: number }[] = [];
  for (const { ip, unlogged_refused: refused } of pending) {
    // Claimed before logging: of processes sweeping at once, exactly one subtracts the count.
    const claimed = await app.db
      .updateTable('login_throttle')
      .set((eb) => ({ unlogged_refused: eb('unlogged_refused', '-', refused) }))
      .where('ip', '=', ip)
      .where('unlogged_refused', '>=', refused)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) continue;
    await app.activity.log(
      loggerEntry(
        userLogger,
        'user_login_attempts_refused',
        { refused_attempts: refused, _occasionsID: FAILED_LOGIN_OCCASION },
        { level: 'warning' },
      ),
      { user: null, ip, initiator: 'web_user' },
    );
    logged.push({ ip, refused });
  }
  await app.db
    .deleteFrom('login_throttle')
    .where('window_start', '<=', cutoff)
    .where('refused', '=', 0)
    .where('unlogged_refused', '=', 0)
    .execute();
  return logged;
}

/** Sweeps every SWEEP_INTERVAL_MS while the server runs. */
export function startLoginThrottleSweeper(app: AppServices): { stop(): Promise<void> } {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = sweepLoginThrottle(app)
        .catch((err: unknown) => app.log.warn({ err }, 'login throttle: sweep failed'))
        .finally(schedule);
    }, SWEEP_INTERVAL_MS);
    timer.unref();
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
