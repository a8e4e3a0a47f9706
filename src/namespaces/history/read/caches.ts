// The list's caches (reference §7), valid until the log changes other than by appends. Pages: which
// rows make up a page, per filter and page, until the log changes at all (any insert, stick/unstick,
// rebuild). Totals: per filter, brought up to date by counting only the rows appended since (a total
// over a million rows is computed once, not per request). Rows are always read fresh.
import { expressionBuilder, sql, type Expression, type SqlBool } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { AppServices } from '../../../site/services.ts';
import { COUNTER_CHANGES, COUNTER_STICKS, COUNTER_TOTAL } from '../model/counters.ts';
import { countMatching, countRunsInWorker, loadRows, type CountMode, type PageResult } from './paging.ts';
import { withinDates, type DateWindow, type MatchRow } from './slices.ts';

const eb = expressionBuilder<Database, 'history_events'>();

const CACHE_SIZE = 500;
/** Appended rows up to which a count made before them is brought up to date; beyond, it is made afresh. */
const MAX_INCREMENT = 5000;

/** The log's newest id and its insert, change and stick counters: what a count made at a time is valid for. */
export interface LogState {
  maxId: number;
  total: number;
  changes: number;
  sticks: number;
}

export const sameState = (a: LogState, b: LogState) =>
  a.maxId === b.maxId && a.total === b.total && a.changes === b.changes && a.sticks === b.sticks;

/**
 * How many rows were appended from `from` to `to`, when that is all that happened (nothing else
 * changed, the newest id grew) and they are few enough to add one by one; null otherwise. The
 * caller still checks that the ids above `from.maxId` account for every insert (a transaction
 * with a lower id may commit late) and that they follow the rows counted.
 */
export function appendedSince(from: LogState, to: LogState): number | null {
  const added = to.total - from.total;
  const unchanged = from.changes === to.changes && from.sticks === to.sticks;
  return unchanged && added > 0 && added <= MAX_INCREMENT && to.maxId > from.maxId ? added : null;
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

/** Least recently used first: a hit moves the key last, the first keys go when the map holds more than `size`. */
export function remember<V>(map: Map<string, V>, key: string, value: V, size = CACHE_SIZE): V {
  map.delete(key);
  map.set(key, value);
  while (map.size > size) map.delete(map.keys().next().value!);
  return value;
}

export function jsonMaps(_key: string, value: unknown): unknown {
  return value instanceof Map ? [...value] : value;
}

/** The newest id and the insert/change counters, in one snapshot (this or another process may write). */
export async function logState(app: AppServices): Promise<LogState> {
  const counter = (name: string) => app.readDb.selectFrom('history_counters').select('value').where('name', '=', name);
  const row = await app.readDb
    .selectNoFrom([
      app.readDb
        .selectFrom('history_events')
        .select(sql<number>`max(${sql.ref('id')})`.as('m'))
        .as('max_id'),
      counter(COUNTER_TOTAL).as('total'),
      counter(COUNTER_CHANGES).as('changes'),
      counter(COUNTER_STICKS).as('sticks'),
    ])
    .executeTakeFirstOrThrow();
  return {
    maxId: Number(row.max_id ?? 0),
    total: Number(row.total ?? 0),
    changes: Number(row.changes ?? 0),
    sticks: Number(row.sticks ?? 0),
  };
}

export async function cachedPage(
  app: AppServices,
  state: LogState,
  key: string,
  compute: () => Promise<PageResult>,
): Promise<PageResult> {
  const { pages, computing } = cachesOf(app);
  const version = `${state.total}/${state.changes}/${state.sticks}/${state.maxId}`;
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
 * A faster way to count a filter's total than reading its rows (read/totals.ts, the log's
 * columns): the total and the newest id it counted up to (and the newest matching row, when it
 * knows it), or null when it finds itself no faster after all.
 */
export type TotalShortcut = () => Promise<{ value: number; maxId: number; newest?: MatchRow | null } | null>;

/** The first of the shortcuts that counts (each tried when those before it decline). */
export function firstShortcut(...shortcuts: (TotalShortcut | undefined)[]): TotalShortcut | undefined {
  const given = shortcuts.filter((s): s is TotalShortcut => s !== undefined);
  if (!given.length) return undefined;
  return async () => {
    for (const shortcut of given) {
      const quick = await shortcut();
      if (quick) return quick;
    }
    return null;
  };
}

/** How a total is counted afresh. */
export interface CountOptions {
  /** The dates the matching rows lie within (conditions.ts dateWindow). */
  dates?: DateWindow;
  shortcut?: TotalShortcut;
  /** When at least this many rows match, groups are counted in the log's order (countMatching's `inOrderFrom`). */
  inOrderFrom?: number;
}

const totalKey = (mode: CountMode, key: string) => `${mode}:${key}`;

/** The filter's total counted at exactly `state`, when kept: no statement is sent. */
export function keptTotal(app: AppServices, state: LogState, key: string, mode: CountMode): number | undefined {
  const hit = cachesOf(app).totals.get(totalKey(mode, key));
  return hit && sameState(hit, state) ? hit.value : undefined;
}

/**
 * Keeps a total counted at `state` without cachedTotal (a page of the log's columns counts its
 * filter's total in the same pass), for cachedTotal and keptTotal; `newest`: the newest matching
 * row, which counting groups on after appends needs (null for rows).
 */
export function keepTotal(
  app: AppServices,
  state: LogState,
  key: string,
  mode: CountMode,
  value: number,
  newest: MatchRow | null,
): void {
  remember(cachesOf(app).totals, totalKey(mode, key), { ...state, value, newest });
}

/**
 * The total for a filter, from the cache when only appends happened since it was counted: the
 * appended rows that match are counted (as groups: continuing the newest counted group or
 * starting new ones). Counted afresh when anything else changed, when appended rows land
 * before the newest counted one, or when the ids appended since do not account for every
 * insert (a transaction with a lower id committed late); by the `shortcut` when it counted up
 * to the state's newest id.
 */
export async function cachedTotal(
  app: AppServices,
  state: LogState,
  key: string,
  cond: Expression<SqlBool>,
  mode: CountMode,
  how: CountOptions = {},
): Promise<number> {
  const { totals, counting } = cachesOf(app);
  const cacheKey = totalKey(mode, key);
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
  const fresh = countTotal(app, state, cond, mode, how).then((total) => remember(totals, cacheKey, total));
  counting.set(cacheKey, fresh);
  try {
    return (await fresh).value;
  } finally {
    if (counting.get(cacheKey) === fresh) counting.delete(cacheKey);
  }
}

/** A cached total brought to `state` by counting the rows appended since; null when it must be counted afresh. */
async function bringUpToDate(
  app: AppServices,
  state: LogState,
  hit: CachedTotal,
  cond: Expression<SqlBool>,
  mode: CountMode,
): Promise<CachedTotal | null> {
  if (sameState(hit, state)) return hit;
  const added = appendedSince(hit, state);
  if (added === null) return null;
  const ids = (
    await app.readDb
      .selectFrom('history_events')
      .select('id')
      .where('id', '>', hit.maxId)
      .where('id', '<=', state.maxId)
      .execute()
  ).map((r) => r.id);
  if (ids.length !== added) return null;
  const rows = ids.length
    ? await app.readDb
        .selectFrom('history_events')
        .select(['id', 'date', 'occasions_id'])
        .where('id', 'in', ids)
        .where(cond)
        .orderBy('date', 'asc')
        .orderBy('id', 'asc')
        .execute()
    : [];
  const inOrder =
    !hit.newest ||
    rows.every((r) => r.date > hit.newest!.date || (r.date === hit.newest!.date && r.id > hit.newest!.id));
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
async function countTotal(
  app: AppServices,
  state: LogState,
  cond: Expression<SqlBool>,
  mode: CountMode,
  { dates, shortcut, inOrderFrom }: CountOptions,
): Promise<CachedTotal> {
  // `id + 0`: a bare `id <=` lures SQLite into reading the table by id (see read/conditions.ts).
  const upTo = eb.and([cond, sql<SqlBool>`${sql.ref('id')} + 0 <= ${state.maxId}`]);
  const quick = await shortcut?.();
  // Events logged since the state was read: the rows up to it are counted instead.
  const counted = quick && quick.maxId === state.maxId ? quick : null;
  if (mode === 'rows')
    return { ...state, value: counted?.value ?? (await countMatching(app, upTo, mode, { dates })), newest: null };
  // Several ranges of dates: the walk for it starts at their window's top (read/date-ranges.ts).
  const newestRow = async () =>
    (await app.readDb
      .selectFrom('history_events')
      .select(['id', 'date', 'occasions_id'])
      .where(dates?.ranges ? eb.and([...withinDates(dates), upTo]) : upTo)
      .orderBy('date', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst()) ?? null;
  // A shortcut that knows the newest row (null: none matches) spares reading it.
  if (counted)
    return {
      ...state,
      value: counted.value,
      newest: counted.newest !== undefined ? counted.newest : await newestRow(),
    };
  // SQLite's worker count reports the newest row it counted; otherwise that row is read beside.
  if (app.dbHandle.readsInWorkers) {
    const { groups, newest } = await countRunsInWorker(app, upTo, { dates, inOrderFrom });
    return { ...state, value: groups, newest };
  }
  const [value, newest] = await Promise.all([countMatching(app, upTo, mode, { dates, inOrderFrom }), newestRow()]);
  return { ...state, value, newest };
}
