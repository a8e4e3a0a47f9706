// The filters of GET /events (reference §4.2): request parameters are normalised into an
// EventFilter, which becomes one SQL condition. GET /events, has-updates, the cards, the
// search-options counters and the stats share it.
import { expressionBuilder, sql, type Expression, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { Lang } from '../../../rest/types.ts';
import type { DialectName } from '../../../db/index.ts';
import { likeContains } from '../../../db/like.ts';
import { MAX_ALTERNATIVES } from '../../../db/limits.ts';
import { RestError } from '../../../rest/types.ts';
import type { LoggerCatalogue, LoggerScope } from '../../../site/loggers.ts';
import { ipFilterCondition, isIpFilterPattern, type IpFilter } from '../model/ip.ts';
import { BLOCK_EVENTS, contextCandidates, wordBlocks, type BlockCandidates, type ContextCandidates } from '../index/build.ts';
import { asciiLower } from '../../../util.ts';
import {
  addDays, endOfDayUtc, isLastdays, MAX_LASTDAYS, monthRangeUtc, parseDateBound, startOfDayUtc, todayIn, unixToUtc, type Ymd,
} from '../../../site/zone-time.ts';
import { contextPairs } from '../model/context.ts';

export interface EventFilter {
  scope: LoggerScope;
  include?: number[];
  maxId?: number;
  sinceId?: number;
  sinceDate?: string;
  dateFrom?: string;
  dateTo?: string;
  /** OR of [from, to] UTC ranges (`to` null = open). From `dates`, or `months`. */
  ranges?: [string, string | null][];
  /** From `lastdays` when `dates` is absent. */
  lastdaysFrom?: string;
  loglevels?: string[];
  loggers?: string[];
  messages?: Map<string, string[]>;
  users?: number[];
  initiators?: string[];
  ip?: IpFilter;
  contextFilters?: [string, string][];
  /** What the context index knows of a context_filters pair (markNarrowContext). */
  contextIndex?: ContextCandidates;
  metadataWords?: string[];
  /** The blocks the context index names for the metadata_search words (markNarrowContext). */
  metadataIndex?: BlockCandidates;
  /** The database the condition is for (context tests, long search words and the context index differ per dialect); not a filter. */
  dialect?: DialectName;
  search?: SearchTerms;
  /** The blocks the context index names for the search words (markNarrowContext). */
  searchIndex?: BlockCandidates;
  onlySticky?: boolean;
  excludeSearch?: SearchTerms;
  excludeLoglevels?: string[];
  excludeLoggers?: string[];
  excludeMessages?: Map<string, string[]>;
  excludeUsers?: number[];
  excludeInitiators?: string[];
}

export interface SearchTerms {
  words: string[];
  /** (logger, message keys) whose template contains every word. */
  templateMatches: Map<string, string[]>;
}

const eb = expressionBuilder<Database, 'history_events'>();
type Cond = Expression<SqlBool>;

export function invalidParam(name: string, reason: string): RestError {
  return new RestError('rest_invalid_param', `Invalid parameter(s): ${name}`, 400, {
    params: { [name]: reason },
    details: { [name]: { code: 'rest_invalid_param', message: reason, data: null } },
  });
}

/** Words of a search text: split on whitespace and commas, at most 10. */
export function searchWords(text: string): string[] {
  return text.split(/[\s,]+/).map((w) => w.trim()).filter(Boolean).slice(0, 10);
}

/** `LoggerSlug:key` items (each may hold several comma-separated pairs) grouped per logger. */
export function parseMessagePairs(items: unknown[], name: string): Map<string, string[]> {
  const byLogger = new Map<string, string[]>();
  let pairs = 0;
  for (const item of items) {
    for (const pair of String(item).split(',').map((s) => s.trim()).filter(Boolean)) {
      if (++pairs > MAX_ALTERNATIVES) throw invalidParam(name, `${name} may name at most ${MAX_ALTERNATIVES} messages.`);
      const at = pair.indexOf(':');
      if (at <= 0 || at === pair.length - 1) throw invalidParam(name, `${name} items must have the form LoggerSlug:message_key.`);
      const logger = pair.slice(0, at);
      const list = byLogger.get(logger) ?? [];
      list.push(pair.slice(at + 1));
      byLogger.set(logger, list);
    }
  }
  return byLogger;
}

function searchTerms(loggers: LoggerCatalogue, text: string, scope: LoggerScope, lang: Lang): SearchTerms | undefined {
  const words = searchWords(text).map((w) => w.toLowerCase());
  if (!words.length) return undefined;
  const templateMatches = new Map<string, string[]>();
  for (const def of loggers.sorted) {
    if (!scope.all && !scope.slugs.includes(def.slug)) continue;
    for (const [key, text] of Object.entries(def.messages)) {
      const candidates = [text[lang].toLowerCase(), text.en.toLowerCase()];
      if (candidates.some((tpl) => words.every((w) => tpl.includes(w)))) {
        templateMatches.set(def.slug, [...(templateMatches.get(def.slug) ?? []), key]);
      }
    }
  }
  return { words, templateMatches };
}

function list(value: unknown): unknown[] | undefined {
  if (value === undefined || value === null) return undefined;
  const arr = Array.isArray(value) ? value : [value];
  return arr.length ? arr : undefined;
}

function strings(value: unknown): string[] | undefined {
  const arr = list(value)?.map((v) => String(v)).filter((v) => v !== '');
  return arr?.length ? arr : undefined;
}

function ints(value: unknown): number[] | undefined {
  const arr = list(value)?.map((v) => Number(v)).filter((v) => Number.isInteger(v));
  return arr?.length ? arr : undefined;
}

/** A string (comma-separated) or array of initiators. */
function initiatorList(value: unknown): string[] | undefined {
  const arr = strings(value)?.flatMap((v) => v.split(',').map((s) => s.trim()).filter(Boolean));
  return arr?.length ? arr : undefined;
}

function int(value: unknown): number | undefined {
  return value === undefined || value === null || value === '' ? undefined : Number(value);
}

export const dateBoundMessage = (name: string) =>
  `${name} must be a Unix timestamp, a date (YYYY-MM-DD) or a date and time (YYYY-MM-DD HH:MM:SS), from the year 1000 to 9999.`;
export const MONTHS_ITEMS = 'months items must have the form YYYY-MM (years 1000 to 9999).';
export const DATES_ITEMS = `dates items must be month:YYYY-MM (years 1000 to 9999), lastdays:N (N from 1 to ${MAX_LASTDAYS}), yesterday or allDates.`;
export const LASTDAYS_RANGE = `lastdays must be 0 (no limit) or a number of days from 1 to ${MAX_LASTDAYS}.`;

/** `lastdays`: the start of the day N − 1 days ago (N = 1 is today), as UTC text. */
function lastdaysFrom(zone: string, today: Ymd, days: number): string {
  return startOfDayUtc(zone, addDays(today, -(days - 1)));
}

export interface FilterOptions {
  /** The logger catalogue (search matches its templates). */
  loggers: LoggerCatalogue;
  scope: LoggerScope;
  zone: string;
  lang: Lang;
  /** has-updates ignores sticky and exclude_* parameters. */
  ignoreExcludes?: boolean;
  now?: Date;
  dialect?: DialectName;
}

/** Request parameters → EventFilter. Throws 400 rest_invalid_param for values the schema let through. */
export function eventFilterFromParams(p: Record<string, unknown>, opts: FilterOptions): EventFilter {
  const { scope, zone, lang } = opts;
  const f: EventFilter = { scope, dialect: opts.dialect };
  const include = ints(p.include)?.filter((id) => id !== 0);
  if (include?.length) f.include = include;
  f.maxId = int(p.max_id_first_page);
  f.sinceId = int(p.since_id);
  if (typeof p.since_date === 'string' && p.since_date !== '') f.sinceDate = p.since_date;

  for (const [name, end] of [['date_from', false], ['date_to', true]] as const) {
    const raw = p[name];
    if (raw === undefined || raw === null || raw === '' || raw === '0' || raw === 0) continue;
    const ts = parseDateBound(zone, String(raw), end);
    if (ts === null) throw invalidParam(name, dateBoundMessage(name));
    if (ts === 0) continue;
    if (end) f.dateTo = unixToUtc(ts);
    else f.dateFrom = unixToUtc(ts);
  }

  const today = todayIn(zone, opts.now);
  const dates = strings(p.dates);
  if (dates) {
    const ranges: [string, string | null][] = [];
    let lastdays = 0;
    let all = false;
    for (const item of dates) {
      if (item === 'allDates') all = true;
      else if (item === 'yesterday') {
        const y = addDays(today, -1);
        ranges.push([startOfDayUtc(zone, y), endOfDayUtc(zone, y)]);
      } else if (item.startsWith('month:')) {
        const range = monthRangeUtc(zone, item.slice(6));
        if (!range) throw invalidParam('dates', DATES_ITEMS);
        ranges.push(range);
      } else if (/^lastdays:\d+$/.test(item) && isLastdays(Number(item.slice(9)))) {
        lastdays = Math.max(lastdays, Number(item.slice(9)));
      } else {
        throw invalidParam('dates', DATES_ITEMS);
      }
    }
    if (lastdays) ranges.push([lastdaysFrom(zone, today, lastdays), null]);
    if (!all && ranges.length) f.ranges = ranges;
  } else {
    const lastdays = int(p.lastdays);
    if (lastdays !== undefined && lastdays !== 0) {
      if (!isLastdays(lastdays)) throw invalidParam('lastdays', LASTDAYS_RANGE);
      f.lastdaysFrom = lastdaysFrom(zone, today, lastdays);
    }
    const months = strings(p.months);
    if (months) {
      f.ranges = months.map((m) => {
        const range = monthRangeUtc(zone, m);
        if (!range) throw invalidParam('months', MONTHS_ITEMS);
        return range;
      });
    }
  }

  f.loglevels = strings(p.loglevels)?.map((s) => s.toLowerCase());
  f.loggers = strings(p.loggers);
  const messages = list(p.messages);
  if (messages) f.messages = parseMessagePairs(messages, 'messages');
  const users = [...(ints(p.users) ?? []), ...(int(p.user) !== undefined ? [int(p.user)!] : [])];
  if (users.length) f.users = users;
  f.initiators = initiatorList(p.initiator);
  if (typeof p.ip_address === 'string' && p.ip_address !== '') {
    if (!isIpFilterPattern(p.ip_address)) throw invalidParam('ip_address', 'Invalid parameter.');
    f.ip = ipFilterCondition(p.ip_address);
  }
  if (p.context_filters && typeof p.context_filters === 'object') {
    const pairs = Object.entries(p.context_filters as Record<string, unknown>).map(([k, v]) => [k, String(v)] as [string, string]);
    if (pairs.length) f.contextFilters = pairs;
  }
  if (typeof p.metadata_search === 'string') {
    const words = searchWords(p.metadata_search);
    if (words.length) f.metadataWords = words;
  }
  if (typeof p.search === 'string') f.search = searchTerms(opts.loggers, p.search, scope, lang);
  if (opts.ignoreExcludes) return f;

  f.onlySticky = p.only_sticky === true;
  if (typeof p.exclude_search === 'string') f.excludeSearch = searchTerms(opts.loggers, p.exclude_search, scope, lang);
  f.excludeLoglevels = strings(p.exclude_loglevels)?.map((s) => s.toLowerCase());
  f.excludeLoggers = strings(p.exclude_loggers);
  const excludeMessages = list(p.exclude_messages);
  if (excludeMessages) f.excludeMessages = parseMessagePairs(excludeMessages, 'exclude_messages');
  const excludeUsers = [...(ints(p.exclude_users) ?? []), ...(int(p.exclude_user) !== undefined ? [int(p.exclude_user)!] : [])];
  if (excludeUsers.length) f.excludeUsers = excludeUsers;
  f.excludeInitiators = initiatorList(p.exclude_initiator);
  return f;
}

/** Rows in an `ip_address` prefix's range up to which the range is read through the address index. */
const NARROW_IP_ROWS = 20_000;

/**
 * Sets `narrow` on a wildcard `ip_address` filter whose prefix range holds at most
 * NARROW_IP_ROWS rows (counted through the index, stopping after that many). Reading such a
 * range and sorting it by date beats walking the log by date until enough rows matched; for a
 * broad prefix (a site's own network) it is the other way round. PostgreSQL's planner weighs
 * this by its statistics; SQLite's, without any, would take the index range every time.
 */
export async function markNarrowIpRange(db: Kysely<Database>, f: EventFilter, limit = NARROW_IP_ROWS): Promise<void> {
  if (!f.ip?.like) return;
  const inRange = db
    .selectFrom('history_events')
    .select('id')
    .where('remote_addr', '>=', f.ip.from)
    .where('remote_addr', '<', f.ip.below)
    .limit(limit + 1);
  const row = await db.selectFrom(inRange.as('r')).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
  f.ip.narrow = Number(row.n) <= limit;
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
 * Sets `contextIndex` when the context index lists few enough events under all of the
 * filter's context pairs and few enough events are newer than it (`newestId`): those
 * candidates and the newer events are all that can match. Likewise `metadataIndex` when the
 * blocks holding the metadata_search words' trigrams hold few enough events, and
 * `searchIndex` for the search words. Otherwise the rows read by date are tested.
 */
export async function markNarrowContext(db: Kysely<Database>, f: EventFilter, newestId: number, limit?: number): Promise<void> {
  const dialect = f.dialect ?? 'sqlite';
  const bound = limit ?? narrowContextLimit(dialect, newestId);
  if (f.contextFilters) f.contextIndex = await contextCandidates(db, dialect, f.contextFilters, newestId, bound);
  // Blocks lead a page only when they hold few events (pageFilter); beyond, they narrow the
  // total, whose count reads their events in id order on both databases: up to a third of the
  // log (where the candidates' bound on PostgreSQL is a fortieth, for look-ups one by one).
  const blocksBound = Math.max(limit === undefined ? Math.floor(newestId / 3) : 4 * limit, 4 * BLOCK_EVENTS);
  if (f.metadataWords) f.metadataIndex = await wordBlocks(db, dialect, f.metadataWords, 'context values', newestId, blocksBound);
  // Words in the search texts only: a template (in the viewer's language) matching them
  // matches every event of its message, which the blocks need not name.
  if (f.search && !f.search.templateMatches.size) f.searchIndex = await wordBlocks(db, dialect, f.search.words, 'search texts', newestId, blocksBound);
}

/** Candidates up to which a grouped page is always read through them. */
const GROUPED_PAGE_CANDIDATES = 20_000;

/** Candidates up to which an ungrouped page reads them all and sorts them (selectEventPage). */
export const FEW_CANDIDATES = 20_000;

/**
 * The filter for reading a page of `wanted` rows: the context index's candidates lead when
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
export function pageFilter(f: EventFilter, newestId: number, wanted: number, grouped: boolean): EventFilter {
  let page = f;
  for (const key of ['metadataIndex', 'searchIndex'] as const) {
    const index = f[key];
    if (index && blockEvents(index, newestId) > FEW_CANDIDATES) page = { ...page, [key]: undefined };
  }
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
export function candidateCount(f: EventFilter, newestId: number): number | undefined {
  const counts: number[] = [];
  if (f.contextIndex) counts.push(candidateEvents(f.contextIndex, newestId));
  for (const index of [f.metadataIndex, f.searchIndex]) if (index) counts.push(blockEvents(index, newestId));
  return counts.length ? Math.min(...counts) : undefined;
}

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

/** The event is a candidate of the context index or newer than what it knows: one IN, so that the ids lead. */
function contextCandidateCondition(dialect: DialectName, { through, ids }: ContextCandidates): Cond {
  const listed = dialect === 'postgres' ? sql`select unnest(${ids}::int[])` : sql`select value from json_each(${JSON.stringify(ids)})`;
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
function contextHas(dialect: DialectName, text: string, ignoreCase: boolean, condition: RawBuilder<unknown>): RawBuilder<SqlBool> {
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
  const parsed = dialect === 'postgres'
    ? sql`(x.context::json ->> ${key}) = ${value}`
    : sql`exists (select 1 from ${contextPairs(dialect, 'x.context')} as c where c.key = ${key} and c.value = ${value})`;
  if (!JSON_VERBATIM.test(key) || !JSON_VERBATIM.test(value)) return contextHas(dialect, value, false, parsed);
  // The pair as contextJson writes it, first or after a comma: a quote within a string is
  // always escaped, so the text can be nothing else. A context written otherwise (PostgreSQL's
  // json_object_agg of migration 0011 spaces its members) is parsed. Five times faster than
  // parsing where most rows tested match: the context index's candidates.
  const member = `"${key}":"${value}"`;
  const written = dialect === 'postgres'
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
  if (dialect !== 'postgres' || !JSON_VERBATIM.test(word) || word.length > PATTERN_WORD_MAX) return contextHas(dialect, word, true, parsed);
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

function messagesCondition(byLogger: Map<string, string[]>, ref: ColumnRef): Cond {
  return eb.or([...byLogger].map(([logger, keys]) => eb.and([eb(ref('logger'), '=', logger), eb(ref('message_key'), 'in', keys)])));
}

function searchCondition(terms: SearchTerms, ref: ColumnRef, dialect: DialectName): Cond {
  const anyField = eb.and(terms.words.map((w) => likeContains(dialect, sql.ref('search_text'), w)));
  if (!terms.templateMatches.size) return anyField;
  return eb.or([anyField, messagesCondition(terms.templateMatches, ref)]);
}

/** The WHERE condition of an EventFilter; `null` when nothing can match. */
export function filterCondition(f: EventFilter): Cond | null {
  const c: Cond[] = [];
  const dialect = f.dialect ?? 'sqlite';
  // With the context index's candidates or blocks (a bounded number of look-ups by id, see
  // narrowContextLimit), SQLite, which has no statistics, would still read an index of
  // `logger = ?` or a date range instead: a `+` keeps it from using the other columns' indexes.
  const ref = (f.contextIndex || f.metadataIndex || f.searchIndex) && dialect === 'sqlite' ? (name: string) => sql`+${sql.ref(name)}` : (name: string) => sql.ref(name);
  if (!f.scope.all) {
    if (!f.scope.slugs.length) return null;
    c.push(eb(ref('logger'), 'in', f.scope.slugs));
  }
  if (f.include) c.push(eb('id', 'in', f.include));
  // `id + 0`: the cut is near the newest id, so walking the date index is right; a bare
  // `id <=` lures SQLite into reading almost every row by id and sorting them.
  if (f.maxId !== undefined) c.push(sql<SqlBool>`${sql.ref('id')} + 0 <= ${f.maxId}`);
  if (f.sinceDate !== undefined && f.sinceId !== undefined) {
    c.push(eb.or([eb(ref('date'), '>', f.sinceDate), eb.and([eb(ref('date'), '=', f.sinceDate), eb('id', '>', f.sinceId)])]));
  } else if (f.sinceId !== undefined) {
    c.push(eb('id', '>', f.sinceId));
  }
  if (f.dateFrom) c.push(eb(ref('date'), '>=', f.dateFrom));
  if (f.dateTo) c.push(eb(ref('date'), '<=', f.dateTo));
  if (f.lastdaysFrom) c.push(eb(ref('date'), '>=', f.lastdaysFrom));
  if (f.ranges) {
    c.push(eb.or(f.ranges.map(([from, to]) => (to ? eb.and([eb(ref('date'), '>=', from), eb(ref('date'), '<=', to)]) : eb(ref('date'), '>=', from)))));
  }
  if (f.loglevels) c.push(eb(ref('level'), 'in', f.loglevels));
  if (f.loggers) c.push(eb(ref('logger'), 'in', f.loggers));
  if (f.messages) c.push(messagesCondition(f.messages, ref));
  if (f.users) c.push(eb(ref('user_id'), 'in', f.users));
  if (f.initiators) c.push(eb(ref('initiator'), 'in', f.initiators));
  if (f.ip?.like) {
    // The range is what the address index serves on both databases (SQLite's LIKE would need
    // NOCASE); a broad prefix is better tested on rows read by date (markNarrowIpRange).
    if (f.ip.narrow) c.push(eb(ref('remote_addr'), '>=', f.ip.from), eb(ref('remote_addr'), '<', f.ip.below));
    c.push(sql<SqlBool>`${ref('remote_addr')} like ${f.ip.pattern}`);
  } else if (f.ip) c.push(eb(ref('remote_addr'), '=', f.ip.pattern));
  if (f.contextIndex) c.push(contextCandidateCondition(dialect, f.contextIndex));
  if (f.metadataIndex) c.push(blocksCondition(f.metadataIndex));
  const contextTests = [
    ...(f.contextFilters ?? []).map(([key, value]) => contextEquals(dialect, key, value)),
    ...(f.metadataWords ?? []).map((w) => contextContains(dialect, w)),
  ];
  if (contextTests.length) c.push(contextPasses(contextTests));
  if (f.searchIndex) c.push(blocksCondition(f.searchIndex));
  if (f.search) c.push(searchCondition(f.search, ref, dialect));
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

/** Whether the filter narrows the set beyond "everything this user may read". */
export function isUnfiltered(f: EventFilter): boolean {
  return f.scope.all && Object.entries(f).every(([k, v]) => k === 'scope' || k === 'dialect' || v === undefined || v === false);
}
