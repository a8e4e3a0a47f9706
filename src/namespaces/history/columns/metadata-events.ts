// PostgreSQL: the events whose context values hold every `metadata_search` word, for the log's
// columns to take a page and its total from (columns/total.ts). Gathered once per words and
// state of the log: a user pages through one search, and each page gathering them anew read the
// table again where a page read by date and a cached total read it once (a word's second page:
// 33–53 ms before, 220 ms gathered again). A word in more events than are gathered is
// remembered as such, so that its later pages go straight to the rows read by date; one that
// the newest events say is in far more is not gathered at all (`Pro`, 86,000 events: the first
// 50,001 gathered in 150 ms, 1.2 s on a server just started, before the count read them again).
import type { AppServices } from '../../../site/services.ts';
import { contextValuesIds, countContextValues } from '../index/context-values.ts';
import { remember, sameState, type LogState } from '../read/caches.ts';
import { idBits, type IdBits } from '../model/id-bits.ts';

/** Events holding the words up to which they are gathered (contextValuesIds). */
const GATHERED_METADATA_MATCHES = 50_000;
/**
 * The newest events whose values are tested first (a few ms): words they say are held by more
 * than a quarter again as many events as are gathered are not gathered (for a word held by a
 * tenth of a log alike throughout, three standard deviations of its share among 2,000 events
 * are a fifth of it). 150 different requests, two rounds side by side: p90 164–183 → 130–132 ms,
 * p50 and p99 within the noise (10,000 sampled: p50 39–42 → 43–47 ms).
 */
const SAMPLED_EVENTS = 2_000;
const NOT_GATHERED_BEYOND = 1.25;
/** Searches remembered per process: each set at most 125 KB per 1,000,000 events. */
const REMEMBERED = 16;

interface Gathered {
  state: LogState;
  /** null: more events hold the words than are gathered. */
  bits: IdBits | null;
}

const remembered = new WeakMap<AppServices, Map<string, Gathered>>();

/**
 * The events up to `state.maxId` whose values hold every word; null when more than `most` do,
 * or the `sampled` newest events say so.
 */
export async function metadataEvents(
  app: AppServices,
  words: readonly string[],
  state: LogState,
  { most = GATHERED_METADATA_MATCHES, sampled = SAMPLED_EVENTS } = {},
): Promise<IdBits | null> {
  let searches = remembered.get(app);
  if (!searches) remembered.set(app, (searches = new Map()));
  const key = JSON.stringify(words);
  const known = searches.get(key);
  if (known && sameState(known.state, state)) return remember(searches, key, known, REMEMBERED).bits;
  const ids = (await seemsBeyond(app, words, state, most, sampled))
    ? null
    : await contextValuesIds(app.readDb, words, state.maxId, most);
  const gathered: Gathered = { state, bits: ids === null ? null : idBits(ids, state.maxId) };
  return remember(searches, key, gathered, REMEMBERED).bits;
}

/**
 * Whether the `sampled` newest events say more than a quarter again as many events as `most`
 * hold the words; never asked of a log that has no more events than that.
 */
async function seemsBeyond(
  app: AppServices,
  words: readonly string[],
  state: LogState,
  most: number,
  sampled: number,
): Promise<boolean> {
  const beyond = NOT_GATHERED_BEYOND * most;
  if (state.total <= beyond) return false;
  const sample = Math.min(sampled, state.total);
  const inSample = await countContextValues(app.readDb, words, state.maxId, sample);
  return (inSample / sample) * state.total > beyond;
}
