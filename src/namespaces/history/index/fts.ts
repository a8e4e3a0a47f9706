// SQLite's substring indexes of the log: contentless FTS5 tables with the trigram tokenizer, each
// keyed by the event id. Case-sensitive: the texts and the words are lower-cased alike (ASCII
// only, as SQLite's lower() and the log's LIKE tests do), so a phrase of a word's trigrams
// matches exactly where the rows' test does.
// - `history_search`: the events' search texts (migration 0023), for `search`/`exclude_search`;
//   each event's date stored unindexed beside it, so that a search's page is found in the index.
// - `history_context_search`: the values of each event's context (migration 0024), one per
//   line, for `metadata_search`: a word without a line break is in the text exactly when it is
//   in one of the values (never in a key).
//
// Which ids an index holds, by two counters in history_counters (migration 0025):
// - new events, ids from `tailFrom` on, are indexed behind the writes (indexNewEvents), by the
//   serving process a moment after they are committed and by a read that needs the index. A
//   trigger indexing each row cost a write of 25 events about a third of its throughput (FTS5
//   writes a segment per transaction); a thousand rows at once cost a tenth as much per row.
// - a log written before an index existed is caught up by the serving process (index/search.ts),
//   newest first: ids below `pending` are not yet in it.
// Rows written between the two (an import keeping its source's ids, a stuck event's context) are
// indexed by triggers, so that every writer keeps them without having to remember it; the
// triggers leave the other rows to whoever indexes them, which would otherwise index them twice.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { newestEventId, readCounter } from '../model/counters.ts';
import { addHeadsSql, CREATE_HEADS_TABLE, indexedText, TOKEN_MARK, type HeadTokens } from './search-heads.ts';

export interface FtsIndex {
  table: string;
  /** The counter (history_counters) below which event ids are not yet in the index; 0 once all are. */
  pending: string;
  /** The counter from which event ids are new: indexed behind the writes (indexNewEvents). */
  tailFrom: string;
  /** The FTS5 table's columns and options. */
  columns: string;
  /** The table the triggers are on, and its event id column. */
  source: { table: 'history_events' | 'history_event_contexts'; id: string };
  /** The index's columns after rowid, as written. */
  fields: string;
  /** Their values from a row of the source table (as `new`/`old` in triggers, unqualified in fills). */
  values: (row: string) => string;
  /** A table the values read, created with the index. */
  setup?: string;
  /** SQL to run before the index takes rows: the row `new.` (triggers), or those within `bounds` (fills, `row` empty). */
  prepare?: (row: string, bounds: string[]) => string;
}

/** Values one per line, lower-cased (ASCII, as SQLite's lower() does). */
const contextValues = (row: string) => `(select group_concat(lower(value), char(10)) from json_each(${row}context))`;

export const SEARCH_FTS: FtsIndex = {
  table: 'history_search',
  pending: 'search_index_pending_below',
  tailFrom: 'search_index_new_from',
  columns: `search_text, date unindexed, content='', contentless_delete=1, contentless_unindexed=1, tokenize='trigram case_sensitive 1'`,
  source: { table: 'history_events', id: 'id' },
  fields: 'search_text, date',
  // Each head a token of its own (index/search-heads.ts).
  values: (row) => `${indexedText(row)}, ${row}date`,
  setup: CREATE_HEADS_TABLE,
  prepare: addHeadsSql,
};

export const CONTEXT_FTS: FtsIndex = {
  table: 'history_context_search',
  pending: 'context_search_pending_below',
  tailFrom: 'context_search_new_from',
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

/** A counter's value, as an SQL expression (null when it is not there). */
const counterSql = (name: string) => `(select value from history_counters where name = '${name}')`;

/** Whether the source row's id (`id`: `new.event_id`, say) is one the triggers index: neither pending nor new. */
function keptByTriggers(index: FtsIndex, id: string): string {
  // Without its counter (a log between migrations 0023 and 0025) nothing is new.
  return `${id} >= coalesce(${counterSql(index.pending)}, 0) and ${id} < coalesce(${counterSql(index.tailFrom)}, ${id} + 1)`;
}

/**
 * The triggers that index the rows written among the indexed ids (keptByTriggers): inserted,
 * and for contexts also changed in place (sticking an event adds to its context).
 */
function keepingTriggers(index: FtsIndex): { name: string; sql: string }[] {
  const { table, source } = index;
  const insert = (row: string) =>
    `${index.prepare ? `${index.prepare(row, [])}; ` : ''}insert into ${table} (rowid, ${index.fields}) values (${row}${source.id}, ${index.values(row)});`;
  const triggers = [
    {
      name: `${table}_insert`,
      sql: `after insert on ${source.table} when ${keptByTriggers(index, `new.${source.id}`)} begin ${insert('new.')} end`,
    },
  ];
  if (source.table === 'history_event_contexts')
    triggers.push({
      name: `${table}_update`,
      sql: `after update on ${source.table} when ${keptByTriggers(index, `old.${source.id}`)} begin
        delete from ${table} where rowid = old.${source.id}; ${insert('new.')} end`,
    });
  return triggers;
}

/** Creates the index's keeping triggers (keepingTriggers), replacing those of an older version. */
export async function createKeepingTriggers(db: Kysely<any>, index: FtsIndex): Promise<void> {
  for (const trigger of keepingTriggers(index)) {
    await sql.raw(`drop trigger if exists ${trigger.name}`).execute(db);
    await sql.raw(`create trigger ${trigger.name} ${trigger.sql}`).execute(db);
  }
}

/** Indexes the source rows with ids from `from` (and below `below`; numbers or SQL expressions), or all of them. */
function fillSql(index: FtsIndex, from?: number | string, below?: number | string): string[] {
  const { table, source } = index;
  const bounds = [
    ...(from !== undefined ? [`${source.id} >= ${from}`] : []),
    ...(below !== undefined ? [`${source.id} < ${below}`] : []),
  ];
  const where = bounds.length ? ` where ${bounds.join(' and ')}` : '';
  return [
    ...(index.prepare ? [index.prepare('', bounds)] : []),
    `insert into ${table} (rowid, ${index.fields}) select ${source.id}, ${index.values('')} from ${source.table}${where}`,
  ];
}

/** Creates the FTS5 table and its triggers, indexing the rows already there when `fill`. */
export async function createFtsIndex(db: Kysely<any>, index: FtsIndex, fill: boolean): Promise<void> {
  if (index.setup) await sql.raw(index.setup).execute(db);
  await sql.raw(`create virtual table ${index.table} using fts5(${index.columns})`).execute(db);
  await createKeepingTriggers(db, index);
  await createDeleteTrigger(index).execute(db);
  if (fill) await fillFtsIndex(db, index);
}

/** Indexes every row of the index's source table. */
export async function fillFtsIndex(db: Kysely<any>, index: FtsIndex): Promise<void> {
  for (const statement of fillSql(index)) await sql.raw(statement).execute(db);
}

/**
 * The statements that index the new events (ids from the index's `tailFrom` on), at most
 * `limit` ids of them, to be run in one transaction (the bulk writers run them on connections of
 * their own). The first is a write, so that the transaction holds SQLite's write lock before it
 * reads the counter: two processes never index the same ids.
 */
export function newEventsStatements(index: FtsIndex, limit?: number): string[] {
  const from = counterSql(index.tailFrom);
  const newestBelow = '(select coalesce(max(id), 0) + 1 from history_events)';
  const below = limit === undefined ? newestBelow : `min(${newestBelow}, ${from} + ${limit})`;
  return [
    ...fillSql(index, from, below),
    `update history_counters set value = max(value, ${below}) where name = '${index.tailFrom}'`,
  ];
}

/**
 * FTS5's buffer of terms while a bulk load indexes its events, in bytes: FTS5 writes a segment
 * each time its buffer is full and merges the segments as they pile up. With its default of
 * 1 MB, indexing 1,000,000 search texts in one statement took 19.7 s; with 64 MB, 8.1 s (with
 * 256 MB, 3,000,000 took 40 s against 51 s, for 140 MB more of the loading process's memory).
 */
const BULK_HASH_BYTES = 64 * 1024 * 1024;
/** FTS5's own default, set again after the load: it is kept in the index's config, and the serving process's writes should not buffer more. */
const DEFAULT_HASH_BYTES = 1024 * 1024;

const hashSize = (index: FtsIndex, bytes: number) =>
  `insert into ${index.table} (${index.table}, rank) values ('hashsize', ${bytes})`;

/** newEventsStatements of every index, all new events: what a bulk load runs before it commits. */
export function allNewEventsStatements(): string[] {
  return FTS_INDEXES.flatMap((index) => [
    hashSize(index, BULK_HASH_BYTES),
    ...newEventsStatements(index),
    hashSize(index, DEFAULT_HASH_BYTES),
  ]);
}

/**
 * Indexes the new events, at most `limit` ids of them, in one transaction; returns how many ids
 * are still new after them (0: none).
 */
export async function indexNewEvents(db: Kysely<Database>, index: FtsIndex, limit?: number): Promise<number> {
  return db.transaction().execute(async (tx) => {
    for (const statement of newEventsStatements(index, limit)) await sql.raw(statement).execute(tx);
    return newEvents(tx, index);
  });
}

/**
 * New events up to which a read that would use the index indexes them itself first (about 25
 * ms): new events wait for the serving process about 100 ms, so more are rare (a bulk load by
 * another process); the read then tests the rows.
 */
const INDEXED_BY_READS = 2000;

/**
 * Before a read that would use the index, the log's newest id being `newestId`: indexes the new
 * events when they are few (INDEXED_BY_READS).
 */
export async function indexNewEventsBeforeRead(db: Kysely<Database>, index: FtsIndex, newestId: number): Promise<void> {
  const waiting = newestId - (await readCounter(db, index.tailFrom)) + 1;
  if (waiting > 0 && waiting <= INDEXED_BY_READS) await indexNewEvents(db, index);
}

/** The ids that are new to the index (indexNewEvents has yet to index them). */
export async function newEvents(db: Kysely<Database>, index: FtsIndex): Promise<number> {
  const { rows } = await sql<{
    n: number | null;
  }>`select max(id) - ${sql.raw(counterSql(index.tailFrom))} + 1 as n from history_events`.execute(db);
  return Math.max(0, Number(rows[0]?.n ?? 0));
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
  for (const index of FTS_INDEXES) {
    await createDeleteTrigger(index).execute(tx);
    await startFtsIndexOver(tx, index, false);
  }
  return result;
}

/**
 * Empties the index (at once, not entry by entry) and indexes the events logged so far again:
 * here when `fill`, otherwise the serving process catches them up, newest first (reads test the
 * rows meanwhile). No event is new to it afterwards.
 */
export async function startFtsIndexOver(db: Kysely<Database>, index: FtsIndex, fill: boolean): Promise<void> {
  const newest = await newestEventId(db);
  await sql.raw(`insert into ${index.table} (${index.table}) values ('delete-all')`).execute(db);
  if (fill) await fillFtsIndex(db, index);
  const counters = [
    [index.pending, fill || !newest ? 0 : newest + 1],
    [index.tailFrom, newest + 1],
  ] as const;
  for (const [name, value] of counters)
    await db.updateTable('history_counters').set({ value }).where('name', '=', name).execute();
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
    // Never the new ids (indexNewEvents takes them): indexed twice, an FTS5 row would outlive its delete.
    for (const statement of fillSql(index, from, Math.min(below, await readCounter(tx, index.tailFrom))))
      await sql.raw(statement).execute(tx);
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
  const newest = await newestEventId(db);
  const fill = newest < FILLED_BY_MIGRATION;
  return { fill, pendingBelow: fill ? 0 : newest + 1 };
}

/** Whether every event up to `newestId` is in the index (reads use it only then). */
export async function ftsIndexComplete(db: Kysely<Database>, index: FtsIndex, newestId: number): Promise<boolean> {
  const { rows } = await sql<{ pending: number | null; tailFrom: number | null }>`select
    ${sql.raw(counterSql(index.pending))} as pending, ${sql.raw(counterSql(index.tailFrom))} as "tailFrom"`.execute(db);
  return Number(rows[0]?.pending ?? 0) === 0 && Number(rows[0]?.tailFrom ?? 0) > newestId;
}

/**
 * Characters of a word the index looks for. A phrase of 60,000 characters took FTS5 37 s on a
 * log of a few events; a longer word is looked for by its start and tested whole on the rows.
 */
export const FTS_WORD_MAX = 64;

/**
 * Whether the index's phrase of `word` matches exactly where LIKE does (not too short, not cut,
 * and without the mark of the heads' tokens, which the indexed texts do not hold).
 */
export function ftsFindsExactly(word: string): boolean {
  const length = [...word].length;
  return length >= 3 && length <= FTS_WORD_MAX && !word.includes(TOKEN_MARK);
}

/**
 * The FTS5 query of the words of three characters or more (a phrase each: their trigrams in a
 * row, of the first FTS_WORD_MAX characters), each or the tokens of the heads holding it
 * (`heads`, the search index: index/search-heads.ts), or else any of `alsoTokens` (the heads
 * of the templates holding the words); null: none. Words holding the tokens' mark are left to
 * the rows' test.
 */
export function ftsQuery(
  words: readonly string[],
  heads?: Pick<HeadTokens, 'holding'>,
  alsoTokens: readonly string[] = [],
): string | null {
  const phrase = (text: string) => `"${text.replaceAll('"', '""')}"`;
  // A word holding the mark is not in the indexed texts as it is (U+FFFD stands for the mark there).
  const long = words
    .filter((w) => !w.includes(TOKEN_MARK))
    .map((w) => [...w])
    .filter((chars) => chars.length >= 3);
  const terms = long.map((chars) => {
    const word = chars.slice(0, FTS_WORD_MAX).join('');
    const tokens = heads?.holding(word) ?? [];
    return tokens.length ? `(${[word, ...tokens].map(phrase).join(' OR ')})` : phrase(word);
  });
  if (!terms.length) return null;
  const every = terms.join(' AND ');
  return alsoTokens.length ? `(${every}) OR ${alsoTokens.map(phrase).join(' OR ')}` : every;
}

/**
 * The events an FTS index names for the query: how many, and their ids as one comma-separated
 * text (one row; a row per event costs more to hand over). With `most`, only when they are at
 * most that many (reading the index stops after one more); undefined when there are more.
 */
export async function ftsMatchIds(
  db: Kysely<Database>,
  query: string,
  index: FtsIndex,
  most = Infinity,
): Promise<{ matches: number; ids: string } | undefined> {
  const table = sql.table(index.table);
  const limit = Number.isFinite(most) ? sql` limit ${most + 1}` : sql``;
  const { rows } = await sql<{ n: number; ids: string | null }>`select count(*) as n, group_concat(rowid) as ids
    from (select rowid from ${table} where ${table} match ${query}${limit})`.execute(db);
  const matches = Number(rows[0]?.n ?? 0);
  return matches <= most ? { matches, ids: rows[0]?.ids ?? '' } : undefined;
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
