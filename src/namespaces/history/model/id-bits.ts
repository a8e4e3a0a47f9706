// Sets of event ids as bits by id: bit `id & 7` of byte `id >>> 3`. The log's columns test
// their rows against them (columns/count.ts); the context index lists a pair's events so
// (index/lookup.ts). 125 KB hold any set of 1,000,000 ids.

export type IdBits = Uint8Array;

/** An empty set with room for the ids up to `maxId`. */
export const idBitsUpTo = (maxId: number): IdBits => new Uint8Array((maxId >>> 3) + 1);

/** 1 when the set holds `id`, else 0 (for tests combined bitwise, without branches). */
export const idBit = (bits: IdBits, id: number): number => (bits[id >>> 3]! >> (id & 7)) & 1;

export const hasId = (bits: IdBits, id: number): boolean => idBit(bits, id) === 1;

/** Adds `id` to the set. */
export const addId = (bits: IdBits, id: number): void => {
  bits[id >>> 3]! |= 1 << (id & 7);
};

/**
 * Adds `start` plus each number of a comma-separated list (as the databases' string aggregates
 * and the context index's rows hold them) up to `maxId`, read digit by digit: splitting 300,000
 * ids into strings and numbers took longer than the query.
 */
export function markIds(bits: IdBits, list: string, start = 0, maxId = bits.length * 8 - 1): IdBits {
  let n = -1;
  const mark = () => {
    const id = start + n;
    if (n >= 0 && id <= maxId) addId(bits, id);
    n = -1;
  };
  for (let i = 0; i < list.length; i++) {
    const digit = list.charCodeAt(i) - 48;
    if (digit >= 0 && digit <= 9) n = (n < 0 ? 0 : n * 10) + digit;
    else mark();
  }
  mark();
  return bits;
}

/** The ids of a comma-separated list up to `maxId`, into `bits` (a new set by default). */
export const idBits = (list: string, maxId: number, bits: IdBits = idBitsUpTo(maxId)): IdBits =>
  markIds(bits, list, 0, maxId);

/** Bits set per byte value. */
const BITS_SET = Uint8Array.from({ length: 256 }, (_, b) => {
  let n = 0;
  for (let v = b; v; v >>= 1) n += v & 1;
  return n;
});

/** How many ids the set holds. */
export function countIds(bits: IdBits): number {
  let n = 0;
  for (const byte of bits) n += BITS_SET[byte]!;
  return n;
}

/** The ids the set holds, ascending. */
export function idsOf(bits: IdBits): number[] {
  const ids: number[] = [];
  bits.forEach((byte, at) => {
    for (let bit = 0; byte; bit++, byte >>= 1) if (byte & 1) ids.push(at * 8 + bit);
  });
  return ids;
}
