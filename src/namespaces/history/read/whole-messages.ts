// SQLite: a search's matches when some messages' heads hold every word (index/search-heads.ts
// wholeMessages), so that all those messages' events match. Reading them through the search
// index meant reading the doclists of their heads' tokens, most of the log for a template's
// word (`login`, 346,000 of 1,000,000 events: 50–100 ms to gather, 25–50 ms to count, where
// the words' own phrases took under a millisecond). Instead those events are counted through
// the (logger, message key) index, and the log's columns name them (columns/total.ts); only the
// other events are gathered from the search index.
import { sql, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { SearchTerms } from './query.ts';
import { filterCondition, indexMatches } from './conditions.ts';
import { ftsQuery, SEARCH_FTS } from '../index/fts.ts';
import type { HeadTokens, MessagePairs } from '../index/search-heads.ts';

/** The events matching beside the whole messages': how many, their ids, and those messages. */
export interface MatchesBeside {
  /** All matches: the whole messages' events and the others. */
  matches: number;
  /** The others, comma-separated. */
  ids: string;
  wholeMessages: MessagePairs;
}

/**
 * The search's matches up to `newestId` split so, when the whole messages' events are more
 * than `fewest` (fewer are gathered with the rest at little cost); undefined otherwise.
 */
export async function matchesBesideWholeMessages(
  db: Kysely<Database>,
  search: SearchTerms,
  heads: HeadTokens,
  newestId: number,
  fewest: number,
): Promise<MatchesBeside | undefined> {
  const whole = heads.wholeMessages(search.words);
  if (!whole?.size) return undefined;
  const ofWhole = filterCondition({ scope: { all: true }, messages: whole, dialect: 'sqlite' })!;
  const counted = await db
    .selectFrom('history_events')
    .select(sql<number>`count(*)`.as('n'))
    .where('id', '<=', newestId)
    .where(ofWhole)
    .executeTakeFirstOrThrow();
  const inWhole = Number(counted.n);
  if (inWhole <= fewest) return undefined;
  // The others: the words' phrases and the other heads holding them (the templates' heads too).
  const beside = new Map(
    [...search.templateMatches].map(([logger, keys]) => [
      logger,
      keys.filter((key) => !whole.get(logger)?.includes(key)),
    ]),
  );
  const templates = search.templateMatches.size ? heads.ofMessages(beside) : undefined;
  const query = ftsQuery(search.words, { holding: (word) => heads.holding(word, whole) }, templates)!;
  // A row without a key is of no whole message (the condition is NULL for it).
  const notOfWhole = sql<SqlBool>`(message_key is null or not ${ofWhole})`;
  const { rows } = await sql<{ n: number; ids: string | null }>`select count(*) as n, group_concat(id) as ids
    from history_events where id in (${indexMatches(SEARCH_FTS, { query })}) and id <= ${newestId} and ${notOfWhole}`.execute(
    db,
  );
  return { matches: inWhole + Number(rows[0]?.n ?? 0), ids: rows[0]?.ids ?? '', wholeMessages: whole };
}
