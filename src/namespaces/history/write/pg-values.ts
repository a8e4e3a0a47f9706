// PostgreSQL parameters as the write path sends them.
import { PostgresAdapter } from 'kysely';
import type { Db } from '../model/counters.ts';

export function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * A PostgreSQL array literal of text or integer values, as pg writes an array parameter (every
 * element quoted, NULL for null) but without its per-element conversions, which cost about as
 * much as preparing the events on the append path.
 */
export function pgArray(values: readonly unknown[]): string {
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (i > 0) out += ',';
    if (value === null || value === undefined) {
      out += 'NULL';
      continue;
    }
    const text = String(value);
    // Testing first: a global replace costs even when nothing matches (most elements).
    out += HAS_ARRAY_SPECIAL.test(text) ? `"${text.replace(ARRAY_SPECIALS, '\\$&')}"` : `"${text}"`;
  }
  return out + '}';
}
const HAS_ARRAY_SPECIAL = /["\\]/;
const ARRAY_SPECIALS = /["\\]/g;
