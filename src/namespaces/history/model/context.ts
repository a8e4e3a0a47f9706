// An event's context as stored: one JSON object per event (history_event_contexts), its text, and
// reading it back.
import { sql, type RawBuilder } from 'kysely';
import type { DialectName } from '../../../db/index.ts';
import { setOwn } from '../../../util.ts';
import type { Db } from './counters.ts';

/**
 * The stored context (history_event_contexts.context): a JSON object with each key once, where it
 * first appeared, with its last value. (Integer-like keys come first, as in every JavaScript
 * object: the order the context is read back in anyway.)
 */
export function contextJson(context: Map<string, string | null>): string {
  // The object Object.fromEntries would build, without its intermediate entries (half the time).
  const object: Record<string, unknown> = {};
  for (const [key, value] of context) setOwn(object, key, value);
  return JSON.stringify(object);
}

/** The stored context read back. */
export function contextMap(json: string): Map<string, string | null> {
  return new Map(Object.entries(JSON.parse(json) as Record<string, string | null>));
}

/** The contexts of these events, by event id (one query). */
export async function loadContexts(db: Db, ids: number[]): Promise<Map<number, Map<string, string | null>>> {
  const rows = ids.length
    ? await db
        .selectFrom('history_event_contexts')
        .select(['event_id', 'context'])
        .where('event_id', 'in', ids)
        .execute()
    : [];
  return new Map(rows.map((r) => [r.event_id, contextMap(r.context)]));
}

/**
 * The stored context in the column (e.g. `x.context` of history_event_contexts as x) as a table
 * of (key, value) rows, to join or to test with `exists`: SQLite's json_each, PostgreSQL's
 * json_each_text.
 */
export function contextPairs(dialect: DialectName, column: string): RawBuilder<{ key: string; value: string | null }> {
  return dialect === 'postgres' ? sql`json_each_text(${sql.ref(column)}::json)` : sql`json_each(${sql.ref(column)})`;
}

/**
 * Text both databases store as given: NUL (which PostgreSQL refuses in text, failing the whole
 * group) and unpaired surrogates (which UTF-8 cannot hold) become U+FFFD. Context keys and values
 * too: escaped in the context's JSON they would be stored, but PostgreSQL's JSON functions
 * (context_filters, metadata_search) refuse to turn `\u0000` or a lone surrogate back into text.
 */
export function storableText(text: string): string {
  return (text.includes('\0') ? text.replaceAll('\0', '\ufffd') : text).toWellFormed();
}

/** Context values are stored as text: strings as given (see storableText), other values JSON-encoded. */
export function contextText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return storableText(value);
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? '1' : '0';
  return JSON.stringify(value);
}
