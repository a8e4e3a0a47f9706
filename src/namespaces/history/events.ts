// The events service behind GET/POST /events, has-updates, single events and stick/unstick.
// One query builder (filters.ts + selectEventPage) serves the list, has-updates and counts.
import { sql, type Expression, type SqlBool } from 'kysely';
import type { AppServices } from '../../app.ts';
import type { AuthUser } from '../../auth/types.ts';
import type { Lang } from '../../rest/types.ts';
import { RestError } from '../../rest/types.ts';
import type { ActivityOrigin, LogLevel } from '../../site/activity.ts';
import { canReadLogger, loggerScope } from './catalogue.ts';
import { eventFilterFromParams, filterCondition, isUnfiltered, type EventFilter } from './filters.ts';
import { headsPage } from './runs.ts';
import { addToCounter, COUNTER_CHANGES, COUNTER_TOTAL } from './store.ts';
import { renderEvents, type EventItem, type EventRow } from './items.ts';

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
}

interface PageResult {
  rows: EventRow[];
  counts: Map<number, number>;
  total: number | null;
}

const ORDER = sql`order by ${sql.ref('date')} desc, ${sql.ref('id')} desc`;

/**
 * A page of events (grouped into occasions or flat) matching a condition, plus the total.
 * A group is a maximal run of consecutive rows (date desc, id desc) with equal occasions id,
 * shown by its newest row. `unfiltered` requests (every row readable, no filter) page
 * through the run heads maintained on write (runs.ts); others group with window functions.
 */
export async function selectEventPage(app: AppServices, cond: Expression<SqlBool>, req: PageRequest & { unfiltered?: boolean; maxId?: number }): Promise<PageResult> {
  const offset = (req.page - 1) * req.perPage;
  if (!req.grouped) {
    const rows = await app.db
      .selectFrom('history_events')
      .selectAll()
      .where(cond)
      .orderBy('date', 'desc')
      .orderBy('id', 'desc')
      .limit(req.perPage)
      .offset(offset)
      .execute();
    const total = req.countTotal ? await countEvents(app, cond) : null;
    return { rows, counts: new Map(), total };
  }
  if (req.unfiltered) {
    const page = await headsPage(app.db, req.maxId, offset, req.perPage, req.countTotal);
    if (page) return { rows: await loadRows(app, page.ids), counts: page.counts, total: page.total };
  }
  const flagged = app.db.selectFrom('history_events').where(cond).select([
    'id',
    'date',
    sql<number>`case when lag(${sql.ref('occasions_id')}) over (${ORDER}) = ${sql.ref('occasions_id')} then 0 else 1 end`.as('is_head'),
  ]);
  // One pass: runs → groups, the page of groups, and (window over the groups) their number.
  const groups = await app.db
    .with('f', () => flagged)
    .with('g', (qc) =>
      qc.selectFrom('f').select(['id', 'is_head', sql<number>`sum(${sql.ref('is_head')}) over (${ORDER} rows unbounded preceding)`.as('grp')]),
    )
    .with('h', (qc) =>
      qc
        .selectFrom('g')
        .select([
          'grp',
          sql<number>`max(case when ${sql.ref('is_head')} = 1 then ${sql.ref('id')} end)`.as('head_id'),
          sql<number>`count(*)`.as('cnt'),
        ])
        .groupBy('grp'),
    )
    .selectFrom('h')
    .select(['grp', 'head_id', 'cnt', sql<number>`count(*) over ()`.as('total')])
    .orderBy('grp', 'asc')
    .limit(req.perPage)
    .offset(offset)
    .execute();
  const counts = new Map(groups.map((g) => [Number(g.head_id), Number(g.cnt)]));
  const rows = await loadRows(app, groups.map((g) => Number(g.head_id)));
  let total: number | null = null;
  if (req.countTotal) {
    if (groups.length) total = Number(groups[0].total);
    else {
      // Past the last page the window has no row to report on: count the heads.
      const row = await app.db
        .with('f', () => flagged)
        .selectFrom('f')
        .select(sql<number>`count(*)`.as('n'))
        .where('is_head', '=', 1)
        .executeTakeFirstOrThrow();
      total = Number(row.n);
    }
  }
  return { rows, counts, total };
}

// ---- query cache (reference §7): which rows make up a page and the total, per filter, valid
// until the log changes (any insert, stick/unstick, rebuild). Rows are always read fresh.

const CACHE_SIZE = 500;
const pageCaches = new WeakMap<AppServices, Map<string, { version: string; ids: number[]; counts: [number, number][]; total: number | null }>>();

function jsonMaps(_key: string, value: unknown): unknown {
  return value instanceof Map ? [...value] : value;
}

/** Changes whenever the log changes, in this process or another one sharing the database. */
async function logVersion(app: AppServices): Promise<string> {
  const rows = await app.db.selectFrom('history_counters').select(['name', 'value']).where('name', 'in', [COUNTER_TOTAL, COUNTER_CHANGES]).execute();
  return rows.map((r) => `${r.name}=${r.value}`).sort().join(',');
}

async function cachedPage(app: AppServices, key: string, compute: () => Promise<PageResult>): Promise<PageResult> {
  let cache = pageCaches.get(app);
  if (!cache) pageCaches.set(app, (cache = new Map()));
  const version = await logVersion(app);
  const hit = cache.get(key);
  if (hit && hit.version === version) {
    cache.delete(key);
    cache.set(key, hit); // most recently used last
    return { rows: await loadRows(app, hit.ids), counts: new Map(hit.counts), total: hit.total };
  }
  const result = await compute();
  cache.set(key, { version, ids: result.rows.map((r) => r.id), counts: [...result.counts], total: result.total });
  while (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return result;
}

export async function countEvents(app: AppServices, cond: Expression<SqlBool>): Promise<number> {
  const row = await app.db.selectFrom('history_events').select(sql<number>`count(*)`.as('n')).where(cond).executeTakeFirstOrThrow();
  return Number(row.n);
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

  const scope = loggerScope(viewer.user);
  const filter = eventFilterFromParams(params, { scope, zone: zone(app), lang: viewer.lang, dialect: app.dialect });
  const page = positiveInt(params.page, 1);
  const perPage = positiveInt(params.per_page, 10);
  const countTotal = params.skip_count_query !== true;
  const grouped = params.ungrouped !== true && !filter.search && !filter.metadataWords;
  const cond = filterCondition(filter);
  // Unfiltered (max_id_first_page aside): served from the occasions maintained on write.
  const { maxId, ...rest } = filter;
  const pageRequest = { grouped, page, perPage, countTotal, unfiltered: isUnfiltered(rest as EventFilter), maxId };
  const result: PageResult = cond
    ? await cachedPage(app, JSON.stringify([filter, pageRequest], jsonMaps), () => selectEventPage(app, cond, pageRequest))
    : { rows: [], counts: new Map(), total: countTotal ? 0 : null };

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
  const scope = filterCondition({ scope: loggerScope(viewer.user) });
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
  const filter = eventFilterFromParams(params, { scope: loggerScope(viewer.user), zone: zone(app), lang: viewer.lang, ignoreExcludes: true, dialect: app.dialect });
  if (params.skip_count_query === true) return { new_events_count: null };
  const cond = filterCondition(filter);
  return { new_events_count: cond ? await countEvents(app, cond) : 0 };
}

function invalidEventId(lang: Lang): RestError {
  return new RestError('rest_event_invalid_id', lang === 'de' ? 'Ungültige Ereignis-ID.' : 'Invalid event ID.', 404);
}

/** GET /events/<id>: the event if it exists (404) and the viewer may read its logger (401/403). */
export async function getEvent(app: AppServices, id: number, viewer: Viewer): Promise<EventItem> {
  const row = await app.db.selectFrom('history_events').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw invalidEventId(viewer.lang);
  if (!canReadLogger(viewer.user, row.logger)) {
    throw new RestError(
      'rest_forbidden_context',
      viewer.lang === 'de' ? 'Du darfst dieses Ereignis nicht ansehen.' : 'Sorry, you are not allowed to view this event.',
      viewer.user ? 403 : 401,
    );
  }
  const [item] = await renderEvents(app, [row], { lang: viewer.lang, viewer: viewer.user });
  return item;
}

/** POST /events/<id>/stick: idempotent. Recorded in the log when `origin` is given. */
export async function stickEvent(app: AppServices, id: number, viewer: Viewer, origin?: ActivityOrigin): Promise<EventItem> {
  await app.db.transaction().execute(async (tx) => {
    const row = await tx.selectFrom('history_events').select('id').where('id', '=', id).executeTakeFirst();
    if (!row) throw invalidEventId(viewer.lang);
    await tx.deleteFrom('history_contexts').where('event_id', '=', id).where('key', '=', '_sticky').execute();
    const last = await tx
      .selectFrom('history_contexts')
      .select(sql<number | null>`max(${sql.ref('seq')})`.as('seq'))
      .where('event_id', '=', id)
      .executeTakeFirst();
    const seq = last?.seq === null || last?.seq === undefined ? 0 : Number(last.seq) + 1;
    await tx.insertInto('history_contexts').values({ event_id: id, seq, key: '_sticky', value: '{}' }).execute();
    await tx.updateTable('history_events').set({ sticky: 1 }).where('id', '=', id).execute();
    await addToCounter(tx, COUNTER_CHANGES, 1);
  });
  if (origin) await app.activity.log({ logger: 'SimpleHistoryLogger', messageKey: 'event_stuck', context: { event_id: id } }, origin);
  return renderSingle(app, id, viewer);
}

/** POST /events/<id>/unstick: 409 rest_event_not_sticky when the event is not sticky. */
export async function unstickEvent(app: AppServices, id: number, viewer: Viewer, origin?: ActivityOrigin): Promise<EventItem> {
  await app.db.transaction().execute(async (tx) => {
    const row = await tx.selectFrom('history_events').select('id').where('id', '=', id).executeTakeFirst();
    if (!row) throw invalidEventId(viewer.lang);
    const deleted = await tx.deleteFrom('history_contexts').where('event_id', '=', id).where('key', '=', '_sticky').executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) {
      throw new RestError('rest_event_not_sticky', viewer.lang === 'de' ? 'Das Ereignis ist nicht angeheftet.' : 'The event is not sticky.', 409);
    }
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
