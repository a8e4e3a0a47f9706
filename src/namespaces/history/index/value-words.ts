// PostgreSQL: the contexts' values as their trigram index can read every character of them
// (migration 0031). pg_trgm keeps only letters and digits and splits words at every other
// character, so `2.3` was looked up as the words `2` and `3`, whose trigrams nearly every event
// holds: the index named 212,000 candidates for 28,000 matches, each tested by ILIKE (250 ms).
// The table of values (index/context-values.ts) holds them as words instead: ASCII capitals
// made small, each ASCII punctuation mark written as a letter of a caseless script (Bopomofo,
// a letter to pg_trgm under a UTF-8 ctype), so that `2.3` is the trigram `2ㄒ3` and plain LIKE
// finds a word written so. Values that hold one of those letters themselves follow their words
// after ORIGINAL_MARK as written (no ASCII punctuation is left in the words, so the first mark is
// that one), for the words that LIKE alone cannot decide there (valuesHoldWord).
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { likeContains } from '../../../db/like.ts';

const CAPITALS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const SMALL = 'abcdefghijklmnopqrstuvwxyz';
const PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';
/** Bopomofo ㄅ (U+3105) to ㄤ (U+3124), one per punctuation mark. */
const STAND_INS = Array.from(PUNCTUATION, (_, i) => String.fromCodePoint(0x3105 + i)).join('');
const ORIGINAL_MARK = '#';

const FROM = CAPITALS + PUNCTUATION;
const TO = SMALL + STAND_INS;
const WRITTEN_AS = new Map(Array.from(FROM, (c, i) => [c, TO[i]!]));
const isPunctuation = (c: string) => PUNCTUATION.includes(c);
const isStandIn = (c: string) => STAND_INS.includes(c);

/** A text as the words of the table hold it (history_context_values_of). */
export const valueWordsOf = (text: string): string => Array.from(text, (c) => WRITTEN_AS.get(c) ?? c).join('');

/**
 * (Re)defines history_context_values_of, which every writer of the table calls: a context's
 * values, one per line, as words; then, when they hold a stand-in letter, the mark and the values
 * as written. Null when every value is null (the event gets no row).
 */
export async function defineValueWords(db: Kysely<any>): Promise<void> {
  const literal = (s: string) => `'${s.replaceAll("'", "''")}'`;
  await sql
    .raw(
      `create or replace function history_context_values_of(context text) returns text language sql immutable parallel safe
      as $$ select case when v ~ ${literal(`[${STAND_INS[0]}-${STAND_INS.at(-1)}]`)}
          then translate(v, ${literal(FROM)}, ${literal(TO)}) || ${literal(ORIGINAL_MARK)} || v
          else translate(v, ${literal(FROM)}, ${literal(TO)}) end
        from (select string_agg(value, E'\\n') as v from json_each_text(context::json)) as s $$`,
    )
    .execute(db);
}

/**
 * The values of `v` (history_context_values) hold `word`, ASCII case folded, as ILIKE on the
 * values as written says. A word without punctuation or stand-in letters is in the words
 * exactly where it is in the values: each of its characters is written as itself folded, and no
 * character matching one of them stands for a punctuation mark (a match in values kept as
 * written after the mark is one in them). A word with punctuation is so in values without
 * stand-in letters; where they hold some, their values as written are tested. A word with a
 * stand-in letter is only in values holding one.
 */
export function valuesHoldWord(word: string): RawBuilder<SqlBool> {
  const text = sql.ref('v.context_values');
  const inWords = likeContains('postgres', text, valueWordsOf(word));
  const kept = sql<SqlBool>`strpos(${text}, ${ORIGINAL_MARK}) > 0`;
  const asWritten = likeContains('postgres', sql`substr(${text}, strpos(${text}, ${ORIGINAL_MARK}) + 1)`, word, true);
  const chars = Array.from(word);
  if (chars.some(isStandIn)) return sql<SqlBool>`(${kept} and ${asWritten})`;
  if (chars.some(isPunctuation)) return sql<SqlBool>`(${inWords} and (not ${kept} or ${asWritten}))`;
  return inWords;
}
