// The log's search texts in its columns (columns/store.ts): each event's text as a code of the
// log's distinct texts. A text is a message's template, its logger, its level and its
// placeholders' values, so a log repeats its texts (1,000,000 generated events hold 9,149 of
// them). A search's words are then tested once per distinct text, and its events are found in
// the pass over the columns that counts or pages them (columns/count.ts), where the databases
// tested them event by event: PostgreSQL counting `anna` (47,000 events) rechecked 14,000 heap
// pages through its trigram index, 200–520 ms.
import type { DialectName } from '../../../db/index.ts';
import { asciiLower } from '../../../util.ts';

/** How many distinct texts are kept at most, and their characters in all. */
export interface SearchTextLimits {
  texts: number;
  chars: number;
}
/** Codes are 16 bits; up to 8 MB of strings. */
const LIMITS: SearchTextLimits = { texts: 65_535, chars: 4_000_000 };

/**
 * The events whose search text holds a search's words, per code of the columns' search texts: 1
 * where the text holds them.
 */
export interface TextTable {
  byText: Uint8Array;
}

/** What another thread needs to hold the texts. */
export interface SearchTextsParts {
  values: string[] | null;
}

/**
 * The distinct search texts and their codes (a text's code is its position in `values`), or,
 * once the log holds more than are kept, none: `values` is then null and the events' codes say
 * nothing (searches read the log as before).
 */
export class SearchTexts {
  values: string[] | null;
  #codes: Map<string, number> | null;
  #chars = 0;
  /** The values with ASCII letters made small, as far as a search has asked (SQLite's fold). */
  readonly #asciiLowered: string[] = [];
  readonly #limits: SearchTextLimits;

  constructor(parts?: SearchTextsParts, limits = LIMITS) {
    this.#limits = limits;
    this.values = parts ? parts.values : [];
    this.#codes = this.values && new Map(this.values.map((text, code) => [text, code]));
    for (const text of this.values ?? []) this.#chars += text.length;
  }

  /** The text's code (0 once too many are kept: the codes are no longer read). */
  code(text: string): number {
    if (!this.#codes || !this.values) return 0;
    let code = this.#codes.get(text);
    if (code !== undefined) return code;
    if (this.values.length === this.#limits.texts || this.#chars + text.length > this.#limits.chars) {
      this.values = null;
      this.#codes = null;
      return 0;
    }
    code = this.values.length;
    this.values.push(text);
    this.#codes.set(text, code);
    this.#chars += text.length;
    return code;
  }

  parts(): SearchTextsParts {
    return { values: this.values };
  }

  /**
   * The values ASCII-folded, each folded once (folding every text per search was a twelfth of
   * the serving thread's time under the mixed cold workload on SQLite).
   */
  asciiLowered(): readonly string[] {
    const values = this.values ?? [];
    for (let code = this.#asciiLowered.length; code < values.length; code++)
      this.#asciiLowered.push(asciiLower(values[code]!));
    return this.#asciiLowered;
  }
}

/**
 * Per code of the columns' texts, whether the text holds every word, as the SQL condition decides
 * (read/conditions.ts, db/like.ts): SQLite's LIKE and `instr(lower())` fold ASCII letters only;
 * PostgreSQL's LIKE and `strpos` fold none. Null when the columns keep no texts. A template
 * holding the words is not tested here (count.ts takes its events).
 */
export function textsHolding(texts: SearchTexts, words: readonly string[], dialect: DialectName): TextTable | null {
  const values = texts.values;
  if (!values) return null;
  const folded = dialect === 'sqlite' ? texts.asciiLowered() : values;
  const wanted = dialect === 'sqlite' ? words.map(asciiLower) : words;
  const byText = new Uint8Array(values.length);
  for (let code = 0; code < byText.length; code++)
    if (wanted.every((word) => folded[code]!.includes(word))) byText[code] = 1;
  return { byText };
}
