// The search indexes of the log: `search` and `exclude_search` read the databases' own
// substring indexes of the events' search texts (migration 0023), `metadata_search` those of
// their contexts' values (migrations 0024 and 0028).
//
// SQLite: contentless FTS5 tables (index/fts.ts).
// PostgreSQL: pg_trgm GIN indexes on search_text and on the table of the context values
// (index/context-values.ts), which its planner uses for LIKE and ILIKE itself.
//
// SQLite: the serving process indexes new events a moment after they are committed (a read that
// needs an index indexes the few still new itself), and catches up a log written before an index
// existed, newest ids first, a slice at a time whether it is busy or not, saying how far it is;
// until then reads test the rows as before (the index's counters in history_counters).
// PostgreSQL: the serving process fills the values table of a log written before it, then builds
// the indexes a migration left to it, concurrently.
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../../../db/index.ts';
import type { AppServices } from '../../../site/services.ts';
import { readCounter } from '../model/counters.ts';
import { CONTEXT_VALUES_PENDING, fillContextValues } from './context-values.ts';
import {
  catchUpFtsIndex,
  CONTEXT_FTS,
  createFtsIndex,
  FTS_INDEXES,
  indexNewEvents,
  newEvents,
  SEARCH_FTS,
  type FtsIndex,
} from './fts.ts';
import { SEARCH_REST_PENDING } from './pg-search-heads.ts';

/** A PostgreSQL trigram index (pg_trgm, GIN), which the planner uses for LIKE and ILIKE by itself. */
export interface PgTrigramIndex {
  name: string;
  table: 'history_events' | 'history_event_contexts' | 'history_context_values';
  /** The indexed column or expression, as the conditions test it. */
  column: string;
  /** Its counter: while not 0, the serving process builds it (concurrently). */
  pending: string;
  /** An index this one replaces, dropped once it is built. */
  replaces?: string;
}

/** The search texts, for `search` and `exclude_search` (migration 0023). */
const PG_SEARCH: PgTrigramIndex = {
  name: 'history_events_search_trgm',
  table: 'history_events',
  column: 'search_text',
  pending: SEARCH_FTS.pending,
};

/**
 * What follows the search texts' heads (migration 0030, index/pg-search-heads.ts): a template's
 * words are found by their messages, this index finds the values'.
 */
export const PG_SEARCH_REST: PgTrigramIndex = {
  name: 'history_events_search_rest_trgm',
  table: 'history_events',
  column: 'history_search_rest(search_text, message_key)',
  pending: SEARCH_REST_PENDING,
};

/**
 * The contexts' values, for `metadata_search` (migration 0028, index/context-values.ts): built
 * once the serving process has filled the table for a log written before it; it replaces the
 * index of the contexts' JSON text of migration 0024 (`replaces`).
 */
export const PG_CONTEXTS: PgTrigramIndex = {
  name: 'history_context_values_trgm',
  table: 'history_context_values',
  column: 'context_values',
  pending: CONTEXT_FTS.pending,
  replaces: 'history_event_contexts_trgm',
};
const PG_INDEXES = [PG_SEARCH, PG_SEARCH_REST, PG_CONTEXTS];

/**
 * Creates the search index (SQLite: the FTS5 table and its triggers; PostgreSQL: the pg_trgm
 * extension where it may be created, and with `fill` the index), indexing the events already
 * logged when `fill`.
 */
export async function createSearchIndex(db: Kysely<any>, dialect: DialectName, fill: boolean): Promise<void> {
  if (dialect === 'postgres') {
    // In the public schema when it can be, so that dropping another schema (a test's) never
    // drops it; a server without the extension's files, or without the right to create it,
    // keeps searching without the index.
    await sql`do $$ begin
        begin create extension if not exists pg_trgm schema public;
        exception when others then create extension if not exists pg_trgm; end;
      exception when others then raise notice 'pg_trgm not available: %', sqlerrm; end $$`.execute(db);
    if (fill) await createPgIndex(db, PG_SEARCH, false);
    return;
  }
  await createFtsIndex(db, SEARCH_FTS, fill);
}

/** The schema of the pg_trgm extension, when it is installed. */
async function trigramSchema(db: Kysely<any>): Promise<string | undefined> {
  const { rows } = await sql<{ schema: string }>`
    select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(
    db,
  );
  return rows[0]?.schema;
}

/** Creates a PostgreSQL trigram index (`concurrently`: without blocking writers); false without pg_trgm. */
export async function createPgIndex(db: Kysely<any>, index: PgTrigramIndex, concurrently: boolean): Promise<boolean> {
  const schema = await trigramSchema(db);
  if (!schema) return false;
  if (concurrently) {
    // A concurrent build that died leaves an invalid index behind, which `if not exists` would keep.
    const { rows } = await sql<{
      valid: boolean;
    }>`select i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid
      where c.relname = ${index.name} and c.relnamespace = current_schema()::regnamespace`.execute(db);
    if (rows[0] && !rows[0].valid) await sql`drop index concurrently if exists ${sql.id(index.name)}`.execute(db);
  }
  await sql`create index ${concurrently ? sql`concurrently` : sql``} if not exists ${sql.id(index.name)}
    on ${sql.table(index.table)} using gin (${sql.raw(index.column)} ${sql.id(schema)}.gin_trgm_ops)`.execute(db);
  return true;
}

/** Events indexed per slice of a catch-up (about 25 ms each on SQLite). */
const CATCH_UP_EVENTS = 1000;
/** Pause between two slices: other requests go first, and the catch-up still ends within minutes. */
const CATCH_UP_PAUSE_MS = 20;
/** Contexts whose values one slice fills (PostgreSQL; about 55 ms, during which writers wait). */
const FILL_VALUES_EVENTS = 2_000;
/** New event ids indexed per transaction behind the writes. */
const NEW_EVENTS_SLICE = 5000;
/**
 * How often a serving process on SQLite indexes the new events, and looks whether an index must
 * be caught up (after a purge in another process, say): new events wait about this long.
 */
const INDEX_EVERY_MS = 100;
/** Pause after a slice that failed. */
const FAILED_PAUSE_MS = 5000;
/** How often the catch-up says how far it is. */
const PROGRESS_EVERY_MS = 10_000;

/**
 * Keeps the search indexes current in the background: on SQLite indexes the new events and
 * catches up a log indexed by an older version, under load too, logging its progress; on
 * PostgreSQL builds an index a migration left to it. stop() waits for the slice under way.
 */
export function startSearchIndexing(app: AppServices): { stop(): Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  /** Ends the pause under way at once (stop() must not wait for it, nor leave it pending). */
  let wake = () => {};
  let running: Promise<void> = Promise.resolve();
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      wake = resolve;
      timer = setTimeout(resolve, ms);
      timer.unref();
    });
  const run = async () => {
    if (app.dialect === 'postgres') {
      await fillValues();
      for (const index of PG_INDEXES) {
        // The values' index is built on a full table only.
        if (index === PG_CONTEXTS && (await readCounter(app.db, CONTEXT_VALUES_PENDING)) !== 0) continue;
        if (stopped || (await readCounter(app.db, index.pending)) === 0) continue;
        app.log.info(`search index (${index.name}): building it for the events logged before it`);
        await buildPgIndex(app, index, () => stopped);
      }
      return;
    }
    while (!stopped) {
      let more = false;
      try {
        for (const index of FTS_INDEXES) {
          if (stopped) break;
          more = (await indexNew(index)) || more;
          more = (await catchUp(index)) || more;
        }
      } catch (err) {
        // Another process holding the database's write lock too long, say: searches test the
        // rows meanwhile, and the next round tries again.
        app.log.warn({ err }, 'search index: a slice was not indexed');
        await pause(FAILED_PAUSE_MS);
      }
      await pause(more ? CATCH_UP_PAUSE_MS : INDEX_EVERY_MS);
    }
  };
  /** PostgreSQL: fills the contexts' values table of a log written before it, a slice at a time. */
  const fillValues = async () => {
    const of = await readCounter(app.db, CONTEXT_VALUES_PENDING);
    if (of === 0) return;
    const name = 'search index (history_context_values)';
    app.log.info({ events: of }, `${name}: filling it for the events logged before it`);
    let said = Date.now();
    while (!stopped) {
      let below: number;
      try {
        below = await fillContextValues(app.db, FILL_VALUES_EVENTS);
      } catch (err) {
        app.log.warn({ err }, `${name}: a slice was not filled`);
        await pause(FAILED_PAUSE_MS);
        continue;
      }
      if (below === 0 || Date.now() - said >= PROGRESS_EVERY_MS) {
        said = Date.now();
        const percent = Math.floor((100 * (of - below)) / of);
        app.log.info({ filled: of - below, of, percent }, `${name}: ${below === 0 ? 'filled' : 'filling'}`);
      }
      if (below === 0) return;
      await pause(CATCH_UP_PAUSE_MS);
    }
  };
  const said = new Map<string, number>();
  /** Logs the progress of `work` on an index at most every PROGRESS_EVERY_MS, and when it ends. */
  const report = (index: FtsIndex, work: string, fields: Record<string, number>, done: boolean) => {
    const key = `${index.table} ${work}`;
    if (done || Date.now() - (said.get(key) ?? 0) >= PROGRESS_EVERY_MS) {
      said.set(key, Date.now());
      app.log.info(fields, `search index (${index.table}): ${work}`);
    }
  };
  /** Indexes a slice of the new events; true when more are left. */
  const indexNew = async (index: FtsIndex): Promise<boolean> => {
    if ((await newEvents(app.db, index)) === 0) return false;
    const left = await indexNewEvents(app.db, index, NEW_EVENTS_SLICE);
    // Only a backlog is worth a line: a bulk load by another process, say.
    if (left > NEW_EVENTS_SLICE) report(index, 'indexing new events', { left }, false);
    return left > 0;
  };
  const catchUps = new Map<FtsIndex, number>();
  /** Catches up a slice of the events logged before the index; true when more are left. */
  const catchUp = async (index: FtsIndex): Promise<boolean> => {
    const pending = await readCounter(app.db, index.pending);
    if (pending === 0) return false;
    // A purge meanwhile starts the catch-up over, from a higher id.
    if ((catchUps.get(index) ?? 0) < pending) {
      catchUps.set(index, pending);
      app.log.info({ events: pending }, `search index (${index.table}): catching up`);
    }
    const of = catchUps.get(index)!;
    const below = await catchUpFtsIndex(app.db, index, CATCH_UP_EVENTS);
    const fields = { indexed: of - below, of, percent: Math.floor((100 * (of - below)) / of) };
    report(index, 'catching up', fields, below === 0);
    if (below === 0) catchUps.delete(index);
    return below > 0;
  };
  running = run().catch((err: unknown) => {
    app.log.warn({ err }, 'search index: keeping it current failed (searches read the rows until the next start)');
  });
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      wake();
      await running;
    },
  };
}

/** PostgreSQL: builds the index without blocking writers, logging PostgreSQL's own progress report. */
async function buildPgIndex(app: AppServices, index: PgTrigramIndex, stopped: () => boolean): Promise<void> {
  const name = `search index (${index.name})`;
  const progress = setInterval(() => {
    sql<{ phase: string; done: number; total: number }>`select phase, blocks_done as done, blocks_total as total
      from pg_stat_progress_create_index where relid = ${index.table}::regclass`
      .execute(app.db)
      .then(
        ({ rows }) => {
          if (rows[0] && !stopped())
            app.log.info(
              { phase: rows[0].phase, blocks: Number(rows[0].done), of: Number(rows[0].total) },
              `${name}: building`,
            );
        },
        () => undefined,
      );
  }, PROGRESS_EVERY_MS);
  progress.unref();
  try {
    if (!(await createPgIndex(app.db, index, true))) {
      app.log.warn(`${name}: pg_trgm is not installed; searches read the rows`);
      return;
    }
    await app.db.updateTable('history_counters').set({ value: 0 }).where('name', '=', index.pending).execute();
    if (index.replaces) await sql`drop index concurrently if exists ${sql.id(index.replaces)}`.execute(app.db);
    app.log.info(`${name}: built`);
  } finally {
    clearInterval(progress);
  }
}
