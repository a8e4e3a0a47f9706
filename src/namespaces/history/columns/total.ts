// A list's page and first total from the log's columns (columns/count.ts, columns/page.ts): at
// the request's state of the log, or null while the columns are not ready (the rows are read
// instead). The total is a shortcut of the cached totals (read/caches.ts).
import { sql, type Expression, type SqlBool } from 'kysely';
import type { AppServices } from '../../../site/services.ts';
import type { EventFilter } from '../read/query.ts';
import type { QueryPlan, SearchMatches } from '../read/conditions.ts';
import type { LogState, TotalShortcut } from '../read/caches.ts';
import type { CountMode } from '../read/paging.ts';
import { filterCondition, indexMatches } from '../read/conditions.ts';
import { ftsFindsExactly, SEARCH_FTS } from '../index/fts.ts';
import { likeContains } from '../../../db/like.ts';
import { countFromColumns, testsOnlyColumns, type EventSets } from './count.ts';
import { idBits, idBitsUpTo, type IdBits } from '../model/id-bits.ts';
import type { PairListing } from '../index/lookup.ts';
import { pageFromColumns, type ColumnsPage } from './page.ts';
import { columnsAt } from './sync.ts';
import { BLOCK_EVENTS } from '../index/terms.ts';
import type { ColumnsView } from './store.ts';

/** Matches of `search` up to which its index's own paths serve it (plan.ts FEW_CANDIDATES). */
const FEW_SEARCH_MATCHES = 20_000;
/**
 * Events above the context index's blocks up to which `context_filters` is counted from the
 * columns: those events' contexts are tested as the rows' condition does (a block and a bit
 * more is a few ms; a log the indexer has not caught up with is read by date instead).
 */
const TESTED_ABOVE_LISTING = 3 * BLOCK_EVENTS;

/**
 * Whether the columns hold every column `filter` tests. `search` not on PostgreSQL, which
 * finds a page's matches through its trigram index sooner than it gathers them all (100 one-word
 * searches: p50 34 → 48 ms). On SQLite `search` and
 * `exclude_search` only when its search index has the events of the words (plan.searchIndex,
 * plan.excludeWords), and `search` only for words it finds exactly, in many events: fewer are
 * read through the index at once, and a page of a word shorter than its trigrams is found
 * within a few rows read by date, where testing it on every event the other words' matches
 * name took longer (`logged in`, 124,000 of them: 193 → 235 ms). `context_filters` when the
 * context index lists the events of its pairs exactly (plan.contextListing) and few events
 * lie above its blocks.
 */
function fits(app: AppServices, filter: EventFilter, plan: QueryPlan, maxId: number): boolean {
  const pg = app.dialect === 'postgres';
  const searchWords = filter.search?.words;
  const listing = plan.contextListing;
  return (
    testsOnlyColumns(filter) &&
    (!filter.contextFilters || (!!listing && maxId - listing.through <= TESTED_ABOVE_LISTING)) &&
    (!filter.excludeSearch || pg || !!plan.excludeWords) &&
    (!searchWords ||
      (!pg && (plan.searchIndex?.matches ?? 0) > FEW_SEARCH_MATCHES && searchWords.every(ftsFindsExactly)))
  );
}

/** The columns at `state`, and the events holding the words of `search` and `exclude_search` and the pairs of `context_filters`. */
async function columnsFor(
  app: AppServices,
  filter: EventFilter,
  plan: QueryPlan,
  state: LogState,
): Promise<{ view: ColumnsView; sets: EventSets } | null> {
  const view = await columnsAt(app, state);
  if (!view) return null;
  const holding = (words: string[] | undefined, matches: SearchMatches | undefined) =>
    words && eventsHolding(app, words, matches, state.maxId);
  const pairs = filter.contextFilters;
  const [included, excluded, context] = await Promise.all([
    holding(filter.search?.words, plan.searchIndex),
    holding(filter.excludeSearch?.words, plan.excludeWords),
    pairs && eventsWithPairs(app, pairs, plan.contextListing!, state.maxId),
  ]);
  return { view, sets: { included, excluded, context } };
}

/** The ids of the events meeting a condition, as one row of text (a row per event costs more to hand over). */
async function idsWhere(app: AppServices, condition: Expression<SqlBool>): Promise<string> {
  const ids = app.dialect === 'postgres' ? sql`string_agg(id::text, ',')` : sql`group_concat(id)`;
  const { rows } = await sql<{
    ids: string | null;
  }>`select ${ids} as ids from history_events where ${condition}`.execute(app.readDb);
  return rows[0]?.ids ?? '';
}

/**
 * The events up to `maxId` holding every context pair: those the context index lists under
 * them, exactly theirs (`listing`), and those above its blocks, tested as the rows' condition
 * does.
 */
async function eventsWithPairs(
  app: AppServices,
  pairs: [string, string][],
  listing: PairListing,
  maxId: number,
): Promise<IdBits> {
  const bits = idBitsUpTo(maxId);
  bits.set(listing.bits.subarray(0, bits.length));
  const tested = filterCondition({ scope: { all: true }, contextFilters: pairs, dialect: app.dialect })!;
  return idBits(await idsWhere(app, sql<SqlBool>`id > ${listing.through} and ${tested}`), maxId, bits);
}

/**
 * The events up to `maxId` holding every word. SQLite: those its search index names (`matches`)
 * for the words it finds exactly, tested for the shorter ones (LIKE, as the rows' condition
 * does; conditions.ts searchCondition). PostgreSQL: the rows' condition itself, which its
 * trigram index serves. One row: the ids as text, parsed here (a row per match costs more to
 * hand over).
 */
async function eventsHolding(
  app: AppServices,
  words: string[],
  matches: SearchMatches | undefined,
  maxId: number,
): Promise<IdBits> {
  if (app.dialect === 'postgres')
    return idBits(
      await idsWhere(
        app,
        filterCondition({ scope: { all: true }, search: { words, templateMatches: new Map() }, dialect: 'postgres' })!,
      ),
      maxId,
    );
  // Gathered with the plan when the index finds every word.
  if (matches!.ids !== undefined) return idBits(matches!.ids, maxId);
  const { rows } = await sql<{ ids: string | null }>`
    select group_concat(rowid) as ids from (${sqliteHolding(app, words, matches!)})`.execute(app.readDb);
  return idBits(rows[0]?.ids ?? '', maxId);
}

/**
 * SQLite: the events (as `rowid`) holding every word, from the search index's matches: each
 * match looked up by id and tested for the shorter words (with the id's index kept from it by
 * `+id`, SQLite read every row of the log instead: 124,000 matches of `logged` tested for `in`,
 * 355–369 → 225–254 ms; 471,000, 418 → 321–430 ms).
 */
function sqliteHolding(app: AppServices, words: string[], matches: SearchMatches) {
  const named = indexMatches(SEARCH_FTS, matches);
  const untested = words.filter((w) => !ftsFindsExactly(w));
  if (!untested.length) return named;
  const likes = untested.map((w) => likeContains(app.dialect, sql.ref('search_text'), w));
  return sql`select id as rowid from history_events where id in (${named}) and ${sql.join(likes, sql` and `)}`;
}

/** The shortcut counting `filter`'s total from the columns, when they hold what it tests. */
export function columnsShortcut(
  app: AppServices,
  filter: EventFilter,
  plan: QueryPlan,
  state: LogState,
  mode: CountMode,
): TotalShortcut | undefined {
  if (!fits(app, filter, plan, state.maxId)) return undefined;
  return async () => {
    const columns = await columnsFor(app, filter, plan, state);
    const counted = columns && countFromColumns(columns.view, filter, mode, columns.sets);
    return counted && { value: counted.value, maxId: state.maxId, newest: counted.newest };
  };
}

/**
 * A page of `filter` and its total from the columns, when they hold what it tests. On SQLite not
 * for `exclude_search`, whose matches would be gathered for every page, while its page is found
 * within a few rows read by date (its total is counted once and kept); PostgreSQL's trigram
 * index gathers them in a few ms where it read the log for a page (0.3 s).
 */
export async function columnsPage(
  app: AppServices,
  filter: EventFilter,
  plan: QueryPlan,
  state: LogState,
  page: { grouped: boolean; offset: number; limit: number },
): Promise<ColumnsPage | null> {
  if ((filter.excludeSearch && app.dialect === 'sqlite') || !fits(app, filter, plan, state.maxId)) return null;
  const columns = await columnsFor(app, filter, plan, state);
  return columns && pageFromColumns(columns.view, filter, page, columns.sets);
}
