// PostgreSQL: the events whose context values hold every `metadata_search` word, for the log's
// columns to take a page and its total from (columns/total.ts). Gathered once per words and
// state of the log: a user pages through one search, and each page gathering them anew read the
// table again where a page read by date and a cached total read it once (a word's second page:
// 33–53 ms before, 220 ms gathered again). A word in more events than are gathered is
// remembered as such, so that its later pages go straight to the rows read by date.
import type { AppServices } from '../../../site/services.ts';
import { contextValuesIds } from '../index/context-values.ts';
import { remember, sameState, type LogState } from '../read/caches.ts';
import { idBits, type IdBits } from '../model/id-bits.ts';

/** Events holding the words up to which they are gathered (contextValuesIds). */
const GATHERED_METADATA_MATCHES = 50_000;
/** Searches remembered per process: each set at most 125 KB per 1,000,000 events. */
const REMEMBERED = 16;

interface Gathered {
  state: LogState;
  /** null: more events hold the words than are gathered. */
  bits: IdBits | null;
}

const remembered = new WeakMap<AppServices, Map<string, Gathered>>();

/** The events up to `state.maxId` whose values hold every word; null when more than are gathered. */
export async function metadataEvents(
  app: AppServices,
  words: readonly string[],
  state: LogState,
): Promise<IdBits | null> {
  let searches = remembered.get(app);
  if (!searches) remembered.set(app, (searches = new Map()));
  const key = JSON.stringify(words);
  const known = searches.get(key);
  if (known && sameState(known.state, state)) return remember(searches, key, known, REMEMBERED).bits;
  const ids = await contextValuesIds(app.readDb, words, state.maxId, GATHERED_METADATA_MATCHES);
  const gathered: Gathered = { state, bits: ids === null ? null : idBits(ids, state.maxId) };
  return remember(searches, key, gathered, REMEMBERED).bits;
}
