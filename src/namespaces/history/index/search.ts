// The search index of the events' search texts (migration 0023), which serves `search` and
// `exclude_search`: the databases' own substring indexes, kept current by every write.
//
// SQLite: `history_search`, a contentless FTS5 table with the trigram tokenizer (case-sensitive:
// the search texts and the words are lower-cased alike, so a phrase of a word's trigrams
// matches exactly where `search_text LIKE %word%` does), keyed by the event id and kept by
// triggers on history_events. A trigger reaches every writer (appends, group commits, batches,
// custom entries, the bulk sinks, the WordPress import) without each having to remember it.
// PostgreSQL: a pg_trgm GIN index on search_text, which its planner uses for the LIKE itself.
//
// A log written before the index existed is caught up by the serving process, newest ids
// first, a slice at a time whether it is busy or not, saying how far it is; until then reads
// test the rows as before (history_counters SEARCH_INDEX_PENDING: ids below it are not indexed).
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { DialectName } from '../../../db/index.ts';
import type { AppServices } from '../../../site/services.ts';
import { readCounter } from '../model/counters.ts';

/** The counter (history_counters) below which event ids are not yet in the search index; 0 once all are. */
export const SEARCH_INDEX_PENDING = 'search_index_pending_below';
/** PostgreSQL's index of the search texts. */
const PG_INDEX = 'history_events_search_trgm';

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
    if (fill) await createPgIndex(db, false);
    return;
  }
  // The date too, unindexed but stored (contentless_unindexed), so that a search's page is
  // found in the index without reading an event row for each match.
  await sql`create virtual table history_search using fts5(search_text, date unindexed, content='', contentless_delete=1, contentless_unindexed=1, tokenize='trigram case_sensitive 1')`.execute(
    db,
  );
  await sql`create trigger history_search_insert after insert on history_events begin
    insert into history_search (rowid, search_text, date) values (new.id, new.search_text, new.date); end`.execute(db);
  await sql`create trigger history_search_delete after delete on history_events begin
    delete from history_search where rowid = old.id; end`.execute(db);
  if (fill)
    await sql`insert into history_search (rowid, search_text, date) select id, search_text, date from history_events`.execute(
      db,
    );
}

/** The schema of the pg_trgm extension, when it is installed. */
async function trigramSchema(db: Kysely<any>): Promise<string | undefined> {
  const { rows } = await sql<{ schema: string }>`
    select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(
    db,
  );
  return rows[0]?.schema;
}

/** Creates PostgreSQL's trigram index (`concurrently`: without blocking writers); false without pg_trgm. */
async function createPgIndex(db: Kysely<any>, concurrently: boolean): Promise<boolean> {
  const schema = await trigramSchema(db);
  if (!schema) return false;
  if (concurrently) {
    // A concurrent build that died leaves an invalid index behind, which `if not exists` would keep.
    const { rows } = await sql<{
      valid: boolean;
    }>`select i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid
      where c.relname = ${PG_INDEX} and c.relnamespace = current_schema()::regnamespace`.execute(db);
    if (rows[0] && !rows[0].valid) await sql`drop index concurrently if exists ${sql.id(PG_INDEX)}`.execute(db);
  }
  await sql`create index ${concurrently ? sql`concurrently` : sql``} if not exists ${sql.id(PG_INDEX)}
    on history_events using gin (search_text ${sql.id(schema)}.gin_trgm_ops)`.execute(db);
  return true;
}

/** Whether every event is in the search index (SQLite reads it only then). */
export async function searchIndexComplete(db: Kysely<Database>): Promise<boolean> {
  return (await readCounter(db, SEARCH_INDEX_PENDING)) === 0;
}

/**
 * SQLite: runs a bulk removal of events (`remove`, in the transaction `tx`) without the delete
 * trigger, which costs about a millisecond per event (FTS5 deletes row by row), and starts the
 * index over instead: emptied at once, and the events left are caught up by the serving process
 * (searches read the rows meanwhile).
 */
export async function removingEvents<T>(tx: Kysely<Database>, remove: () => Promise<T>): Promise<T> {
  await sql`drop trigger history_search_delete`.execute(tx);
  const result = await remove();
  await sql`create trigger history_search_delete after delete on history_events begin
    delete from history_search where rowid = old.id; end`.execute(tx);
  await sql`insert into history_search (history_search) values ('delete-all')`.execute(tx);
  const { rows } = await sql<{ n: number | null }>`select max(id) as n from history_events`.execute(tx);
  const newest = Number(rows[0]?.n ?? 0);
  await tx
    .updateTable('history_counters')
    .set({ value: newest ? newest + 1 : 0 })
    .where('name', '=', SEARCH_INDEX_PENDING)
    .execute();
  return result;
}

/** Events indexed per slice of a catch-up (about 25 ms each on SQLite). */
const CATCH_UP_EVENTS = 1000;
/** Pause between two slices: other requests go first, and the catch-up still ends within minutes. */
const CATCH_UP_PAUSE_MS = 20;
/** How often a serving process on SQLite looks whether the index must be caught up (after a purge). */
const LOOK_AGAIN_MS = 10_000;
/** How often the catch-up says how far it is. */
const PROGRESS_EVERY_MS = 10_000;

/**
 * SQLite: indexes the `events` newest of the ids still pending, in one transaction; returns the
 * ids still pending below them (0: done).
 */
export async function catchUpSearchIndex(db: Kysely<Database>, events = CATCH_UP_EVENTS): Promise<number> {
  return db.transaction().execute(async (tx) => {
    const below = await readCounter(tx, SEARCH_INDEX_PENDING);
    if (below === 0) return 0;
    const from = Math.max(0, below - events);
    await sql`insert into history_search (rowid, search_text, date) select id, search_text, date from history_events where id >= ${from} and id < ${below}`.execute(
      tx,
    );
    await tx.updateTable('history_counters').set({ value: from }).where('name', '=', SEARCH_INDEX_PENDING).execute();
    return from;
  });
}

/**
 * Brings the search index of a log indexed by an older version up to date in the background,
 * under load too, logging its progress; stop() waits for the slice under way. Nothing to do on
 * a log indexed from the start.
 */
export function startSearchIndexCatchUp(app: AppServices): { stop(): Promise<void> } {
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
      if ((await readCounter(app.db, SEARCH_INDEX_PENDING)) === 0) return;
      app.log.info('search index: building it for the events logged before it');
      await buildPgIndex(app, () => stopped);
      return;
    }
    // SQLite: also after a purge in another process (removingEvents), looked for now and then.
    while (!stopped) {
      const pending = await readCounter(app.db, SEARCH_INDEX_PENDING);
      if (pending === 0) {
        await pause(LOOK_AGAIN_MS);
        continue;
      }
      app.log.info({ events: pending }, 'search index: catching up');
      let said = Date.now();
      for (let below = pending; below > 0 && !stopped; ) {
        below = await catchUpSearchIndex(app.db);
        if (Date.now() - said >= PROGRESS_EVERY_MS || below === 0) {
          said = Date.now();
          app.log.info(
            { indexed: pending - below, of: pending, percent: Math.floor((100 * (pending - below)) / pending) },
            'search index: catching up',
          );
        }
        await pause(CATCH_UP_PAUSE_MS);
      }
    }
  };
  running = run().catch((err: unknown) => {
    app.log.warn({ err }, 'search index: catching up failed (searches read the rows until the next start)');
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
async function buildPgIndex(app: AppServices, stopped: () => boolean): Promise<void> {
  const progress = setInterval(() => {
    sql<{ phase: string; done: number; total: number }>`select phase, blocks_done as done, blocks_total as total
      from pg_stat_progress_create_index where relid = 'history_events'::regclass`
      .execute(app.db)
      .then(
        ({ rows }) => {
          if (rows[0] && !stopped())
            app.log.info(
              { phase: rows[0].phase, blocks: Number(rows[0].done), of: Number(rows[0].total) },
              'search index: building',
            );
        },
        () => undefined,
      );
  }, PROGRESS_EVERY_MS);
  progress.unref();
  try {
    if (!(await createPgIndex(app.db, true))) {
      app.log.warn('search index: pg_trgm is not installed; searches read the rows');
      return;
    }
    await app.db.updateTable('history_counters').set({ value: 0 }).where('name', '=', SEARCH_INDEX_PENDING).execute();
    app.log.info('search index: built');
  } finally {
    clearInterval(progress);
  }
}

/**
 * Characters of a word the index looks for. A phrase of 60,000 characters took FTS5 37 s on a
 * log of a few events; a longer word is looked for by its start and tested whole on the rows.
 */
export const FTS_WORD_MAX = 64;

/** Whether the index's phrase of `word` matches exactly where LIKE does (not too short, not cut). */
export function ftsFindsExactly(word: string): boolean {
  const length = [...word].length;
  return length >= 3 && length <= FTS_WORD_MAX;
}

/**
 * The FTS5 query of the words of three characters or more (a phrase each: their trigrams in a
 * row, of the first FTS_WORD_MAX characters); null: none.
 */
export function ftsQuery(words: readonly string[]): string | null {
  const long = words.map((w) => [...w]).filter((chars) => chars.length >= 3);
  return long.length
    ? long.map((chars) => `"${chars.slice(0, FTS_WORD_MAX).join('').replaceAll('"', '""')}"`).join(' ')
    : null;
}

/** SQLite: the events whose search texts hold every word of three characters or more (ftsQuery). */
export async function countFtsMatches(db: Kysely<Database>, query: string): Promise<number> {
  const { rows } = await sql<{
    n: number;
  }>`select count(*) as n from history_search where history_search match ${query}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}
