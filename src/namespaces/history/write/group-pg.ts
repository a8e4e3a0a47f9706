// The activity log on PostgreSQL: the common case in one or three round trips.
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
import type pg from 'pg';
import type { PreparedEvent } from '../model/event.ts';
import { PG_RUNS_LOCK, setAppendRuns } from './runs.ts';
import { COUNTER_RUN_HEADS, NEWEST_ROW_SQL, type RunRow } from '../model/runs.ts';
import {
  COUNTER_CONSECUTIVE_FAILED_LOGINS,
  COUNTER_SUPPRESSED_FAILED_LOGINS,
  COUNTER_TOTAL,
} from '../model/counters.ts';
import { EVENT_COLUMNS, PG_INSERT_EVENTS, pgContextRows, pgContexts, pgEventColumns } from './insert.ts';
import { pgArray } from './pg-values.ts';
import { pgAddCounts, pgCountParams, statsCounts } from './stats-counts.ts';
import { appendsInOrder, throttle, type Pending } from './group.ts';

/** What a group written on PostgreSQL leaves behind: the log's newest row and consecutive failed logins. */
export interface LogState {
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
 * counter deltas and the statistics' counts, in one statement. Event ids come from the sequence in
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
  ), ${pgAddCounts(E + 5)
    .map((text, i) => `stats${i} as (${text})`)
    .join(', ')}
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
  const values = [
    ...pgEventColumns(events),
    pgContexts(events),
    demote,
    pgArray(counterNames),
    pgArray(counterDeltas),
    ...pgCountParams(statsCounts(events)),
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
    ? {
        id: written.at(-1)!,
        date: last.date,
        occasions_id: last.occasions_id,
        run_head: last.run_head!,
        run_size: last.run_size!,
      }
    : before.newest;
  return { ids, state: { newest, consecutive: plan.consecutive } };
}

/**
 * Writes the group on PostgreSQL (taken by `take`) as an append: in one round trip when `known`
 * still describes the log, else in three with the group taken once the run lock is held (a
 * transaction begun while another group is being written waits for the lock, then takes every
 * event that arrived meanwhile). Null (nothing written) when the group is not a plain append.
 */
export async function writeGroupPg(
  pool: pg.Pool,
  take: () => Pending[],
  known: LogState | null,
): Promise<PgWritten | null> {
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
          client.query({
            ...PG_GUARD,
            values: [newest?.id ?? 0, newest?.run_head ?? 0, newest?.run_size ?? 0, known.consecutive],
          }),
          client.query({ ...PG_WRITE, values: plan.values }),
          // After a failed statement this ends the transaction as a rollback.
          client.query('commit'),
        ]);
        const failure = sent.find((r) => r.status === 'rejected');
        if (!failure)
          return {
            ...appended(plan, known, (sent[2] as PromiseFulfilledResult<pg.QueryResult<{ id: number }>>).value.rows),
            shared,
          };
        const guard = sent[1]!;
        if (guard.status === 'fulfilled' || (guard.reason as { code?: string }).code !== GUARD_FAILED)
          throw failure.reason;
        // Another writer changed the log: nothing was written; read its state and try again.
        shared = true;
      }
    }
    const results = (await client.query(PG_BEGIN_AND_STATE)) as unknown as pg.QueryResult[];
    const group = take();
    const row = results[2]!.rows[0] as {
      consecutive: number | string | null;
      id: number | null;
      date: string;
      occasions_id: string;
      run_head: number;
      run_size: number;
    };
    const state: LogState = {
      newest:
        row.id === null
          ? undefined
          : {
              id: row.id,
              date: row.date,
              occasions_id: row.occasions_id,
              run_head: row.run_head,
              run_size: row.run_size,
            },
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
