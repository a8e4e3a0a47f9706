// GET /events (a page of the log, the occasions of a group, the events around one) and
// GET /events/has-updates.
import type { AppServices } from '../../../site/services.ts';
import { restError } from '../../../rest/define.ts';
import { JsonList } from '../../../rest/json-list.ts';
import { MSG } from '../messages.ts';
import { eventFilterFromParams, isUnfiltered, type EventFilter } from './query.ts';
import { countRows } from './slices.ts';
import { renderEvents, type EventItem, type Viewer } from './render.ts';
import { newestFirstSlices } from './newest-slices.ts';
import { posAndDate, type Pos } from '../model/runs.ts';
import { loadRows, newestFirstRows, selectEventPage, type CountMode, type PageResult } from './paging.ts';
import { cachedPage, cachedTotal, firstShortcut, jsonMaps, keepTotal, keptTotal, logState } from './caches.ts';
import { columnsPage, columnsShortcut, searchByTexts } from '../columns/total.ts';
import { groupTotalShortcut, inOrderCountFrom, oneDateRange } from './totals.ts';
import {
  candidateCount,
  countTemplateEventsBeside,
  indexNewEventsFor,
  pagePlan,
  planQuery,
  type QueryPlan,
} from './plan.ts';
import { dateWindow, filterCondition } from './conditions.ts';
import { countContextValues } from '../index/context-values.ts';
import type { EventListParams, HasUpdatesParams } from '../args/events.ts';

export interface ListResult {
  items: EventItem[];
  headers: Record<string, string>;
}

function zone(app: AppServices): string {
  return app.options.get('timezone_string');
}

/**
 * GET /events, from its validated and defaulted arguments (args/events.ts). `link.urlFor(query)` builds
 * the absolute URL of the events route with that query (for the Link header); `link.query` is
 * the request's own query string.
 */
export async function listEvents(
  app: AppServices,
  params: EventListParams,
  viewer: Viewer,
  link: { query: Record<string, unknown>; urlFor: (query: Record<string, unknown>) => string } | null = null,
): Promise<ListResult> {
  if (params.surrounding_event_id !== undefined) {
    return surroundingEvents(app, params.surrounding_event_id, params.surrounding_count, viewer);
  }
  // (the route sends them as they are read: occasionEvents)
  if (asksOccasions(params))
    return { items: (await occasionEvents(app, params, viewer).toArray()) as EventItem[], headers: {} };

  const scope = app.loggers.scope(viewer.user);
  const filter = eventFilterFromParams(params, {
    loggers: app.loggers,
    scope,
    zone: zone(app),
    lang: viewer.lang,
    dialect: app.dialect,
  });
  const { page, per_page: perPage } = params;
  const countTotal = !params.skip_count_query;
  const grouped = !params.ungrouped && !filter.search && !filter.metadataWords;
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
      // candidates matter then, not on a cache hit. They change the plan, not the rows.
      await indexNewEventsFor(app.db, filter, state.maxId);
      const plan = await planQuery(app.readDb, filter, state, page * perPage, {
        searchByTexts: searchByTexts(app, filter),
      });
      // exclude_search words no event up to the newest id holds exclude nothing: the filter reads
      // as if without them, cut there (alone, the whole log: its pages and total come from the
      // runs maintained on write); an event logged since may hold them.
      const effective = plan.excludesNothing
        ? { ...filter, excludeSearch: undefined, maxId: Math.min(filter.maxId ?? state.maxId, state.maxId) }
        : filter;
      const effectiveTotal = plan.excludesNothing ? { ...totalFilter, excludeSearch: undefined } : totalFilter;
      const forPage = pagePlan(plan, state.maxId, page * perPage, grouped);
      const cond = filterCondition(effective, forPage)!;
      const totalCond = filterCondition(effectiveTotal, plan)!;
      // The cut aside, both filters have the same dates; read as the page's or the total's plan says.
      const dates = dateWindow(filter, forPage);
      const totalDates = dateWindow(filter, plan);
      // Asked only when the total is counted (not for skip_count_query). The indexes know the
      // total of the filter itself, not of one cut at max_id_first_page.
      const indexed = totalFilter === filter;
      const count = async (mode: CountMode) =>
        (mode === 'rows' && indexed ? await totalFromIndexes(app, plan, filter) : undefined) ??
        cachedTotal(app, state, totalKey, totalCond, mode, {
          dates: totalDates,
          // The log's columns first; while they are read, the runs maintained on write.
          shortcut: firstShortcut(
            mode === 'rows' && indexed && plan.metadataValues?.alone
              ? async () => ({
                  value: await countContextValues(app.readDb, filter.metadataWords!, state.maxId),
                  maxId: state.maxId,
                })
              : undefined,
            columnsShortcut(app, effectiveTotal, plan, state, mode),
            mode === 'groups' && indexed ? groupTotalShortcut(app, effectiveTotal, plan, state.maxId) : undefined,
          ),
          inOrderFrom: inOrderCountFrom(app, effectiveTotal, plan, state.maxId),
        });
      // A filter the log's columns hold (but one range of dates, or none, whose pages come from
      // the runs maintained on write): page and total in one pass over them, which stops at the
      // page when the total is kept (the filter's other pages, or its count by the rows).
      const unfiltered = isUnfiltered({ ...effective, maxId: undefined });
      const dateSlice = grouped ? oneDateRange(effective) : undefined;
      const mode = grouped ? 'groups' : 'rows';
      const knownTotal = keptTotal(app, state, totalKey, mode);
      const served =
        (unfiltered && grouped) || dateSlice
          ? null
          : await columnsPage(app, effective, plan, state, {
              grouped,
              offset: (page - 1) * perPage,
              limit: perPage,
              knownTotal,
            });
      if (served) {
        if (knownTotal === undefined) keepTotal(app, state, totalKey, mode, served.total, served.newest);
        const rows = await loadRows(app, served.ids);
        return {
          rows: grouped ? newestFirstRows(rows) : rows,
          counts: served.counts,
          total: countTotal ? served.total : null,
        };
      }
      return selectEventPage(app, cond, {
        ...pageRequest,
        unfiltered,
        dateSlice,
        count,
        rowsAtMost: candidateCount(forPage, state.maxId),
        dates,
        oneStatement: forPage.metadataSearch?.tested,
      });
    });
  }

  const items = await renderEvents(app, result.rows, { lang: viewer.lang, viewer: viewer.user, counts: result.counts });
  const sticky = grouped && params.include_sticky ? await stickyEvents(app, filter, viewer) : [];

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

/**
 * The rows' total the indexes give, when they give it: a search or metadata_search alone, its
 * index's count of matches (a search whose words message templates hold: and the templates'
 * other events); an ungrouped exclude_search alone, the log's rows less those (the rows' count,
 * through the narrowest index).
 */
async function totalFromIndexes(app: AppServices, plan: QueryPlan, filter: EventFilter): Promise<number | undefined> {
  const search = plan.searchIndex;
  if (search?.alone) return search.matches;
  if (search?.templated) return search.matches + (await countTemplateEventsBeside(app.readDb, filter.search!, search));
  if (plan.metadataSearch?.alone) return plan.metadataSearch.matches;
  const excluded = plan.excludeIndex;
  if (excluded)
    return (
      (await countAllRows(app)) -
      excluded.matches -
      (excluded.templated ? await countTemplateEventsBeside(app.readDb, filter.excludeSearch!, excluded) : 0)
    );
  return undefined;
}

/** The log's rows. */
async function countAllRows(app: AppServices): Promise<number> {
  const row = await app.readDb
    .selectFrom('history_events')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Every sticky event the viewer may read, newest first, marked `sticky_appended`. */
async function stickyEvents(app: AppServices, filter: EventFilter, viewer: Viewer): Promise<EventItem[]> {
  const cond = filterCondition({ scope: filter.scope, onlySticky: true });
  if (!cond) return [];
  const rows = await app.readDb
    .selectFrom('history_events')
    .selectAll()
    .where(cond)
    .orderBy('date', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return renderEvents(app, rows, { lang: viewer.lang, viewer: viewer.user, stickyAppended: true });
}

/** Whether GET /events asks for the occasions of a group (the surrounding mode wins). */
export const asksOccasions = (params: EventListParams) =>
  params.surrounding_event_id === undefined && params.type === 'occasions';

/** Occasions read and rendered per statement: a group can hold a hundred thousand events. */
const OCCASIONS_SLICE = 500;

/**
 * type=occasions (reference §3.3): the hidden members of a group; no other filter applies. As
 * many as asked, which the reference does not bound: read `size` a statement and sent as they
 * are read (newest-slices.ts).
 */
export function occasionEvents(
  app: AppServices,
  params: EventListParams,
  viewer: Viewer,
  size = OCCASIONS_SLICE,
): JsonList {
  const { occasionsCount: count, occasionsCountMaxReturn: max, occasionsID, logRowID = 0 } = params;
  const limit = count === undefined ? 0 : max !== undefined && max < count ? max : count;
  // Unlike the reference, the logger permissions apply here too (conventions: each logger's
  // events only to users holding its capability).
  const scope = filterCondition({ scope: app.loggers.scope(viewer.user) });
  if (occasionsID === undefined || !scope) return new JsonList(async function* () {});
  const read = (below: Pos | undefined, most: number) =>
    app.readDb
      .selectFrom('history_events')
      .selectAll()
      .where(scope)
      .where('id', '<', logRowID)
      .where('occasions_id', '=', occasionsID)
      .$if(below !== undefined, (q) => q.where(posAndDate('<', below!)))
      .orderBy('date', 'desc')
      .orderBy('id', 'desc')
      .limit(most)
      .execute();
  return new JsonList(async function* () {
    for await (const rows of newestFirstSlices(read, size, limit)) {
      const items = await renderEvents(app, rows, { lang: viewer.lang, viewer: viewer.user });
      yield items.map((item) => JSON.stringify(item));
    }
  });
}

/** Surrounding mode: events around one id, by id, ignoring every filter and logger permission. */
async function surroundingEvents(
  app: AppServices,
  centreId: number,
  count: number,
  viewer: Viewer,
): Promise<ListResult> {
  const centre = await app.readDb
    .selectFrom('history_events')
    .selectAll()
    .where('id', '=', centreId)
    .executeTakeFirst();
  if (!centre) {
    throw restError(viewer, 'event_not_found', MSG.eventNotFound, 404);
  }
  const newer = await app.readDb
    .selectFrom('history_events')
    .selectAll()
    .where('id', '>', centreId)
    .orderBy('id', 'asc')
    .limit(count)
    .execute();
  const older = await app.readDb
    .selectFrom('history_events')
    .selectAll()
    .where('id', '<', centreId)
    .orderBy('id', 'desc')
    .limit(count)
    .execute();
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
export async function countNewEvents(
  app: AppServices,
  params: HasUpdatesParams,
  viewer: Viewer,
): Promise<{ new_events_count: number | null }> {
  const filter = eventFilterFromParams(params, {
    loggers: app.loggers,
    scope: app.loggers.scope(viewer.user),
    zone: zone(app),
    lang: viewer.lang,
    ignoreExcludes: true,
    dialect: app.dialect,
  });
  if (params.skip_count_query) return { new_events_count: null };
  // (no ip range here: `id > since_id` finds the few rows newer than a client's cursor)
  const cond = filterCondition(filter);
  return { new_events_count: cond ? await countRows(app, cond) : 0 };
}
