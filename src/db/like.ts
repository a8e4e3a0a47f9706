// Substring tests in SQL for user text, the same on SQLite and PostgreSQL.
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { asciiLower } from '../util.ts';
import type { DialectName } from './index.ts';

/** The text as a LIKE pattern matches it literally (with `escape '\'`). */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => '\\' + c);
}

/**
 * Longer text is not looked for with LIKE: SQLite refuses patterns of more than 50,000 bytes
 * ("pattern too complex", a 500 for a long search word sent in a JSON body), and PostgreSQL's LIKE
 * took 4 s to test one 60,000-character pattern against one long value (its position search, a
 * few milliseconds).
 */
const LIKE_MAX_BYTES = 20_000;

/**
 * `expr` LIKE `%text%`, or ILIKE with `ignoreCase` on PostgreSQL (with `expr` under collation "C"
 * only ASCII case is folded, as SQLite's LIKE always does; under a language's collation, that
 * language's case). Long text is found by position instead, with the same case rules: lower()
 * folds ASCII only on SQLite and under collation "C".
 */
export function likeContains(
  dialect: DialectName,
  expr: RawBuilder<unknown>,
  text: string,
  ignoreCase = false,
): RawBuilder<SqlBool> {
  if (Buffer.byteLength(text) > LIKE_MAX_BYTES) {
    if (dialect === 'sqlite') return sql<SqlBool>`instr(lower(${expr}), ${asciiLower(text)}) > 0`;
    return ignoreCase
      ? sql<SqlBool>`strpos(lower(${expr}), ${asciiLower(text)}) > 0`
      : sql<SqlBool>`strpos(${expr}, ${text}) > 0`;
  }
  const op = dialect === 'postgres' && ignoreCase ? sql`ilike` : sql`like`;
  return sql<SqlBool>`${expr} ${op} ${'%' + escapeLike(text) + '%'} escape '\\'`;
}
