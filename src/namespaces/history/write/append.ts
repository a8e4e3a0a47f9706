// The one logging function of the server (site/activity.ts ActivityLog): every write of
// every namespace, every login and failed login is recorded here.
//
// Writes are group-committed: log calls that arrive while a transaction is running are
// written together in the next one (events, their contexts, occasions and counters in one
// transaction), so throughput grows with concurrency instead of queueing on the single
// writer (on PostgreSQL usually in one round trip, write/group-pg.ts). A call resolves when
// its event is durable.
//
// Repeated failed logins are throttled as the reference does (write/group.ts).
import type { AppServices } from '../../../site/services.ts';
import type { ActivityEntry, ActivityLog, ActivityOrigin } from '../../../site/activity.ts';
import { prepareEvent, type PreparedEvent } from '../model/event.ts';
import { isFailedLogin, MAX_GROUP, SHARED_FOR_MS, writeGroup, type Pending } from './group.ts';
import { writeGroupPg, type LogState } from './group-pg.ts';

/**
 * One group (taken by `take`, exactly once) in one transaction, by the fastest path the
 * database allows; the state it leaves when known (PostgreSQL appends).
 */
async function writeGroupAnyhow(
  app: AppServices,
  take: () => Pending[],
  known: LogState | null,
): Promise<{ ids: number[]; state: LogState | null; shared: boolean }> {
  const pool = app.dialect === 'postgres' ? app.dbHandle.pgPipelinePool : undefined;
  let group: Pending[] | null = null;
  const takeOnce = () => (group ??= take());
  if (pool) {
    const written = await writeGroupPg(pool, takeOnce, known);
    if (written) return written;
  }
  return {
    ids: await app.db.transaction().execute((tx) => writeGroup(app, tx, takeOnce())),
    state: null,
    shared: false,
  };
}

export function createActivityLog(app: AppServices): ActivityLog {
  const queue: Pending[] = [];
  // PostgreSQL: while this process is the log's only writer, it knows the state its last group
  // left, and writes one group at a time, each in one round trip. Once another writer shows up
  // (a failed guard), for a while up to two groups are in flight instead, each reading the state
  // under the run lock, so that the round trips of one overlap the lock wait of the next (with
  // one such group at a time the server and PostgreSQL sat idle half the time under load).
  // SQLite writes synchronously: one group at a time.
  const pipelinePool = app.dialect === 'postgres' ? app.dbHandle.pgPipelinePool : undefined;
  let inFlight = 0;
  /** The log as this process's last write left it, while no other write of ours is in flight. */
  let known: LogState | null = null;
  /** Until then (ms) another process is assumed to write too. */
  let sharedUntil = 0;
  /** A transaction has begun but not yet taken its group: the next one waits for that. */
  let untaken = false;
  let scheduled = false;

  /**
   * Writes the next group and settles its callers; one bad event must not fail the others.
   * `release` lets the next group begin.
   */
  async function writeAndSettle(release: (now: boolean) => void): Promise<void> {
    let group: Pending[] | null = null;
    const take = () => {
      untaken = false;
      group = queue.splice(0, MAX_GROUP);
      schedule();
      return group;
    };
    // Only a write begun with no other in flight can know what the log will look like, and only
    // while no other process writes.
    const assumed = inFlight === 1 && Date.now() >= sharedUntil ? known : null;
    known = null;
    try {
      const { ids, state, shared } = await writeGroupAnyhow(app, take, assumed);
      if (shared) sharedUntil = Date.now() + SHARED_FOR_MS;
      if (inFlight === 1) known = state;
      const written = group!;
      if (pipelinePool) {
        // PostgreSQL: the next group (what arrived during this write) is sent before this one's
        // callers go on to answer their requests, so that PostgreSQL writes it meanwhile
        // instead of waiting for the server's event loop.
        release(true);
        setImmediate(() => written.forEach((p, i) => p.resolve(ids[i])));
        return;
      }
      written.forEach((p, i) => p.resolve(ids[i]));
    } catch (err) {
      // Failed before taking (no connection): fail what is waiting rather than retry in a loop.
      const failed: Pending[] = group ?? take();
      if (failed.length === 1) {
        failed[0].reject(err);
        return;
      }
      for (const p of failed) {
        try {
          const [id] = (await writeGroupAnyhow(app, () => [p], null)).ids;
          p.resolve(id);
        } catch (one) {
          p.reject(one);
        }
      }
    }
  }

  /** Begins a group when one may: what arrives meanwhile is the next group. */
  function pump(): void {
    const maxInFlight = pipelinePool && Date.now() < sharedUntil ? pipelinePool.options.max : 1;
    if (inFlight >= maxInFlight || untaken || !queue.length) return;
    inFlight++;
    untaken = true;
    let released = false;
    const release = (now: boolean) => {
      if (released) return;
      released = true;
      inFlight--;
      if (now) pump();
      else schedule();
    };
    void writeAndSettle(release).finally(() => release(false));
  }

  /**
   * Starts writing on the next turn of the event loop, so that the events of every request read
   * in this turn share one transaction (on SQLite a transaction otherwise completes within
   * microtasks and never groups anything), and so that callers logging again as soon as their
   * event is written cannot keep the loop in microtasks.
   */
  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      pump();
    });
  }

  return {
    log(entry: ActivityEntry, origin: ActivityOrigin): Promise<number> {
      let event: PreparedEvent;
      try {
        event = prepareEvent(app.loggers, entry, origin);
      } catch (err) {
        return Promise.reject(err);
      }
      return new Promise<number>((resolve, reject) => {
        queue.push({ event, failedLogin: isFailedLogin(entry), resolve, reject });
        schedule();
      });
    },
  };
}
