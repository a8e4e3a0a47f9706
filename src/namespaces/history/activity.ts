// The one logging function of the server (site/activity.ts ActivityLog): every write of
// every namespace, every login and failed login is recorded here.
//
// Writes are group-committed: log calls that arrive while a transaction is running are
// written together in the next one (events, context rows, occasions and counters in one
// transaction), so throughput grows with concurrency instead of queueing on the single
// writer; on PostgreSQL the next transaction begins while the current one is written. A call
// resolves when its event is durable.
//
// Repeated failed logins are throttled as the reference does: at most FAILED_LOGIN_LIMIT in
// a row are stored; the rest are only counted until any other event is logged.
import type { Transaction } from 'kysely';
import type pg from 'pg';
import type { AppServices } from '../../app.ts';
import type { Database } from '../../db/schema.ts';
import type { ActivityEntry, ActivityLog, ActivityOrigin } from '../../site/activity.ts';
import {
  addToCounter, columnValue, COUNTER_CONSECUTIVE_FAILED_LOGINS, COUNTER_SUPPRESSED_FAILED_LOGINS, COUNTER_TOTAL, EVENT_COLUMNS,
  hourlyCounts, insertEvents, PG_INSERT_EVENTS, pgAddHourly, prepareEvent,
  readCounter, type PreparedEvent,
} from './store.ts';
import { COUNTER_RUN_HEADS, linkIntoRuns, lockRuns, newestRow, PG_RUNS_LOCK, runsForAppend } from './runs.ts';

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

/** Failed-login throttling of a group, in arrival order, from the stored consecutive count. */
function throttle(group: Pending[], consecutive: number): { keep: boolean[]; consecutiveDelta: number; suppressed: number } {
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

type Newest = Awaited<ReturnType<typeof newestRow>>;

/** Whether the kept events all come after the newest row (and each other): the append fast path. */
function appendsInOrder(newest: Newest, events: PreparedEvent[]): boolean {
  return events.every((e, i) => (i === 0 ? !newest || e.row.date >= newest.date : e.row.date >= events[i - 1].row.date));
}

/** Writes a group of events in one transaction; returns each one's id (0 = throttled). */
async function writeGroup(app: AppServices, tx: Transaction<Database>, group: Pending[]): Promise<number[]> {
  await lockRuns(tx, app.dialect);
  const { keep, consecutiveDelta, suppressed } = throttle(group, await readCounter(tx, COUNTER_CONSECUTIVE_FAILED_LOGINS));
  if (consecutiveDelta) await addToCounter(tx, COUNTER_CONSECUTIVE_FAILED_LOGINS, consecutiveDelta);
  if (suppressed) await addToCounter(tx, COUNTER_SUPPRESSED_FAILED_LOGINS, suppressed);

  const events = group.filter((_, i) => keep[i]).map((p) => p.event);
  let ids: number[] = [];
  if (events.length) {
    const newest = await newestRow(tx);
    if (appendsInOrder(newest, events)) {
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

// ---- PostgreSQL: the common case in three round trips ----------------------------------------
//
// Through Kysely a group costs about eleven statements, each a round trip to the server, and
// the group commit writes one group at a time: on PostgreSQL the round trips, not the work,
// bounded the events per second. The append path (every event newer than the log) is written
// here on a pooled client in three round trips: begin + run lock + state (one simple-protocol
// query of constant statements; in READ COMMITTED each statement takes its own snapshot, so
// the state is read after the lock is held), one statement writing events, context rows, the
// demoted run head and the counters, and commit. Anything else (back-dated events) is written
// by `writeGroup` in a Kysely transaction.

const PG_BEGIN_AND_STATE = [
  'begin',
  PG_RUNS_LOCK,
  `select (select value from history_counters where name = '${COUNTER_CONSECUTIVE_FAILED_LOGINS}') as consecutive,
     e.id, e.date, e.occasions_id, e.run_head, e.run_size
   from (select 1) as one left join lateral (
     select id, date, occasions_id, run_head, run_size from history_events order by date desc, id desc limit 1
   ) as e on true`,
].join('; ');

const E = EVENT_COLUMNS.length;

/**
 * Events (one array per column), their context rows (event position, seq, key, value), the row
 * to demote from run head (0: none), counter deltas and hourly counts, in one statement. Event ids come from
 * the sequence in insertion order, so their rank maps context rows to events.
 */
const PG_WRITE = {
  name: 'history_append_group',
  text: `with ev as (${PG_INSERT_EVENTS}), pos as (
    select id, row_number() over (order by id) as n from ev
  ), ctx as (
    insert into history_contexts (event_id, seq, key, value)
    select pos.id, c.seq, c.key, c.value
    from unnest($${E + 1}::int[], $${E + 2}::int[], $${E + 3}::text[], $${E + 4}::text[]) as c(n, seq, key, value)
    join pos on pos.n = c.n
  ), demote as (
    update history_events set run_head = 0 where id = $${E + 5}::int
  ), counters as (
    insert into history_counters (name, value) select * from unnest($${E + 6}::text[], $${E + 7}::bigint[])
    on conflict (name) do update set value = history_counters.value + excluded.value
  ), hourly as (${pgAddHourly(E + 8)})
  select id from pos order by n`,
};

/**
 * Takes the group from the queue once the run lock is held and writes it on PostgreSQL; null
 * (nothing written) when it is not a plain append. A transaction begun while another group is
 * being written waits for the lock, then takes every event that arrived meanwhile.
 */
async function writeGroupPg(pool: pg.Pool, take: () => Pending[]): Promise<number[] | null> {
  const client = await pool.connect();
  let broken = false;
  try {
    const results = (await client.query(PG_BEGIN_AND_STATE)) as unknown as pg.QueryResult[];
    const group = take();
    const state = results[2]!.rows[0] as { consecutive: number | string | null; id: number | null; date: string; occasions_id: string; run_head: number; run_size: number };
    const newest: Newest = state.id === null ? undefined : { id: state.id, date: state.date, occasions_id: state.occasions_id, run_head: state.run_head, run_size: state.run_size };
    const { keep, consecutiveDelta, suppressed } = throttle(group, Number(state.consecutive ?? 0));
    const events = group.filter((_, i) => keep[i]).map((p) => p.event);
    if (!appendsInOrder(newest, events)) {
      await client.query('rollback');
      return null;
    }
    const counterNames: string[] = [];
    const counterDeltas: number[] = [];
    const count = (name: string, delta: number) => {
      if (!delta) return;
      counterNames.push(name);
      counterDeltas.push(delta);
    };
    count(COUNTER_CONSECUTIVE_FAILED_LOGINS, consecutiveDelta);
    count(COUNTER_SUPPRESSED_FAILED_LOGINS, suppressed);
    let demote = 0;
    const columns: unknown[][] = EVENT_COLUMNS.map(() => []);
    const ctx: [number[], number[], string[], (string | null)[]] = [[], [], [], []];
    if (events.length) {
      const { runs, demoteNewest, headsDelta } = runsForAppend(newest, events.map((e) => e.row.occasions_id));
      if (demoteNewest) demote = newest!.id;
      count(COUNTER_RUN_HEADS, headsDelta);
      count(COUNTER_TOTAL, events.length);
      events.forEach((e, n) => {
        e.row.run_head = runs[n][0];
        e.row.run_size = runs[n][1];
        EVENT_COLUMNS.forEach((c, i) => columns[i]!.push(columnValue(e.row, c)));
        e.context.forEach(([key, value], seq) => {
          ctx[0].push(n + 1);
          ctx[1].push(seq);
          ctx[2].push(key);
          ctx[3].push(value);
        });
      });
    }
    const hourly = hourlyCounts(events);
    const written = await client.query({
      ...PG_WRITE,
      values: [...columns, ...ctx, demote, counterNames, counterDeltas, hourly.hours, hourly.loggers, hourly.keys, hourly.counts],
    });
    const ids = written.rows.map((r: { id: number }) => Number(r.id));
    await client.query('commit');
    let next = 0;
    return keep.map((k) => (k ? ids[next++]! : 0));
  } catch (err) {
    try {
      await client.query('rollback');
    } catch {
      broken = true;
    }
    throw err;
  } finally {
    client.release(broken);
  }
}

/** One group (taken by `take`, exactly once) in one transaction, by the fastest path the database allows. */
async function writeGroupAnyhow(app: AppServices, take: () => Pending[]): Promise<number[]> {
  const pool = app.dialect === 'postgres' ? app.dbHandle.pgPool : undefined;
  let group: Pending[] | null = null;
  const takeOnce = () => (group ??= take());
  if (pool) {
    const ids = await writeGroupPg(pool, takeOnce);
    if (ids) return ids;
  }
  return app.db.transaction().execute((tx) => writeGroup(app, tx, takeOnce()));
}

export function createActivityLog(app: AppServices): ActivityLog {
  const queue: Pending[] = [];
  // PostgreSQL: a second transaction may begin while a group is being written, so the round
  // trips and the commit of one group overlap with the next group's lock wait instead of
  // adding up (with one group at a time the server sat idle half the time under load). SQLite
  // writes synchronously: one group at a time.
  const maxInFlight = app.dialect === 'postgres' && app.dbHandle.pgPool ? 2 : 1;
  let inFlight = 0;
  /** A transaction has begun but not yet taken its group: the next one waits for that. */
  let untaken = false;
  let scheduled = false;

  /** Writes the next group and settles its callers; one bad event must not fail the others. */
  async function writeAndSettle(): Promise<void> {
    let group: Pending[] | null = null;
    const take = () => {
      untaken = false;
      group = queue.splice(0, MAX_GROUP);
      schedule();
      return group;
    };
    try {
      const ids = await writeGroupAnyhow(app, take);
      group!.forEach((p, i) => p.resolve(ids[i]));
    } catch (err) {
      // Failed before taking (no connection): fail what is waiting rather than retry in a loop.
      const failed: Pending[] = group ?? take();
      if (failed.length === 1) {
        failed[0].reject(err);
        return;
      }
      for (const p of failed) {
        try {
          const [id] = await writeGroupAnyhow(app, () => [p]);
          p.resolve(id);
        } catch (one) {
          p.reject(one);
        }
      }
    }
  }

  /** Begins a group when one may: what arrives meanwhile is the next group. */
  function pump(): void {
    if (inFlight >= maxInFlight || untaken || !queue.length) return;
    inFlight++;
    untaken = true;
    void writeAndSettle().finally(() => {
      inFlight--;
      schedule();
    });
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
        event = prepareEvent(entry, origin);
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
