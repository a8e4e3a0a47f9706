// PostgreSQL's index of the contexts' values, for `metadata_search` (migration 0028): a narrow
// table of each event's values, one per line, under collation "C", with a pg_trgm GIN index
// (index/search.ts PG_CONTEXTS); since migration 0031 written as words that index reads whole
// (index/value-words.ts). A word (never white space) is in the text exactly when it is in one of
// the values, never in a key, so LIKE there (ASCII case folded, as SQLite's LIKE) is the whole
// test: no JSON is parsed per candidate. Counting a word in a fifth of
// 1,000,000 events took 0.7–2.4 s on the contexts' JSON (a regular expression over the trigram
// candidates), about 100 ms here (a table a fifth of the contexts' size).
//
// Statement-level triggers on history_event_contexts keep it, so that every writer (the write
// path, COPY of a bulk load, an import keeping its source's ids, a stick) does without knowing;
// a log written before it is filled by the serving process, newest ids first, a slice at a time
// (index/search.ts); until every id below the counter is in it, reads test the contexts.
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { valuesHoldWord } from './value-words.ts';
import { readCounter } from '../model/counters.ts';

/** The counter (history_counters) below which event ids may not yet be in the table; 0 once all are. */
export const CONTEXT_VALUES_PENDING = 'context_values_pending_below';

/** Creates the table, its function and the triggers that keep it (PostgreSQL). */
export async function createContextValues(db: Kysely<any>): Promise<void> {
  await sql`create table history_context_values (
    event_id integer primary key,
    context_values text collate "C" not null)`.execute(db);
  // Immutable: it reads nothing but its argument. Events whose values are all null get no row.
  await sql`create function history_context_values_of(context text) returns text language sql immutable parallel safe
    as $$ select string_agg(value, E'\n') from json_each_text(context::json) $$`.execute(db);
  const upsert = (rows: string) =>
    `insert into history_context_values (event_id, context_values)
      select event_id, v from (select event_id, history_context_values_of(context) as v from ${rows}) s where v is not null
      on conflict (event_id) do update set context_values = excluded.context_values;`;
  const statements: [string, string, string][] = [
    ['added', 'after insert', upsert('added')],
    [
      'changed',
      'after update',
      `delete from history_context_values where event_id in (select event_id from changed); ${upsert('changed')}`,
    ],
    ['gone', 'after delete', 'delete from history_context_values where event_id in (select event_id from gone);'],
  ];
  for (const [rows, event, body] of statements) {
    const name = `history_context_values_${rows}`;
    await sql
      .raw(`create function ${name}() returns trigger language plpgsql as $$ begin ${body} return null; end $$`)
      .execute(db);
    const transition = rows === 'gone' ? `old table as ${rows}` : `new table as ${rows}`;
    await sql
      .raw(
        `create trigger ${name} ${event} on history_event_contexts referencing ${transition} for each statement execute function ${name}()`,
      )
      .execute(db);
  }
  await sql
    .raw(`create function history_context_values_cleared() returns trigger language plpgsql as $$
    begin truncate history_context_values; return null; end $$`)
    .execute(db);
  await sql`create trigger history_context_values_cleared after truncate on history_event_contexts
    for each statement execute function history_context_values_cleared()`.execute(db);
}

/**
 * Fills the table with the values of the contexts of the newest `slice` ids still pending; the
 * counter then says what is left (returned: 0 once all are in). A row the triggers wrote
 * before is newer and kept.
 */
export async function fillContextValues(db: Kysely<Database>, slice: number): Promise<number> {
  return db.transaction().execute(async (tx) => {
    // Writers wait for the slice (tens of ms) and it for them: a context deleted or changed
    // while the slice read it would otherwise leave its old values behind.
    await sql`lock table history_event_contexts in share mode`.execute(tx);
    const below = await readCounter(tx, CONTEXT_VALUES_PENDING);
    if (below === 0) return 0;
    const { rows } = await sql<{ id: number | null }>`select max(event_id) as id from history_event_contexts
      where event_id < ${below}`.execute(tx);
    const newest = rows[0]?.id;
    const from = newest === null || newest === undefined ? 0 : Math.max(0, Number(newest) - slice + 1);
    await sql`insert into history_context_values (event_id, context_values)
      select event_id, v from (select event_id, history_context_values_of(context) as v from history_event_contexts
        where event_id >= ${from} and event_id < ${below}) s
      where v is not null
      on conflict (event_id) do nothing`.execute(tx);
    await tx.updateTable('history_counters').set({ value: from }).where('name', '=', CONTEXT_VALUES_PENDING).execute();
    return from;
  });
}

/** Fills the table with the values of every context at once (a small log's migration). */
export async function fillAllContextValues(db: Kysely<any>): Promise<void> {
  await sql`insert into history_context_values (event_id, context_values)
    select event_id, v from (select event_id, history_context_values_of(context) as v from history_event_contexts) s
    where v is not null`.execute(db);
}

/** Whether every context's values are in the table (reads use it only then). */
export async function contextValuesComplete(db: Kysely<Database>): Promise<boolean> {
  return (await readCounter(db, CONTEXT_VALUES_PENDING)) === 0;
}

/**
 * Every word is in some value of the event's context (ASCII case folded). The words hold no
 * white space (read/query.ts searchWords), so none spans two values.
 */
export function contextValuesHold(words: readonly string[]): RawBuilder<SqlBool> {
  return sql<SqlBool>`exists (select 1 from history_context_values as v
    where v.event_id = ${sql.ref('history_events.id')} and ${valuesHold(words)})`;
}

/**
 * The events up to `maxId` whose values hold every word: the table's rows that do; with
 * `newest`, among that many newest events only (a sample of the log).
 */
export async function countContextValues(
  db: Kysely<Database>,
  words: readonly string[],
  maxId: number,
  newest?: number,
): Promise<number> {
  const rows =
    newest === undefined
      ? sql`history_context_values`
      : sql`(select event_id, context_values from history_context_values
          where event_id <= ${maxId} order by event_id desc limit ${newest})`;
  const { rows: counted } = await sql<{ n: number }>`select count(*) as n from ${rows} as v
    where v.event_id <= ${maxId} and ${valuesHold(words)}`.execute(db);
  return Number(counted[0]?.n ?? 0);
}

/**
 * The ids of the events up to `maxId` whose values hold every word, as one row of text (a row
 * per event costs more to hand over), when there are at most `most`; null when there are more.
 * A count of them reads as much, so the log's columns take a page and its total from these in
 * one statement where a page read by date and a count took two. A word in many events is
 * found within a few rows read by date, and gathering its ids took longer than that page and a
 * count, which PostgreSQL's parallel workers share (`login`, 330,000 events: 250 → 380 ms).
 */
export async function contextValuesIds(
  db: Kysely<Database>,
  words: readonly string[],
  maxId: number,
  most: number,
): Promise<string | null> {
  const { rows } = await sql<{ ids: string | null; n: number }>`select string_agg(event_id::text, ',') as ids,
    count(*) as n from (select v.event_id from history_context_values as v
      where v.event_id <= ${maxId} and ${valuesHold(words)} limit ${most + 1}) as held`.execute(db);
  return Number(rows[0]?.n ?? 0) > most ? null : (rows[0]?.ids ?? '');
}

const valuesHold = (words: readonly string[]) => sql.join(words.map(valuesHoldWord), sql` and `);
