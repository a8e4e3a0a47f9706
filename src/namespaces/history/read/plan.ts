// Planning a read of the log (planQuery): how narrow an ip range is, what the context index
// knows of a filter's pairs and words, and which of them lead a page. A QueryPlan changes how
// rows are found, never which; the filter itself is left as the request made it.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { DialectName } from '../../../db/index.ts';
import { isUnfiltered, type EventFilter, type SearchTerms } from './query.ts';
import { contextIndexFinds, filterCondition, namedByIndex, type QueryPlan, type SearchMatches } from './conditions.ts';
import type { IpFilter } from '../model/ip.ts';
import {
  contextCandidates,
  pairListing,
  wordBlocks,
  type BlockCandidates,
  type ContextCandidates,
} from '../index/lookup.ts';
import {
  CONTEXT_FTS,
  countFtsMatches,
  ftsFindsExactly,
  ftsMatchIds,
  ftsIndexComplete,
  ftsQuery,
  indexNewEventsBeforeRead,
  SEARCH_FTS,
} from '../index/fts.ts';
import { asciiLower } from '../../../util.ts';
import { BLOCK_EVENTS } from '../index/terms.ts';
import { contextValuesComplete } from '../index/context-values.ts';
import { rareSearchCandidates } from './search-candidates.ts';
import { headTokens } from '../index/search-heads.ts';
import { matchesBesideWholeMessages } from './whole-messages.ts';
import { pgSearchHeads } from '../index/pg-search-heads.ts';
import { MAX_COLUMN_ROWS } from '../columns/bound.ts';
import { COUNTER_CHANGES, readCounter } from '../model/counters.ts';

/** Rows in an `ip_address` prefix's range up to which the range is read through the address index. */
const NARROW_IP_ROWS = 20_000;

export type { QueryPlan, SearchMatches };

/**
 * The plan of a read under `f` when the log's newest id and change counter are `state`'s, for a
 * page ending at row `wanted`.
 */
export async function planQuery(
  db: Kysely<Database>,
  f: EventFilter,
  state: { maxId: number; changes: number },
  wanted: number,
  { searchByTexts = false }: { searchByTexts?: boolean } = {},
): Promise<QueryPlan> {
  const ipNarrow = await isNarrowIpRange(db, f.ip);
  return { ipNarrow, ...(await indexPlan(db, f, state.maxId, { wanted, changes: state.changes, searchByTexts })) };
}

export interface IndexPlanOptions {
  /** Candidates up to which the context index leads (default narrowContextLimit). */
  limit?: number;
  /** The rows up to the end of the page to be read (PostgreSQL's search candidates weigh it; default 100). */
  wanted?: number;
  /** The log's change counter (log_changes), when known: read otherwise. */
  changes?: number;
  /**
   * The log's columns test `search` and `exclude_search` on their search texts
   * (columns/texts.ts): the search indexes are not asked (the rows' condition tests the words,
   * should the columns be read afresh meanwhile).
   */
  searchByTexts?: boolean;
}

/**
 * Whether a wildcard `ip_address` filter's prefix range holds at most NARROW_IP_ROWS rows
 * (counted through the index, stopping after that many). Reading such a
 * range and sorting it by date beats walking the log by date until enough rows matched; for a
 * broad prefix (a site's own network) it is the other way round. PostgreSQL's planner weighs
 * this by its statistics; SQLite's, without any, would take the index range every time.
 */
export async function isNarrowIpRange(
  db: Kysely<Database>,
  ip: IpFilter | undefined,
  limit = NARROW_IP_ROWS,
): Promise<boolean | undefined> {
  if (!ip?.like) return undefined;
  const inRange = db
    .selectFrom('history_events')
    .select('id')
    .where('remote_addr', '>=', ip.from)
    .where('remote_addr', '<', ip.below)
    .limit(limit + 1);
  const row = await db.selectFrom(inRange.as('r')).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
  return Number(row.n) <= limit;
}

/**
 * Candidates up to which the context index leads, and events above the index it tolerates: as
 * many as that bound again. Looking a candidate up costs what reading about 6 rows in date order does on SQLite and about 20 on
 * PostgreSQL, whose own cache holds fewer of the pages (1,000,000 events, a value in 59,000):
 * with a margin of two, and never fewer than 2,000.
 */
function narrowContextLimit(dialect: DialectName, newestId: number): number {
  return Math.max(2000, Math.floor(newestId / (dialect === 'postgres' ? 40 : 12)));
}

/**
 * `contextIndex` when the context index lists few enough events under all of the filter's
 * context pairs and few enough events are newer than it (`newestId`): those candidates and the
 * newer events are all that can match. Likewise `metadataIndex` when the blocks holding the
 * metadata_search words' trigrams hold few enough events (PostgreSQL: `metadataValues` once
 * the table of the context values is full), and `searchIndex` for the search words. Otherwise
 * none, and the rows read by date are tested.
 */
export async function indexPlan(
  db: Kysely<Database>,
  f: EventFilter,
  newestId: number,
  { limit, wanted = 100, changes, searchByTexts }: IndexPlanOptions = {},
): Promise<QueryPlan> {
  const plan: QueryPlan = {};
  const dialect = f.dialect ?? 'sqlite';
  if (searchByTexts) f = { ...f, search: undefined, excludeSearch: undefined };
  const bound = limit ?? narrowContextLimit(dialect, newestId);
  const listing = f.contextFilters && (await pairListing(db, dialect, f.contextFilters, newestId, bound));
  if (listing) {
    plan.contextIndex = contextCandidates(listing, newestId, bound);
    if (listing.exact) plan.contextListing = listing;
  }
  // Blocks lead a page only when they hold few events (pagePlan); beyond, they narrow the
  // total, whose count reads their events in id order on both databases: up to a third of the
  // log (where the candidates' bound on PostgreSQL is a fortieth, for look-ups one by one).
  const blocksBound = Math.max(limit === undefined ? Math.floor(newestId / 3) : 4 * limit, 4 * BLOCK_EVENTS);
  if (f.metadataWords && dialect === 'sqlite')
    plan.metadataSearch = await contextMatches(
      db,
      f.metadataWords,
      isUnfiltered({ ...f, metadataWords: undefined }),
      newestId,
    );
  if (f.metadataWords && dialect === 'postgres' && (await contextValuesComplete(db)))
    plan.metadataValues = { alone: isUnfiltered({ ...f, metadataWords: undefined }) };
  else if (f.metadataWords && !plan.metadataSearch)
    plan.metadataIndex = await wordBlocks(db, dialect, f.metadataWords, newestId, blocksBound);
  // PostgreSQL's planner finds its trigram index for the LIKE by itself, but for several words
  // it may expect many rows where there are few (search-candidates.ts).
  if (f.search && dialect === 'sqlite')
    plan.searchIndex = await searchMatches(db, f.search, isUnfiltered({ ...f, search: undefined }), newestId);
  // The heads serve the log's columns only, which do not hold a larger log.
  if ((f.search || f.excludeSearch) && dialect === 'postgres' && newestId <= MAX_COLUMN_ROWS)
    plan.searchHeads = await pgSearchHeads(db, [...(f.search?.words ?? []), ...(f.excludeSearch?.words ?? [])]);
  if (f.search && dialect === 'postgres')
    plan.searchCandidates = await rareSearchCandidates(db, f.search, newestId, {
      wanted,
      most: FEW_CANDIDATES,
      changes: changes ?? (await readCounter(db, COUNTER_CHANGES)),
    });
  if (f.excludeSearch && dialect === 'sqlite') {
    const exclude = await searchMatches(db, f.excludeSearch, true, newestId);
    plan.excludeWords = exclude;
    if (exclude?.alone && exclude.matches === 0) plan.excludesNothing = true;
    else if ((exclude?.alone || exclude?.templated) && isUnfiltered({ ...f, excludeSearch: undefined }))
      plan.excludeIndex = exclude;
  }
  // PostgreSQL's trigram index finds a row holding the words at once, or that none does.
  if (f.excludeSearch && dialect === 'postgres') plan.excludesNothing = !(await anyEventHolds(db, f.excludeSearch));
  return plan;
}

/** The newest events in which a match is looked for first. */
const NEWEST_LOOKED_AT = 2_000;

/**
 * Whether some event matches the search terms (its words, or a template holding them). The
 * newest events first: words worth leaving out are mostly among them, and through the trigram
 * index a word in most events builds a bitmap of most of the log first (`ser` on 1,000,000
 * events: 330 ms; among the newest: 6 ms). Then through the index, as a materialized CTE planned
 * apart from the LIMIT: with `limit 1` on the query itself, PostgreSQL expected a match within
 * the first rows and read the log in order, 0.3 s for words found nowhere; through the index 5 ms.
 */
async function anyEventHolds(db: Kysely<Database>, search: SearchTerms): Promise<boolean> {
  const cond = filterCondition({ scope: { all: true }, search, dialect: 'postgres' })!;
  const { rows: newest } = await sql`select 1 as found from (
      select search_text, logger, message_key from history_events
      order by date desc, id desc limit ${NEWEST_LOOKED_AT}) as history_events
    where ${cond} limit 1`.execute(db);
  if (newest.length) return true;
  const { rows } = await sql`with m as materialized (select id from history_events where ${cond})
    select 1 as found from m limit 1`.execute(db);
  return rows.length > 0;
}

/**
 * SQLite, before planning a read under `f` on the connection that writes (`writer`), the log's
 * newest id being `newestId`: the new events of the search indexes the filter would use, indexed
 * when few (indexNewEventsBeforeRead).
 */
export async function indexNewEventsFor(writer: Kysely<Database>, f: EventFilter, newestId: number): Promise<void> {
  if ((f.dialect ?? 'sqlite') !== 'sqlite') return;
  if (f.search || f.excludeSearch) await indexNewEventsBeforeRead(writer, SEARCH_FTS, newestId);
  if (f.metadataWords) await indexNewEventsBeforeRead(writer, CONTEXT_FTS, newestId);
}

/**
 * SQLite: the search index's matches of the words, once every event up to `newestId` is indexed
 * and some word has three characters.
 */
async function searchMatches(
  db: Kysely<Database>,
  search: SearchTerms,
  nothingElse: boolean,
  newestId: number,
): Promise<SearchMatches | undefined> {
  if (!(await ftsIndexComplete(db, SEARCH_FTS, newestId))) return undefined;
  // The heads read after the index is known complete: those of every event up to newestId are there.
  const heads = await headTokens(db);
  // Shorter and longer words are tested on the rows (the index's matches then only bound them).
  const everyWord = search.words.every(ftsFindsExactly);
  // Where it finds every word, the index names the templates' events too (their heads).
  const templates = everyWord && search.templateMatches.size ? heads.ofMessages(search.templateMatches) : undefined;
  const query = ftsQuery(search.words, heads, templates);
  if (!query) return undefined;
  const withTemplates = templates !== undefined;
  const exact = !search.templateMatches.size || withTemplates;
  const named = nothingElse && everyWord;
  // The events holding every word, gathered with their count when the index finds them all: the
  // log's columns take them (columns/total.ts), and counting alone read the index as long. A log
  // too large for the columns has no use for more than a page leads (FEW_CANDIDATES): gathering
  // a common word's millions of ids held 100 MB at once (`ser` in 10,000,000 events: the
  // server's RSS 149 → 258 MB).
  // Messages whose heads hold every word in many events are the columns' to name (whole-messages.ts).
  const beside =
    everyWord && newestId <= MAX_COLUMN_ROWS
      ? await matchesBesideWholeMessages(db, search, heads, newestId, FEW_CANDIDATES)
      : undefined;
  const gathered =
    beside ??
    (everyWord
      ? await ftsMatchIds(db, query, SEARCH_FTS, newestId > MAX_COLUMN_ROWS ? FEW_CANDIDATES : Infinity)
      : undefined);
  const { matches, ids } = gathered ?? { matches: await countFtsMatches(db, query), ids: undefined };
  return {
    query,
    matches,
    exact,
    withTemplates,
    alone: exact && named,
    templated: !exact && named,
    ids,
    wholeMessages: beside?.wholeMessages,
    named: ids !== undefined && !beside && matches <= FEW_CANDIDATES ? ids : undefined,
  };
}

/**
 * The events of the message templates holding the search words that the search index does not
 * name (`search.templated`): counted through the (logger, message key) index, each tested against
 * the index's matches gathered once (`Updated` in 1,000,000 events: 160 ms; the rows read whole
 * took 220 ms).
 */
export async function countTemplateEventsBeside(
  db: Kysely<Database>,
  search: SearchTerms,
  fts: SearchMatches,
): Promise<number> {
  const templates = filterCondition({ scope: { all: true }, messages: search.templateMatches })!;
  const row = await db
    .selectFrom('history_events')
    .select(sql<number>`count(*)`.as('n'))
    .where(templates)
    .where((eb) => eb.not(namedByIndex(SEARCH_FTS, fts)))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Matches of the metadata_search words up to which they are gathered for a page to list; a word
 * in more events is counted after reading this many (200 different requests: p90 123–127 →
 * 76–92 ms, p99 178–192 → 144–188 ms; gathering up to 20,000 made p99 185–197 → 212–221 ms).
 */
const GATHERED_CONTEXT_MATCHES = 5_000;

/**
 * SQLite: the context values' index's matches of the metadata_search words it finds exactly
 * (contextIndexFinds), once every context up to `newestId` is indexed; the other words are
 * tested on the events it names (a word of one or two characters beside a longer one). None
 * when it finds no word: the contexts are tested.
 */
async function contextMatches(
  db: Kysely<Database>,
  words: readonly string[],
  nothingElse: boolean,
  newestId: number,
): Promise<SearchMatches | undefined> {
  const found = words.map(asciiLower).filter(contextIndexFinds);
  if (!found.length) return undefined;
  if (!(await ftsIndexComplete(db, CONTEXT_FTS, newestId))) return undefined;
  const query = ftsQuery(found)!;
  // Gathered when few (a page then lists them), else counted.
  const few = await ftsMatchIds(db, query, CONTEXT_FTS, GATHERED_CONTEXT_MATCHES);
  return {
    query,
    matches: few?.matches ?? (await countFtsMatches(db, query, CONTEXT_FTS)),
    exact: true,
    alone: nothingElse && found.length === words.length,
    named: few?.ids,
  };
}

/** Candidates up to which a grouped page is always read through them. */
const GROUPED_PAGE_CANDIDATES = 20_000;

/** Candidates up to which an ungrouped page reads them all and sorts them (selectEventPage). */
export const FEW_CANDIDATES = 20_000;

/**
 * The plan for reading a page of `wanted` rows: the context index's candidates lead when
 * walking the log by date would read far more rows. A walk reads back to about the wanted-th
 * newest candidate (ids grow with dates), testing each row at about a sixth of the cost of
 * looking a candidate up and sorting it; a common value's page is found after a few rows. A
 * grouped page may walk further, to the end of its last group (all of a filter's rows can be
 * one group): up to GROUPED_PAGE_CANDIDATES they lead anyway, a bounded cost.
 *
 * The blocks named for metadata_search or search lead up to FEW_CANDIDATES events; beyond, the
 * page walks by date without them. (Reading 200,000 events of 49 blocks and sorting them took
 * twice the walk's time; so did the walk testing each row against the blocks' 40 id ranges.)
 */
export function pagePlan(plan: QueryPlan, newestId: number, wanted: number, grouped: boolean): QueryPlan {
  let page = plan;
  if (plan.metadataIndex && blockEvents(plan.metadataIndex, newestId) > FEW_CANDIDATES)
    page = { ...page, metadataIndex: undefined };
  if (plan.searchIndex && (!plan.searchIndex.exact || plan.searchIndex.matches > FEW_CANDIDATES))
    page = { ...page, searchIndex: undefined };
  else if (page.searchIndex?.alone && !grouped) page = { ...page, searchIndex: { ...page.searchIndex, top: wanted } };
  // Beyond FEW_CANDIDATES, the rows read by date are tested against the matches, gathered once
  // per statement; a word in more than an eighth of the log is found within a few rows read
  // by date, and testing their contexts is cheaper than gathering its matches (`administrator`
  // in most of 1,000,000 events: 820 ms a page).
  const words = plan.metadataSearch;
  if (words && words.matches > FEW_CANDIDATES)
    page = { ...page, metadataSearch: words.matches > newestId / 8 ? undefined : { ...words, tested: true } };
  const c = page.contextIndex;
  if (!c) return page;
  const candidates = candidateEvents(c, newestId);
  if (grouped && candidates <= GROUPED_PAGE_CANDIDATES) return page;
  const reach = c.ids.length >= wanted ? c.ids[c.ids.length - wanted]! : 0;
  return newestId - reach > 6 * candidates ? page : { ...page, contextIndex: undefined };
}

/** The context index's candidates and the events above the indexed blocks. */
function candidateEvents(c: ContextCandidates, newestId: number): number {
  return c.ids.length + Math.max(0, newestId - c.through);
}

/** The events in the blocks and above the indexed ones. */
function blockEvents(index: BlockCandidates, newestId: number): number {
  return index.blocks.length * BLOCK_EVENTS + Math.max(0, newestId - index.through);
}

/**
 * How many rows can match at most, as far as the context index knows: its candidates, or the
 * events of the blocks it names for metadata_search or search, and the events above it.
 */
export function candidateCount(plan: QueryPlan, newestId: number): number | undefined {
  const counts: number[] = [];
  if (plan.contextIndex) counts.push(candidateEvents(plan.contextIndex, newestId));
  if (plan.searchCandidates) counts.push(candidateEvents(plan.searchCandidates, newestId));
  if (plan.metadataIndex) counts.push(blockEvents(plan.metadataIndex, newestId));
  if (plan.searchIndex?.exact) counts.push(plan.searchIndex.matches);
  if (plan.metadataSearch && !plan.metadataSearch.tested) counts.push(plan.metadataSearch.matches);
  return counts.length ? Math.min(...counts) : undefined;
}
