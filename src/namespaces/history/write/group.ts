// A group of log calls written in one transaction: failed-login throttling (at most FAILED_LOGIN_LIMIT
// in a row are stored; the rest are only counted until any other event is logged) and the general
// write path (any database, any dates).
import type { Transaction } from 'kysely';
import type { AppServices } from '../../../site/services.ts';
import type { Database } from '../../../db/schema.ts';
import type { ActivityEntry } from '../../../site/activity.ts';
import type { PreparedEvent } from '../model/event.ts';
import { linkIntoRuns, lockRuns, setAppendRuns } from './runs.ts';
import { COUNTER_RUN_HEADS, newestRow, type RunRow } from '../model/runs.ts';
import {
  addToCounter,
  COUNTER_CONSECUTIVE_FAILED_LOGINS,
  COUNTER_SUPPRESSED_FAILED_LOGINS,
  COUNTER_TOTAL,
  readCounter,
} from '../model/counters.ts';
import { insertEvents } from './insert.ts';
import { FAILED_LOGIN_KEYS, U } from '../stats/summary.ts';

export const FAILED_LOGIN_LIMIT = 100;
const FAILED_LOGIN_KEY_SET = new Set(FAILED_LOGIN_KEYS);
export const MAX_GROUP = 500;
/** How long, after finding that another process wrote, the PostgreSQL log expects it to go on. */
export const SHARED_FOR_MS = 1000;

export function isFailedLogin(entry: ActivityEntry): boolean {
  return entry.logger === U && FAILED_LOGIN_KEY_SET.has(entry.messageKey);
}

export interface Pending {
  event: PreparedEvent;
  failedLogin: boolean;
  resolve: (id: number) => void;
  reject: (err: unknown) => void;
}

/** Failed-login throttling of a group, in arrival order, from the stored consecutive count. */
export function throttle(
  group: Pending[],
  consecutive: number,
): { keep: boolean[]; consecutiveDelta: number; suppressed: number } {
  let current = consecutive;
  let suppressed = 0;
  const keep = group.map((p) => {
    if (!p.failedLogin) {
      current = 0;
      return true;
    }
    if (current >= FAILED_LOGIN_LIMIT) {
      suppressed++;
      return false;
    }
    current++;
    return true;
  });
  return { keep, consecutiveDelta: current - consecutive, suppressed };
}

/** Whether the kept events all come after the newest row (and each other): the append fast path. */
export function appendsInOrder(newest: RunRow | undefined, events: PreparedEvent[]): boolean {
  return events.every((e, i) =>
    i === 0 ? !newest || e.row.date >= newest.date : e.row.date >= events[i - 1].row.date,
  );
}

/** Writes a group of events in one transaction; returns each one's id (0 = throttled). */
export async function writeGroup(app: AppServices, tx: Transaction<Database>, group: Pending[]): Promise<number[]> {
  await lockRuns(tx, app.dialect);
  const { keep, consecutiveDelta, suppressed } = throttle(
    group,
    await readCounter(tx, COUNTER_CONSECUTIVE_FAILED_LOGINS),
  );
  if (consecutiveDelta) await addToCounter(tx, COUNTER_CONSECUTIVE_FAILED_LOGINS, consecutiveDelta);
  if (suppressed) await addToCounter(tx, COUNTER_SUPPRESSED_FAILED_LOGINS, suppressed);

  const events = group.filter((_, i) => keep[i]).map((p) => p.event);
  let ids: number[] = [];
  if (events.length) {
    const newest = await newestRow(tx);
    if (appendsInOrder(newest, events)) {
      // Appended after every existing row: occasions follow from the rows themselves.
      const { demoteNewest, headsDelta } = setAppendRuns(newest, events);
      if (demoteNewest)
        await tx.updateTable('history_events').set({ run_head: 0 }).where('id', '=', newest!.id).execute();
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
