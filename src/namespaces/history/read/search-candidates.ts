// PostgreSQL: the events holding every word of a search of several words, gathered through the
// trigram index when they are few. PostgreSQL multiplies the words' selectivities as if they were
// independent: for two common words seldom found together ("setting failed" on 1,000,000
// events: 8,447 rows expected, none there) it walks the whole log by date looking for a page's
// rows (1 s) where the index finds their few events in 15–70 ms.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { likeContains } from '../../../db/like.ts';
import type { ContextCandidates } from '../index/lookup.ts';
import type { SearchTerms } from './query.ts';

/** The newest events in which the words' density is sampled first. */
const SAMPLE_EVENTS = 10_000;
/**
 * Matches in the sample from which the words count as common: a page of the walk by date then
 * reads at most about a hundred rows per match it shows (and gathering the matches through the
 * index would build bitmaps of most of the log: 150–230 ms).
 */
const COMMON_IN_SAMPLE = 100;

/** A word the trigram index serves: one holding three letters or digits in a row. */
const INDEXED_WORD = /[\p{L}\p{N}]{3}/u;

/**
 * The events up to `newestId` holding every search word, when the search has several words the
 * trigram index serves, no message template holds them all (whose events would match too), the
 * newest events show them rarely, and they are at most `most`. Undefined otherwise: the rows are
 * read as before.
 */
export async function rareSearchCandidates(
  db: Kysely<Database>,
  search: SearchTerms,
  newestId: number,
  most: number,
): Promise<ContextCandidates | undefined> {
  const words = search.words.filter((w) => INDEXED_WORD.test(w));
  if (words.length < 2 || search.templateMatches.size) return undefined;
  const holds = sql.join(
    words.map((w) => likeContains('postgres', sql.ref('search_text'), w)),
    sql` and `,
  );
  const { rows: sampled } = await sql<{ n: string }>`select count(*) as n from (
      select search_text from history_events where id + 0 <= ${newestId}
      order by date desc, id desc limit ${SAMPLE_EVENTS}) as newest where ${holds}`.execute(db);
  if (Number(sampled[0]!.n) >= COMMON_IN_SAMPLE) return undefined;
  // Materialized: planned apart from the LIMIT, through the index (see plan.ts anyEventHolds).
  const { rows } = await sql<{ id: number }>`with m as materialized (
      select id from history_events where ${holds} and id + 0 <= ${newestId})
    select id from m limit ${most + 1}`.execute(db);
  if (rows.length > most) return undefined;
  return { through: newestId, ids: rows.map((r) => Number(r.id)).sort((a, b) => a - b) };
}
