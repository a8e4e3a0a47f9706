// The context index's terms (index/build.ts): a 53-bit hash per context pair, trigram terms of context
// values and of search texts, and a block's rows.

/** Consecutive event ids indexed together (a block). */
export const BLOCK_EVENTS = 4096;

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

/** ASCII letters in lower case (metadata_search folds ASCII case only, see read/conditions.ts). */
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
export function termsOf(context: string): { pairs: number[]; trigrams: Set<number> } {
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
