// SQLite's substring indexes of the log: contentless FTS5 tables with the trigram tokenizer, each
// keyed by the event id and kept by triggers, so that every writer (appends, group commits,
// batches, custom entries, the bulk sinks, the WordPress import) keeps them current without
// having to remember them. Case-sensitive: the texts and the words are lower-cased alike (ASCII
// only, as SQLite's lower() and the log's LIKE tests do), so a phrase of a word's trigrams
// matches exactly where the rows' test does.
// - `history_search`: the events' search texts (migration 0023), for `search`/`exclude_search`;
//   each event's date stored unindexed beside it, so that a search's page is found in the index.
// - `history_context_search`: the values of each event's context (migration 0024), one per
//   line, for `metadata_search`: a word without a line break is in the text exactly when it is
//   in one of the values (never in a key).
// A log written before an index existed is caught up by the serving process (index/search.ts);
// ids below the index's counter in history_counters are not yet in it.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { readCounter } from '../model/counters.ts';

export interface FtsIndex {
  table: string;
  /** The counter (history_counters) below which event ids are not yet in the index; 0 once all are. */
  pending: string;
  /** The FTS5 table's columns and options. */
  columns: string;
  /** The table the triggers are on, and its event id column. */
  source: { table: 'history_events' | 'history_event_contexts'; id: string };
  /** The index's columns after rowid, as written. */
  fields: string;
  /** Their values from a row of the source table (as `new`/`old` in triggers, unqualified in fills). */
  values: (row: string) => string;
}

/** Values one per line, lower-cased (ASCII, as SQLite's lower() does). */
const contextValues = (row: string) => `(select group_concat(lower(value), char(10)) from json_each(${row}context))`;

export const SEARCH_FTS: FtsIndex = {
  table: 'history_search',
  pending: 'search_index_pending_below',
  columns: `search_text, date unindexed, content='', contentless_delete=1, contentless_unindexed=1, tokenize='trigram case_sensitive 1'`,
  source: { table: 'history_events', id: 'id' },
  fields: 'search_text, date',
  values: (row) => `${row}search_text, ${row}date`,
};

export const CONTEXT_FTS: FtsIndex = {
  table: 'history_context_search',
  pending: 'context_search_pending_below',
  columns: `context_values, content='', contentless_delete=1, tokenize='trigram case_sensitive 1'`,
  source: { table: 'history_event_contexts', id: 'event_id' },
  fields: 'context_values',
  values: contextValues,
};

export const FTS_INDEXES = [SEARCH_FTS, CONTEXT_FTS] as const;

const deleteTrigger = (index: FtsIndex) => `${index.table}_delete`;

function createDeleteTrigger(index: FtsIndex): RawBuilder<unknown> {
  return sql.raw(`create trigger ${deleteTrigger(index)} after delete on ${index.source.table} begin
    delete from ${index.table} where rowid = old.${index.source.id}; end`);
}

/** The trigger that indexes each inserted source row. */
function insertTrigger(index: FtsIndex): string {
  const { table, source } = index;
  return `create trigger ${table}_insert after insert on ${source.table} begin
    insert into ${table} (rowid, ${index.fields}) values (new.${source.id}, ${index.values('new.')}); end`;
}

/** Indexes the source rows with ids from `from` (and below `below`), or all of them. */
function fillSql(index: FtsIndex, from?: number, below?: number): string {
  const { table, source } = index;
  const bounds = [
    ...(from !== undefined ? [`${source.id} >= ${from}`] : []),
    ...(below !== undefined ? [`${source.id} < ${below}`] : []),
  ];
  const where = bounds.length ? ` where ${bounds.join(' and ')}` : '';
  return `insert into ${table} (rowid, ${index.fields}) select ${source.id}, ${index.values('')} from ${source.table}${where}`;
}

/** Creates the FTS5 table and its triggers, indexing the rows already there when `fill`. */
export async function createFtsIndex(db: Kysely<any>, index: FtsIndex, fill: boolean): Promise<void> {
  const { table, source } = index;
  await sql.raw(`create virtual table ${table} using fts5(${index.columns})`).execute(db);
  await sql.raw(insertTrigger(index)).execute(db);
  await createDeleteTrigger(index).execute(db);
  // Contexts change in place (sticking an event adds to its context).
  if (source.table === 'history_event_contexts')
    await sql
      .raw(`create trigger ${table}_update after update on ${source.table} begin
        delete from ${table} where rowid = old.${source.id};
        insert into ${table} (rowid, ${index.fields}) values (new.${source.id}, ${index.values('new.')}); end`)
      .execute(db);
  if (fill) await sql.raw(fillSql(index)).execute(db);
}

/**
 * For a bulk load of new events, ids from `firstId` on (bulk/generate.ts): the index's insert
 * trigger is dropped for the load and created again afterwards, the loaded rows indexed in one
 * statement (1,000,000 contexts: 13 s, against about twice that row by row in the trigger).
 */
export function deferredFtsIndex(index: FtsIndex, firstId: number): { name: string; drop: string; sql: string } {
  return {
    name: `${index.table}_insert`,
    drop: `drop trigger ${index.table}_insert`,
    sql: `${insertTrigger(index)};\n${fillSql(index, firstId)}`,
  };
}

/**
 * Runs a bulk removal of events and their contexts (`remove`, in the transaction `tx`) without
 * the indexes' delete triggers, which cost about a millisecond per event (FTS5 deletes row by
 * row), and starts the indexes over instead: emptied at once, and the events left are caught up
 * by the serving process (searches read the rows meanwhile).
 */
export async function removingEvents<T>(tx: Kysely<Database>, remove: () => Promise<T>): Promise<T> {
  for (const index of FTS_INDEXES) await sql.raw(`drop trigger ${deleteTrigger(index)}`).execute(tx);
  const result = await remove();
  const { rows } = await sql<{ n: number | null }>`select max(id) as n from history_events`.execute(tx);
  const newest = Number(rows[0]?.n ?? 0);
  for (const index of FTS_INDEXES) {
    await createDeleteTrigger(index).execute(tx);
    await sql.raw(`insert into ${index.table} (${index.table}) values ('delete-all')`).execute(tx);
    await tx
      .updateTable('history_counters')
      .set({ value: newest ? newest + 1 : 0 })
      .where('name', '=', index.pending)
      .execute();
  }
  return result;
}

/**
 * Indexes the `events` newest of the ids still pending, in one transaction; returns the ids
 * still pending below them (0: done).
 */
export async function catchUpFtsIndex(db: Kysely<Database>, index: FtsIndex, events: number): Promise<number> {
  return db.transaction().execute(async (tx) => {
    const below = await readCounter(tx, index.pending);
    if (below === 0) return 0;
    const from = Math.max(0, below - events);
    await sql.raw(fillSql(index, from, below)).execute(tx);
    await tx.updateTable('history_counters').set({ value: from }).where('name', '=', index.pending).execute();
    return from;
  });
}

/** Events up to which a migration adding an index fills it at once; a bigger log is caught up by the serving process. */
const FILLED_BY_MIGRATION = 50_000;

/**
 * For a migration adding an index to the log: whether it fills the index now, and the value of
 * the index's counter (history_counters) it starts with: 0, or the ids still to index lie below it.
 */
export async function indexingByMigration(db: Kysely<any>): Promise<{ fill: boolean; pendingBelow: number }> {
  const { rows } = await sql<{ n: number | null }>`select max(id) as n from history_events`.execute(db);
  const newest = Number(rows[0]?.n ?? 0);
  const fill = newest < FILLED_BY_MIGRATION;
  return { fill, pendingBelow: fill ? 0 : newest + 1 };
}

/** Whether every event is in the index (reads use it only then). */
export async function ftsIndexComplete(db: Kysely<Database>, index: FtsIndex): Promise<boolean> {
  return (await readCounter(db, index.pending)) === 0;
}

/**
 * Characters of a word the index looks for. A phrase of 60,000 characters took FTS5 37 s on a
 * log of a few events; a longer word is looked for by its start and tested whole on the rows.
 */
export const FTS_WORD_MAX = 64;

/** Whether the index's phrase of `word` matches exactly where LIKE does (not too short, not cut). */
export function ftsFindsExactly(word: string): boolean {
  const length = [...word].length;
  return length >= 3 && length <= FTS_WORD_MAX;
}

/**
 * The FTS5 query of the words of three characters or more (a phrase each: their trigrams in a
 * row, of the first FTS_WORD_MAX characters); null: none.
 */
export function ftsQuery(words: readonly string[]): string | null {
  const long = words.map((w) => [...w]).filter((chars) => chars.length >= 3);
  return long.length
    ? long.map((chars) => `"${chars.slice(0, FTS_WORD_MAX).join('').replaceAll('"', '""')}"`).join(' ')
    : null;
}

/** The events the index names for the FTS5 query (ftsQuery): those holding every word of three characters or more. */
export async function countFtsMatches(
  db: Kysely<Database>,
  query: string,
  index: FtsIndex = SEARCH_FTS,
): Promise<number> {
  const { rows } = await sql<{
    n: number;
  }>`select count(*) as n from ${sql.table(index.table)} where ${sql.table(index.table)} match ${query}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}
