// The inverted index of event contexts that serves context_filters (migration 0013).
//
// Events are indexed in blocks of BLOCK_EVENTS consecutive ids, each block once all its ids have
// been written, by a background task that runs while the server is idle (and now and then when
// it never is). Writing an event costs nothing more: the eight B-tree inserts per event that an
// index maintained on write would cost are what migration 0011 took off every write. A block
// becomes one row per distinct (key, value) pair of its contexts: the pair's hash and the
// events' offsets within the block. Rows are keyed by block first, so a block's rows append to
// the end of the B-tree (a few pages per block instead of one page per pair).
//
// metadata_search asks for a substring of any value: each block also has one row, without
// offsets, per trigram of its values (ASCII case folded, as the search is), so that a word's
// trigrams name the blocks that may hold it. `search` asks for a substring of the events'
// search texts (lower-cased template, logger, level and placeholder values): one row per
// trigram of them too, as stored. Trigram terms are negative, pair terms not.
//
// The index is a filter, not an answer: a hash may be shared by several pairs, and the exact
// condition on the stored context still decides. What it guarantees: every event of an indexed
// block is listed under every pair of its current context (stick adds `_sticky` to indexed
// events; stale entries, of an unstuck or deleted event, only cost a wasted look-up), and a
// block with the SEARCH_INDEXED row holds every trigram of its events' search texts (which
// never change once written). Ids above the indexed blocks (the block being filled, and blocks the indexer has not reached)
// are tested row by row.
import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { DialectName } from '../../../db/index.ts';
import type { AppServices } from '../../../site/services.ts';
import { readCounter } from '../model/counters.ts';

export const BLOCK_EVENTS = 4096;
/** The counter (history_counters) holding how many blocks, from block 0 on, are indexed. */
export const COUNTER_INDEXED_BLOCKS = 'context_index_blocks';
/** Rows per INSERT statement (three parameters each). */
const INSERT_ROWS = 2000;

/**
 * The index term of a context pair: a 53-bit hash (cyrb53, public domain) of key, a separator
 * and value, computed in JavaScript so that both databases hold the same terms.
 */
export function contextTerm(key: string, value: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  // The two strings in turn, without concatenating them (a tenth of an indexed block's time).
  for (let i = 0; i <= key.length + value.length; i++) {
    const ch = i < key.length ? key.charCodeAt(i) : i === key.length ? 1 : value.charCodeAt(i - key.length - 1);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** ASCII letters in lower case (metadata_search folds ASCII case only, see filters.ts). */
const foldAscii = (ch: number) => (ch >= 65 && ch <= 90 ? ch + 32 : ch);

/**
 * Adds the trigram terms of a text to `terms`: negative numbers, the three characters' codes
 * packed when they are ASCII (most are), a hash otherwise.
 */
export function addTrigramTerms(text: string, terms: Set<number>): void {
  for (let i = 0; i + 3 <= text.length; i++) {
    const a = foldAscii(text.charCodeAt(i));
    const b = foldAscii(text.charCodeAt(i + 1));
    const c = foldAscii(text.charCodeAt(i + 2));
    terms.add(a < 128 && b < 128 && c < 128 ? -1 - ((a << 14) | (b << 7) | c) : -1 - contextTerm('\u0002', String.fromCharCode(a, b, c)));
  }
}

/** The offset of search-text trigram terms (below), above every packed context trigram. */
const SEARCH_TRIGRAMS = 2 ** 52;

/**
 * The term every block indexed with its search texts' trigrams holds. A block indexed by an
 * older version (a process not yet restarted after an upgrade) lacks it, and may hold any word.
 * A pair whose hash is 0 would pass for it: a chance of one in 2^53.
 */
export const SEARCH_INDEXED = 0;

/**
 * Adds the trigram terms of a stored search text to `terms`: its UTF-16 code units as they are
 * (the text and a search's words are lower-cased alike), three 16-bit units packed above
 * SEARCH_TRIGRAMS; negative. A hashed context trigram may share a term: one more block read.
 */
export function addSearchTrigramTerms(text: string, terms: Set<number>): void {
  for (let i = 0; i + 3 <= text.length; i++) {
    terms.add(-1 - (SEARCH_TRIGRAMS + text.charCodeAt(i) * 2 ** 32 + text.charCodeAt(i + 1) * 2 ** 16 + text.charCodeAt(i + 2)));
  }
}

/** The terms of a stored context (JSON text): one per key with a value, and its values' trigrams. */
function termsOf(context: string): { pairs: number[]; trigrams: Set<number> } {
  const object = JSON.parse(context) as Record<string, string | null>;
  const pairs: number[] = [];
  const trigrams = new Set<number>();
  for (const key in object) {
    const value = object[key];
    if (typeof value !== 'string') continue;
    pairs.push(contextTerm(key, value));
    addTrigramTerms(value, trigrams);
  }
  return { pairs, trigrams };
}

/** An event as the index reads it: its stored context (null: none) and search text. */
export interface IndexedEvent {
  event_id: number;
  context: string | null;
  search_text: string;
}

/**
 * One block's rows, terms ascending: per pair term the offsets of its events, ascending; per
 * trigram term none ('').
 */
export function blockRows(block: number, events: IndexedEvent[]): { term: number; ids: string }[] {
  const byTerm = new Map<number, number[]>();
  const trigrams = new Set<number>();
  // A search word holds no line break: the trigrams of each line of the search texts, once
  // per distinct line (templates, loggers and levels repeat).
  const lines = new Set<string>();
  const start = block * BLOCK_EVENTS;
  for (const { event_id, context, search_text } of [...events].sort((a, b) => a.event_id - b.event_id)) {
    for (const line of search_text.split('\n')) lines.add(line);
    if (context === null) continue;
    const offset = event_id - start;
    const terms = termsOf(context);
    for (const term of terms.pairs) {
      const offsets = byTerm.get(term);
      if (!offsets) byTerm.set(term, [offset]);
      else if (offsets[offsets.length - 1] !== offset) offsets.push(offset);
    }
    for (const term of terms.trigrams) trigrams.add(term);
  }
  for (const line of lines) addSearchTrigramTerms(line, trigrams);
  trigrams.add(SEARCH_INDEXED);
  for (const term of trigrams) byTerm.set(term, []);
  return [...byTerm.keys()].sort((a, b) => a - b).map((term) => ({ term, ids: byTerm.get(term)!.join(',') }));
}

/**
 * The number of indexed blocks, read under a lock on PostgreSQL: `update` (the indexer, which
 * skips the block when another process holds it) or `share` (a context change, which must not
 * miss a block being indexed). SQLite runs one transaction at a time anyway.
 */
async function indexedBlocks(tx: Transaction<Database>, dialect: DialectName, lock: 'update' | 'share'): Promise<number | undefined> {
  const row = await tx
    .selectFrom('history_counters')
    .select('value')
    .where('name', '=', COUNTER_INDEXED_BLOCKS)
    .$if(dialect === 'postgres' && lock === 'update', (q) => q.forUpdate().skipLocked())
    .$if(dialect === 'postgres' && lock === 'share', (q) => q.forShare())
    .executeTakeFirst();
  return row ? Number(row.value) : undefined;
}

/** Blocks all of whose ids have been written (the log's ids only grow). */
async function completeBlocks(db: Kysely<Database> | Transaction<Database>): Promise<number> {
  const newest = await db.selectFrom('history_event_contexts').select((eb) => eb.fn.max('event_id').as('id')).executeTakeFirst();
  return Math.floor((Number(newest?.id ?? 0) + 1) / BLOCK_EVENTS);
}

/** How far the index has come: blocks indexed, and blocks complete (indexable). */
export async function contextIndexProgress(db: Kysely<Database>): Promise<{ indexed: number; complete: number }> {
  return { indexed: await readCounter(db, COUNTER_INDEXED_BLOCKS), complete: await completeBlocks(db) };
}

/**
 * Indexes up to `maxBlocks` blocks after the indexed ones, those whose ids have all been
 * written (the log's ids only grow), in one transaction. Returns how many; 0 too when another
 * process is indexing.
 */
export async function indexBlocks(db: Kysely<Database>, dialect: DialectName, maxBlocks: number): Promise<number> {
  return db.transaction().execute(async (tx) => {
    const first = await indexedBlocks(tx, dialect, 'update');
    if (first === undefined) return 0;
    const end = Math.min(await completeBlocks(tx), first + maxBlocks);
    if (end <= first) return 0;
    // Rows of these blocks can only be left from a counter set back: replaced.
    await tx.deleteFrom('history_context_terms').where('block', '>=', first).where('block', '<', end).execute();
    // The block's range on both tables: PostgreSQL then merges two index range scans (5 ms),
    // where it otherwise looked each context up from parallel workers (70 ms).
    const read = (block: number): Promise<IndexedEvent[]> => {
      const [from, below] = [block * BLOCK_EVENTS, (block + 1) * BLOCK_EVENTS];
      return tx.selectFrom('history_events as e')
        .leftJoin('history_event_contexts as x', (join) => join.onRef('x.event_id', '=', 'e.id').on('x.event_id', '>=', from).on('x.event_id', '<', below))
        .select(['e.id as event_id', 'x.context', 'e.search_text'])
        .where('e.id', '>=', from)
        .where('e.id', '<', below)
        .execute();
    };
    // The next block is read, and the previous one written, while this one is worked out.
    let reading: ReturnType<typeof read> | undefined = read(first);
    let writing: Promise<void> = Promise.resolve();
    try {
      for (let block = first; block < end; block++) {
        const contexts = await reading!;
        reading = block + 1 < end ? read(block + 1) : undefined;
        const rows = blockRows(block, contexts);
        await writing;
        writing = insertRows(tx, dialect, block, rows);
      }
      await writing;
    } finally {
      // After a failure the other statement may still be under way: settled before the rollback.
      await Promise.allSettled([reading, writing]);
    }
    await tx.updateTable('history_counters').set({ value: end }).where('name', '=', COUNTER_INDEXED_BLOCKS).execute();
    return end - first;
  });
}

/**
 * Empties the index, to be built anew: blocks indexed by an older version lack the search
 * texts' trigrams for good otherwise. Waits for an indexer of another process (the counter's
 * row lock on PostgreSQL).
 */
export async function clearContextIndex(db: Kysely<Database>, dialect: DialectName): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await tx.selectFrom('history_counters').select('value').where('name', '=', COUNTER_INDEXED_BLOCKS).$if(dialect === 'postgres', (q) => q.forUpdate()).execute();
    if (dialect === 'postgres') await sql`truncate history_context_terms`.execute(tx);
    else await tx.deleteFrom('history_context_terms').execute();
    await tx.updateTable('history_counters').set({ value: 0 }).where('name', '=', COUNTER_INDEXED_BLOCKS).execute();
  });
}

/** Inserts a block's rows; with `keepExisting`, rows already there stay as they are. */
async function insertRows(tx: Transaction<Database>, dialect: DialectName, block: number, rows: { term: number; ids: string }[], keepExisting = false): Promise<void> {
  if (dialect === 'postgres') {
    // Two array parameters instead of three per row: half the time.
    await sql`insert into history_context_terms (block, term, ids)
      select ${block}, unnest(${rows.map((r) => r.term)}::bigint[]), unnest(${rows.map((r) => r.ids)}::text[])
      ${keepExisting ? sql`on conflict (block, term) do nothing` : sql``}`.execute(tx);
    return;
  }
  for (let at = 0; at < rows.length; at += INSERT_ROWS) {
    const insert = tx.insertInto('history_context_terms').values(rows.slice(at, at + INSERT_ROWS).map(({ term, ids }) => ({ block, term, ids })));
    await (keepExisting ? insert.onConflict((oc) => oc.columns(['block', 'term']).doNothing()) : insert).execute();
  }
}

/**
 * Keeps the index of an event whose context changed (stick, unstick) true: an event of an
 * indexed block is listed under each pair of its new context, and its block under each of
 * the new values' trigrams. Call inside the transaction that writes the context.
 */
export async function indexChangedContext(tx: Transaction<Database>, dialect: DialectName, eventId: number, context: string): Promise<void> {
  const block = Math.floor(eventId / BLOCK_EVENTS);
  const indexed = await indexedBlocks(tx, dialect, 'share');
  if (indexed === undefined || block >= indexed) return;
  const offset = eventId - block * BLOCK_EVENTS;
  const terms = termsOf(context);
  if (terms.trigrams.size) await insertRows(tx, dialect, block, [...terms.trigrams].map((term) => ({ term, ids: '' })), true);
  for (const term of new Set(terms.pairs)) {
    const row = await tx.selectFrom('history_context_terms').select('ids').where('block', '=', block).where('term', '=', term).executeTakeFirst();
    if (!row) {
      await tx.insertInto('history_context_terms').values({ block, term, ids: String(offset) }).execute();
      continue;
    }
    const offsets = row.ids.split(',').map(Number);
    if (offsets.includes(offset)) continue;
    const ids = [...offsets, offset].sort((a, b) => a - b).join(',');
    await tx.updateTable('history_context_terms').set({ ids }).where('block', '=', block).where('term', '=', term).execute();
  }
}

/** Events that may have a context pair, as far as the index knows them. */
export interface ContextCandidates {
  /** Every event with an id at most this is a candidate only if listed in `ids`. */
  through: number;
  /** Ascending. */
  ids: number[];
}

/** The indexed blocks and the last id they cover, unless none is or more than `limit` events lie above them. */
async function usableIndex(db: Kysely<Database>, newestId: number, limit: number): Promise<{ blocks: number; through: number } | undefined> {
  const blocks = await readCounter(db, COUNTER_INDEXED_BLOCKS);
  const through = blocks * BLOCK_EVENTS - 1;
  return blocks === 0 || newestId - through > limit ? undefined : { blocks, through };
}

/** A pair listed for more events than this is not read (another pair or the log's order does better). */
const READ_LIMIT = 250_000;

/**
 * The candidates for all the context pairs (the events listed under each of them), if there are
 * at most `limit` and at most `limit` events lie above the indexed blocks (the newest id is
 * `newestId`); otherwise undefined: reading the log by date is as good then.
 */
export async function contextCandidates(
  db: Kysely<Database>,
  dialect: DialectName,
  pairs: [string, string][],
  newestId: number,
  limit: number,
): Promise<ContextCandidates | undefined> {
  const index = await usableIndex(db, newestId, limit);
  if (!index) return undefined;
  const { blocks, through } = index;
  const inBlocks = blocksCondition(dialect, firstBlocks(blocks));
  let candidates: Set<number> | undefined;
  for (const [key, value] of pairs) {
    const { rows } = await sql<{ block: number; ids: string }>`
      select block, ids from history_context_terms where ${inBlocks} and term = ${contextTerm(key, value)}`.execute(db);
    const listed = new Set<number>();
    for (const row of rows) {
      const start = Number(row.block) * BLOCK_EVENTS;
      for (const offset of row.ids.split(',')) {
        const id = start + Number(offset);
        if (!candidates || candidates.has(id)) listed.add(id);
      }
      if (listed.size > READ_LIMIT) break;
    }
    if (listed.size <= READ_LIMIT) candidates = listed;
  }
  if (!candidates || candidates.size > limit) return undefined;
  return { through, ids: [...candidates].sort((a, b) => a - b) };
}

/**
 * Blocks that may hold events with every word of a metadata_search in some context value, or
 * of a search in the search text.
 */
export interface BlockCandidates {
  /** Every event with an id at most this may match only if it lies in one of `blocks`. */
  through: number;
  /** Ascending. */
  blocks: number[];
}

/**
 * The blocks holding every trigram of every word (of three characters or more) among the
 * trigrams of their context values or of their search texts, if at most `limit` events lie
 * in them and above the indexed blocks; otherwise undefined.
 */
export async function wordBlocks(
  db: Kysely<Database>,
  dialect: DialectName,
  words: string[],
  of: 'context values' | 'search texts',
  newestId: number,
  limit: number,
): Promise<BlockCandidates | undefined> {
  const index = await usableIndex(db, newestId, limit);
  if (!index) return undefined;
  const { through } = index;
  const terms = new Set<number>();
  for (const word of words) (of === 'context values' ? addTrigramTerms : addSearchTrigramTerms)(word, terms);
  if (!terms.size) return undefined;
  const holding = async (blocks: number[], term: number) => {
    const { rows } = await sql<{ block: number }>`
      select block from history_context_terms where ${blocksCondition(dialect, blocks)} and term = ${term}`.execute(db);
    return rows.map((r) => Number(r.block)).sort((a, b) => a - b);
  };
  /**
   * Those of `blocks` that may hold the words. One trigram at a time, looked up only in the
   * blocks holding every one before it, so that a rare trigram ends the look-ups (all of a
   * word's trigrams in every block at once: 0.15-0.2 s on PostgreSQL, 1,000,000 events).
   */
  const mayHold = async (blocks: number[]): Promise<number[]> => {
    let unsearchable: number[] = [];
    if (of === 'search texts') {
      const marked = new Set(await holding(blocks, SEARCH_INDEXED));
      unsearchable = blocks.filter((b) => !marked.has(b));
      blocks = blocks.filter((b) => marked.has(b));
    }
    for (const term of terms) {
      if (!blocks.length) break;
      blocks = await holding(blocks, term);
    }
    return unsearchable.length ? [...blocks, ...unsearchable].sort((a, b) => a - b) : blocks;
  };
  const all = firstBlocks(index.blocks);
  const fits = (blocks: number) => blocks * BLOCK_EVENTS + Math.max(0, newestId - through) <= limit;
  // A word in most blocks would name too many: told from a sample of them first, at a fraction
  // of the look-ups (each trigram in every block: about 8 ms on PostgreSQL, 1,000,000 events).
  if (all.length > 2 * SAMPLE_BLOCKS) {
    const sample = Array.from({ length: SAMPLE_BLOCKS }, (_, i) => Math.floor(((i + 0.5) * all.length) / SAMPLE_BLOCKS));
    const share = (await mayHold(sample)).length / SAMPLE_BLOCKS;
    if (!fits(Math.floor((share * all.length) / 2))) return undefined;
  }
  const blocks = await mayHold(all);
  return fits(blocks.length) ? { through, blocks } : undefined;
}

/** Blocks looked up first (wordBlocks): a word held by more than twice the blocks usable is not looked up in all. */
const SAMPLE_BLOCKS = 16;

/** Blocks 0 … count - 1. */
const firstBlocks = (count: number): number[] => Array.from({ length: count }, (_, i) => i);

/** The blocks, one look-up each of the primary key (block, term). */
function blocksCondition(dialect: DialectName, blocks: number[]): RawBuilder<unknown> {
  return dialect === 'postgres' ? sql`block = any(${blocks}::int[])` : sql`block in (select value from json_each(${JSON.stringify(blocks)}))`;
}

/** Indexes the next block if it is complete; a transaction only then (the indexer asks twice a second). */
async function indexPendingBlock(db: Kysely<Database>, dialect: DialectName): Promise<number> {
  const { indexed, complete } = await contextIndexProgress(db);
  return complete > indexed ? indexBlocks(db, dialect, 1) : 0;
}

/** Below this share of busy time (event loop utilization) the server counts as idle. */
const IDLE_UTILIZATION = 0.3;
const IDLE_CHECK_MS = 500;
/**
 * Idle this long before indexing starts: a pause between two bursts of requests (a client's
 * think time, a load generator starting its next round) is not idleness; once started, blocks
 * follow one another while the server stays idle.
 */
const IDLE_BEFORE_MS = 1000;
/** While busy, a block is still indexed this often, so that the index keeps up with a busy site. */
const BUSY_INTERVAL_MS = 5000;

/**
 * Indexes complete blocks in the background of a serving process: one block after another once
 * the event loop has been idle for IDLE_BEFORE_MS, one every BUSY_INTERVAL_MS otherwise.
 * stop() waits for the block being indexed.
 */
export function startContextIndexer(app: AppServices): { stop(): Promise<void> } {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  let mark = performance.eventLoopUtilization();
  let markedAt = Date.now();
  let idleSince: number | undefined;
  let lastIndexed = Date.now();
  const remark = () => {
    mark = performance.eventLoopUtilization();
    markedAt = Date.now();
  };
  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(tick, ms);
    timer.unref();
  };
  const tick = () => {
    if (performance.eventLoopUtilization(mark).utilization < IDLE_UTILIZATION) idleSince ??= markedAt;
    else idleSince = undefined;
    remark();
    const idle = idleSince !== undefined && Date.now() - idleSince >= IDLE_BEFORE_MS;
    if (!idle && Date.now() - lastIndexed < BUSY_INTERVAL_MS) {
      schedule(IDLE_CHECK_MS);
      return;
    }
    running = indexPendingBlock(app.db, app.dialect).then(
      (indexed) => {
        if (indexed) lastIndexed = Date.now();
        // Measured from here: the block's own work does not count as the server being busy.
        remark();
        schedule(indexed && idle ? 10 : IDLE_CHECK_MS);
      },
      (err: unknown) => {
        app.log.warn({ err }, 'context index: block not indexed');
        remark();
        schedule(BUSY_INTERVAL_MS);
      },
    );
  };
  schedule(IDLE_CHECK_MS);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
