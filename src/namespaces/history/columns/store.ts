// The log's filter columns in memory, in the log's order (date, id): each event's id, date,
// occasions id, level, logger and message key, initiator, user and address, as typed arrays, the strings
// as codes of small dictionaries, and each event's search text as a code of the log's distinct
// texts (columns/texts.ts). A filter of those columns is then one pass over arrays
// (columns/count.ts): its total over a million events takes milliseconds, where reading its
// rows in order took 0.1–0.6 s. About 30 bytes an event (columns/sync.ts keeps them current).

import type { LogState } from '../read/caches.ts';
import { strictUtcSeconds } from '../../../site/zone-time.ts';
import { MAX_COLUMN_ROWS } from './bound.ts';
import type { MessagePairs } from '../index/search-heads.ts';
import { SearchTexts, type SearchTextsParts } from './texts.ts';
import { NO_USER, type ColumnArrays } from './walk.ts';

/** A row as the columns take it. */
export interface ColumnRow {
  id: number;
  date: string;
  occasions_id: string;
  level: string;
  logger: string;
  message_key: string | null;
  initiator: string;
  user_id: number | null;
  remote_addr: string | null;
  search_text: string;
}

/** The columns of history_events a ColumnRow holds. */
export const ROW_COLUMNS = [
  'id',
  'date',
  'occasions_id',
  'level',
  'logger',
  'message_key',
  'initiator',
  'user_id',
  'remote_addr',
  'search_text',
] as const satisfies readonly (keyof ColumnRow)[];

/**
 * The columns as a count at one state reads them: the first `length` rows. Events appended
 * later go after them; a build replaces the columns rather than changing them.
 */
export interface ColumnsView {
  cols: LogColumns;
  length: number;
}

/** Why the columns cannot hold a row: the caller reads the log as before. */
export class ColumnsUnfit extends Error {}

/** Values up to which a dictionary compares a value with each rather than hashing it. */
const FEW_VALUES = 8;

/** Codes of a column's distinct values, at most `size` of them. */
export class Dictionary {
  readonly values: string[];
  readonly #codes: Map<string, number>;
  readonly size: number;
  /** `values`: those of an earlier dictionary (one read in another thread), their codes their positions. */
  constructor(size: number, values: string[] = []) {
    this.size = size;
    this.values = values;
    this.#codes = new Map(values.map((v, code) => [v, code]));
  }

  code(value: string): number {
    // A few values (levels, initiators) are found sooner so (building 1,000,000 rows' columns:
    // 0.86 s of lookups in all, with the messages' codes below, against 1.05 s; a CPU profile).
    if (this.values.length <= FEW_VALUES) {
      const at = this.values.indexOf(value);
      if (at >= 0) return at;
    }
    let code = this.#codes.get(value);
    if (code === undefined) {
      if (this.values.length >= this.size) throw new ColumnsUnfit(`more than ${this.size} distinct values`);
      code = this.values.length;
      this.values.push(value);
      this.#codes.set(value, code);
    }
    return code;
  }
}

const NO_ADDR = -1;
/**
 * An IPv4 address as stored (model/ip.ts anonymizeIp: the last octet `x`), `a.b.c.x` in
 * canonical decimals (no leading zero, at most 255), as the number a·2¹⁶ + b·2⁸ + c; null for
 * anything else. Read character by character: a regular expression with its groups, checked
 * by their numbers' strings, took 0.33 s of reading a log of 1,000,000 events into the columns.
 */
export function ipv4Code(addr: string): number | null {
  const end = addr.length - 2;
  if (end < 5 || addr.charCodeAt(end) !== 46 || addr.charCodeAt(end + 1) !== 120) return null;
  let code = 0;
  let octets = 0;
  let octet = 0;
  let digits = 0;
  for (let i = 0; i <= end; i++) {
    const c = i === end ? 46 : addr.charCodeAt(i);
    if (c === 46) {
      if (digits === 0) return null;
      code = (code << 8) | octet;
      octets++;
      octet = 0;
      digits = 0;
      continue;
    }
    const digit = c - 48;
    // A digit after a leading 0, a fourth digit, or beyond 255: not canonical.
    if (digit < 0 || digit > 9 || (digits === 1 && octet === 0) || digits === 3) return null;
    octet = octet * 10 + digit;
    digits++;
    if (octet > 255) return null;
  }
  return octets === 3 ? code : null;
}
const MAX_INT32 = 2 ** 31 - 1;

/**
 * What a thread sends another of its columns (columns/build-thread.ts): the typed arrays
 * (shared, not copied), the dictionaries' values and the messages.
 */
export interface ColumnsParts {
  length: number;
  maxRows: number;
  arrays: ColumnArrays;
  dictionaries: Record<(typeof DICTIONARIES)[number], string[]>;
  keyParts: LogColumns['keyParts'];
  searchTexts: SearchTextsParts;
}

const ARRAYS = ['ids', 'dates', 'occasions', 'levels', 'keys', 'initiators', 'users', 'addrs', 'texts'] as const;
const DICTIONARIES = ['occasionCodes', 'levelCodes', 'initiatorCodes', 'addrCodes'] as const;

/** Distinct (logger, message key) pairs the columns hold at most. */
const MAX_KEYS = 65_535;

type SharedArray = Int32Array | Float64Array | Uint8Array | Uint16Array;

/** A typed array of `n` elements in shared memory (a row once written below `length` never changes: appends go after it, a build makes new columns). */
function shared<T extends SharedArray>(
  Kind: { new (buffer: SharedArrayBuffer): T; BYTES_PER_ELEMENT: number },
  n: number,
): T {
  return new Kind(new SharedArrayBuffer(n * Kind.BYTES_PER_ELEMENT));
}

export class LogColumns {
  length = 0;
  ids: Int32Array = shared(Int32Array, 1024);
  dates: Float64Array = shared(Float64Array, 1024);
  occasions: Int32Array = shared(Int32Array, 1024);
  levels: Uint8Array = shared(Uint8Array, 1024);
  /** (logger, message key) pairs. */
  keys: Uint16Array = shared(Uint16Array, 1024);
  initiators: Uint8Array = shared(Uint8Array, 1024);
  /** User ids; NO_USER for none. */
  users: Int32Array = shared(Int32Array, 1024);
  /** Addresses: IPv4 as ipv4Code, NO_ADDR for none, others as −2 − their code in addrCodes. */
  addrs: Int32Array = shared(Int32Array, 1024);
  /** Search texts, as codes of `searchTexts`. */
  texts: Uint16Array = shared(Uint16Array, 1024);
  readonly occasionCodes: Dictionary;
  readonly levelCodes: Dictionary;
  /** Codes of (logger, message key) pairs, by logger and key (no text of the two made per row). */
  readonly #keyCodes = new Map<string, Map<string | null, number>>();
  /** Per key code: its logger and message key. */
  readonly keyParts: { logger: string; key: string | null }[];
  readonly initiatorCodes: Dictionary;
  /** Addresses other than stored IPv4 ones (IPv6 prefixes, imported values). */
  readonly addrCodes: Dictionary;
  readonly searchTexts: SearchTexts;
  /** The log's state the columns hold (read/caches.ts logState). */
  state: LogState = { maxId: 0, total: 0, changes: 0, sticks: 0 };
  /**
   * States the columns held before events were appended (oldest first, a few): a request that
   * read the log at one of them counts the rows then held, the first `length`.
   */
  readonly earlier: { state: LogState; length: number }[] = [];

  static readonly NO_USER = NO_USER;
  static readonly NO_ADDR = NO_ADDR;

  /** Rows beyond which they do not hold the log (ColumnsUnfit). */
  readonly maxRows: number;

  /** Empty columns, or those another thread read (`parts`: its columns' parts()), of at most `maxRows` rows. */
  constructor({ parts, maxRows = MAX_COLUMN_ROWS }: { parts?: ColumnsParts; maxRows?: number } = {}) {
    this.maxRows = parts?.maxRows ?? maxRows;
    const values = (name: (typeof DICTIONARIES)[number]) => parts?.dictionaries[name] ?? [];
    this.occasionCodes = new Dictionary(MAX_INT32, values('occasionCodes'));
    this.levelCodes = new Dictionary(255, values('levelCodes'));
    this.keyParts = parts?.keyParts ?? [];
    this.keyParts.forEach(({ logger, key }, code) => this.#keysOf(logger).set(key, code));
    this.initiatorCodes = new Dictionary(255, values('initiatorCodes'));
    this.addrCodes = new Dictionary(MAX_INT32 - 2, values('addrCodes'));
    this.searchTexts = new SearchTexts(parts?.searchTexts);
    if (parts) {
      Object.assign(this, parts.arrays);
      this.length = parts.length;
    }
  }

  /** What another thread needs to hold these columns (their arrays are shared with it, not copied). */
  parts(): ColumnsParts {
    const dictionaries = Object.fromEntries(
      DICTIONARIES.map((name) => [name, this[name].values]),
    ) as ColumnsParts['dictionaries'];
    return {
      length: this.length,
      maxRows: this.maxRows,
      arrays: this.arrays(),
      dictionaries,
      keyParts: this.keyParts,
      searchTexts: this.searchTexts.parts(),
    };
  }

  /** The arrays, as a walk reads them (columns/walk.ts); shared memory, so that another thread walks them without a copy. */
  arrays(): ColumnArrays {
    return Object.fromEntries(ARRAYS.map((name) => [name, this[name]])) as unknown as ColumnArrays;
  }

  /** Room for `size` rows at once, as many as they may hold (a build knows the log's size: no copies while growing). */
  reserve(size: number): void {
    this.#reserve(Math.min(size, this.maxRows));
  }

  /** Whether `row` comes after the columns' last row in the log's order. */
  follows(row: ColumnRow): boolean {
    const seconds = strictUtcSeconds(row.date);
    return seconds !== null && this.#follows(seconds, row.id);
  }

  #follows(seconds: number, id: number): boolean {
    const last = this.length - 1;
    return last < 0 || seconds > this.dates[last]! || (seconds === this.dates[last] && id > this.ids[last]!);
  }

  /**
   * Appends rows that follow the last one, in order (ColumnsUnfit when one does not fit: a date
   * of another form or one no calendar has, which the columns could not compare as SQL compares
   * the text; or one row more than they may hold).
   */
  append(rows: readonly ColumnRow[]): void {
    this.reserve(this.length + rows.length);
    for (const row of rows) this.appendRow(row);
  }

  /** Appends one row (as append does; the row is not kept, so one object may carry every row). */
  appendRow(row: ColumnRow): void {
    if (this.length === this.maxRows) throw new ColumnsUnfit(`more than ${this.maxRows} events`);
    if (this.length === this.ids.length) this.#reserve(this.length + 1);
    const seconds = strictUtcSeconds(row.date);
    if (seconds === null) throw new ColumnsUnfit(`a date of another form: ${row.date}`);
    if (!this.#follows(seconds, row.id)) throw new ColumnsUnfit('rows out of the log order');
    if (row.id > MAX_INT32 || (row.user_id !== null && (row.user_id < 0 || row.user_id > MAX_INT32)))
      throw new ColumnsUnfit('an id beyond 32 bits');
    const i = this.length;
    const key = this.#keyCode(row.logger, row.message_key);
    this.ids[i] = row.id;
    this.dates[i] = seconds;
    this.occasions[i] = this.occasionCodes.code(row.occasions_id);
    this.levels[i] = this.levelCodes.code(row.level);
    this.keys[i] = key;
    this.initiators[i] = this.initiatorCodes.code(row.initiator);
    this.users[i] = row.user_id ?? NO_USER;
    this.addrs[i] =
      row.remote_addr === null ? NO_ADDR : (ipv4Code(row.remote_addr) ?? -2 - this.addrCodes.code(row.remote_addr));
    this.texts[i] = this.searchTexts.code(row.search_text);
    this.length++;
  }

  #keysOf(logger: string): Map<string | null, number> {
    let keys = this.#keyCodes.get(logger);
    if (!keys) this.#keyCodes.set(logger, (keys = new Map()));
    return keys;
  }

  #keyCode(logger: string, key: string | null): number {
    const keys = this.#keysOf(logger);
    let code = keys.get(key);
    if (code === undefined) {
      if (this.keyParts.length >= MAX_KEYS) throw new ColumnsUnfit(`more than ${MAX_KEYS} distinct messages`);
      code = this.keyParts.length;
      this.keyParts.push({ logger, key });
      keys.set(key, code);
    }
    return code;
  }

  /** Per key code: 1 when its (logger, message key) is one of `messages` (none without a key). */
  messagesTable(messages: MessagePairs | undefined): Uint8Array {
    return Uint8Array.from(this.keyParts, ({ logger, key }) =>
      key !== null && messages?.get(logger)?.includes(key) ? 1 : 0,
    );
  }

  /** The first position below `length` whose date is at or after `seconds` (binary search; `length` when none). */
  firstAtOrAfter(seconds: number, length = this.length): number {
    let lo = 0;
    let hi = length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.dates[mid]! < seconds) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Bytes the arrays hold. */
  get bytes(): number {
    return ARRAYS.reduce((sum, name) => sum + this[name].byteLength, 0);
  }

  /** Room for `size` rows, growing by half again (not doubling: a million rows hold 28 MB). */
  #reserve(size: number): void {
    if (size <= this.ids.length) return;
    const capacity = Math.max(size, Math.ceil(this.ids.length * 1.5));
    const grow = <T extends SharedArray>(a: T, make: (n: number) => T): T => {
      const b = make(capacity);
      b.set(a.subarray(0, this.length) as never);
      return b;
    };
    this.ids = grow(this.ids, (n) => shared(Int32Array, n));
    this.dates = grow(this.dates, (n) => shared(Float64Array, n));
    this.occasions = grow(this.occasions, (n) => shared(Int32Array, n));
    this.levels = grow(this.levels, (n) => shared(Uint8Array, n));
    this.keys = grow(this.keys, (n) => shared(Uint16Array, n));
    this.initiators = grow(this.initiators, (n) => shared(Uint8Array, n));
    this.users = grow(this.users, (n) => shared(Int32Array, n));
    this.addrs = grow(this.addrs, (n) => shared(Int32Array, n));
    this.texts = grow(this.texts, (n) => shared(Uint16Array, n));
  }
}
