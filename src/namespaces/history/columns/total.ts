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
import { pgHeldBeyondWhole, pgWordsSplit, type PgSearchHeads } from '../index/pg-search-heads.ts';
import type { MessagePairs } from '../index/search-heads.ts';
import { countFromColumns, testsOnlyColumns, type EventSets } from './count.ts';
import { addId, idBits, idBitsUpTo, type IdBits } from '../model/id-bits.ts';
import type { PairListing } from '../index/lookup.ts';
import { pageFromColumns, type ColumnsPage, type PageWanted } from './page.ts';
import { columnsAt, columnsKeepTexts, columnsWalker } from './sync.ts';
import { textsHolding } from './texts.ts';
import { BLOCK_EVENTS } from '../index/terms.ts';
import { metadataEvents } from './metadata-events.ts';
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
 * Whether `search` and `exclude_search` are served by the columns' search texts
 * (columns/texts.ts) when the columns keep them: the filter tests nothing else they would need
 * an index's plan for (`context_filters`, `metadata_search`). The plan then leaves the search
 * indexes alone (read/plan.ts).
 */
export function searchByTexts(app: AppServices, filter: EventFilter): boolean {
  return (
    !!(filter.search || filter.excludeSearch) &&
    !filter.contextFilters &&
    !filter.metadataWords &&
    testsOnlyColumns(filter) &&
    columnsKeepTexts(app)
  );
}

/**
 * Whether the columns hold every column `filter` tests; `texts`: whether they keep the search
 * texts, which hold every search's words. Without them, `search` on PostgreSQL only when the
 * heads of some messages hold every word (pgWordsSplit): the columns name those events, and
 * only the others are gathered. Words of values are found for a page by date through their
 * index sooner than all their matches are gathered (100 one-word searches: p50 34 → 48 ms; a
 * cold run of one to three words, 36 → 80, 12 → 92 and 10 → 139 ms). On SQLite `search` and
 * `exclude_search` only when its search index has the events of the words (plan.searchIndex,
 * plan.excludeWords), and `search` only for words it finds exactly, in many events: fewer are
 * read through the index at once, and a page of a word shorter than its trigrams is found
 * within a few rows read by date, where testing it on every event the other words' matches
 * name took longer (`logged in`, 124,000 of them: 193 → 235 ms). `context_filters` when the
 * context index lists the events of its pairs exactly (plan.contextListing) and few events
 * lie above its blocks. `metadata_search` on PostgreSQL once the table of the contexts' values
 * is complete (plan.metadataValues): the events it names, gathered in one statement.
 */
function fits(app: AppServices, filter: EventFilter, plan: QueryPlan, maxId: number, texts: boolean): boolean {
  const pg = app.dialect === 'postgres';
  const searchWords = filter.search?.words;
  const listing = plan.contextListing;
  return (
    testsOnlyColumns(filter) &&
    (!filter.contextFilters || (!!listing && maxId - listing.through <= TESTED_ABOVE_LISTING)) &&
    (!filter.excludeSearch || pg || texts || !!plan.excludeWords) &&
    (!filter.metadataWords || !!plan.metadataValues) &&
    (!searchWords ||
      texts ||
      (pg
        ? pgWordsSplit(plan.searchHeads, searchWords).whole.size > 0
        : (plan.searchIndex?.matches ?? 0) > FEW_SEARCH_MATCHES && searchWords.every(ftsFindsExactly)))
  );
}

/**
 * The columns at `state`, and the events holding the words of `search`, `exclude_search` and
 * `metadata_search` and the pairs of `context_filters`; null while the columns are not ready,
 * or when more events hold the `metadata_search` words than are gathered.
 */
async function columnsFor(
  app: AppServices,
  filter: EventFilter,
  plan: QueryPlan,
  state: LogState,
): Promise<{ view: ColumnsView; sets: EventSets } | null> {
  const view = await columnsAt(app, state);
  if (!view) return null;
  // Read afresh since `fits` was asked, they may keep no texts now.
  const texts = !!view.cols.searchTexts.values;
  if (!texts && !fits(app, filter, plan, state.maxId, false)) return null;
  const holding = (words: string[] | undefined, matches: SearchMatches | undefined) =>
    words &&
    (texts
      ? textsHolding(view.cols.searchTexts, words, app.dialect)!
      : app.dialect === 'postgres'
        ? pgEventsHolding(app, view, words, plan.searchHeads, state.maxId)
        : eventsHolding(app, view, words, matches!, state.maxId));
  const pairs = filter.contextFilters;
  const metadataWords = filter.metadataWords;
  const [included, excluded, context, metadata] = await Promise.all([
    holding(filter.search?.words, plan.searchIndex),
    holding(filter.excludeSearch?.words, plan.excludeWords),
    pairs && eventsWithPairs(app, pairs, plan.contextListing!, state.maxId),
    metadataWords && metadataEvents(app, metadataWords, state),
  ]);
  if (metadata === null) return null;
  return { view, sets: { included, excluded, context, metadata } };
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
 * SQLite: the events up to `maxId` holding every word: those its search index names (`matches`)
 * for the words it finds exactly, tested for the shorter ones (LIKE, as the rows' condition
 * does; conditions.ts searchCondition). One row: the ids as text, parsed here (a row per match
 * costs more to hand over).
 */
async function eventsHolding(
  app: AppServices,
  view: ColumnsView,
  words: string[],
  matches: SearchMatches,
  maxId: number,
): Promise<IdBits> {
  // Gathered with the plan when the index finds every word (beside the messages all of whose
  // events hold them: here, from the columns).
  if (matches.ids !== undefined) {
    const bits = idBits(matches.ids, maxId);
    if (matches.wholeMessages) markMessages(view, matches.wholeMessages, bits, maxId);
    return bits;
  }
  const { rows } = await sql<{ ids: string | null }>`
    select group_concat(rowid) as ids from (${sqliteHolding(app, words, matches)})`.execute(app.readDb);
  return idBits(rows[0]?.ids ?? '', maxId);
}

/**
 * PostgreSQL: the events up to `maxId` holding every word: those of the messages whose heads
 * hold them all from the columns (`updated`: 293,000 events, none read), the others through
 * the rests' index and the heads (index/pg-search-heads.ts) in one statement.
 */
async function pgEventsHolding(
  app: AppServices,
  view: ColumnsView,
  words: string[],
  heads: PgSearchHeads | undefined,
  maxId: number,
): Promise<IdBits> {
  const unique = [...new Set(words)];
  const split = pgWordsSplit(heads, unique);
  const bits = idBits(await idsWhere(app, pgHeldBeyondWhole(heads, unique, split)), maxId);
  markMessages(view, split.whole, bits, maxId);
  return bits;
}

/**
 * Adds the events up to `maxId` of the messages (logger → keys) among the columns' rows to
 * `bits`. Not as template matches of the terms (count.ts), which an `exclude_search` reads as
 * SQL does `not (logger = ? and message_key in (…))`: leaving out that logger's events without
 * a key too, which hold no head.
 */
function markMessages(view: ColumnsView, messages: MessagePairs, bits: IdBits, maxId: number): void {
  const { keys, ids } = view.cols;
  const marked = view.cols.messagesTable(messages);
  for (let i = 0; i < view.length; i++) if (marked[keys[i]!] && ids[i]! <= maxId) addId(bits, ids[i]!);
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
  if (!fits(app, filter, plan, state.maxId, columnsKeepTexts(app))) return undefined;
  return async () => {
    const columns = await columnsFor(app, filter, plan, state);
    const counted =
      columns && (await countFromColumns(columns.view, filter, mode, columns.sets, columnsWalker(app, columns.view)));
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
  page: PageWanted,
): Promise<ColumnsPage | null> {
  const texts = columnsKeepTexts(app);
  if ((filter.excludeSearch && app.dialect === 'sqlite' && !texts) || !fits(app, filter, plan, state.maxId, texts))
    return null;
  const columns = await columnsFor(app, filter, plan, state);
  return columns && pageFromColumns(columns.view, filter, page, columns.sets, columnsWalker(app, columns.view));
}
