// PostgreSQL: the events holding every word of a search of several words, gathered through the
// trigram index when they are few. PostgreSQL multiplies the words' selectivities as if they were
// independent: for two common words seldom found together ("setting failed" on 1,000,000
// events: 8,447 rows expected, none there) it walks the whole log by date looking for a page's
// rows (1 s) where the index finds their few events in 15–70 ms.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { likeContains } from '../../../db/like.ts';
import type { ContextCandidates } from '../index/lookup.ts';
import type { SearchTerms } from './query.ts';
import { INDEXED_WORD } from '../index/pg-search-heads.ts';

/** The newest events in which the words' density is sampled first. */
const SAMPLE_EVENTS = 10_000;
/**
 * The cost of gathering the events, in rows a walk by date reads meanwhile (about 1 µs each on
 * 1,000,000 events): about 30 ms for the bitmaps of the words' trigrams, and 40 µs per event
 * (read to be tested, then again by the page and by the total). Measured: none 35 ms, 6,492
 * events 280 ms, 17,541 events 320 ms.
 */
const GATHERING_ROWS = 30_000;
const GATHERING_ROWS_PER_EVENT = 40;

/**
 * What is known of a set of words: how many of the newest events hold them, and their events
 * once gathered (null: more than the most gathered). Each page of a list plans its read, and
 * the next pages of a search would ask again (the events gathered: 15–120 ms). Candidates stay
 * valid as events are appended (those above `through` are read too); a change other than
 * appends (a purge: log_changes) or many appends ask anew.
 */
interface Known {
  changes: number;
  through: number;
  inSample: number;
  gathered?: ContextCandidates | null;
}
const knownByDb = new WeakMap<Kysely<Database>, Map<string, Known>>();
/** Sets of words kept, and their gathered events in all (8 bytes each: 1.6 MB). */
const KNOWN_KEPT = 200;
const GATHERED_KEPT = 200_000;

/**
 * The events up to `newestId` holding every search word, when the search has several words the
 * trigram index serves, no message template holds them all (whose events would match too),
 * PostgreSQL would walk the log by date to find them, and that walk would read more rows than
 * gathering them costs (judged by their share of the newest events, for a page ending at row
 * `wanted`), and they are at most `most`. Undefined otherwise: the rows are read as before.
 * `changes`: the log's change counter (log_changes).
 */
export async function rareSearchCandidates(
  db: Kysely<Database>,
  search: SearchTerms,
  newestId: number,
  { wanted, most, changes }: { wanted: number; most: number; changes: number },
): Promise<ContextCandidates | undefined> {
  const words = [...new Set(search.words.filter((w) => INDEXED_WORD.test(w)))];
  if (words.length < 2 || search.templateMatches.size) return undefined;
  let known = knownByDb.get(db);
  if (!known) knownByDb.set(db, (known = new Map()));
  const key = JSON.stringify(words);
  const holds = sql.join(
    words.map((w) => likeContains('postgres', sql.ref('search_text'), w)),
    sql` and `,
  );
  let entry = known.get(key);
  if (entry && (entry.changes !== changes || entry.through > newestId || newestId - entry.through > most))
    entry = undefined;
  // Once gathered (or found too many), no page needs to ask how it would be read: the events lead
  // any page at little cost.
  if (entry?.gathered === undefined) {
    // Most often PostgreSQL goes through the trigram index itself; only a walk by date may be
    // long. Whether it walks depends on how far (a page deeper in the list: further).
    const { rows: planned } = await sql<{ 'QUERY PLAN': unknown }>`explain (format json)
      select id from history_events where ${holds} order by date desc, id desc limit ${wanted}`.execute(db);
    if (!JSON.stringify(planned[0]?.['QUERY PLAN']).includes('"Index Name":"history_events_date"')) return undefined;
  }
  entry ??= { changes, through: newestId, inSample: await countInSample(db, holds, newestId) };
  // Most recently used last.
  known.delete(key);
  known.set(key, entry);
  forgetOldest(known);
  if (entry.gathered !== undefined) return entry.gathered ?? undefined;
  // Their share of the newest events: how far the walk goes, and how many events there are.
  const sampleSize = Math.min(newestId, SAMPLE_EVENTS);
  const walkRows = entry.inSample ? (wanted * sampleSize) / entry.inSample : Infinity;
  const events = (entry.inSample * newestId) / sampleSize;
  if (walkRows <= GATHERING_ROWS + GATHERING_ROWS_PER_EVENT * events) return undefined;
  entry.gathered = (await gather(db, holds, entry.through, most)) ?? null;
  return entry.gathered ?? undefined;
}

/** Least recently used first, until at most KNOWN_KEPT sets and GATHERED_KEPT events (and the set just asked for) are kept. */
function forgetOldest(known: Map<string, Known>): void {
  let gathered = 0;
  for (const k of known.values()) gathered += k.gathered?.ids.length ?? 0;
  for (const [key, k] of known) {
    if (known.size <= KNOWN_KEPT && gathered <= GATHERED_KEPT) return;
    gathered -= k.gathered?.ids.length ?? 0;
    known.delete(key);
  }
}

/** How many of the newest SAMPLE_EVENTS events hold the words. */
async function countInSample(db: Kysely<Database>, holds: RawBuilder<unknown>, newestId: number): Promise<number> {
  const { rows } = await sql<{ n: string }>`select count(*) as n from (
      select search_text from history_events where id + 0 <= ${newestId}
      order by date desc, id desc limit ${SAMPLE_EVENTS}) as newest where ${holds}`.execute(db);
  return Number(rows[0]!.n);
}

/** The events up to `through` holding the words, when at most `most`. */
async function gather(
  db: Kysely<Database>,
  holds: RawBuilder<unknown>,
  through: number,
  most: number,
): Promise<ContextCandidates | undefined> {
  // Materialized: planned apart from the LIMIT, through the index (see plan.ts anyEventHolds).
  const { rows } = await sql<{ id: number }>`with m as materialized (
      select id from history_events where ${holds} and id + 0 <= ${through})
    select id from m limit ${most + 1}`.execute(db);
  if (rows.length > most) return undefined;
  return { through, ids: rows.map((r) => Number(r.id)).sort((a, b) => a - b) };
}
