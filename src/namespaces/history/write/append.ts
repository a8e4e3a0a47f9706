// The one logging function of the server (site/activity.ts ActivityLog): every write of
// every namespace, every login and failed login is recorded here.
//
// Writes are group-committed: log calls that arrive while a transaction is running are
// written together in the next one (events, their contexts, occasions and counters in one
// transaction), so throughput grows with concurrency instead of queueing on the single
// writer (on PostgreSQL usually in one round trip, see below). A call resolves when its event
// is durable.
//
// Repeated failed logins are throttled as the reference does: at most FAILED_LOGIN_LIMIT in
// a row are stored; the rest are only counted until any other event is logged.
import type { Transaction } from 'kysely';
import type pg from 'pg';
import type { AppServices } from '../../../site/services.ts';
import type { Database } from '../../../db/schema.ts';
import type { ActivityEntry, ActivityLog, ActivityOrigin } from '../../../site/activity.ts';
import { prepareEvent, type PreparedEvent } from '../model/event.ts';
import { linkIntoRuns, lockRuns, PG_RUNS_LOCK, setAppendRuns } from './runs.ts';
import { COUNTER_RUN_HEADS, NEWEST_ROW_SQL, newestRow, type RunRow } from '../model/runs.ts';
import { addToCounter, COUNTER_CONSECUTIVE_FAILED_LOGINS, COUNTER_SUPPRESSED_FAILED_LOGINS, COUNTER_TOTAL, readCounter } from '../model/counters.ts';
import { EVENT_COLUMNS, hourlyCounts, insertEvents, PG_INSERT_EVENTS, pgAddHourly, pgArray, pgContextRows, pgContexts, pgEventColumns } from './insert.ts';

export const FAILED_LOGIN_LIMIT = 100;
const FAILED_LOGIN_KEYS = new Set(['user_login_failed', 'user_unknown_login_failed']);
const MAX_GROUP = 500;
/** How long, after finding that another process wrote, the PostgreSQL log expects it to go on. */
const SHARED_FOR_MS = 1000;

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

/** Whether the kept events all come after the newest row (and each other): the append fast path. */
function appendsInOrder(newest: RunRow | undefined, events: PreparedEvent[]): boolean {
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
      const { demoteNewest, headsDelta } = setAppendRuns(newest, events);
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

// ---- PostgreSQL: the common case in one or three round trips ---------------------------------
//
// Through Kysely a group costs about eleven statements, each a round trip, and groups are written
// one after another under the run lock: on PostgreSQL the round trips, not the work, bounded the
// events per second. The append path (every event newer than the log) is written here on a
// client in pipeline mode:
// - When this process knows the state of the log (the newest row and the count of consecutive
//   failed logins, as its own last write left them), begin + run lock, a guard, the write and
//   the commit are sent together: PostgreSQL runs them back to back and the lock is never held
//   across a round trip. The guard fails, aborting the transaction before the write, when the
//   log is not as expected (another process wrote, or anything else changed it).
// - Otherwise, or after a failed guard: begin + run lock + state (in READ COMMITTED each
//   statement takes its own snapshot, so the state is read after the lock is held), the write,
//   commit: three round trips.
// Anything else (back-dated events) is written by `writeGroup` in a Kysely transaction.

/** What a group written on PostgreSQL leaves behind: the log's newest row and consecutive failed logins. */
interface LogState {
  newest: RunRow | undefined;
  consecutive: number;
}

/** The count of consecutive failed logins (with NEWEST_ROW_SQL, the state a group append depends on). */
const CONSECUTIVE = `select value from history_counters where name = '${COUNTER_CONSECUTIVE_FAILED_LOGINS}'`;

const PG_BEGIN_AND_LOCK = `begin; ${PG_RUNS_LOCK}`;
const PG_BEGIN_AND_STATE = `${PG_BEGIN_AND_LOCK};
  select (${CONSECUTIVE}) as consecutive, e.id, e.date, e.occasions_id, e.run_head, e.run_size
  from (select 1) as one left join lateral (${NEWEST_ROW_SQL}) as e on true`;

/** Fails with division_by_zero (22012) unless the newest row ($1 id, 0 for none; $2 run head; $3 run size) and $4 consecutive failed logins are as given. */
const PG_GUARD = {
  name: 'history_append_guard',
  text: `select 1 / (case when
      coalesce((select id = $1 and run_head = $2 and run_size = $3 from (${NEWEST_ROW_SQL}) as newest), $1::int = 0)
      and coalesce((${CONSECUTIVE}), 0) = $4
    then 1 else 0 end)`,
};
const GUARD_FAILED = '22012';

const E = EVENT_COLUMNS.length;

/**
 * Events (one array per column), their contexts, the row to demote from run head (0: none),
 * counter deltas and hourly counts, in one statement. Event ids come from the sequence in
 * insertion order, so their rank maps contexts to events.
 */
const PG_WRITE = {
  name: 'history_append_group',
  text: `with ev as (${PG_INSERT_EVENTS}), pos as (
    select id, row_number() over (order by id) as n from ev
  ), ctx as (
    insert into history_event_contexts (event_id, context)
    select pos.id, c.context from ${pgContextRows(E + 1)} join pos on pos.n = c.n
  ), demote as (
    update history_events set run_head = 0 where id = $${E + 2}::int
  ), counters as (
    insert into history_counters (name, value) select * from unnest($${E + 3}::text[], $${E + 4}::bigint[])
    on conflict (name) do update set value = history_counters.value + excluded.value
  ), hourly as (${pgAddHourly(E + 5)})
  select id from pos order by n`,
};

interface AppendPlan {
  keep: boolean[];
  /** The kept events, with their run fields set. */
  events: PreparedEvent[];
  /** PG_WRITE's parameters. */
  values: unknown[];
  consecutive: number;
}

/** Throttling, run fields and PG_WRITE's parameters of a group appended to a log in `state`; null when it is not a plain append. */
function planAppend(group: Pending[], state: LogState): AppendPlan | null {
  const { newest } = state;
  const { keep, consecutiveDelta, suppressed } = throttle(group, state.consecutive);
  const events = group.filter((_, i) => keep[i]).map((p) => p.event);
  if (!appendsInOrder(newest, events)) return null;
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
  if (events.length) {
    const { demoteNewest, headsDelta } = setAppendRuns(newest, events);
    if (demoteNewest) demote = newest!.id;
    count(COUNTER_RUN_HEADS, headsDelta);
    count(COUNTER_TOTAL, events.length);
  }
  const hourly = hourlyCounts(events);
  const values = [
    ...pgEventColumns(events), pgContexts(events), demote, pgArray(counterNames), pgArray(counterDeltas),
    pgArray(hourly.hours), pgArray(hourly.loggers), pgArray(hourly.keys), pgArray(hourly.counts),
  ];
  return { keep, events, values, consecutive: state.consecutive + consecutiveDelta };
}

/** A group written on PostgreSQL; `shared`: its guard found that another writer had changed the log. */
interface PgWritten {
  ids: number[];
  state: LogState;
  shared: boolean;
}

/** Each caller's id (0 = throttled) and the state the written group leaves. */
function appended(plan: AppendPlan, before: LogState, rows: { id: number }[]): { ids: number[]; state: LogState } {
  const written = rows.map((r) => Number(r.id));
  let next = 0;
  const ids = plan.keep.map((k) => (k ? written[next++]! : 0));
  const last = plan.events.at(-1)?.row;
  const newest: RunRow | undefined = last
    ? { id: written.at(-1)!, date: last.date, occasions_id: last.occasions_id, run_head: last.run_head!, run_size: last.run_size! }
    : before.newest;
  return { ids, state: { newest, consecutive: plan.consecutive } };
}

/**
 * Writes the group on PostgreSQL (taken by `take`) as an append: in one round trip when `known`
 * still describes the log, else in three with the group taken once the run lock is held (a
 * transaction begun while another group is being written waits for the lock, then takes every
 * event that arrived meanwhile). Null (nothing written) when the group is not a plain append.
 */
async function writeGroupPg(pool: pg.Pool, take: () => Pending[], known: LogState | null): Promise<PgWritten | null> {
  const client = await pool.connect();
  let broken = false;
  let shared = false;
  try {
    if (known) {
      const plan = planAppend(take(), known);
      if (plan) {
        const { newest } = known;
        const sent = await Promise.allSettled([
          client.query(PG_BEGIN_AND_LOCK),
          client.query({ ...PG_GUARD, values: [newest?.id ?? 0, newest?.run_head ?? 0, newest?.run_size ?? 0, known.consecutive] }),
          client.query({ ...PG_WRITE, values: plan.values }),
          // After a failed statement this ends the transaction as a rollback.
          client.query('commit'),
        ]);
        const failure = sent.find((r) => r.status === 'rejected');
        if (!failure) return { ...appended(plan, known, (sent[2] as PromiseFulfilledResult<pg.QueryResult<{ id: number }>>).value.rows), shared };
        const guard = sent[1]!;
        if (guard.status === 'fulfilled' || (guard.reason as { code?: string }).code !== GUARD_FAILED) throw failure.reason;
        // Another writer changed the log: nothing was written; read its state and try again.
        shared = true;
      }
    }
    const results = (await client.query(PG_BEGIN_AND_STATE)) as unknown as pg.QueryResult[];
    const group = take();
    const row = results[2]!.rows[0] as { consecutive: number | string | null; id: number | null; date: string; occasions_id: string; run_head: number; run_size: number };
    const state: LogState = {
      newest: row.id === null ? undefined : { id: row.id, date: row.date, occasions_id: row.occasions_id, run_head: row.run_head, run_size: row.run_size },
      consecutive: Number(row.consecutive ?? 0),
    };
    const plan = planAppend(group, state);
    if (!plan) {
      await client.query('rollback');
      return null;
    }
    const written = await client.query<{ id: number }>({ ...PG_WRITE, values: plan.values });
    await client.query('commit');
    return { ...appended(plan, state, written.rows), shared };
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

/**
 * One group (taken by `take`, exactly once) in one transaction, by the fastest path the
 * database allows; the state it leaves when known (PostgreSQL appends).
 */
async function writeGroupAnyhow(app: AppServices, take: () => Pending[], known: LogState | null): Promise<{ ids: number[]; state: LogState | null; shared: boolean }> {
  const pool = app.dialect === 'postgres' ? app.dbHandle.pgPipelinePool : undefined;
  let group: Pending[] | null = null;
  const takeOnce = () => (group ??= take());
  if (pool) {
    const written = await writeGroupPg(pool, takeOnce, known);
    if (written) return written;
  }
  return { ids: await app.db.transaction().execute((tx) => writeGroup(app, tx, takeOnce())), state: null, shared: false };
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
