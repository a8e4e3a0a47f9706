// Planning a read of the log (planQuery): how narrow an ip range is, what the context index
// knows of a filter's pairs and words, and which of them lead a page. A QueryPlan changes how
// rows are found, never which; the filter itself is left as the request made it.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { DialectName } from '../../../db/index.ts';
import { isUnfiltered, type EventFilter, type SearchTerms } from './query.ts';
import { filterCondition } from './conditions.ts';
import type { IpFilter } from '../model/ip.ts';
import { contextCandidates, wordBlocks, type BlockCandidates, type ContextCandidates } from '../index/lookup.ts';
import { countFtsMatches, ftsFindsExactly, ftsQuery, searchIndexComplete } from '../index/search.ts';
import { BLOCK_EVENTS } from '../index/terms.ts';

/** Rows in an `ip_address` prefix's range up to which the range is read through the address index. */
const NARROW_IP_ROWS = 20_000;

/** How a filter's rows are read, found by planQuery (read/conditions.ts applies it). */
export interface QueryPlan {
  /** The `ip_address` prefix's range holds few rows (isNarrowIpRange): read it through the address index. */
  ipNarrow?: boolean;
  /** What the context index knows of the context_filters pairs (indexPlan). */
  contextIndex?: ContextCandidates;
  /** The blocks the context index names for the metadata_search words (indexPlan). */
  metadataIndex?: BlockCandidates;
  /** SQLite: the search index's query of the search words and the events it names (indexPlan). */
  searchIndex?: SearchMatches;
  /** SQLite: the same of the exclude_search words, when they are all the filter asks (its total is the log's less them). */
  excludeIndex?: SearchMatches;
  /** No event holds the exclude_search words: they exclude nothing, and the filter reads as if without them. */
  excludesNothing?: boolean;
}

/** The events whose search texts hold the words of three characters or more (index/search.ts). */
export interface SearchMatches {
  /** The FTS5 query (ftsQuery). */
  query: string;
  /** How many events it names. */
  matches: number;
  /** No template matches the words: the events named, tested for the words it cannot find exactly, are all that match. */
  exact: boolean;
  /** Exact, and the filter has no other condition: the events named are its rows. */
  alone: boolean;
  /** When alone: only the newest this many matter (a page's), found in the index by date (pagePlan). */
  top?: number;
}

/** The plan of a read under `f` when the log's newest id is `newestId`. */
export async function planQuery(db: Kysely<Database>, f: EventFilter, newestId: number): Promise<QueryPlan> {
  const ipNarrow = await isNarrowIpRange(db, f.ip);
  return { ipNarrow, ...(await indexPlan(db, f, newestId)) };
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
 * metadata_search words' trigrams hold few enough events, and `searchIndex` for the search
 * words. Otherwise none, and the rows read by date are tested.
 */
export async function indexPlan(
  db: Kysely<Database>,
  f: EventFilter,
  newestId: number,
  limit?: number,
): Promise<QueryPlan> {
  const plan: QueryPlan = {};
  const dialect = f.dialect ?? 'sqlite';
  const bound = limit ?? narrowContextLimit(dialect, newestId);
  if (f.contextFilters) plan.contextIndex = await contextCandidates(db, dialect, f.contextFilters, newestId, bound);
  // Blocks lead a page only when they hold few events (pagePlan); beyond, they narrow the
  // total, whose count reads their events in id order on both databases: up to a third of the
  // log (where the candidates' bound on PostgreSQL is a fortieth, for look-ups one by one).
  const blocksBound = Math.max(limit === undefined ? Math.floor(newestId / 3) : 4 * limit, 4 * BLOCK_EVENTS);
  if (f.metadataWords) plan.metadataIndex = await wordBlocks(db, dialect, f.metadataWords, newestId, blocksBound);
  // PostgreSQL's planner finds its trigram index for the LIKE by itself.
  if (f.search && dialect === 'sqlite')
    plan.searchIndex = await searchMatches(db, f.search, isUnfiltered({ ...f, search: undefined }));
  if (f.excludeSearch && dialect === 'sqlite') {
    const exclude = await searchMatches(db, f.excludeSearch, true);
    if (exclude?.alone && exclude.matches === 0) plan.excludesNothing = true;
    else if (exclude?.alone && isUnfiltered({ ...f, excludeSearch: undefined })) plan.excludeIndex = exclude;
  }
  // PostgreSQL's trigram index finds a row holding the words at once, or that none does.
  if (f.excludeSearch && dialect === 'postgres') plan.excludesNothing = !(await anyEventHolds(db, f.excludeSearch));
  return plan;
}

/** Whether some event matches the search terms (its words, or a template holding them). */
async function anyEventHolds(db: Kysely<Database>, search: SearchTerms): Promise<boolean> {
  const cond = filterCondition({ scope: { all: true }, search, dialect: 'postgres' })!;
  return (await db.selectFrom('history_events').select('id').where(cond).limit(1).executeTakeFirst()) !== undefined;
}

/** SQLite: the search index's matches of the words, once every event is indexed and some word has three characters. */
async function searchMatches(
  db: Kysely<Database>,
  search: SearchTerms,
  nothingElse: boolean,
): Promise<SearchMatches | undefined> {
  const query = ftsQuery(search.words);
  if (!query || !(await searchIndexComplete(db))) return undefined;
  const exact = !search.templateMatches.size;
  // Shorter and longer words are tested on the rows (the index's matches then only bound them).
  const alone = exact && nothingElse && search.words.every(ftsFindsExactly);
  return { query, matches: await countFtsMatches(db, query), exact, alone };
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
  if (plan.metadataIndex) counts.push(blockEvents(plan.metadataIndex, newestId));
  if (plan.searchIndex?.exact) counts.push(plan.searchIndex.matches);
  return counts.length ? Math.min(...counts) : undefined;
}
