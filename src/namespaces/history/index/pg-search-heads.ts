// PostgreSQL: the heads of the search texts, as SQLite's index/search-heads.ts has them. A
// search text is the template, the logger and the level, a line each, then the placeholder
// values; those first three lines (the head) repeat in every event of a message. The trigram
// index of the whole text (migration 0023) holds a template's words for most of the log, and
// counting `updated` (293,000 of 1,000,000 events) rechecked 36,000 heap pages: 280 ms.
//
// So the heads are rows of history_search_heads, one per (logger, message key, head), added by
// triggers in the statement that logs their events, and a second trigram index holds what
// follows each head (history_search_rest). A word is held by an event when its rest holds it,
// or its head does: the events of the messages all of whose heads hold it, which the log's
// columns name without reading a row (columns/total.ts), and those of messages some of whose
// heads hold it, tested. Exact: a word has no line break, so it lies within the head or within
// the rest. An event without a message key has no head: its rest is its whole text. SQL
// conditions elsewhere test the whole texts (read/conditions.ts): for a page read by date or
// a count they do as well.
import { sql, type Expression, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { likeContains } from '../../../db/like.ts';
import { HEADS_TABLE, type MessagePairs } from './search-heads.ts';

/** While not 0, the serving process builds the index of the rests (index/search.ts PG_SEARCH_REST). */
export const SEARCH_REST_PENDING = 'search_rest_pending';

/** A word the trigram indexes serve: one holding three letters or digits in a row. */
export const INDEXED_WORD = /[\p{L}\p{N}]{3}/u;

// The head ends before the text's third line break (the whole text when it has fewer); the rest
// follows it. split_part and length count characters as substr does (a regular expression took
// three times as long per row).
const HEAD_LENGTH = `length(split_part(t, E'\\n', 1)) + length(split_part(t, E'\\n', 2)) + length(split_part(t, E'\\n', 3))`;

/** The functions, the heads table and the triggers keeping it (migration 0030). */
export async function createPgSearchHeads(db: Kysely<any>): Promise<void> {
  await sql
    .raw(
      `create or replace function history_search_head(t text, k text) returns text language sql immutable parallel safe
      as $$ select case when k is null then '' else substr(t, 1, ${HEAD_LENGTH} + 2) end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create or replace function history_search_rest(t text, k text) returns text language sql immutable parallel safe
      as $$ select case when k is null then t else substr(t, ${HEAD_LENGTH} + 4) end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create table if not exists ${HEADS_TABLE} (logger text not null, message_key text not null, head text not null)`,
    )
    .execute(db);
  // By the head's hash: a B-tree entry holds at most about 2,700 bytes, a template more.
  await sql
    .raw(`create unique index if not exists ${HEADS_TABLE}_unique on ${HEADS_TABLE} (logger, message_key, md5(head))`)
    .execute(db);
  // In a steady order, so that two writers adding the same new heads never wait on each other crosswise.
  const addHeads = (from: string) => `insert into ${HEADS_TABLE} (logger, message_key, head)
      select distinct logger, message_key, history_search_head(search_text, message_key) from ${from}
      where message_key is not null order by 1, 2, 3 on conflict do nothing`;
  await sql
    .raw(
      `create or replace function history_search_heads_added() returns trigger language plpgsql as $$
      begin ${addHeads('history_search_heads_new')}; return null; end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create or replace function history_search_head_changed() returns trigger language plpgsql as $$
      begin
        if new.message_key is not null then
          insert into ${HEADS_TABLE} (logger, message_key, head)
          values (new.logger, new.message_key, history_search_head(new.search_text, new.message_key)) on conflict do nothing;
        end if;
        return null;
      end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger history_search_heads_insert after insert on history_events referencing new table as history_search_heads_new
      for each statement execute function history_search_heads_added()`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger history_search_heads_update after update of search_text, logger, message_key on history_events
      for each row execute function history_search_head_changed()`,
    )
    .execute(db);
  await sql.raw(addHeads('history_events')).execute(db);
}

/** The messages whose heads hold a word. */
export interface WordHeads {
  /** Messages all of whose heads hold it: all their events do. */
  all: MessagePairs;
  /** Messages some of whose heads hold it: their events are tested. */
  some: MessagePairs;
}

/** What the heads say of each search word the trigram indexes serve (pgSearchHeads). */
export type PgSearchHeads = ReadonlyMap<string, WordHeads>;

/**
 * Heads up to which searches read them. A site whose messages are free text (an unknown message
 * key is its own template) may have a head per event; beyond, the whole texts are tested as
 * before (PostgreSQL aggregates 10,000 heads in about 3 ms, but a row per message is handed
 * over per search, and the lists of messages a word's conditions name grow with them).
 */
export const MAX_PG_SEARCH_HEADS = 10_000;

/**
 * The messages whose heads hold each of the words the trigram indexes serve, once the index of
 * the rests is built and while there are at most MAX_PG_SEARCH_HEADS heads; undefined otherwise,
 * and when there are none (the whole texts are tested). One read of the heads table, a row per
 * message: it is not kept, since another process may add heads at any time.
 */
export async function pgSearchHeads(
  db: Kysely<Database>,
  words: readonly string[],
): Promise<PgSearchHeads | undefined> {
  const served = [...new Set(words.filter((w) => INDEXED_WORD.test(w)))];
  if (!served.length) return undefined;
  const holding = served.map(
    (w, i) => sql`count(*) filter (where ${likeContains('postgres', sql.ref('head'), w)}) as ${sql.id(`w${i}`)}`,
  );
  // One statement: no rows while the index is pending or beyond the bound.
  const { rows } = await sql<Record<string, string | number>>`select logger, message_key, count(*) as heads,
    ${sql.join(holding)} from ${sql.table(HEADS_TABLE)}
    where coalesce((select value from history_counters where name = ${SEARCH_REST_PENDING}), 0) = 0
      and (select count(*) from (select 1 from ${sql.table(HEADS_TABLE)} limit ${MAX_PG_SEARCH_HEADS + 1}) as h)
        <= ${MAX_PG_SEARCH_HEADS}
    group by logger, message_key`.execute(db);
  if (!rows.length) return undefined;
  const heads = new Map<string, WordHeads>();
  served.forEach((word, i) => {
    const all = new Map<string, string[]>();
    const some = new Map<string, string[]>();
    for (const row of rows) {
      const n = Number(row[`w${i}`]);
      if (n === 0) continue;
      const pairs = n === Number(row.heads) ? all : some;
      const logger = String(row.logger);
      pairs.set(logger, [...(pairs.get(logger) ?? []), String(row.message_key)]);
    }
    heads.set(word, { all, some });
  });
  return heads;
}

/** The event's (logger, message key) is one of the pairs: an OR of loggers, each through the (logger, message_key) index. */
function pgMessagesCondition(byLogger: MessagePairs): Expression<SqlBool> {
  const each = [...byLogger].map(
    ([logger, keys]) => sql`(${sql.ref('logger')} = ${logger} and ${sql.ref('message_key')} in (${sql.join(keys)}))`,
  );
  return each.length ? sql<SqlBool>`(${sql.join(each, sql` or `)})` : sql<SqlBool>`false`;
}

const REST = sql`history_search_rest(${sql.ref('search_text')}, ${sql.ref('message_key')})`;
const HEAD = sql`history_search_head(${sql.ref('search_text')}, ${sql.ref('message_key')})`;

/**
 * The event's rest holds the word, or its head does where its message has heads that do and
 * heads that do not: what the log's columns cannot tell (they know the messages all of whose
 * heads hold it).
 */
function pgHeldBeyondMessages(word: string, heads: WordHeads): RawBuilder<SqlBool> {
  const rest = likeContains('postgres', REST, word);
  if (!heads.some.size) return rest;
  return sql<SqlBool>`(${rest} or (${pgMessagesCondition(heads.some)} and ${likeContains('postgres', HEAD, word)}))`;
}

/** How the messages' heads split a search of several words (pgWordsSplit). */
export interface WordsSplit {
  /** Messages all of whose heads hold every word: all their events hold the words. */
  whole: MessagePairs;
  /** Messages all of whose heads hold some of the words, with the words left to find in their events. */
  partly: { messages: MessagePairs; left: string[] }[];
}

/**
 * The messages whose heads hold all the words, and those whose heads hold some (of each the
 * words left): an event holds every word when its message holds them all, or its message holds
 * some and the event the others, or it holds them all itself (pgHeldBeyondMessages).
 */
export function pgWordsSplit(heads: PgSearchHeads | undefined, words: readonly string[]): WordsSplit {
  const held = new Map<string, { logger: string; key: string; words: string[] }>();
  for (const word of words)
    for (const [logger, keys] of heads?.get(word)?.all ?? [])
      for (const key of keys) {
        const at = `${logger}\u0000${key}`;
        const message = held.get(at) ?? { logger, key, words: [] };
        message.words.push(word);
        held.set(at, message);
      }
  const add = (pairs: Map<string, string[]>, { logger, key }: { logger: string; key: string }) =>
    pairs.set(logger, [...(pairs.get(logger) ?? []), key]);
  const whole = new Map<string, string[]>();
  const partly = new Map<string, { messages: Map<string, string[]>; left: string[] }>();
  for (const message of held.values()) {
    const left = words.filter((w) => !message.words.includes(w));
    if (!left.length) {
      add(whole, message);
      continue;
    }
    const group = partly.get(left.join('\n')) ?? { messages: new Map(), left };
    add(group.messages, message);
    partly.set(left.join('\n'), group);
  }
  return { whole, partly: [...partly.values()] };
}

/**
 * The event holds every word other than through the messages `split` says hold them all: it
 * holds them all beyond its message's heads, or its message holds some and it the others.
 */
export function pgHeldBeyondWhole(
  heads: PgSearchHeads | undefined,
  words: readonly string[],
  split: WordsSplit,
): RawBuilder<SqlBool> {
  // A word no head holds is in a text exactly where it is in its rest, and the whole texts'
  // index finds it sooner (no text taken apart to recheck: counting `jonas`, 25,661 of
  // 1,000,000 events, 33 against 55 ms).
  const beyond = (word: string) => {
    const known = heads?.get(word);
    return known && (known.all.size || known.some.size)
      ? pgHeldBeyondMessages(word, known)
      : likeContains('postgres', sql.ref('search_text'), word);
  };
  const every = (ws: readonly string[]) => sql<SqlBool>`(${sql.join(ws.map(beyond), sql` and `)})`;
  const ways = [
    every(words),
    ...split.partly.map(({ messages, left }) => sql<SqlBool>`(${pgMessagesCondition(messages)} and ${every(left)})`),
  ];
  return sql<SqlBool>`(${sql.join(ways, sql` or `)})`;
}
