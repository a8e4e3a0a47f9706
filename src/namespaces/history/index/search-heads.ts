// The heads of the search texts (SQLite's search index, index/fts.ts). A search text is the
// template, the logger and the level, a line each, then the placeholder values
// (model/event.ts searchTextOf). Its first three lines, its head, repeat in every event of a
// message: indexed as they are, the trigrams of `…logger`, `info` or a template's words are in
// most of the log, and a search for `logged` or `incorrect` read doclists of most of a million
// events the first time (82 and 51 ms; a two-word search of a template, 320 ms).
//
// So a keyed event's head is indexed as a token of its own instead: three private-use
// characters, one trigram, naming the head's row in history_search_heads; the rest of the text
// follows as before. A word is then looked for as its phrase OR the tokens of every head that
// holds it (ftsQuery), which names exactly the events whose text holds it: a word has no line
// break, so it lies within the head or within the rest. Measured on 1,000,000 generated events,
// counting the matches on a fresh connection: `logged` 82 → 8 ms, `incorrect` 51 → 8 ms,
// `username` 112 → 14 ms, `updated` 71 → 17 ms; `ser`, which is in many heads, 21 → 27 ms.
//
// Heads are rows of their own, never changed or removed (a head without events has no
// matches), so a process may keep those it has read. A text of fewer than three lines, an event
// without a message key (free text) and any event once the table holds MAX_SEARCH_HEADS heads
// are indexed whole, where the words' phrases find them.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';

export const HEADS_TABLE = 'history_search_heads';

/** Heads up to which new ones are added (a statement adding several may pass it by those). */
export const MAX_SEARCH_HEADS = 10_000;

/** The first character of every token; a text's own is written as U+FFFD, so only tokens hold it. */
export const TOKEN_MARK = '\ue000';
/** The token's other two characters count in base TOKEN_BASE from U+E001 (up to U+F8FF, the end of the private-use area). */
const TOKEN_BASE = 0xf8ff - 0xe001 + 1;

/** A head's token, as the index holds it (the SQL of indexedText writes the same). */
export function headToken(id: number): string {
  return TOKEN_MARK + String.fromCharCode(0xe001 + Math.floor(id / TOKEN_BASE), 0xe001 + (id % TOKEN_BASE));
}

/** A head per text, logger and message key: a template's events are then the events of its heads (HeadTokens.ofMessages). */
export const CREATE_HEADS_TABLE = `create table if not exists ${HEADS_TABLE} (id integer primary key,
  head text not null, logger text not null, message_key text not null, unique (head, logger, message_key))`;

// The positions of the text's first three line breaks, relative to the one before.
const text = (row: string) => `${row}search_text`;
const nl1 = (row: string) => `instr(${text(row)}, char(10))`;
const nl2 = (row: string) => `instr(substr(${text(row)}, ${nl1(row)} + 1), char(10))`;
const nl3 = (row: string) => `instr(substr(${text(row)}, ${nl1(row)} + ${nl2(row)} + 1), char(10))`;
/** Whether the row's head is indexed as a token: a keyed event whose text has its three lines (values or not after them). */
const headed = (row: string) => `(${row}message_key is not null and ${nl1(row)} > 0 and ${nl2(row)} > 0)`;
/** The first three lines; the whole text when nothing follows them. */
const headOf = (row: string) =>
  `(case when ${nl3(row)} > 0 then substr(${text(row)}, 1, ${nl1(row)} + ${nl2(row)} + ${nl3(row)} - 1) else ${text(row)} end)`;
const restOf = (row: string) =>
  `(case when ${nl3(row)} > 0 then substr(${text(row)}, ${nl1(row)} + ${nl2(row)} + ${nl3(row)} + 1) else '' end)`;
const unmarked = (sqlText: string) => `replace(${sqlText}, char(${TOKEN_MARK.charCodeAt(0)}), char(65533))`;
const tokenOf = (id: string) =>
  `char(${TOKEN_MARK.charCodeAt(0)}, 57345 + ${id} / ${TOKEN_BASE}, 57345 + ${id} % ${TOKEN_BASE})`;
/** The row's head among the heads `h`. */
const sameHead = (row: string) =>
  `h.head = ${headOf(row)} and h.logger = ${row}logger and h.message_key = ${row}message_key`;

/** The text the index holds for a row of history_events (`new.` in triggers, unqualified in fills). */
export function indexedText(row: string): string {
  const token = `(select ${tokenOf('h.id')} from ${HEADS_TABLE} h where ${sameHead(row)} and ${headed(row)})`;
  return `coalesce(${token} || char(10) || ${unmarked(restOf(row))}, ${unmarked(text(row))})`;
}

/**
 * SQL adding the heads of rows of history_events before the index takes them: of the row `new.`
 * in a trigger (`row`), or of the rows within `bounds` (fills, `row` empty).
 */
export function addHeadsSql(row: string, bounds: string[]): string {
  // Not `insert or ignore`: in a trigger, the conflict clause of the write that fired it wins.
  const conditions = [
    headed(row),
    `(select count(*) from ${HEADS_TABLE}) < ${MAX_SEARCH_HEADS}`,
    `not exists (select 1 from ${HEADS_TABLE} h where ${sameHead(row)})`,
    ...bounds,
  ];
  const from = row ? '' : ' from history_events';
  return `insert into ${HEADS_TABLE} (head, logger, message_key)
    select distinct ${headOf(row)}, ${row}logger, ${row}message_key${from} where ${conditions.join(' and ')}`;
}

interface Head {
  head: string;
  logger: string;
  messageKey: string;
}

interface HeadsRead {
  /** The heads read, by id. */
  heads: Map<number, Head>;
  through: number;
}

/** Heads read per database (the reading handle): they never change, so only newer ones are read again. */
const headsRead = new WeakMap<object, HeadsRead>();

/** Message keys by logger. */
export type MessagePairs = ReadonlyMap<string, readonly string[]>;

/** The heads' tokens a search's FTS5 query names (ftsQuery). */
export interface HeadTokens {
  /** The tokens of the heads holding the word (but those of the messages `except`). */
  holding(word: string, except?: MessagePairs): string[];
  /**
   * The messages every head of which holds every word: all their events hold them. None when
   * the table is full, since events logged since may have no head.
   */
  wholeMessages(words: readonly string[]): Map<string, string[]> | undefined;
  /**
   * The tokens of the heads of these messages (logger → message keys): all their events. None
   * when the table is full, since events logged since may have no head.
   */
  ofMessages(byLogger: ReadonlyMap<string, readonly string[]>): string[] | undefined;
}

/** The heads' tokens, for ftsQuery (the heads this process has not read yet read first). */
export async function headTokens(db: Kysely<Database>): Promise<HeadTokens> {
  let read = headsRead.get(db);
  if (!read) headsRead.set(db, (read = { heads: new Map(), through: 0 }));
  const { rows } = await sql<{ id: number; head: string; logger: string; message_key: string }>`
    select id, head, logger, message_key from ${sql.table(HEADS_TABLE)} where id > ${read.through} order by id`.execute(
    db,
  );
  for (const r of rows) read.heads.set(Number(r.id), { head: r.head, logger: r.logger, messageKey: r.message_key });
  if (rows.length) read.through = Math.max(read.through, Number(rows.at(-1)!.id));
  const { heads } = read;
  const tokensWhere = (test: (head: Head) => boolean) => {
    const tokens: string[] = [];
    for (const [id, head] of heads) if (test(head)) tokens.push(headToken(id));
    return tokens;
  };
  const among = (pairs: MessagePairs | undefined, { logger, messageKey }: Head) =>
    pairs?.get(logger)?.includes(messageKey) ?? false;
  const full = heads.size >= MAX_SEARCH_HEADS;
  return {
    holding: (word, except) => tokensWhere((head) => head.head.includes(word) && !among(except, head)),
    wholeMessages: (words) => {
      if (full) return undefined;
      // Per message: whether each of its heads holds every word.
      const byMessage = new Map<string, { logger: string; key: string; whole: boolean }>();
      for (const { head, logger, messageKey } of heads.values()) {
        const at = `${logger}\u0000${messageKey}`;
        const message = byMessage.get(at) ?? { logger, key: messageKey, whole: true };
        message.whole &&= words.every((w) => head.includes(w));
        byMessage.set(at, message);
      }
      const whole = new Map<string, string[]>();
      for (const { logger, key } of [...byMessage.values()].filter((m) => m.whole))
        whole.set(logger, [...(whole.get(logger) ?? []), key]);
      return whole;
    },
    ofMessages: (byLogger) => (full ? undefined : tokensWhere((head) => among(byLogger, head))),
  };
}
