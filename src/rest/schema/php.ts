// PHP values: what the reference's is_numeric(), (int), (string), wp_parse_list()… do, applied
// to the JavaScript values a request can carry.
import { asciiLower } from '../../util.ts';

export function isNull(value: unknown): boolean {
  return value === null || value === undefined;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** A PHP array: a list or a map. */
export function isPhpArray(value: unknown): value is unknown[] | Record<string, unknown> {
  return Array.isArray(value) || isPlainObject(value);
}

export function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/**
 * A list or map read as a map: a list's keys are its indexes as strings, which is what
 * Object.keys gives for the (never sparse) lists of parsed input. '' and scalars are empty.
 */
export function asMap(value: unknown): Record<string, unknown> {
  return isPhpArray(value) ? (value as Record<string, unknown>) : {};
}

/** Key/value pairs of a PHP array (list indexes as strings). */
export function toEntries(value: unknown): [string, unknown][] {
  if (Array.isArray(value)) return value.map((item, index) => [String(index), item]);
  if (isPlainObject(value)) return Object.keys(value).map((key) => [key, value[key]]);
  return [];
}

// PHP 8 numeric strings: optional surrounding whitespace, sign, decimal digits, exponent.
const NUMERIC_STRING = /^[ \t\n\r\v\f]*[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?[ \t\n\r\v\f]*$/;
const LEADING_NUMERIC = /^[ \t\n\r\v\f]*[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/;

/** is_numeric(), except that values overflowing to ±Infinity are not numbers here. */
export function isNumeric(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'string' || !NUMERIC_STRING.test(value)) return false;
  return Number.isFinite(Number(value.trim()));
}

/** rest_is_integer: numeric without a fractional part. */
export function isIntegerLike(value: unknown): boolean {
  if (!isNumeric(value)) return false;
  const n = toNumber(value);
  return Math.round(n) === n;
}

/** rest_is_boolean: booleans, "true"/"false"/"1"/"0" in any case, and the integers 0 and 1. */
export function isBooleanLike(value: unknown): boolean {
  if (typeof value === 'boolean') return true;
  if (typeof value === 'string') return ['false', 'true', '0', '1'].includes(asciiLower(value));
  return value === 0 || value === 1;
}

/** rest_is_array: a list, or any scalar (split as a comma/space separated list). */
export function isArrayLike(value: unknown): boolean {
  if (isScalar(value)) return true;
  if (Array.isArray(value)) return true;
  return isPlainObject(value) && Object.keys(value).every(isPhpIntegerKey);
}

/** rest_is_object: a map, a list, or the empty string. */
export function isObjectLike(value: unknown): boolean {
  return value === '' || isPhpArray(value);
}

/** PHP turns keys like "0" and "-5" (but not "05") into integer keys. */
function isPhpIntegerKey(key: string): boolean {
  return /^(?:0|-?[1-9][0-9]{0,18})$/.test(key) && Number.isSafeInteger(Number(key));
}

/** rest_sanitize_array: scalars via wp_parse_list, arrays re-indexed, anything else empty. */
export function toList(value: unknown): unknown[] {
  if (isScalar(value)) return parseList(phpScalarString(value));
  if (Array.isArray(value)) return Array.from(value, (item) => item ?? null);
  if (isPlainObject(value)) return Object.keys(value).map((key) => value[key]);
  return [];
}

/** wp_parse_list: split on runs of commas and/or (ASCII) whitespace, empty pieces dropped. */
function parseList(text: string): string[] {
  return text.split(/[ \t\n\r\v\f,]+/).filter((piece) => piece !== '');
}

export function toInteger(value: unknown): number {
  const n = Math.trunc(toNumber(value));
  return n === 0 ? 0 : n; // no -0
}

/** (float) cast: numeric prefix of strings, 1/0 for booleans, 0 for null, 1/0 for (non-)empty arrays. */
export function toNumber(value: unknown): number {
  let n: number;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'boolean') n = value ? 1 : 0;
  else if (typeof value === 'string') {
    const prefix = LEADING_NUMERIC.exec(value);
    n = prefix ? Number(prefix[0].trim()) : 0;
  } else if (isPhpArray(value)) n = toEntries(value).length > 0 ? 1 : 0;
  else n = 0;
  return Number.isFinite(n) ? n : 0;
}

/** rest_sanitize_boolean: "false" and "0" (any case) are false, the rest is PHP truthiness. */
export function toBoolean(value: unknown): boolean {
  if (typeof value === 'string') return !['false', '0', ''].includes(asciiLower(value));
  if (isPhpArray(value)) return toEntries(value).length > 0;
  return Boolean(value);
}

/** (string) cast; arrays become "Array" as in PHP. */
export function phpString(value: unknown): string {
  if (isNull(value)) return '';
  if (isScalar(value)) return phpScalarString(value);
  return isPhpArray(value) ? 'Array' : '';
}

export function phpScalarString(value: string | number | boolean): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? '1' : '';
  return phpNumberString(value);
}

/** PHP's float-to-string (precision 14): 0.1 + 0.2 → "0.3", 1e25 → "1.0E+25". */
export function phpNumberString(n: number): string {
  if (Number.isNaN(n)) return 'NAN';
  if (!Number.isFinite(n)) return n > 0 ? 'INF' : '-INF';
  if (Number.isSafeInteger(n)) return String(n);
  const [mantissa, exponentText] = n.toExponential(13).split('e') as [string, string];
  const sign = mantissa.startsWith('-') ? '-' : '';
  const digits = mantissa.replace('-', '').replace('.', '').replace(/0+$/, '') || '0';
  const exponent = Number(exponentText);
  const decimalPoint = exponent + 1;
  if (decimalPoint < -3 || decimalPoint > 14) {
    return `${sign}${digits[0]}.${digits.slice(1) || '0'}E${exponent < 0 ? '-' : '+'}${Math.abs(exponent)}`;
  }
  if (decimalPoint <= 0) return `${sign}0.${'0'.repeat(-decimalPoint)}${digits}`;
  if (decimalPoint >= digits.length) return sign + digits + '0'.repeat(decimalPoint - digits.length);
  return `${sign}${digits.slice(0, decimalPoint)}.${digits.slice(decimalPoint)}`;
}

/** sprintf('%d'): the bound truncated to an integer. */
export function phpIntString(n: number): string {
  const truncated = Math.trunc(n);
  return truncated === 0 ? '0' : BigInt(truncated).toString();
}

/** "N thing(s)" with _n()'s singular for 1 and number_format_i18n()'s thousands separators. */
export function countNoun(n: number, singular: string, plural: string): string {
  const rounded = Math.round(Math.abs(n)) * Math.sign(n);
  const formatted = BigInt(rounded === 0 ? 0 : rounded)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${formatted} ${Math.trunc(n) === 1 ? singular : plural}`;
}

/** wp_sprintf's %l: "A", "A and B", "A, B, and C". */
export function humanList(items: string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  if (items.length === 2) return `${items[0]} and ${items[1]}`;
  return `${items.slice(0, -1).join(', ')}, and ${items[items.length - 1]}`;
}

/** json_encode() defaults: slashes and non-ASCII characters escaped. */
export function phpJsonEncode(value: unknown): string {
  const json = JSON.stringify(value) ?? 'null';
  return json
    .replace(/[\u0080-\uffff]/g, (ch) => '\\u' + ch.charCodeAt(0).toString(16).padStart(4, '0'))
    .replaceAll('/', '\\/');
}

export function codePointLength(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // A surrogate pair is one code point; a lone surrogate counts as one.
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    length++;
  }
  return length;
}

/** rest_validate_array_contains_unique_items: strict equality after sorting keys recursively. */
export function hasUniqueItems(list: unknown[]): boolean {
  const seen = new Set<string>();
  for (const item of list) {
    const key = stableKey(item);
    if (seen.has(key)) return false;
    seen.add(key);
  }
  return true;
}

/** A serialisation in which equal values (maps with keys in any order) give equal strings. */
function stableKey(value: unknown): string {
  if (isNull(value)) return 'N';
  if (typeof value === 'boolean') return value ? 'b1' : 'b0';
  if (typeof value === 'number') return (Number.isInteger(value) ? 'i' : 'd') + String(value);
  if (typeof value === 'string') return 's' + JSON.stringify(value);
  if (isPhpArray(value)) {
    const entries = toEntries(value).sort(([a], [b]) => compareKeys(a, b));
    return 'a{' + entries.map(([key, item]) => `${JSON.stringify(key)}:${stableKey(item)}`).join(',') + '}';
  }
  return 'o' + String(value);
}

function compareKeys(a: string, b: string): number {
  if (isPhpIntegerKey(a) && isPhpIntegerKey(b)) return Number(a) - Number(b);
  return a < b ? -1 : a > b ? 1 : 0;
}

/** rest_are_values_equal: lists/maps key by key, an integer equals a float of the same value. */
export function valuesEqual(a: unknown, b: unknown): boolean {
  if (isPhpArray(a) && isPhpArray(b)) {
    const entriesA = toEntries(a);
    const mapB = new Map(toEntries(b));
    if (entriesA.length !== mapB.size) return false;
    return entriesA.every(([key, v]) => mapB.has(key) && valuesEqual(v, mapB.get(key)));
  }
  return (a ?? null) === (b ?? null);
}

const PHP_TRIM_CHARS = ' \t\n\r\0\x0B';

export function phpTrim(text: string, chars = PHP_TRIM_CHARS): string {
  let start = 0;
  let end = text.length;
  while (start < end && chars.includes(text[start]!)) start++;
  while (end > start && chars.includes(text[end - 1]!)) end--;
  return text.slice(start, end);
}

export function phpLtrim(text: string): string {
  let start = 0;
  while (start < text.length && PHP_TRIM_CHARS.includes(text[start]!)) start++;
  return text.slice(start);
}
