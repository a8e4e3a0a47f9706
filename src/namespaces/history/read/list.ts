// The events service behind GET/POST /events, has-updates, single events and stick/unstick.
// One query builder (filters.ts + selectEventPage) serves the list, has-updates and counts.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { expressionBuilder, sql, type Expression, type SqlBool, type Transaction } from 'kysely';
import type { AppServices } from '../../../site/services.ts';
import type { AuthUser } from '../../../auth/types.ts';
import type { Database } from '../../../db/schema.ts';
import type { DialectName } from '../../../db/index.ts';
import type { Lang } from '../../../rest/types.ts';
import { RestError } from '../../../rest/types.ts';
import type { ActivityOrigin, LogLevel } from '../../../site/activity.ts';
import {
  candidateCount, eventFilterFromParams, FEW_CANDIDATES, filterCondition, isUnfiltered, markNarrowContext, markNarrowIpRange, pageFilter, type EventFilter,
} from './query.ts';
import { countRows, newestFirst, tallyRows, type MatchRow, type Position, type Slices } from './slices.ts';
import { renderEvents, type EventItem, type EventRow } from './render.ts';
import { indexChangedContext } from '../index/build.ts';
import { cutRunCount, headsPage, inReferenceOrder, type Occasion } from './heads.ts';
import { headBelow, pos } from '../model/runs.ts';
import { addToCounter, COUNTER_CHANGES, COUNTER_TOTAL } from '../model/counters.ts';
import { contextJson, contextMap } from '../model/context.ts';

export interface Viewer {
  user: AuthUser | null;
  lang: Lang;
}

export interface ListResult {
  items: EventItem[];
  headers: Record<string, string>;
}

interface PageRequest {
  grouped: boolean;
  page: number;
  perPage: number;
  countTotal: boolean;
  /** How to get the total (rows, or groups when grouped); default: count now. */
  count?: (mode: CountMode) => Promise<number>;
  /** At most this many rows can match (the context index's candidates lead). */
  rowsAtMost?: number;
  /** Rows of one group read one by one before the walk skips to the end of its maintained run (default LONG_GROUP_ROWS). */
  longGroup?: number;
  /** Slices of SQLite's reads that test row after row (default SLICES). */
  slices?: Slices;
}

interface PageResult {
  rows: EventRow[];
  counts: Map<number, number>;
  total: number | null;
}

export type CountMode = 'rows' | 'groups';

const eb = expressionBuilder<Database, 'history_events'>();
const ORDER = sql`order by ${sql.ref('date')} desc, ${sql.ref('id')} desc`;

/**
 * A page of events (grouped into occasions or flat) matching a condition, plus the total.
 * A group is a maximal run of consecutive rows (date desc, id desc) with equal occasions id;
 * as in the reference, groups are ordered by their newest date, then their highest id, and
 * each is shown by its highest-id row, the page's rows ordered by date, then id.
 * `unfiltered` requests (every row readable, no filter) page through the run heads maintained
 * on write (runs.ts); others walk the matching rows newest first and stop once the page is
 * complete, so a page costs what it shows, not the log's size.
 */
export async function selectEventPage(app: AppServices, cond: Expression<SqlBool>, req: PageRequest & { unfiltered?: boolean; maxId?: number }): Promise<PageResult> {
  const offset = (req.page - 1) * req.perPage;
  const totalOf = async (mode: CountMode) => (req.countTotal ? await (req.count ?? ((m: CountMode) => countMatching(app, cond, m, { slices: req.slices })))(mode) : null);
  if (!req.grouped) {
    const few = (req.rowsAtMost ?? Infinity) <= FEW_CANDIDATES;
    const matching = await newestFirst(app, cond, null, req.perPage, { slices: req.slices, few, offset });
    return { rows: await loadRows(app, matching.map((r) => r.id)), counts: new Map(), total: await totalOf('rows') };
  }
  let cutTotal: number | null = null;
  if (req.unfiltered) {
    const page = await headsPage(app.db, req.maxId, offset, req.perPage, req.countTotal);
    if (page) return { rows: newestFirstRows(await loadRows(app, page.ids)), counts: page.counts, total: page.total };
    // Events newer than the cut were back-dated between older ones: the page is walked below,
    // the total taken from the maintained runs when few rows lie above the cut.
    if (req.maxId !== undefined && req.countTotal) cutTotal = await cutRunCount(app.db, req.maxId);
  }
  const groups = await walkGroups(app, cond, offset, req.perPage, req);
  return {
    rows: newestFirstRows(await loadRows(app, groups.map((g) => g.maxId))),
    counts: new Map(groups.map((g) => [g.maxId, g.size])),
    total: cutTotal ?? (await totalOf('groups')),
  };
}

/** Rows by date, then id, newest first: the order of a page's rows in the reference. */
function newestFirstRows(rows: EventRow[]): EventRow[] {
  return rows.sort((a, b) => (a.date === b.date ? b.id - a.id : a.date < b.date ? 1 : -1));
}

/** Rows of one group read one by one before the walk skips to the end of its maintained run. */
const LONG_GROUP_ROWS = 1000;

/**
 * Groups `offset … offset + limit` of the matching rows in the reference's order
 * (inReferenceOrder), with their highest ids and sizes. Reads the rows newest first in growing
 * chunks (keyset on date, id) and stops once a group starts past the page at another date
 * than the page's last (ties of equal dates are read whole: sorting moves groups within them);
 * in one read when at most `rowsAtMost` rows can match.
 * A long group is not read row by row: the matching rows of one maintained run (runs.ts) all
 * belong to the group of its first matching row, whatever the filter, since every row between
 * them has the same occasions id. So once a group has run long, its rows down to the end of
 * the current maintained run are counted in the database and the walk goes on below it (a
 * flood of one message otherwise made every filtered page read the whole flood).
 */
async function walkGroups(
  app: AppServices,
  cond: Expression<SqlBool>,
  offset: number,
  limit: number,
  { rowsAtMost = Infinity, longGroup = LONG_GROUP_ROWS, slices }: Pick<PageRequest, 'rowsAtMost' | 'longGroup' | 'slices'>,
): Promise<Occasion[]> {
  const wanted = offset + limit;
  // The groups from the tie (of equal first dates) before the page on: sorting moves a group
  // by one place at most, but for a tie's last group, which may move ahead of the others.
  let kept: (Occasion & { occasions_id: string })[] = [];
  let from = 0; // walk index of kept[0]
  let index = -1; // walk index of the current group
  let current = null as (typeof kept)[number] | null;
  /** Rows of the current group read since it started or since its last skip. */
  let streak = 0;
  /** Where the next read starts: below this position, or at it when `inclusive`. */
  let after: Position | null = null;
  const page = () => inReferenceOrder(kept).slice(offset - from, wanted - from);
  // Each read of candidates of the context index looks them all up: one read takes them all
  // (and no group is skipped: counting a run by date would read more than the candidates).
  const oneRead = rowsAtMost < 50_000;
  const first = oneRead ? rowsAtMost + 1 : Math.min(Math.max(2 * wanted, 50), 5000);
  const skipAfter = oneRead ? Infinity : longGroup;
  for (let chunk = first; ; chunk = Math.min(4 * chunk, 50_000)) {
    const rows = await newestFirst(app, cond, after, chunk, { slices });
    let skipped = false;
    for (const row of rows) {
      if (row.occasions_id !== current?.occasions_id) {
        index++;
        if (index >= wanted && row.date !== kept[wanted - 1 - from]!.first.date) return page();
        if (index < offset && current && row.date !== current.first.date) {
          kept = [];
          from = index;
        }
        current = { first: { id: row.id, date: row.date }, maxId: row.id, size: 0, occasions_id: row.occasions_id };
        kept.push(current);
        streak = 0;
      }
      current.size++;
      if (row.id > current.maxId) current.maxId = row.id;
      if (++streak < skipAfter) continue;
      const end = await headBelow(app.db, row);
      const inRun = end ? [cond, pos('<', row), pos('>', end)] : [cond, pos('<', row)];
      // Counted where the group may be on the page: before it, only the group just before it
      // can move into it (and a group before that holds one date only, its first row the highest id).
      if (index >= offset - 1) {
        const rest = await tallyRows(app, eb.and(inRun), { maxId: true });
        current.size += rest.n;
        current.maxId = Math.max(current.maxId, rest.maxId);
      }
      if (!end) return page();
      after = { date: end.date, id: end.id, inclusive: true };
      streak = 0;
      skipped = true;
      break;
    }
    if (!skipped) {
      if (rows.length < chunk) return page();
      after = rows[rows.length - 1];
    }
    // SQLite reads on the server's only thread: other requests go first between chunks.
    if (app.dialect === 'sqlite') await nextTurn();
  }
}

/** Matching rows per read when SQLite counts groups. */
const COUNT_CHUNK_ROWS = 20_000;

/**
 * Matching rows (countRows, in slices where SQLite would scan the table), or groups of them
 * (runs of equal occasions id, date desc, id desc), counted now. PostgreSQL counts groups in one
 * statement, which holds only its own connection. SQLite runs every statement on the server's
 * only thread, and grouping a million rows in one statement held every other request for
 * seconds: it reads the matching rows newest first in chunks (the walk's reads, keyset on date
 * and id) and counts the groups itself, letting the event loop run between chunks.
 */
export async function countMatching(
  app: AppServices,
  cond: Expression<SqlBool>,
  mode: CountMode,
  { chunkRows = COUNT_CHUNK_ROWS, slices }: { chunkRows?: number; slices?: Slices } = {},
): Promise<number> {
  if (mode === 'rows') return countRows(app, cond, slices);
  if (app.dialect === 'postgres') return countGroups(app, cond);
  let n = 0;
  let newer: MatchRow | null = null;
  for (;;) {
    const rows = await newestFirst(app, cond, newer, chunkRows, { slices });
    for (const row of rows) {
      if (row.occasions_id !== newer?.occasions_id) n++;
      newer = row;
    }
    if (rows.length < chunkRows) return n;
    await nextTurn();
  }
}

/** Groups of matching rows, in one statement. */
async function countGroups(app: AppServices, cond: Expression<SqlBool>): Promise<number> {
  const withNewer = app.db
    .selectFrom('history_events')
    .where(cond)
    .select(['occasions_id', sql<string | null>`lag(${sql.ref('occasions_id')}) over (${ORDER})`.as('newer')]);
  const row = await app.db
    .selectFrom(withNewer.as('w'))
    .select(sql<number>`count(*)`.as('n'))
    .where((eb) => eb.or([eb('newer', 'is', null), eb('newer', '<>', eb.ref('occasions_id'))]))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

// ---- caches (reference §7), valid until the log changes other than by appends.
// Pages: which rows make up a page, per filter and page, until the log changes at all (any
// insert, stick/unstick, rebuild). Totals: per filter, brought up to date by counting only
// the rows appended since (a total over a million rows is computed once, not per request).
// Rows are always read fresh.

const CACHE_SIZE = 500;
const MAX_INCREMENT = 5000;

interface LogState {
  maxId: number;
  total: number;
  changes: number;
}

interface CachedTotal extends LogState {
  value: number;
  /** The newest matching row counted, when counting groups. */
  newest: { id: number; date: string; occasions_id: string } | null;
}

interface Caches {
  pages: Map<string, { version: string; ids: number[]; counts: [number, number][]; total: number | null }>;
  totals: Map<string, CachedTotal>;
  computing: Map<string, Promise<PageResult>>;
  /** Totals being counted afresh, per filter: later requests wait for them and add their appends. */
  counting: Map<string, Promise<unknown>>;
}

const caches = new WeakMap<AppServices, Caches>();

function cachesOf(app: AppServices): Caches {
  let c = caches.get(app);
  if (!c) caches.set(app, (c = { pages: new Map(), totals: new Map(), computing: new Map(), counting: new Map() }));
  return c;
}

/** Least recently used first: a hit moves the key last, the first keys go when the map is full. */
function remember<V>(map: Map<string, V>, key: string, value: V): V {
  map.delete(key);
  map.set(key, value);
  while (map.size > CACHE_SIZE) map.delete(map.keys().next().value!);
  return value;
}

function jsonMaps(_key: string, value: unknown): unknown {
  return value instanceof Map ? [...value] : value;
}

/** The newest id and the insert/change counters, in one snapshot (this or another process may write). */
async function logState(app: AppServices): Promise<LogState> {
  const counter = (name: string) =>
    app.db.selectFrom('history_counters').select('value').where('name', '=', name);
  const row = await app.db
    .selectNoFrom([
      app.db.selectFrom('history_events').select(sql<number>`max(${sql.ref('id')})`.as('m')).as('max_id'),
      counter(COUNTER_TOTAL).as('total'),
      counter(COUNTER_CHANGES).as('changes'),
    ])
    .executeTakeFirstOrThrow();
  return { maxId: Number(row.max_id ?? 0), total: Number(row.total ?? 0), changes: Number(row.changes ?? 0) };
}

async function cachedPage(app: AppServices, state: LogState, key: string, compute: () => Promise<PageResult>): Promise<PageResult> {
  const { pages, computing } = cachesOf(app);
  const version = `${state.total}/${state.changes}/${state.maxId}`;
  const hit = pages.get(key);
  if (hit && hit.version === version) {
    remember(pages, key, hit);
    return { rows: await loadRows(app, hit.ids), counts: new Map(hit.counts), total: hit.total };
  }
  // Identical requests that miss together share one computation (a first total can take a
  // second on a million rows; ten clients must not start ten of them).
  const flightKey = `${version}\n${key}`;
  let flight = computing.get(flightKey);
  if (!flight) {
    flight = compute().finally(() => computing.delete(flightKey));
    computing.set(flightKey, flight);
  }
  const result = await flight;
  remember(pages, key, { version, ids: result.rows.map((r) => r.id), counts: [...result.counts], total: result.total });
  return { ...result, counts: new Map(result.counts) };
}

/**
 * The total for a filter, from the cache when only appends happened since it was counted: the
 * appended rows that match are counted (as groups: continuing the newest counted group or
 * starting new ones). Counted afresh when anything else changed, when appended rows land
 * before the newest counted one, or when the ids appended since do not account for every
 * insert (a transaction with a lower id committed late).
 */
async function cachedTotal(app: AppServices, state: LogState, key: string, cond: Expression<SqlBool>, mode: CountMode): Promise<number> {
  const { totals, counting } = cachesOf(app);
  const cacheKey = `${mode}:${key}`;
  const fromCache = async (): Promise<number | null> => {
    const hit = totals.get(cacheKey);
    const current = hit && (await bringUpToDate(app, state, hit, cond, mode));
    return current ? remember(totals, cacheKey, current).value : null;
  };
  const cached = await fromCache();
  if (cached !== null) return cached;
  // A request just before this one is counting the filter afresh while the log grows (the
  // appends change every page's version, so their computations are not shared): wait for
  // that count and add what was appended since, instead of counting again alongside it.
  const inFlight = counting.get(cacheKey);
  if (inFlight) {
    await inFlight.catch(() => undefined);
    const after = await fromCache();
    if (after !== null) return after;
  }
  const fresh = countTotal(app, state, cond, mode).then((total) => remember(totals, cacheKey, total));
  counting.set(cacheKey, fresh);
  try {
    return (await fresh).value;
  } finally {
    if (counting.get(cacheKey) === fresh) counting.delete(cacheKey);
  }
}

/** A cached total brought to `state` by counting the rows appended since; null when it must be counted afresh. */
async function bringUpToDate(app: AppServices, state: LogState, hit: CachedTotal, cond: Expression<SqlBool>, mode: CountMode): Promise<CachedTotal | null> {
  if (hit.changes !== state.changes) return null;
  if (hit.maxId === state.maxId && hit.total === state.total) return hit;
  const added = state.total - hit.total;
  if (added <= 0 || added > MAX_INCREMENT || state.maxId <= hit.maxId) return null;
  const ids = (await app.db.selectFrom('history_events').select('id').where('id', '>', hit.maxId).where('id', '<=', state.maxId).execute()).map((r) => r.id);
  if (ids.length !== added) return null;
  const rows = ids.length
    ? await app.db.selectFrom('history_events').select(['id', 'date', 'occasions_id']).where('id', 'in', ids).where(cond).orderBy('date', 'asc').orderBy('id', 'asc').execute()
    : [];
  const inOrder = !hit.newest || rows.every((r) => r.date > hit.newest!.date || (r.date === hit.newest!.date && r.id > hit.newest!.id));
  if (!inOrder) return null;
  let value = hit.value;
  let newest = hit.newest;
  for (const r of rows) {
    if (mode === 'rows' || r.occasions_id !== newest?.occasions_id) value++;
    newest = r;
  }
  return { ...state, value, newest };
}

/** The total at `state`, counted afresh. */
async function countTotal(app: AppServices, state: LogState, cond: Expression<SqlBool>, mode: CountMode): Promise<CachedTotal> {
  // `id + 0`: a bare `id <=` lures SQLite into reading the table by id (see filters.ts).
  const upTo = eb.and([cond, sql<SqlBool>`${sql.ref('id')} + 0 <= ${state.maxId}`]);
  const [value, newest] = await Promise.all([
    countMatching(app, upTo, mode),
    mode === 'groups'
      ? app.db.selectFrom('history_events').select(['id', 'date', 'occasions_id']).where(upTo).orderBy('date', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst()
      : undefined,
  ]);
  return { ...state, value, newest: newest ?? null };
}

/** Rows by id, in the order of the ids given. */
export async function loadRows(app: AppServices, ids: number[]): Promise<EventRow[]> {
  if (!ids.length) return [];
  const rows = await app.db.selectFrom('history_events').selectAll().where('id', 'in', ids).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((r): r is EventRow => r !== undefined);
}

function zone(app: AppServices): string {
  return app.options.get('timezone_string');
}

function positiveInt(value: unknown, fallback: number): number {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

/**
 * GET /events. `linkFor(query)` builds the absolute URL of the events route with that query
 * (for the Link header); `query` is the request's own query string.
 */
export async function listEvents(
  app: AppServices,
  params: Record<string, unknown>,
  viewer: Viewer,
  link: { query: Record<string, unknown>; urlFor: (query: Record<string, unknown>) => string } | null = null,
): Promise<ListResult> {
  if (params.surrounding_event_id !== undefined && params.surrounding_event_id !== null) {
    return surroundingEvents(app, Number(params.surrounding_event_id), positiveInt(params.surrounding_count, 5), viewer);
  }
  if (params.type === 'occasions') return { items: await occasionEvents(app, params, viewer), headers: {} };

  const scope = app.loggers.scope(viewer.user);
  const filter = eventFilterFromParams(params, { loggers: app.loggers, scope, zone: zone(app), lang: viewer.lang, dialect: app.dialect });
  const page = positiveInt(params.page, 1);
  const perPage = positiveInt(params.per_page, 10);
  const countTotal = params.skip_count_query !== true;
  const grouped = params.ungrouped !== true && !filter.search && !filter.metadataWords;
  // Unfiltered (max_id_first_page aside): served from the occasions maintained on write.
  const { maxId, ...rest } = filter;
  const pageRequest = { grouped, page, perPage, countTotal, unfiltered: isUnfiltered(rest as EventFilter), maxId };
  let result: PageResult = { rows: [], counts: new Map(), total: countTotal ? 0 : null };
  // No condition when the viewer may read no logger: an empty page.
  if (filterCondition(filter)) {
    const state = await logState(app);
    // A cut at or above the newest id has the total of no cut (a client's page 2 pins the
    // newest id it saw on page 1). The rows keep the cut: events may arrive before they are read.
    const totalFilter = maxId !== undefined && maxId >= state.maxId ? (rest as EventFilter) : filter;
    const totalKey = JSON.stringify(totalFilter, jsonMaps);
    result = await cachedPage(app, state, JSON.stringify([filter, pageRequest], jsonMaps), async () => {
      // Only a page computed anew reads the log: the size of an ip range and the context index's
      // candidates matter then, not on a cache hit (totalFilter shares the filter's ip). They
      // change the plan, not the rows.
      await markNarrowIpRange(app.db, filter);
      await markNarrowContext(app.db, filter, state.maxId);
      const forPage = pageFilter(filter, state.maxId, page * perPage, grouped);
      const cond = filterCondition(forPage)!;
      const totalCond = filterCondition({ ...totalFilter, contextIndex: filter.contextIndex, metadataIndex: filter.metadataIndex, searchIndex: filter.searchIndex })!;
      const count = (mode: CountMode) => cachedTotal(app, state, totalKey, totalCond, mode);
      return selectEventPage(app, cond, { ...pageRequest, count, rowsAtMost: candidateCount(forPage, state.maxId) });
    });
  }

  const items = await renderEvents(app, result.rows, { lang: viewer.lang, viewer: viewer.user, counts: result.counts });
  const sticky = grouped && params.include_sticky === true ? await stickyEvents(app, filter, viewer) : [];

  const total = result.total ?? 0;
  const totalPages = result.total === null ? 0 : Math.ceil(total / perPage);
  const headers: Record<string, string> = {
    'X-WP-Total': String(total),
    'X-WP-TotalPages': String(totalPages),
    'X-History-MaxId': String(result.rows[0]?.id ?? 0),
  };
  if (result.rows[0]) headers['X-History-MaxDate'] = result.rows[0].date;
  if (link) {
    const links: string[] = [];
    if (page > 1) {
      const prev = Math.min(page - 1, totalPages);
      links.push(`<${link.urlFor({ ...link.query, page: prev })}>; rel="prev"`);
    }
    if (page < totalPages) links.push(`<${link.urlFor({ ...link.query, page: page + 1 })}>; rel="next"`);
    if (links.length) headers.Link = links.join(', ');
  }
  return { items: [...sticky, ...items], headers };
}

/** Every sticky event the viewer may read, newest first, marked `sticky_appended`. */
async function stickyEvents(app: AppServices, filter: EventFilter, viewer: Viewer): Promise<EventItem[]> {
  const cond = filterCondition({ scope: filter.scope, onlySticky: true });
  if (!cond) return [];
  const rows = await app.db.selectFrom('history_events').selectAll().where(cond).orderBy('date', 'desc').orderBy('id', 'desc').execute();
  return renderEvents(app, rows, { lang: viewer.lang, viewer: viewer.user, stickyAppended: true });
}

/** type=occasions (reference §3.3): the hidden members of a group; no other filter applies. */
async function occasionEvents(app: AppServices, params: Record<string, unknown>, viewer: Viewer): Promise<EventItem[]> {
  const count = params.occasionsCount;
  if (count === undefined || count === null || typeof params.occasionsID !== 'string') return [];
  const max = params.occasionsCountMaxReturn;
  let limit = Number(count);
  if (max !== undefined && max !== null && Number(max) < limit) limit = Number(max);
  if (!(limit > 0)) return [];
  const below = params.logRowID === undefined || params.logRowID === null ? 0 : Number(params.logRowID);
  // Unlike the reference, the logger permissions apply here too (conventions: each logger's
  // events only to users holding its capability).
  const scope = filterCondition({ scope: app.loggers.scope(viewer.user) });
  if (!scope) return [];
  const rows = await app.db
    .selectFrom('history_events')
    .selectAll()
    .where(scope)
    .where('id', '<', below)
    .where('occasions_id', '=', params.occasionsID)
    .orderBy('date', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return renderEvents(app, rows, { lang: viewer.lang, viewer: viewer.user });
}

/** Surrounding mode: events around one id, by id, ignoring every filter and logger permission. */
async function surroundingEvents(app: AppServices, centreId: number, count: number, viewer: Viewer): Promise<ListResult> {
  const centre = await app.db.selectFrom('history_events').selectAll().where('id', '=', centreId).executeTakeFirst();
  if (!centre) {
    throw new RestError('event_not_found', viewer.lang === 'de' ? 'Das angegebene Ereignis wurde nicht gefunden.' : 'The specified event was not found.', 404);
  }
  const newer = await app.db.selectFrom('history_events').selectAll().where('id', '>', centreId).orderBy('id', 'asc').limit(count).execute();
  const older = await app.db.selectFrom('history_events').selectAll().where('id', '<', centreId).orderBy('id', 'desc').limit(count).execute();
  const rows = [...newer.reverse(), centre, ...older];
  const items = await renderEvents(app, rows, { lang: viewer.lang, viewer: viewer.user });
  const headers: Record<string, string> = {
    'X-WP-Total': String(rows.length),
    'X-WP-TotalPages': '1',
    'X-History-CenterEventId': String(centreId),
    'X-History-EventsBefore': String(older.length),
    'X-History-EventsAfter': String(newer.length),
    'X-History-MaxId': String(rows[0].id),
    'X-History-MinId': String(rows[rows.length - 1].id),
    'X-History-MaxDate': rows[0].date,
  };
  return { items, headers };
}

/** GET /events/has-updates: rows newer than the cursor, flat, without sticky and exclude filters. */
export async function countNewEvents(app: AppServices, params: Record<string, unknown>, viewer: Viewer): Promise<{ new_events_count: number | null }> {
  const filter = eventFilterFromParams(params, { loggers: app.loggers, scope: app.loggers.scope(viewer.user), zone: zone(app), lang: viewer.lang, ignoreExcludes: true, dialect: app.dialect });
  if (params.skip_count_query === true) return { new_events_count: null };
  // (no ip range here: `id > since_id` finds the few rows newer than a client's cursor)
  const cond = filterCondition(filter);
  return { new_events_count: cond ? await countRows(app, cond) : 0 };
}

function invalidEventId(lang: Lang): RestError {
  return new RestError('rest_event_invalid_id', lang === 'de' ? 'Ungültige Ereignis-ID.' : 'Invalid event ID.', 404);
}

/** The event if it exists (else 404 rest_event_invalid_id) and the viewer may read its logger (else 401/403). */
async function readableEventRow(app: AppServices, id: number, viewer: Viewer): Promise<EventRow> {
  const row = await app.db.selectFrom('history_events').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw invalidEventId(viewer.lang);
  if (!app.loggers.canRead(viewer.user, row.logger)) {
    throw new RestError(
      'rest_forbidden_context',
      viewer.lang === 'de' ? 'Du darfst dieses Ereignis nicht ansehen.' : 'Sorry, you are not allowed to view this event.',
      viewer.user ? 403 : 401,
    );
  }
  return row;
}

/**
 * Whether the viewer may read the event: true, or the error to answer with. The reference
 * checks this in the permission callback of the event's routes (so their 404/403 carry no Allow).
 */
export async function eventReadable(app: AppServices, id: number, viewer: Viewer): Promise<true | RestError> {
  return readableEventRow(app, id, viewer).then(() => true, (err: unknown) => (err instanceof RestError ? err : Promise.reject(err)));
}

/** Whether the event exists: true, or 404 rest_event_invalid_id (the permission check of stick/unstick). */
export async function eventExists(app: AppServices, id: number, lang: Lang): Promise<true | RestError> {
  const row = await app.db.selectFrom('history_events').select('id').where('id', '=', id).executeTakeFirst();
  return row ? true : invalidEventId(lang);
}

/** GET /events/<id>. */
export async function getEvent(app: AppServices, id: number, viewer: Viewer): Promise<EventItem> {
  const [item] = await renderEvents(app, [await readableEventRow(app, id, viewer)], { lang: viewer.lang, viewer: viewer.user });
  return item;
}

/** The context of an existing event; 404 rest_event_invalid_id when there is no such event. */
async function eventContext(tx: Transaction<Database>, id: number, viewer: Viewer): Promise<Map<string, string | null>> {
  const row = await tx
    .selectFrom('history_events as e')
    .leftJoin('history_event_contexts as x', 'x.event_id', 'e.id')
    .select('x.context')
    .where('e.id', '=', id)
    .executeTakeFirst();
  if (!row) throw invalidEventId(viewer.lang);
  return row.context === null ? new Map() : contextMap(row.context);
}

async function setEventContext(tx: Transaction<Database>, dialect: DialectName, id: number, context: Map<string, string | null>): Promise<void> {
  const json = contextJson(context);
  await tx.insertInto('history_event_contexts').values({ event_id: id, context: json }).onConflict((oc) => oc.column('event_id').doUpdateSet({ context: json })).execute();
  await indexChangedContext(tx, dialect, id, json);
}

/** POST /events/<id>/stick: idempotent. Recorded in the log when `origin` is given. */
export async function stickEvent(app: AppServices, id: number, viewer: Viewer, origin?: ActivityOrigin): Promise<EventItem> {
  await app.db.transaction().execute(async (tx) => {
    const context = await eventContext(tx, id, viewer);
    // Stuck again: `_sticky` moves to the end, as the reference writes it anew.
    context.delete('_sticky');
    context.set('_sticky', '{}');
    await setEventContext(tx, app.dialect, id, context);
    await tx.updateTable('history_events').set({ sticky: 1 }).where('id', '=', id).execute();
    await addToCounter(tx, COUNTER_CHANGES, 1);
  });
  if (origin) await app.activity.log({ logger: 'SimpleHistoryLogger', messageKey: 'event_stuck', context: { event_id: id } }, origin);
  return renderSingle(app, id, viewer);
}

/** POST /events/<id>/unstick: 409 rest_event_not_sticky when the event is not sticky. */
export async function unstickEvent(app: AppServices, id: number, viewer: Viewer, origin?: ActivityOrigin): Promise<EventItem> {
  await app.db.transaction().execute(async (tx) => {
    const context = await eventContext(tx, id, viewer);
    if (!context.delete('_sticky')) {
      throw new RestError('rest_event_not_sticky', viewer.lang === 'de' ? 'Das Ereignis ist nicht angeheftet.' : 'The event is not sticky.', 409);
    }
    await setEventContext(tx, app.dialect, id, context);
    await tx.updateTable('history_events').set({ sticky: 0 }).where('id', '=', id).execute();
    await addToCounter(tx, COUNTER_CHANGES, 1);
  });
  if (origin) await app.activity.log({ logger: 'SimpleHistoryLogger', messageKey: 'event_unstuck', context: { event_id: id } }, origin);
  return renderSingle(app, id, viewer);
}

async function renderSingle(app: AppServices, id: number, viewer: Viewer): Promise<EventItem> {
  const rows = await loadRows(app, [id]);
  const [item] = await renderEvents(app, rows, { lang: viewer.lang, viewer: viewer.user });
  return item;
}

export interface CustomEntryInput {
  message: string;
  note?: string;
  level?: string;
  date?: string;
}

/** POST /events: a custom entry, logged like every other event. Returns the new id. */
export async function createCustomEntry(app: AppServices, input: CustomEntryInput, origin: ActivityOrigin): Promise<number> {
  const context: Record<string, unknown> = { message: input.message };
  if (input.note !== undefined && input.note !== null && input.note !== '') context.note = input.note;
  return app.activity.log(
    {
      logger: 'CustomEntryLogger',
      messageKey: 'custom_entry_added',
      level: (input.level ?? 'info').toLowerCase() as LogLevel,
      context,
      ...(input.date ? { date: input.date } : {}),
    },
    origin,
  );
}
