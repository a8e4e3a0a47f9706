// A list of ids as a request argument or path carries it: "3,5,8", spaces around the pieces
// allowed, no empty piece. One rule for every namespace (sliderx's slide ids, i18n-tm's job ids).

/** The ids of a comma-separated list; null when a piece (or the whole text) is not digits. */
export function parseIdList(text: string): number[] | null {
  const ids: number[] = [];
  for (const piece of text.split(',')) {
    const digits = piece.trim();
    if (!/^\d+$/.test(digits)) return null;
    // Beyond 16 digits no row has the id: it reads as the largest safe integer, and is not found.
    ids.push(digits.length > 16 ? Number.MAX_SAFE_INTEGER : Number(digits));
  }
  return ids;
}
