// An EventFilter as one SQL condition on history_events (the context index's candidates and blocks,
// context values, search words, messages), and whether a filter narrows anything at all.
import { expressionBuilder, sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { DialectName } from '../../../db/index.ts';
import { likeContains } from '../../../db/like.ts';
import { asciiLower } from '../../../util.ts';
import { contextPairs } from '../model/context.ts';
import type { EventFilter, SearchTerms } from './query.ts';
import type { BlockCandidates, ContextCandidates, PairListing } from '../index/lookup.ts';
import type { DateWindow } from './slices.ts';
import type { DateRange } from './heads.ts';
import { dateRanges } from './date-ranges.ts';
import { BLOCK_EVENTS } from '../index/terms.ts';
import { CONTEXT_FTS, ftsFindsExactly, SEARCH_FTS, type FtsIndex } from '../index/fts.ts';
import { contextValuesHold } from '../index/context-values.ts';
import type { PgSearchHeads } from '../index/pg-search-heads.ts';
import type { MessagePairs } from '../index/search-heads.ts';

/** How a filter's rows are read, found by planQuery (read/plan.ts) and applied here. */
export interface QueryPlan {
  /** The `ip_address` prefix's range holds few rows (isNarrowIpRange): read it through the address index. */
  ipNarrow?: boolean;
  /** What the context index knows of the context_filters pairs (indexPlan). */
  contextIndex?: ContextCandidates;
  /** The events the context index lists under all the context_filters pairs, when exactly theirs (indexPlan; the log's columns count from it). */
  contextListing?: PairListing;
  /** The blocks the context index names for the metadata_search words (indexPlan). */
  metadataIndex?: BlockCandidates;
  /** SQLite: the search index's query of the search words and the events it names (indexPlan). */
  searchIndex?: SearchMatches;
  /** PostgreSQL: the few events holding every word of a search of several words (read/search-candidates.ts). */
  searchCandidates?: ContextCandidates;
  /**
   * PostgreSQL: the messages whose heads hold the search and exclude_search words
   * (index/pg-search-heads.ts), for the log's columns (columns/total.ts): SQL tests the whole
   * texts, whose index serves a page or a count as well (a head word's count rechecks its
   * events either way).
   */
  searchHeads?: PgSearchHeads;
  /** SQLite: the context values' index's query of the metadata_search words and the events it names, exactly (indexPlan). */
  metadataSearch?: SearchMatches;
  /**
   * PostgreSQL: the contexts' values table holds every event's (index/context-values.ts): the
   * words are tested there. `alone`: they are the filter's only condition, so its total is
   * the table's rows that hold them (counted once per filter and state: read/caches.ts).
   */
  metadataValues?: { alone: boolean };
  /**
   * SQLite: the same of the exclude_search words, when they are all the filter asks (its total is
   * the log's less them, and less the events of templates holding them when `templated`).
   */
  excludeIndex?: SearchMatches;
  /**
   * SQLite: the search index's matches of the exclude_search words of three characters or more,
   * whatever else the filter asks (the log's columns take the events holding every word from
   * them, columns/total.ts).
   */
  excludeWords?: SearchMatches;
  /** No event holds the exclude_search words: they exclude nothing, and the filter reads as if without them. */
  excludesNothing?: boolean;
}

/** The events whose search texts hold the words of three characters or more (index/search.ts). */
export interface SearchMatches {
  /** The FTS5 query (ftsQuery). */
  query: string;
  /** How many events it names. */
  matches: number;
  /**
   * No template matches the words, or the index names the templates' events too (`withTemplates`):
   * the events named, tested for the words it cannot find exactly, are all that match.
   */
  exact: boolean;
  /** The query names the events of the templates holding the words as well (their heads' tokens, index/search-heads.ts). */
  withTemplates?: boolean;
  /** Exact, and the filter has no other condition: the events named are its rows. */
  alone: boolean;
  /** When alone: only the newest this many matter (a page's), found in the index by date (pagePlan). */
  top?: number;
  /**
   * Not exact only because message templates hold the words, and else alone: the filter's total
   * is the events named and the templates' events beside them (plan.ts countTemplateEventsBeside).
   */
  templated?: boolean;
  /** Too many to lead a page: the rows read by date are tested against them (pagePlan). */
  tested?: boolean;
  /**
   * The ids of the events named, comma-separated, when the index finds every word exactly: the
   * events holding them, which the log's columns take without asking the index again (beside
   * those of `wholeMessages`).
   */
  ids?: string;
  /** SQLite: messages all of whose events hold every word, not among `ids` (read/whole-messages.ts). */
  wholeMessages?: MessagePairs;
  /**
   * The same ids when they are few (plan.ts): a condition lists them rather than
   * asking the index again (a page of a 17-character word in 4,700 contexts: two FTS5 reads of
   * about 50 ms, its count's and its page's).
   */
  named?: string;
}

const eb = expressionBuilder<Database, 'history_events'>();
type Cond = Expression<SqlBool>;

/** The event lies in a block the index names, or above the indexed blocks: id ranges. */
function blocksCondition({ through, blocks }: BlockCandidates): Cond {
  const ranges: Cond[] = [eb('id', '>', through)];
  for (let i = 0; i < blocks.length; ) {
    let j = i;
    while (j + 1 < blocks.length && blocks[j + 1] === blocks[j]! + 1) j++;
    ranges.push(eb.between('id', blocks[i]! * BLOCK_EVENTS, (blocks[j]! + 1) * BLOCK_EVENTS - 1));
    i = j + 1;
  }
  return eb.or(ranges);
}

/**
 * The event is a candidate (of the context index, or of a search: plan.searchCandidates) or newer
 * than the candidates' last id: one IN, so that the ids lead.
 */
function candidateCondition(dialect: DialectName, { through, ids }: ContextCandidates): Cond {
  const listed =
    dialect === 'postgres'
      ? sql`select unnest(${ids}::int[])`
      : sql`select value from json_each(${JSON.stringify(ids)})`;
  return sql<SqlBool>`${sql.ref('history_events.id')} in (${listed} union all select n.id from history_events as n where n.id > ${through})`;
}

/** Text JSON writes as it is: no quote, backslash or control character. */
const JSON_VERBATIM = /^[^"\\\u0000-\u001f]*$/;

/**
 * A test of the event's stored context `x` (contextPasses): the condition, which needs some value
 * of it to contain `text` (ignoring case when `ignoreCase`). When JSON writes that text as it is, the
 * context's JSON text contains it too: that LIKE is checked first and spares parsing the
 * contexts that cannot match (scans of 1,000,000 events 1.4–2.5 × faster).
 */
function contextHas(
  dialect: DialectName,
  text: string,
  ignoreCase: boolean,
  condition: RawBuilder<unknown>,
): RawBuilder<SqlBool> {
  // SQLite's LIKE ignores ASCII case anyway. PostgreSQL's ILIKE under collation "C" folds ASCII
  // only, which is all the condition needs, at half the time of ILIKE under a language's rules.
  const context = dialect === 'postgres' && ignoreCase ? sql`x.context collate "C"` : sql`x.context`;
  const quick = JSON_VERBATIM.test(text) ? sql`${likeContains(dialect, context, text, ignoreCase)} and ` : sql``;
  return sql<SqlBool>`${quick}${condition}`;
}

/**
 * The event's stored context `x` (one row per event) passes every test: one look-up for all
 * context_filters pairs and metadata_search words. As one semi-join each, PostgreSQL's planner
 * took 0.2 s from eight on and minutes for a hundred.
 */
function contextPasses(tests: RawBuilder<SqlBool>[]): Cond {
  return sql<SqlBool>`exists (select 1 from history_event_contexts as x where x.event_id = ${sql.ref('history_events.id')} and ${sql.join(tests, sql` and `)})`;
}

/** context_filters: the event's context has the key with exactly this value. */
function contextEquals(dialect: DialectName, key: string, value: string): RawBuilder<SqlBool> {
  // PostgreSQL reads one key of json text faster than it lists them all.
  const parsed =
    dialect === 'postgres'
      ? sql`(x.context::json ->> ${key}) = ${value}`
      : sql`exists (select 1 from ${contextPairs(dialect, 'x.context')} as c where c.key = ${key} and c.value = ${value})`;
  if (!JSON_VERBATIM.test(key) || !JSON_VERBATIM.test(value)) return contextHas(dialect, value, false, parsed);
  // The pair as contextJson writes it, first or after a comma: a quote within a string is
  // always escaped, so the text can be nothing else. A context written otherwise (PostgreSQL's
  // json_object_agg of migration 0011 spaces its members) is parsed. Five times faster than
  // parsing where most rows tested match: the context index's candidates.
  const member = `"${key}":"${value}"`;
  const written =
    dialect === 'postgres'
      ? sql`(strpos(x.context, ${',' + member}) > 0 or starts_with(x.context, ${'{' + member}))`
      : sql`(instr(x.context, ${',' + member}) > 0 or instr(x.context, ${'{' + member}) = 1)`;
  return contextHas(dialect, value, false, sql`(${written} or ${parsed})`);
}

/**
 * Some context value of the event contains the word, ignoring ASCII case. Case folding is
 * ASCII-only on purpose: SQLite's LIKE folds only ASCII, and PostgreSQL's lower() does the
 * same under collation "C", so both databases give the same answer.
 */
function contextContains(dialect: DialectName, word: string): RawBuilder<SqlBool> {
  const value = dialect === 'postgres' ? sql`lower(c.value collate "C")` : sql`c.value`;
  const parsed = sql`exists (select 1 from ${contextPairs(dialect, 'x.context')} as c where ${likeContains(dialect, value, asciiLower(word))})`;
  // A long word makes a pattern PostgreSQL reads slowly (40 µs a context at 300 characters) or not at all.
  if (dialect !== 'postgres' || !JSON_VERBATIM.test(word) || word.length > PATTERN_WORD_MAX)
    return contextHas(dialect, word, true, parsed);
  // Parsing every context that holds the word somewhere took 5.5 s for a word in most of
  // 1,000,000 events; the expression reads the JSON text as written in 1.2 s, and what it
  // cannot vouch for is parsed.
  return contextHas(dialect, word, true, sql`(x.context collate "C" ~* ${pgValueContainsPattern(word)} or ${parsed})`);
}

/** Words up to this length are looked for with pgValueContainsPattern (≈ 2 µs a context up to 64). */
const PATTERN_WORD_MAX = 64;

/** One character of a JSON string as JSON.stringify writes it, an escape whole (`\"`, `\n`, `\u001f`). */
const JSON_STRING_CHAR = String.raw`(?:[^"\\]|\\(?:[^u]|u[0-9a-f]{4}))`;

/**
 * PostgreSQL: a regular expression (for `~*` under collation "C", which folds ASCII case only,
 * as the parsed test does) for a context as contextJson writes it, `{"key":"value",…}` with
 * string or null values and no spaces, some value of which contains `word` (JSON_VERBATIM
 * text). The members before are read whole from the start, so the word is found inside a value
 * only, never in a key, nor inside an escape (`nabc` in `\nabc`). Contexts written otherwise do
 * not match and are parsed.
 */
export function pgValueContainsPattern(word: string): string {
  const c = JSON_STRING_CHAR;
  // Every ASCII character but letters and digits escaped: `\` before any of them is the character itself.
  const literal = word.replace(/[\x00-\x2f\x3a-\x40\x5b-\x60\x7b-\x7f]/g, '\\$&');
  return `^\\{(?:"${c}*":(?:"${c}*"|null),)*"${c}*":"${c}*${literal}`;
}

type ColumnRef = (name: string) => RawBuilder<unknown>;

/**
 * The event's (logger, message key) is one of the pairs. SQLite: as one row value in a list, which
 * it reads through the (logger, message_key) index pair by pair; written as an OR of pairs, it
 * gathered the rowids of every pair's events in memory first (a search for `updated`, whose
 * 23 templates hold 2,926,829 of 10,000,000 events: 441 ms and 74 MB, as a list 137 ms and none).
 * Both forms are NULL for a row without a key whose logger is named, so NOT reads them alike.
 */
function messagesCondition(byLogger: Map<string, string[]>, ref: ColumnRef, dialect: DialectName): Cond {
  if (dialect === 'sqlite') {
    const pairs = [...byLogger].flatMap(([logger, keys]) => keys.map((key) => sql`(${logger}, ${key})`));
    if (pairs.length) return sql<SqlBool>`(${ref('logger')}, ${ref('message_key')}) in (values ${sql.join(pairs)})`;
  }
  return eb.or(
    [...byLogger].map(([logger, keys]) => eb.and([eb(ref('logger'), '=', logger), eb(ref('message_key'), 'in', keys)])),
  );
}

/**
 * A metadata_search word the context values' index finds exactly (three to FTS_WORD_MAX
 * characters, no line break, which separates the values in the index).
 */
export const contextIndexFinds = (word: string): boolean => ftsFindsExactly(word) && !word.includes('\n');

/**
 * Every word is in the search text, or a template holds them all. With the search index's
 * query (`fts`), the events it names stand for the words of three characters or more (its
 * trigram phrases match exactly where LIKE does); shorter and cut words are still tested by LIKE.
 */
function searchCondition(terms: SearchTerms, ref: ColumnRef, dialect: DialectName, fts?: SearchMatches): Cond {
  const liked = fts ? terms.words.filter((w) => !ftsFindsExactly(w)) : terms.words;
  const anyField = eb.and([
    ...(fts ? [namedByIndex(SEARCH_FTS, fts)] : []),
    ...liked.map((w) => likeContains(dialect, sql.ref('search_text'), w)),
  ]);
  if (!terms.templateMatches.size || fts?.withTemplates) return anyField;
  return eb.or([anyField, messagesCondition(terms.templateMatches, ref, dialect)]);
}

/** Whether the plan's candidates or index matches (a bounded number of look-ups by id) lead the read. */
function indexLeads(plan: QueryPlan): boolean {
  return !!(
    plan.contextIndex ||
    plan.metadataIndex ||
    plan.searchIndex?.exact ||
    (plan.metadataSearch && !plan.metadataSearch.tested)
  );
}

/**
 * The dates the filter's rows lie within, as far as its date conditions say (a walk by date reads
 * no further), read as `plan` says: its several ranges are read one by one unless candidates lead
 * (bounds on the date would lure SQLite away from them).
 */
export function dateWindow(f: EventFilter, plan: QueryPlan = {}): DateWindow {
  const lower = [f.dateFrom, f.lastdaysFrom, f.sinceId !== undefined ? f.sinceDate : undefined];
  const upper = [f.dateTo];
  if (f.ranges?.length) {
    lower.push(f.ranges.map(([start]) => start).sort()[0]);
    if (f.ranges.every(([, end]) => end !== null))
      upper.push(
        f.ranges
          .map(([, end]) => end!)
          .sort()
          .at(-1),
      );
  }
  const known = (dates: (string | undefined)[]) => dates.filter((d): d is string => d !== undefined).sort();
  const window: DateWindow = { from: known(lower).at(-1), to: known(upper)[0] };
  const ranges = f.ranges && f.ranges.length > 1 && !indexLeads(plan) ? dateRanges(f) : [];
  return ranges.length > 1 ? { ...window, ranges } : window;
}

/**
 * The rows lie in one of the ranges (dateRanges). Several ranges: on SQLite, the date written
 * so that no index serves the OR (`+date`), which it would read as a MULTI-INDEX OR, gathering
 * every range's rowids first; the reads go range by range instead (dateWindow's `ranges`).
 */
function inDateRanges(ranges: DateRange[], dialect: DialectName, ref: (name: string) => RawBuilder<unknown>): Cond {
  if (!ranges.length) return sql<SqlBool>`1 = 0`;
  const date = ranges.length > 1 && dialect === 'sqlite' ? sql`+${sql.ref('date')}` : ref('date');
  const within = ({ from, to }: DateRange) =>
    eb.and([...(from !== undefined ? [eb(date, '>=', from)] : []), ...(to !== undefined ? [eb(date, '<=', to)] : [])]);
  return ranges.length === 1 ? within(ranges[0]!) : eb.or(ranges.map(within));
}

/**
 * The event is one an FTS index names for the query. `tested`: too many to lead, so the id is
 * written so that no index serves it (`+id`): SQLite reads the rows by date and tests each
 * against the matches, gathered once. A page of a search alone: its rows are the index's newest
 * matches (`top`), by the date it stores.
 */
export function namedByIndex(index: FtsIndex, fts: Pick<SearchMatches, 'query' | 'top' | 'tested' | 'named'>): Cond {
  const id = fts.tested ? sql`+${sql.ref('history_events.id')}` : sql.ref('history_events.id');
  const named =
    fts.named !== undefined && fts.top === undefined && !fts.tested
      ? sql`select value from json_each(${`[${fts.named}]`})`
      : indexMatches(index, fts);
  return sql<SqlBool>`${id} in (${named})`;
}

/** The ids of the events an FTS index names for the query (the newest `top` of them, by the date it stores). */
export function indexMatches(index: FtsIndex, fts: Pick<SearchMatches, 'query' | 'top'>): RawBuilder<unknown> {
  const table = sql.table(index.table);
  const newest = fts.top !== undefined ? sql` order by date desc, rowid desc limit ${fts.top}` : sql``;
  return sql`select rowid from ${table} where ${table} match ${fts.query}${newest}`;
}

/** The WHERE condition of an EventFilter, read as `plan` says (planQuery); `null` when nothing can match. */
export function filterCondition(f: EventFilter, plan: QueryPlan = {}): Cond | null {
  const c: Cond[] = [];
  const dialect = f.dialect ?? 'sqlite';
  // With the context index's candidates or blocks (a bounded number of look-ups by id, see
  // narrowContextLimit), SQLite, which has no statistics, would still read an index of
  // `logger = ?` or a date range instead: a `+` keeps it from using the other columns' indexes.
  const ref =
    indexLeads(plan) && dialect === 'sqlite'
      ? (name: string) => sql`+${sql.ref(name)}`
      : (name: string) => sql.ref(name);
  if (!f.scope.all) {
    if (!f.scope.slugs.length) return null;
    c.push(eb(ref('logger'), 'in', f.scope.slugs));
  }
  if (f.include) c.push(eb('id', 'in', f.include));
  // `id + 0`: the cut is near the newest id, so walking the date index is right; a bare
  // `id <=` lures SQLite into reading almost every row by id and sorting them.
  if (f.maxId !== undefined) c.push(sql<SqlBool>`${sql.ref('id')} + 0 <= ${f.maxId}`);
  if (f.sinceDate !== undefined && f.sinceId !== undefined) {
    c.push(
      eb.or([eb(ref('date'), '>', f.sinceDate), eb.and([eb(ref('date'), '=', f.sinceDate), eb('id', '>', f.sinceId)])]),
    );
  } else if (f.sinceId !== undefined) {
    c.push(eb('id', '>', f.sinceId));
  }
  if (f.dateFrom) c.push(eb(ref('date'), '>=', f.dateFrom));
  if (f.dateTo) c.push(eb(ref('date'), '<=', f.dateTo));
  if (f.lastdaysFrom) c.push(eb(ref('date'), '>=', f.lastdaysFrom));
  if (f.ranges) c.push(inDateRanges(dateRanges(f), dialect, ref));
  if (f.loglevels) c.push(eb(ref('level'), 'in', f.loglevels));
  if (f.loggers) c.push(eb(ref('logger'), 'in', f.loggers));
  if (f.messages) c.push(messagesCondition(f.messages, ref, dialect));
  if (f.users) c.push(eb(ref('user_id'), 'in', f.users));
  if (f.initiators) c.push(eb(ref('initiator'), 'in', f.initiators));
  if (f.ip?.like) {
    // The range is what the address index serves on both databases (SQLite's LIKE would need
    // NOCASE); a broad prefix is better tested on rows read by date (isNarrowIpRange).
    if (plan.ipNarrow) c.push(eb(ref('remote_addr'), '>=', f.ip.from), eb(ref('remote_addr'), '<', f.ip.below));
    c.push(sql<SqlBool>`${ref('remote_addr')} like ${f.ip.pattern}`);
  } else if (f.ip) c.push(eb(ref('remote_addr'), '=', f.ip.pattern));
  if (plan.contextIndex) c.push(candidateCondition(dialect, plan.contextIndex));
  if (plan.searchCandidates) c.push(candidateCondition(dialect, plan.searchCandidates));
  if (plan.metadataIndex) c.push(blocksCondition(plan.metadataIndex));
  // The context values' index names exactly the events whose values hold the words it finds; the others are tested.
  if (plan.metadataSearch) c.push(namedByIndex(CONTEXT_FTS, plan.metadataSearch));
  if (plan.metadataValues && f.metadataWords) c.push(contextValuesHold(f.metadataWords));
  const contextTests = [
    ...(f.contextFilters ?? []).map(([key, value]) => contextEquals(dialect, key, value)),
    ...(plan.metadataValues ? [] : (f.metadataWords ?? []))
      .filter((w) => !plan.metadataSearch || !contextIndexFinds(w))
      .map((w) => contextContains(dialect, w)),
  ];
  if (contextTests.length) c.push(contextPasses(contextTests));
  if (f.search) c.push(searchCondition(f.search, ref, dialect, plan.searchIndex));
  if (f.onlySticky) c.push(eb(ref('sticky'), '=', 1));
  if (f.excludeSearch) c.push(eb.not(searchCondition(f.excludeSearch, ref, dialect)));
  if (f.excludeLoglevels) c.push(eb(ref('level'), 'not in', f.excludeLoglevels));
  if (f.excludeLoggers) c.push(eb(ref('logger'), 'not in', f.excludeLoggers));
  for (const [logger, keys] of f.excludeMessages ?? []) {
    c.push(eb.not(eb.and([eb(ref('logger'), '=', logger), eb(ref('message_key'), 'in', keys)])));
  }
  if (f.excludeUsers) c.push(eb.or([eb(ref('user_id'), 'is', null), eb(ref('user_id'), 'not in', f.excludeUsers)]));
  if (f.excludeInitiators) c.push(eb(ref('initiator'), 'not in', f.excludeInitiators));
  return c.length ? eb.and(c) : sql<SqlBool>`1 = 1`;
}
