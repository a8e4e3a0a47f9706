// Looking filters up in the context index (index/build.ts): the candidate events of context_filters
// pairs, and the blocks that may hold metadata_search words.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { DialectName } from '../../../db/index.ts';
import { readCounter } from '../model/counters.ts';
import { COUNTER_INDEXED_BLOCKS } from './build.ts';
import { addTrigramTerms, BLOCK_EVENTS, contextTerm, pairCheck } from './terms.ts';
import { countIds, idBitsUpTo, idsOf, markIds, type IdBits } from '../model/id-bits.ts';

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

/** The events the index lists under all of a filter's context pairs. */
export interface PairListing {
  /** Every event with an id at most this has all the pairs only if listed. */
  through: number;
  /** The listed events (ids up to the newest when read). */
  bits: IdBits;
  /** How many are listed. */
  listed: number;
  /**
   * Whether every listed event has all the pairs: each row read carries its pair's check (a pair
   * sharing the term is told apart by it). Otherwise the listed events are candidates.
   */
  exact: boolean;
}

/**
 * The events listed under all the context pairs in the indexed blocks, for a log whose newest id
 * is `newestId`; undefined when no block is indexed, or more than `aboveLimit` events lie above
 * them (reading the log by date is as good then).
 */
export async function pairListing(
  db: Kysely<Database>,
  dialect: DialectName,
  pairs: [string, string][],
  newestId: number,
  aboveLimit: number,
): Promise<PairListing | undefined> {
  const index = await usableIndex(db, newestId, aboveLimit);
  if (!index) return undefined;
  const inBlocks = blocksCondition(dialect, firstBlocks(index.blocks));
  let exact = true;
  let bits: IdBits | undefined;
  for (const [key, value] of pairs) {
    const { rows } = await sql<{ block: number; ids: string; pair_check: number | string | null }>`
      select block, ids, pair_check from history_context_terms
      where ${inBlocks} and term = ${contextTerm(key, value)}`.execute(db);
    const check = pairCheck(key, value);
    const own = idBitsUpTo(newestId);
    for (const row of rows) {
      if (row.pair_check === null) exact = false;
      // Another pair's events, under the same term.
      else if (Number(row.pair_check) !== check) continue;
      markIds(own, row.ids, Number(row.block) * BLOCK_EVENTS);
    }
    if (bits) for (let i = 0; i < bits.length; i++) bits[i]! &= own[i]!;
    else bits = own;
  }
  if (!bits) return undefined;
  return { through: index.through, bits, listed: countIds(bits), exact };
}

/**
 * The candidates of a listing (the events listed under all the pairs), if there are at most
 * `limit` and at most `limit` events lie above the indexed blocks (the newest id is
 * `newestId`); otherwise undefined: reading the log by date is as good then.
 */
export function contextCandidates(
  listing: PairListing,
  newestId: number,
  limit: number,
): ContextCandidates | undefined {
  if (listing.listed > limit || newestId - listing.through > limit) return undefined;
  return { through: listing.through, ids: idsOf(listing.bits) };
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
