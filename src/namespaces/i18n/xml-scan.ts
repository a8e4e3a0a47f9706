// A linear scan of XML markup for the checks before the parser (xml-check.ts): line and column
// of offsets, comments/CDATA/processing instructions masked out, and the next tag. Each is one
// pass, so a check costs time in proportion to the content.

/** Line and column of offsets in `text`: the line starts are found once, then each lookup is a binary search. */
export function positions(text: string): (index: number) => { line: number; column: number } {
  let starts: number[] | null = null;
  return (index) => {
    if (!starts) {
      starts = [0];
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    }
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= index) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: index - starts[lo]! + 1 };
  };
}

const NON_MARKUP: readonly (readonly [string, string])[] = [
  ['<!--', '-->'],
  ['<![CDATA[', ']]>'],
  ['<?', '?>'],
];

/**
 * Replaces comments, CDATA sections and processing instructions by spaces (offsets and newlines
 * kept); an unterminated one stays as it is (the validator reports it). One pass: a closing
 * delimiter found missing is not searched for again, so `<!--` × n costs n, not n².
 */
export function maskNonMarkup(text: string): string {
  const unclosed = new Set<string>();
  let out = '';
  let copied = 0;
  for (let i = text.indexOf('<'); i !== -1; ) {
    const kind = NON_MARKUP.find(([open]) => text.startsWith(open, i));
    const end = kind && !unclosed.has(kind[1]) ? text.indexOf(kind[1], i + kind[0].length) : -1;
    if (kind && end === -1) unclosed.add(kind[1]);
    if (!kind || end === -1) {
      i = text.indexOf('<', i + 1);
      continue;
    }
    const after = end + kind[1].length;
    out += text.slice(copied, i) + text.slice(i, after).replace(/[^\n]/g, ' ');
    copied = after;
    i = text.indexOf('<', after);
  }
  return out + text.slice(copied);
}

interface TagToken {
  index: number;
  name: string;
  closing: boolean;
  selfClosing: boolean;
  /** After the closing `>`; -1 when the tag never ends. */
  end: number;
  /** Attributes, well-formed or not (each name after a space). */
  attributes: number;
}

const NOT_NAME = /[\s/>!?]/;

/**
 * The next tag of `masked` from `from`: `<name …>` or `</name>`, a `>` inside quotes not ending
 * it; null when there is none. A tag that never ends is returned with `end` -1: the scan stops
 * there, as scanning on from every later `<` would cost n² (the regular expression this replaces
 * did, and n³ on `<a<a<a…`).
 */
export function nextTag(masked: string, from: number): TagToken | null {
  for (let i = masked.indexOf('<', from); i !== -1; i = masked.indexOf('<', i + 1)) {
    const closing = masked[i + 1] === '/';
    const nameStart = i + (closing ? 2 : 1);
    let k = nameStart;
    if (k >= masked.length || NOT_NAME.test(masked[k]!)) continue;
    while (k < masked.length && !NOT_NAME.test(masked[k]!)) k++;
    const name = masked.slice(nameStart, k);
    let attributes = 0;
    let afterSpace = false;
    while (k < masked.length && masked[k] !== '>') {
      const c = masked[k]!;
      const space = c === ' ' || c === '\t' || c === '\n' || c === '\r';
      if (afterSpace && !space && c !== '=' && c !== '/' && c !== '"' && c !== "'") attributes++;
      afterSpace = space;
      const close = c === '"' || c === "'" ? masked.indexOf(c, k + 1) : k;
      k = close === -1 ? masked.length : close + 1;
    }
    const end = k < masked.length ? k + 1 : -1;
    return {
      index: i,
      name: name.slice(0, 100),
      closing,
      selfClosing: end !== -1 && masked[k - 1] === '/',
      end,
      attributes,
    };
  }
  return null;
}
