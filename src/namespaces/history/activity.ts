// The one logging function of the server (site/activity.ts ActivityLog): every write of
// every namespace, every login and failed login is recorded here.
//
// Writes are group-committed: log calls that arrive while a transaction is running are
// written together in the next one (events, context rows, occasions and counters in one
// transaction), so throughput grows with concurrency instead of queueing on the single
// writer. A call resolves when its event is durable.
//
// Repeated failed logins are throttled as the reference does: at most FAILED_LOGIN_LIMIT in
// a row are stored; the rest are only counted until any other event is logged.
import type { Transaction } from 'kysely';
import type { AppServices } from '../../app.ts';
import type { Database } from '../../db/schema.ts';
import type { ActivityEntry, ActivityLog, ActivityOrigin } from '../../site/activity.ts';
import {
  addToCounter, COUNTER_CONSECUTIVE_FAILED_LOGINS, COUNTER_SUPPRESSED_FAILED_LOGINS, COUNTER_TOTAL, insertEvents, prepareEvent,
  readCounter, type PreparedEvent,
} from './store.ts';
import { COUNTER_RUN_HEADS, linkIntoRuns, lockRuns, newestRow, runsForAppend } from './runs.ts';

export const FAILED_LOGIN_LIMIT = 100;
const FAILED_LOGIN_KEYS = new Set(['user_login_failed', 'user_unknown_login_failed']);
const MAX_GROUP = 500;

export function isFailedLogin(entry: ActivityEntry): boolean {
  return entry.logger === 'SimpleUserLogger' && FAILED_LOGIN_KEYS.has(entry.messageKey);
}

interface Pending {
  event: PreparedEvent;
  failedLogin: boolean;
  resolve: (id: number) => void;
  reject: (err: unknown) => void;
}

/** Writes a group of events in one transaction; returns each one's id (0 = throttled). */
async function writeGroup(app: AppServices, tx: Transaction<Database>, group: Pending[]): Promise<number[]> {
  await lockRuns(tx, app.dialect);
  // Failed-login throttling, in arrival order.
  let consecutive = await readCounter(tx, COUNTER_CONSECUTIVE_FAILED_LOGINS);
  const startConsecutive = consecutive;
  let suppressed = 0;
  const keep: boolean[] = group.map((p) => {
    if (!p.failedLogin) {
      consecutive = 0;
      return true;
    }
    if (consecutive >= FAILED_LOGIN_LIMIT) {
      suppressed++;
      return false;
    }
    consecutive++;
    return true;
  });
  if (consecutive !== startConsecutive) await addToCounter(tx, COUNTER_CONSECUTIVE_FAILED_LOGINS, consecutive - startConsecutive);
  if (suppressed) await addToCounter(tx, COUNTER_SUPPRESSED_FAILED_LOGINS, suppressed);

  const events = group.filter((_, i) => keep[i]).map((p) => p.event);
  let ids: number[] = [];
  if (events.length) {
    const newest = await newestRow(tx);
    const inOrder = events.every((e, i) => (i === 0 ? !newest || e.row.date >= newest.date : e.row.date >= events[i - 1].row.date));
    if (inOrder) {
      // Appended after every existing row: occasions follow from the rows themselves.
      const { runs, demoteNewest, headsDelta } = runsForAppend(newest, events.map((e) => e.row.occasions_id));
      events.forEach((e, i) => {
        e.row.run_head = runs[i][0];
        e.row.run_size = runs[i][1];
      });
      if (demoteNewest) await tx.updateTable('history_events').set({ run_head: 0 }).where('id', '=', newest!.id).execute();
      if (headsDelta) await addToCounter(tx, COUNTER_RUN_HEADS, headsDelta);
      ids = await insertEvents(tx, events);
    } else {
      // Back-dated events land between existing ones: link them in one by one.
      for (const e of events) {
        const [id] = await insertEvents(tx, [e]);
        await linkIntoRuns(tx, { id, date: e.row.date, occasions_id: e.row.occasions_id });
        ids.push(id);
      }
    }
    await addToCounter(tx, COUNTER_TOTAL, events.length);
  }
  let next = 0;
  return keep.map((k) => (k ? ids[next++] : 0));
}

export function createActivityLog(app: AppServices): ActivityLog {
  const queue: Pending[] = [];
  let writing = false;

  async function drain(): Promise<void> {
    writing = true;
    try {
      while (queue.length) {
        const group = queue.splice(0, MAX_GROUP);
        try {
          const ids = await app.db.transaction().execute((tx) => writeGroup(app, tx, group));
          group.forEach((p, i) => p.resolve(ids[i]));
        } catch (err) {
          if (group.length === 1) {
            group[0].reject(err);
            continue;
          }
          // One bad event must not fail the others: write them one by one.
          for (const p of group) {
            try {
              const [id] = await app.db.transaction().execute((tx) => writeGroup(app, tx, [p]));
              p.resolve(id);
            } catch (one) {
              p.reject(one);
            }
          }
        }
      }
    } finally {
      writing = false;
    }
  }

  return {
    log(entry: ActivityEntry, origin: ActivityOrigin): Promise<number> {
      let event: PreparedEvent;
      try {
        event = prepareEvent(entry, origin);
      } catch (err) {
        return Promise.reject(err);
      }
      return new Promise<number>((resolve, reject) => {
        queue.push({ event, failedLogin: isFailedLogin(entry), resolve, reject });
        // Start writing on the next turn of the event loop, so that the events of every request
        // read in this turn share one transaction (on SQLite a transaction otherwise completes
        // within microtasks and never groups anything).
        if (!writing) {
          writing = true;
          setImmediate(() => void drain());
        }
      });
    },
  };
}
