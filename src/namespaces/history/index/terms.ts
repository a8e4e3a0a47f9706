// The context index's terms (index/build.ts): a 53-bit hash per context pair, trigram terms of context
// values, and a block's rows.

/** Consecutive event ids indexed together (a block). */
export const BLOCK_EVENTS = 4096;

/**
 * The index term of a context pair: a 53-bit hash (cyrb53, public domain) of key, a separator
 * and value, computed in JavaScript so that both databases hold the same terms.
 */
export const contextTerm = (key: string, value: string): number => cyrb53(key, value, 0);

/**
 * The pair's check, kept beside its term: the same hash with another seed. Two pairs sharing
 * the term are told apart by it, so that the events listed under a term and its check are the
 * pair's, not merely candidates (index/lookup.ts pairListing).
 */
export const pairCheck = (key: string, value: string): number => cyrb53(key, value, 0x9e3779b9);

function cyrb53(key: string, value: string, seed: number): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
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
    terms.add(
      a < 128 && b < 128 && c < 128
        ? -1 - ((a << 14) | (b << 7) | c)
        : -1 - contextTerm('\u0002', String.fromCharCode(a, b, c)),
    );
  }
}

/**
 * The terms of a stored context (JSON text): one per key with a value, with its check at the
 * same place of `checks`, and its values' trigrams.
 */
export function termsOf(context: string): { pairs: number[]; checks: number[]; trigrams: Set<number> } {
  const object = JSON.parse(context) as Record<string, string | null>;
  const pairs: number[] = [];
  const checks: number[] = [];
  const trigrams = new Set<number>();
  for (const key in object) {
    const value = object[key];
    if (typeof value !== 'string') continue;
    pairs.push(contextTerm(key, value));
    checks.push(pairCheck(key, value));
    addTrigramTerms(value, trigrams);
  }
  return { pairs, checks, trigrams };
}

/** An event's stored context as the index reads it. */
export interface IndexedEvent {
  event_id: number;
  context: string;
}

/** A row of the index: a block's events under a term, and the pair's check (null: none, or several pairs share the term). */
export interface TermRow {
  term: number;
  ids: string;
  check: number | null;
}

/**
 * One block's rows, terms ascending: per pair term the offsets of its events, ascending, and
 * the pair's check; per trigram term no offsets ('') and no check.
 */
export function blockRows(block: number, events: IndexedEvent[]): TermRow[] {
  const byTerm = new Map<number, { offsets: number[]; check: number | null }>();
  const trigrams = new Set<number>();
  const start = block * BLOCK_EVENTS;
  for (const { event_id, context } of [...events].sort((a, b) => a.event_id - b.event_id)) {
    const offset = event_id - start;
    const terms = termsOf(context);
    terms.pairs.forEach((term, i) => {
      const check = terms.checks[i]!;
      const listed = byTerm.get(term);
      if (!listed) byTerm.set(term, { offsets: [offset], check });
      else {
        if (listed.offsets[listed.offsets.length - 1] !== offset) listed.offsets.push(offset);
        if (listed.check !== check) listed.check = null;
      }
    });
    for (const term of terms.trigrams) trigrams.add(term);
  }
  for (const term of trigrams) byTerm.set(term, { offsets: [], check: null });
  return [...byTerm.keys()]
    .sort((a, b) => a - b)
    .map((term) => {
      const { offsets, check } = byTerm.get(term)!;
      return { term, ids: offsets.join(','), check };
    });
}
