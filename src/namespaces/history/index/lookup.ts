// Looking filters up in the context index (index/build.ts): the candidate events of context_filters
// pairs, and the blocks that may hold metadata_search words.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { DialectName } from '../../../db/index.ts';
import { readCounter } from '../model/counters.ts';
import { COUNTER_INDEXED_BLOCKS } from './build.ts';
import { addTrigramTerms, BLOCK_EVENTS, contextTerm } from './terms.ts';

/** Events that may have a context pair, as far as the index knows them. */
export interface ContextCandidates {
  /** Every event with an id at most this is a candidate only if listed in `ids`. */
  through: number;
  /** Ascending. */
  ids: number[];
}

/** The indexed blocks and the last id they cover, unless none is or more than `limit` events lie above them. */
async function usableIndex(
  db: Kysely<Database>,
  newestId: number,
  limit: number,
): Promise<{ blocks: number; through: number } | undefined> {
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

/** Blocks that may hold events with every word of a metadata_search in some context value. */
export interface BlockCandidates {
  /** Every event with an id at most this may match only if it lies in one of `blocks`. */
  through: number;
  /** Ascending. */
  blocks: number[];
}

/**
 * The blocks holding every trigram of every word (of three characters or more) among the
 * trigrams of their context values, if at most `limit` events lie in them and above the
 * indexed blocks; otherwise undefined.
 */
export async function wordBlocks(
  db: Kysely<Database>,
  dialect: DialectName,
  words: string[],
  newestId: number,
  limit: number,
): Promise<BlockCandidates | undefined> {
  const index = await usableIndex(db, newestId, limit);
  if (!index) return undefined;
  const { through } = index;
  const terms = new Set<number>();
  for (const word of words) addTrigramTerms(word, terms);
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
    for (const term of terms) {
      if (!blocks.length) break;
      blocks = await holding(blocks, term);
    }
    return blocks;
  };
  const all = firstBlocks(index.blocks);
  const fits = (blocks: number) => blocks * BLOCK_EVENTS + Math.max(0, newestId - through) <= limit;
  // A word in most blocks would name too many: told from a sample of them first, at a fraction
  // of the look-ups (each trigram in every block: about 8 ms on PostgreSQL, 1,000,000 events).
  if (all.length > 2 * SAMPLE_BLOCKS) {
    const sample = Array.from({ length: SAMPLE_BLOCKS }, (_, i) =>
      Math.floor(((i + 0.5) * all.length) / SAMPLE_BLOCKS),
    );
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
  return dialect === 'postgres'
    ? sql`block = any(${blocks}::int[])`
    : sql`block in (select value from json_each(${JSON.stringify(blocks)}))`;
}
