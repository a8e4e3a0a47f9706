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
// trigrams name the blocks that may hold it. Trigram terms are negative, pair terms not.
// (`search` has the databases' own index, index/search.ts.)
//
// What it guarantees: every event of an indexed block is listed under every pair of its current
// context and under no other pair (stick adds `_sticky` to indexed events, unstick takes it off;
// a deleted event's entries stay, naming an event that is no longer there). A pair's row carries
// the pair's check, a second hash, so that its events are told from those of another pair of the
// same term; a block where two pairs share the term keeps no check, and its candidates are tested
// on the stored context. Ids above the indexed blocks (the block being filled, and blocks the
// indexer has not reached) are tested row by row.
import { sql, type ExpressionBuilder, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { DialectName } from '../../../db/index.ts';
import { readCounter } from '../model/counters.ts';
import { BLOCK_EVENTS, blockRows, termsOf, type IndexedEvent, type TermRow } from './terms.ts';

/** The counter (history_counters) holding how many blocks, from block 0 on, are indexed. */
export const COUNTER_INDEXED_BLOCKS = 'context_index_blocks';
/** Rows per INSERT statement (four parameters each). */
const INSERT_ROWS = 2000;

/**
 * The number of indexed blocks, read under a lock on PostgreSQL: `update` (the indexer, which
 * skips the block when another process holds it) or `share` (a context change, which must not
 * miss a block being indexed). SQLite runs one transaction at a time anyway.
 */
async function indexedBlocks(
  tx: Transaction<Database>,
  dialect: DialectName,
  lock: 'update' | 'share',
): Promise<number | undefined> {
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
  const newest = await db
    .selectFrom('history_event_contexts')
    .select((eb) => eb.fn.max('event_id').as('id'))
    .executeTakeFirst();
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
    const read = (block: number): Promise<IndexedEvent[]> =>
      tx
        .selectFrom('history_event_contexts')
        .select(['event_id', 'context'])
        .where('event_id', '>=', block * BLOCK_EVENTS)
        .where('event_id', '<', (block + 1) * BLOCK_EVENTS)
        .execute();
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

/** Empties the index, to be built anew. Waits for an indexer of another process (the counter's row lock on PostgreSQL). */
export async function clearContextIndex(db: Kysely<Database>, dialect: DialectName): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await tx
      .selectFrom('history_counters')
      .select('value')
      .where('name', '=', COUNTER_INDEXED_BLOCKS)
      .$if(dialect === 'postgres', (q) => q.forUpdate())
      .execute();
    if (dialect === 'postgres') await sql`truncate history_context_terms`.execute(tx);
    else await tx.deleteFrom('history_context_terms').execute();
    await tx.updateTable('history_counters').set({ value: 0 }).where('name', '=', COUNTER_INDEXED_BLOCKS).execute();
  });
}

/** Inserts a block's rows; with `keepExisting`, rows already there stay as they are. */
async function insertRows(
  tx: Transaction<Database>,
  dialect: DialectName,
  block: number,
  rows: TermRow[],
  keepExisting = false,
): Promise<void> {
  if (dialect === 'postgres') {
    // Array parameters instead of four per row: half the time.
    await sql`insert into history_context_terms (block, term, ids, pair_check)
      select ${block}, unnest(${rows.map((r) => r.term)}::bigint[]), unnest(${rows.map((r) => r.ids)}::text[]),
        unnest(${rows.map((r) => r.check)}::bigint[])
      ${keepExisting ? sql`on conflict (block, term) do nothing` : sql``}`.execute(tx);
    return;
  }
  for (let at = 0; at < rows.length; at += INSERT_ROWS) {
    const insert = tx
      .insertInto('history_context_terms')
      .values(
        rows.slice(at, at + INSERT_ROWS).map(({ term, ids, check }) => ({ block, term, ids, pair_check: check })),
      );
    await (keepExisting ? insert.onConflict((oc) => oc.columns(['block', 'term']).doNothing()) : insert).execute();
  }
}

/**
 * Keeps the index of an event whose context changed (stick, unstick) true: an event of an
 * indexed block is listed under each pair of its new context and under none of the pairs of
 * its `previous` context it no longer has, and its block under each of the new values'
 * trigrams. Call inside the transaction that writes the context.
 */
export async function indexChangedContext(
  tx: Transaction<Database>,
  dialect: DialectName,
  eventId: number,
  context: string,
  previous: string,
): Promise<void> {
  const block = Math.floor(eventId / BLOCK_EVENTS);
  const indexed = await indexedBlocks(tx, dialect, 'share');
  if (indexed === undefined || block >= indexed) return;
  const offset = eventId - block * BLOCK_EVENTS;
  /** The row of `term` in the event's block. */
  const ofTerm = (term: number) => (eb: ExpressionBuilder<Database, 'history_context_terms'>) =>
    eb.and({ block, term });
  const terms = termsOf(context);
  if (terms.trigrams.size)
    await insertRows(
      tx,
      dialect,
      block,
      [...terms.trigrams].map((term) => ({ term, ids: '', check: null })),
      true,
    );
  for (const [i, term] of terms.pairs.entries()) {
    const check = terms.checks[i]!;
    const row = await tx
      .selectFrom('history_context_terms')
      .select(['ids', 'pair_check'])
      .where(ofTerm(term))
      .executeTakeFirst();
    if (!row) {
      await tx
        .insertInto('history_context_terms')
        .values({ block, term, ids: String(offset), pair_check: check })
        .execute();
      continue;
    }
    const offsets = row.ids.split(',').map(Number);
    // Another pair of the block under the same term: the row lists both, and has no check.
    const stored = row.pair_check === null ? null : Number(row.pair_check);
    const pairCheck = stored === check ? check : null;
    if (offsets.includes(offset) && pairCheck === stored) continue;
    const ids = [...new Set([...offsets, offset])].sort((a, b) => a - b).join(',');
    await tx.updateTable('history_context_terms').set({ ids, pair_check: pairCheck }).where(ofTerm(term)).execute();
  }
  // The pairs it no longer has (a row that lists no event left goes).
  const kept = new Set(terms.pairs);
  for (const term of new Set(termsOf(previous).pairs)) {
    if (kept.has(term)) continue;
    const row = await tx.selectFrom('history_context_terms').select('ids').where(ofTerm(term)).executeTakeFirst();
    if (!row) continue;
    const ids = row.ids.split(',').filter((o) => Number(o) !== offset);
    if (ids.length)
      await tx
        .updateTable('history_context_terms')
        .set({ ids: ids.join(',') })
        .where(ofTerm(term))
        .execute();
    else await tx.deleteFrom('history_context_terms').where(ofTerm(term)).execute();
  }
}
