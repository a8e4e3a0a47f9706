// The log's counters (history_counters): totals and changes that writers and readers agree on.
import type { Kysely, Transaction } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '../../../db/schema.ts';

export type Db = Kysely<Database> | Transaction<Database>;

export async function addToCounter(db: Db, name: string, delta: number): Promise<void> {
  await db
    .insertInto('history_counters')
    .values({ name, value: delta })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value: sql<number>`history_counters.value + ${delta}` }))
    .execute();
}

/** A counter's value, as an SQL expression: read in the same statement (one state of the log) as the rows. */
export const counterValue = (name: string) => sql<number>`(select value from history_counters where name = ${name})`;

/** The log's newest event id, as an SQL expression (null: none). */
export const NEWEST_EVENT_ID = sql<number | null>`(select max(id) from history_events)`;

/** The log's newest event id (0: none). */
export async function newestEventId(db: Kysely<any>): Promise<number> {
  const { rows } = await sql<{ n: number | null }>`select ${NEWEST_EVENT_ID} as n`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

export async function setCounter(db: Db, name: string, value: number): Promise<void> {
  await db
    .insertInto('history_counters')
    .values({ name, value })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value }))
    .execute();
}

export async function readCounter(db: Db, name: string): Promise<number> {
  const row = await db.selectFrom('history_counters').select('value').where('name', '=', name).executeTakeFirst();
  return row ? Number(row.value) : 0;
}

export const COUNTER_TOTAL = 'total_logged_events';
/** Changes of the log's rows other than inserts (purges, rebuilt runs): part of the cache version. */
export const COUNTER_CHANGES = 'log_changes';
/**
 * Sticks and unsticks, counted apart: they change an event's `sticky` flag and its context,
 * which the answer caches depend on, and no column the log's columns hold (columns/sync.ts),
 * which would otherwise be read afresh after each (4 s a million events).
 */
export const COUNTER_STICKS = 'log_sticks';
export const COUNTER_CONSECUTIVE_FAILED_LOGINS = 'consecutive_failed_logins';
export const COUNTER_SUPPRESSED_FAILED_LOGINS = 'failed_login_suppressed_count';
