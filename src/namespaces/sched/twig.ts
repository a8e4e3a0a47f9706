// A sandboxed Twig engine for notification and calendar templates (reference plugins.md §2.4).
//
// Twig.js has no sandbox of its own, so this module builds one around a private Twig.js
// instance (the package's factory, so the global instance stays untouched):
// - a static check of the compiled token tree before anything runs: only the allowed tags,
//   tests, filters and functions; no method calls (`a.b()`), no `_self` / `_context`, no keys
//   such as `constructor` or `__proto__`, no `matches` (a template's own regular expression);
// - runtime guards: tests, filters and functions resolve only from null-prototype tables of the
//   allowed names; variables and attributes are own properties of plain data; a value that is a
//   function is refused, never called; file loaders are removed, so nothing can be read from disk;
// - bounds: every argument that sizes a result (split chunks, trim masks, decimals, separators,
//   ranges, date formats) is bounded, and a render has a work budget (one step per expression,
//   tag and block, plus one per KiB a filter, function or operator reads or writes), a cap on
//   every text and list it makes, and a time limit;
// - the render context is deep-copied into null-prototype objects of plain data.
// Runaways that slip past all of this still cannot harm the server: templates are checked and
// rendered in worker threads with a heap cap and a kill timer (template-box.ts).
//
// `include` and `import` are in the reference's tag list, but every use of them loads another
// template file; this server has no template files to offer, so both are refused (as are
// `extends`, `embed`, `use`, `from`, `macro`, `source()`, `include()`, `template_from_string()`,
// `constant()`, `attribute()`).
import { createRequire } from 'node:module';
import { Parser } from 'htmlparser2';
import { isValidTimeZone } from '../../site/time.ts';
import { ownValue } from '../../util.ts';
import { formatPhpDate } from './dates.ts';

const require = createRequire(import.meta.url);

// Minimal typing of the parts of Twig.js we use.
interface TwigTemplate {
  tokens: unknown[];
  render(context: Record<string, unknown>): string;
}
interface TwigExports {
  twig(params: { data: string; rethrow?: boolean; autoescape?: boolean | string; id?: string }): TwigTemplate;
  extendFilter(name: string, fn: (value: unknown, params: unknown[] | false) => unknown): void;
  extend(fn: (twig: TwigInternals) => void): void;
  cache(on: boolean): void;
}
type Callable = (this: unknown, ...args: any[]) => any;
interface TwigInternals {
  Error: new (message: string) => Error;
  Templates: { loaders: Record<string, unknown>; registry: Record<string, unknown> };
  expression: {
    handler: Record<string, { parse: Callable }>;
    parseAsync: Callable;
    resolveAsync: Callable;
    operator: { parse: (op: string, stack: unknown[]) => unknown };
    type: Record<string, any>;
  };
  logic: { parseAsync: Callable };
  filter: Callable & { extend: Callable };
  test: Callable;
  output: Callable;
  ParseState: { prototype: { parseAsync: Callable } };
  functions: Record<string, Callable>;
  filters: Record<string, Callable>;
  tests: Record<string, Callable>;
  Promise: { resolve(v: unknown): unknown };
  cache: boolean;
}

export const ALLOWED_TAGS = ['if', 'else', 'elseif', 'endif', 'for', 'endfor', 'set', 'endset', 'block', 'endblock'] as const;
export const ALLOWED_FILTERS = [
  'date', 'trim', 'join', 'number_format', 'escape', 'e', 'raw', 'split', 'length', 'slice', 'lower', 'upper',
  'replace', 'nl2br', 'default', 'capitalize', 'title', 'first', 'last', 'striptags', 'url_encode', 'abs', 'round',
  'internationalize', 'trans', 'link',
] as const;
export const ALLOWED_FUNCTIONS = ['range', 'date', 'min', 'max', 'cycle'] as const;
/** Twig's tests (`x is defined`), without `constant` (it reads PHP constants). */
export const ALLOWED_TESTS = ['defined', 'empty', 'even', 'odd', 'iterable', 'none', 'null', 'same as', 'divisible by'] as const;

/** Keys that reach JavaScript internals or Twig.js's own bookkeeping (`_keys`); refused wherever they appear. */
const FORBIDDEN_KEYS = new Set([
  'constructor', '__proto__', 'prototype', '__defineGetter__', '__defineSetter__', '__lookupGetter__', '__lookupSetter__',
  'call', 'apply', 'bind', 'valueOf', 'toString', 'toLocaleString', 'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable',
  '_keys',
]);

const TAG_NAME: Record<string, string> = {
  'Twig.logic.type.if': 'if', 'Twig.logic.type.elseif': 'elseif', 'Twig.logic.type.else': 'else', 'Twig.logic.type.endif': 'endif',
  'Twig.logic.type.for': 'for', 'Twig.logic.type.endfor': 'endfor', 'Twig.logic.type.set': 'set', 'Twig.logic.type.setcapture': 'set',
  'Twig.logic.type.endset': 'endset', 'Twig.logic.type.block': 'block', 'Twig.logic.type.shortblock': 'block', 'Twig.logic.type.endblock': 'endblock',
  'Twig.logic.type.filter': 'filter', 'Twig.logic.type.endfilter': 'endfilter', 'Twig.logic.type.apply': 'apply', 'Twig.logic.type.endapply': 'endapply',
  'Twig.logic.type.do': 'do', 'Twig.logic.type.extends': 'extends', 'Twig.logic.type.use': 'use', 'Twig.logic.type.include': 'include',
  'Twig.logic.type.spaceless': 'spaceless', 'Twig.logic.type.endspaceless': 'endspaceless', 'Twig.logic.type.macro': 'macro',
  'Twig.logic.type.endmacro': 'endmacro', 'Twig.logic.type.import': 'import', 'Twig.logic.type.from': 'from', 'Twig.logic.type.embed': 'embed',
  'Twig.logic.type.endembed': 'endembed', 'Twig.logic.type.with': 'with', 'Twig.logic.type.endwith': 'endwith', 'Twig.logic.type.deprecated': 'deprecated',
};

/** An error of a template: syntax, sandbox policy, runtime or a resource limit. `line` is 1-based when known. */
export class TemplateError extends Error {
  kind: 'syntax' | 'security' | 'runtime' | 'limit';
  line: number | null;
  constructor(kind: TemplateError['kind'], message: string, line: number | null) {
    super(message);
    this.kind = kind;
    this.line = line;
  }
}

/** Which resource a template exhausted: its work budget, a size cap, its time or its heap. */
export type TemplateLimit = 'work' | 'size' | 'time' | 'memory';

/** A template that needs more than a render may use (answered 422 `sched_template_limit`). */
export class TemplateLimitError extends TemplateError {
  limit: TemplateLimit;
  /** The settings field (`<section>.<path>`) whose template it is, when known. */
  param: string | null = null;
  constructor(limit: TemplateLimit, message: string, line: number | null = null) {
    super('limit', message, line);
    this.limit = limit;
  }
}

// ---- the private Twig.js instance -------------------------------------------------------

const twigFactory = require('twig/src/twig.factory.js') as () => TwigExports;
const Twig: TwigExports = twigFactory();
let internals!: TwigInternals;
Twig.extend((t) => {
  internals = t;
});
Twig.cache(false);
internals.cache = false;
// No template is ever loaded from a file or a URL.
for (const k of Object.keys(internals.Templates.loaders)) delete internals.Templates.loaders[k];

/** Position (offset in the source) of the token being rendered, for error line numbers. */
let currentOffset: number | null = null;

// ---- limits ---------------------------------------------------------------------------------

/** Work budget of one render, in steps (see the header). */
export const MAX_STEPS = 50_000;
/** Characters a filter, function or operator may read or write per step. */
export const CHARS_PER_STEP = 1024;
/** Longest text any expression may produce. */
export const MAX_STRING = 256 * 1024;
/** Longest list any expression may produce. */
export const MAX_LIST = 10_000;
/** Longest output of a template (and of any block or loop inside it). */
export const MAX_OUTPUT = 1024 * 1024;
/** Most items of `range()` and `..`. */
export const MAX_RANGE = 1000;
/** Most decimals of `number_format` and `round`. */
export const MAX_DECIMALS = 20;
/** Longest short text argument: trim masks, separators, date formats, timezones, date strings. */
export const MAX_ARG_TEXT = 256;
/** Time a render may take; the worker running it is killed at twice this (template-box.ts). */
export const RENDER_TIME_MS = 1000;

let steps = 0;
let deadline = Infinity;
function charge(units: number): void {
  steps += units;
  if (steps > MAX_STEPS) throw new TemplateLimitError('work', `The template does too much work (more than ${MAX_STEPS} steps).`);
  if (performance.now() > deadline) throw new TemplateLimitError('time', `The template takes too long (more than ${RENDER_TIME_MS} ms).`);
}
function chargeText(chars: number): void {
  charge(Math.ceil(chars / CHARS_PER_STEP));
}

/** Length of the text a value prints as (lists joined by commas), counted up to `cap`. */
function textLength(value: unknown, cap = MAX_OUTPUT): number {
  if (value === null || value === undefined) return 0;
  if (typeof value === 'string' || value instanceof String) return value.length;
  if (Array.isArray(value)) {
    let n = Math.max(0, value.length - 1);
    for (let i = 0; i < value.length && n <= cap; i++) n += textLength(value[i], cap - n);
    return n;
  }
  if (typeof value === 'object') return '[object Object]'.length;
  return String(value).length;
}

function runtimeError(message: string): Error {
  return new internals.Error(message);
}

/** A value read from data, the context or a template's own objects: never a function. */
function dataValue<T>(value: T): T {
  if (typeof value === 'function') throw runtimeError('Function values are not allowed in the sandbox.');
  return value;
}

/** A value a filter, function, test or operator made: also within the caps; making it is charged. */
function made<T>(value: T): T {
  dataValue(value);
  if ((typeof value === 'string' || value instanceof String) && value.length > MAX_STRING) {
    throw new TemplateLimitError('size', `The template produces a text longer than ${MAX_STRING} characters.`);
  }
  if (Array.isArray(value) && value.length > MAX_LIST) throw new TemplateLimitError('size', `The template produces a list longer than ${MAX_LIST} items.`);
  chargeText(textLength(value));
  return value;
}

function isSafeKey(key: unknown): boolean {
  return (typeof key === 'string' || typeof key === 'number') && !FORBIDDEN_KEYS.has(String(key)) && !String(key).startsWith('__');
}

/** Own-property lookup on plain data only. */
function safeGet(object: unknown, key: unknown): unknown {
  if (object === null || object === undefined) return undefined;
  if (!isSafeKey(key)) throw runtimeError(`Access to "${String(key)}" is not allowed in the sandbox.`);
  if (typeof object === 'string' && key === 'length') return undefined;
  if (typeof object !== 'object') return undefined;
  return Object.hasOwn(object, key as string) ? dataValue((object as Record<string, unknown>)[key as string]) : undefined;
}

// ---- arguments ----------------------------------------------------------------------------

function paramList(params: unknown): unknown[] {
  return Array.isArray(params) ? params : [];
}

/** A short text argument (mask, separator, format), at most MAX_ARG_TEXT characters. */
function shortText(value: unknown, what: string): string {
  const s = value === null || value === undefined ? '' : String(value);
  if (s.length > MAX_ARG_TEXT) throw runtimeError(`${what} is limited to ${MAX_ARG_TEXT} characters.`);
  return s;
}

/** A whole-number argument within [min, max]. */
function wholeNumber(value: unknown, min: number, max: number, what: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw runtimeError(`${what} must be a whole number from ${min} to ${max}.`);
  return n;
}

/** Text of a value for the string filters; a list or object prints as Twig.js prints it. */
function textOf(value: unknown): string {
  return value === null || value === undefined ? '' : String(value);
}

function occurrences(haystack: string, needle: string): number {
  let n = 0;
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length)) n++;
  return n;
}

// ---- SSA's own filters --------------------------------------------------------------------

/** Language of the render in progress (renders are synchronous). */
let renderLang: 'en' | 'de' = 'en';

const TRANSLATIONS: Record<string, string> = {
  'Appointment Details': 'Termindetails', 'Date': 'Datum', 'Time': 'Uhrzeit', 'Name': 'Name', 'Email': 'E-Mail', 'Phone': 'Telefon',
  'Cancel or reschedule': 'Absagen oder verschieben', 'Add to Calendar': 'Zum Kalender hinzufügen', 'Location': 'Ort',
  'Instructions': 'Hinweise', 'Your appointment': 'Ihr Termin', 'Hello': 'Hallo', 'Thank you': 'Vielen Dank',
};
const MONTHS_DE: Record<string, string> = {
  January: 'Januar', February: 'Februar', March: 'März', May: 'Mai', June: 'Juni', July: 'Juli', October: 'Oktober', December: 'Dezember',
  Monday: 'Montag', Tuesday: 'Dienstag', Wednesday: 'Mittwoch', Thursday: 'Donnerstag', Friday: 'Freitag', Saturday: 'Samstag', Sunday: 'Sonntag',
};

Twig.extendFilter('trans', (value) => {
  const s = textOf(value);
  return renderLang === 'de' ? (ownValue(TRANSLATIONS, s) ?? s) : s;
});
Twig.extendFilter('internationalize', (value) => {
  const s = textOf(value);
  if (renderLang !== 'de') return s;
  return s.replace(/\b(January|February|March|May|June|July|October|December|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)\b/g, (m) => MONTHS_DE[m] ?? m);
});
// `date` with PHP formats, in UTC unless a timezone is given (reference: the Twig timezone is
// UTC), names localized to the render language. Twig.js's own filter would use the process's
// local timezone.
Twig.extendFilter('date', (value, params) => {
  const p = paramList(params);
  const format = shortText(p[0], 'A date format') || 'F j, Y H:i';
  const tz = shortText(p[1], 'A timezone') || 'UTC';
  if (!isValidTimeZone(tz)) throw runtimeError(`Unknown timezone "${tz}".`);
  let d: Date;
  if (value instanceof Date) d = value;
  else if (typeof value === 'number') d = new Date(value * 1000);
  else if (value === null || value === undefined || value === '' || value === 'now') d = new Date();
  else if (typeof value === 'string' && value.length > MAX_ARG_TEXT) throw runtimeError(`A date is limited to ${MAX_ARG_TEXT} characters.`);
  else if (typeof value === 'string' && /^\d+$/.test(value)) d = new Date(Number(value) * 1000);
  else if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$/.test(value)) d = new Date(value.replace(' ', 'T') + (value.length > 10 ? 'Z' : 'T00:00:00Z'));
  else if (typeof value === 'string') d = new Date(value);
  else throw runtimeError('Unable to parse the date.');
  if (Number.isNaN(d.getTime())) throw runtimeError(`Unable to parse the date "${String(value)}".`);
  return formatPhpDate(d, format, tz, renderLang);
});
Twig.extendFilter('link', (value, params) => {
  const url = textOf(value);
  const label = Array.isArray(params) && params.length ? textOf(params[0]) : url;
  if (!/^(https?:|mailto:|tel:)/i.test(url)) return escapeHtml(label);
  return `<a href="${escapeHtml(url)}">${escapeHtml(label)}</a>`;
});

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' })[c] as string);
}

// ---- bounded filters and functions ----------------------------------------------------------
// Twig.js's versions of these loop without end (`split('', 0)`, a negative `range` step), cost
// the product of their arguments (`trim` masks, `striptags`), or make texts as long as an
// argument says (`number_format` decimals, `join`/`replace` with long texts).

const TRIM_WHITESPACE = ' \n\r\t\f\u000B\u00A0\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u200b\u2028\u2029\u3000';

/** `trim(mask, side)`: linear in the text; the mask is a short text. */
function trimFilter(value: unknown, params: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  const p = paramList(params);
  const mask = new Set((p[0] ? shortText(p[0], 'A trim mask') : TRIM_WHITESPACE).split(''));
  const side = p[1] === undefined || p[1] === null ? 'both' : String(p[1]);
  if (side !== 'both' && side !== 'left' && side !== 'right') throw runtimeError('trim: the side must be "left", "right" or "both".');
  const s = textOf(value);
  let start = 0;
  let end = s.length;
  if (side !== 'right') while (start < end && mask.has(s[start])) start++;
  if (side !== 'left') while (end > start && mask.has(s[end - 1])) end--;
  return s.slice(start, end);
}

/** `split(delimiter, limit)`: with '' the limit is the chunk size (≥ 1); the parts are counted before they are made. */
function splitFilter(value: unknown, params: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  const p = paramList(params);
  if (p.length === 0 || p.length > 2) throw runtimeError('split filter expects 1 or 2 argument');
  if (typeof value !== 'string' && !(value instanceof String)) throw runtimeError('split filter expects value to be a string');
  const s = String(value);
  const delimiter = textOf(p[0]);
  const limit = p[1] === undefined || p[1] === null ? null : wholeNumber(p[1], -MAX_STRING, MAX_STRING, 'The split limit');
  if (delimiter === '') {
    const size = limit ?? 1;
    if (size < 1) throw runtimeError('split: with an empty delimiter the limit is the chunk size and must be at least 1.');
    if (Math.ceil(s.length / size) > MAX_LIST) throw new TemplateLimitError('size', `The template produces a list longer than ${MAX_LIST} items.`);
    const chunks: string[] = [];
    for (let i = 0; i < s.length; i += size) chunks.push(s.slice(i, i + size));
    return chunks;
  }
  if (occurrences(s, delimiter) + 1 > MAX_LIST) throw new TemplateLimitError('size', `The template produces a list longer than ${MAX_LIST} items.`);
  const parts = s.split(delimiter);
  if (limit === null) return parts;
  if (limit < 0) return parts.slice(0, Math.max(0, parts.length + limit));
  if (parts.length <= Math.max(1, limit)) return parts;
  return [...parts.slice(0, Math.max(1, limit) - 1), parts.slice(Math.max(1, limit) - 1).join(delimiter)];
}

/** `replace({from: to})`: replacements are text; the result's length is known before it is built. */
function replaceFilter(value: unknown, params: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  const pairs = paramList(params)[0];
  if (!pairs || typeof pairs !== 'object') throw runtimeError('replace expects a mapping such as {"a": "b"}.');
  let s = textOf(value);
  for (const from of Object.keys(pairs)) {
    if (from === '_keys' || from === '') continue;
    const to = (pairs as Record<string, unknown>)[from];
    if (typeof to === 'function' || (to !== null && typeof to === 'object' && !(to instanceof String))) throw runtimeError('replace: every replacement must be a text or a number.');
    const toText = textOf(to);
    const count = occurrences(s, from);
    if (count === 0) continue;
    const length = s.length + count * (toText.length - from.length);
    if (length > MAX_STRING) throw new TemplateLimitError('size', `The template produces a text longer than ${MAX_STRING} characters.`);
    chargeText(length);
    s = s.split(from).join(toText);
  }
  return s;
}

/**
 * `striptags(allowed)` in one pass (PHP's strip_tags): a tag runs to its matching `>` (nested
 * `<…>` and quoted text included), comments are dropped, allowed tags are kept as written.
 */
function stripTagsFilter(value: unknown, params: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  const allowed = new Set([...shortText(paramList(params)[0], 'The allowed tags').toLowerCase().matchAll(/<([a-z][a-z0-9]*)>/g)].map((m) => m[1]));
  const s = textOf(value);
  let out = '';
  let i = 0;
  while (i < s.length) {
    const lt = s.indexOf('<', i);
    if (lt === -1) {
      out += s.slice(i);
      break;
    }
    out += s.slice(i, lt);
    if (s.startsWith('<!--', lt)) {
      const end = s.indexOf('-->', lt + 4);
      i = end === -1 ? s.length : end + 3;
      continue;
    }
    if (lt + 1 < s.length && /\s/.test(s[lt + 1])) {
      out += '<';
      i = lt + 1;
      continue;
    }
    let depth = 0;
    let quote = '';
    let j = lt;
    for (; j < s.length; j++) {
      const c = s[j];
      if (quote) {
        if (c === quote) quote = '';
      } else if (c === '"' || c === "'") quote = c;
      else if (c === '<') depth++;
      else if (c === '>' && --depth === 0) break;
    }
    const name = /^<\/?([a-z0-9]+)/i.exec(s.slice(lt, Math.min(j, lt + 40)))?.[1]?.toLowerCase();
    if (j < s.length && name && allowed.has(name)) out += s.slice(lt, j + 1);
    i = j + 1;
  }
  return out;
}

/** `range(low, high, step)` (and `low..high`): at most MAX_RANGE + 1 items, counted first. */
function rangeFunction(low: unknown, high: unknown, stepBy: unknown = 1): unknown[] {
  const by = Math.abs(Number(stepBy));
  if (!Number.isFinite(by) || by === 0) throw runtimeError('range() needs a step other than 0.');
  const numeric = (v: unknown) => !Number.isNaN(Number(v));
  const chars = typeof low === 'string' && typeof high === 'string' && !numeric(low) && !numeric(high);
  const bound = (v: unknown) => (chars ? (v as string).charCodeAt(0) : numeric(low) && numeric(high) ? Math.trunc(Number(v)) : numeric(v) ? Number(v) : 0);
  const from = bound(low);
  const to = bound(high);
  if (!Number.isFinite(from) || !Number.isFinite(to)) throw runtimeError('range() needs finite bounds.');
  if (Math.abs(to - from) / by > MAX_RANGE) throw runtimeError(`range() is limited to ${MAX_RANGE} items.`);
  const direction = from <= to ? 1 : -1;
  const out: unknown[] = [];
  for (let v = from; direction > 0 ? v <= to : v >= to; v += direction * by) out.push(chars ? String.fromCharCode(v) : v);
  return out;
}

const twigFilters = internals.filters;
const twigFunctions = internals.functions;

const BOUNDED_FILTERS: Record<string, Callable> = {
  trim: trimFilter,
  split: splitFilter,
  replace: replaceFilter,
  striptags: stripTagsFilter,
  number_format(value, params) {
    const p = paramList(params);
    const decimals = p[0] === undefined || p[0] === null || p[0] === '' ? 0 : Math.abs(wholeNumber(p[0], -MAX_DECIMALS, MAX_DECIMALS, 'number_format: the decimals'));
    return twigFilters.number_format(value, [decimals, p[1] === undefined ? '.' : shortText(p[1], 'A decimal point'), p[2] === undefined ? ',' : shortText(p[2], 'A thousands separator')]);
  },
  round(value, params) {
    const p = paramList(params);
    const precision = p[0] === undefined ? 0 : wholeNumber(p[0], -MAX_DECIMALS, MAX_DECIMALS, 'round: the precision');
    const method = p[1] === undefined ? 'common' : String(p[1]);
    if (method !== 'common' && method !== 'floor' && method !== 'ceil') throw runtimeError('round: the method must be "common", "floor" or "ceil".');
    return twigFilters.round(value, [precision, method]);
  },
  join(value, params) {
    if (value === null || value === undefined) return undefined;
    const separator = paramList(params)[0];
    const items = Array.isArray(value) ? value : Object.keys(Object(value)).filter((k) => k !== '_keys').map((k) => (value as Record<string, unknown>)[k]);
    if (textLength(items, MAX_STRING) + Math.max(0, items.length - 1) * (textLength(separator, MAX_STRING) - 1) > MAX_STRING) {
      throw new TemplateLimitError('size', `The template produces a text longer than ${MAX_STRING} characters.`);
    }
    return twigFilters.join(value, params);
  },
};

const BOUNDED_FUNCTIONS: Record<string, Callable> = {
  range: rangeFunction,
  date(value, ...rest) {
    if (typeof value === 'string' && value.length > MAX_ARG_TEXT) throw runtimeError(`A date is limited to ${MAX_ARG_TEXT} characters.`);
    return twigFunctions.date(value, ...rest);
  },
  cycle(values, position) {
    if (!Array.isArray(values) || values.length === 0) throw runtimeError('cycle() expects a non-empty list.');
    const i = wholeNumber(position, -Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 'The cycle() position');
    return values[((i % values.length) + values.length) % values.length];
  },
};

/**
 * A null-prototype table of the allowed names only, each wrapped so that what it reads is
 * charged and what it returns is checked: no other name, inherited or not, can resolve.
 */
function sandboxTable(names: readonly string[], bounded: Record<string, Callable>, original: Record<string, Callable>): Record<string, Callable> {
  const table = Object.create(null) as Record<string, Callable>;
  for (const name of names) {
    const fn = Object.hasOwn(bounded, name) ? bounded[name] : original[name];
    if (typeof fn !== 'function') throw new Error(`twig.ts: Twig.js has no "${name}"`);
    table[name] = function (this: unknown, ...args: unknown[]) {
      charge(1);
      chargeText(textLength(args));
      return made(fn.apply(this, args));
    };
  }
  return table;
}

const FILTERS = sandboxTable(ALLOWED_FILTERS, BOUNDED_FILTERS, twigFilters);
const FUNCTIONS = sandboxTable(ALLOWED_FUNCTIONS, BOUNDED_FUNCTIONS, twigFunctions);
const TESTS = sandboxTable(ALLOWED_TESTS, {}, internals.tests);
internals.filters = FILTERS;
internals.functions = FUNCTIONS;
internals.tests = TESTS;
internals.filter = Object.assign(function (this: unknown, name: string, value: unknown, params: unknown) {
  if (!Object.hasOwn(FILTERS, name)) throw runtimeError(`Filter "${name}" is not allowed.`);
  return FILTERS[name].call(this, value, params);
}, { extend: internals.filter.extend });
internals.test = function (name: string, value: unknown, params: unknown) {
  if (!Object.hasOwn(TESTS, name)) throw runtimeError(`Test "${name}" is not allowed.`);
  return Boolean(TESTS[name].call(TESTS, value, params));
};

// ---- runtime guards on Twig.js's evaluation -------------------------------------------------

{
  const T = internals.expression.type;
  const P = internals.Promise;
  const handler = internals.expression.handler;
  // Values are resolved, never called.
  internals.expression.resolveAsync = function (value: unknown) {
    if (typeof value === 'function') throw runtimeError('Calling methods is not allowed in the sandbox.');
    return P.resolve(value);
  };
  // Variables are own properties of the context (loop contexts are spread copies with a prototype).
  handler[T.variable].parse = function (token: { value: string }, stack: unknown[], context: Record<string, unknown>) {
    stack.push(isSafeKey(token.value) && Object.hasOwn(context, token.value) ? dataValue(context[token.value]) : undefined);
    return P.resolve(undefined);
  };
  handler[T.key.period].parse = function (token: { key: string; params?: unknown }, stack: unknown[]) {
    if (token.params) throw runtimeError('Calling methods is not allowed in the sandbox.');
    const object = stack.pop();
    stack.push(safeGet(object, token.key));
    return P.resolve(undefined);
  };
  const origParseAsync = internals.expression.parseAsync;
  handler[T.key.brackets].parse = function (this: unknown, token: { stack: unknown[]; params?: unknown }, stack: unknown[], context: unknown) {
    if (token.params) throw runtimeError('Calling methods is not allowed in the sandbox.');
    const object = stack.pop();
    return (origParseAsync.call(this, token.stack, context) as Promise<unknown>).then((key) => {
      const v = safeGet(object, key);
      stack.push(v === undefined ? null : v);
    });
  };
  // Functions resolve from the sandbox's table only, never from the context.
  const fnHandler = handler[T._function];
  const origFunction = fnHandler.parse;
  fnHandler.parse = function (this: unknown, token: { fn: string }, ...rest: unknown[]) {
    if (!Object.hasOwn(FUNCTIONS, token.fn)) throw runtimeError(`Function "${token.fn}" is not allowed.`);
    return origFunction.call(this, token, ...rest);
  };
  // Computed keys of object literals (`{(a ~ b): 1}`) are checked like written ones.
  const binary = handler[T.operator.binary];
  const origBinary = binary.parse;
  binary.parse = function (this: unknown, token: { key?: unknown }, ...rest: unknown[]) {
    const checkKey = () => {
      if (token.key !== undefined && !isSafeKey(token.key)) throw runtimeError(`Key "${String(token.key)}" is not allowed in the sandbox.`);
    };
    const result = origBinary.call(this, token, ...rest) as Promise<unknown> | undefined;
    if (result && typeof result.then === 'function') return result.then(checkKey);
    checkKey();
    return result;
  };
  internals.expression.parseAsync = function (this: unknown, tokens: unknown, ...rest: unknown[]) {
    charge(1);
    const first = Array.isArray(tokens) ? (tokens[0] as { position?: { start: number } } | undefined) : undefined;
    if (first?.position) currentOffset = first.position.start;
    return origParseAsync.call(this, tokens, ...rest);
  };
  const origLogic = internals.logic.parseAsync;
  internals.logic.parseAsync = function (this: unknown, token: { position?: { start: number } }, ...rest: unknown[]) {
    charge(1);
    if (token?.position) currentOffset = token.position.start;
    return origLogic.call(this, token, ...rest);
  };
  // Every block body parsed (each loop iteration included) counts as a step.
  const origState = internals.ParseState.prototype.parseAsync;
  internals.ParseState.prototype.parseAsync = function (this: unknown, ...args: unknown[]) {
    charge(1);
    return origState.apply(this, args);
  };
  const operator = internals.expression.operator;
  const origOperator = operator.parse;
  operator.parse = function (this: unknown, op: string, stack: unknown[]) {
    const r = origOperator.call(this, op, stack);
    made(stack[stack.length - 1]);
    return r;
  };
  // Output is joined once per block, loop and template: its length is known before the join.
  const origOutput = internals.output;
  internals.output = function (this: unknown, parts: unknown[]) {
    let length = 0;
    for (let i = 0; i < parts.length && length <= MAX_OUTPUT; i++) length += textLength(parts[i], MAX_OUTPUT - length);
    if (length > MAX_OUTPUT) throw new TemplateLimitError('size', `The template produces more than ${MAX_OUTPUT} characters.`);
    chargeText(length);
    return origOutput.call(this, parts);
  };
}

// ---- normalisation and the static policy check ---------------------------------------------

/**
 * Normalisation before rendering (reference §2.4): HTML tags inside `{{ }}` and `{% %}` are
 * stripped (rich-text editors insert them), entities there decoded, and the spacing inside the
 * braces becomes one space.
 */
export function normalizeTemplate(source: string): string {
  const clean = (inner: string) =>
    inner
      .replace(/<[^<>]*>/g, '')
      .replace(/&nbsp;|&#160;/g, ' ')
      .replace(/&quot;|&#34;/g, '"')
      .replace(/&#0?39;|&apos;/g, "'")
      .replace(/&gt;/g, '>')
      .replace(/&lt;/g, '<')
      .replace(/&amp;/g, '&')
      .replace(/\s+/g, ' ')
      .trim();
  // A linear scan (no backtracking regex): each opening brace is matched with the next closing one.
  let out = '';
  let i = 0;
  let a = -2;
  let b = -2;
  while (i < source.length) {
    // Positions are searched again only once passed, so the scan stays linear.
    if (a !== -1 && a < i) a = source.indexOf('{{', i);
    if (b !== -1 && b < i) b = source.indexOf('{%', i);
    const start = a === -1 ? b : b === -1 ? a : Math.min(a, b);
    if (start === -1) break;
    const isOutput = start === a;
    const close = source.indexOf(isOutput ? '}}' : '%}', start + 2);
    if (close === -1) break;
    out += source.slice(i, start);
    let inner = source.slice(start + 2, close);
    if (isOutput) out += `{{ ${clean(inner)} }}`;
    else {
      const l = inner.startsWith('-') ? '-' : '';
      const r = inner.endsWith('-') && inner.length > l.length ? '-' : '';
      inner = inner.slice(l.length, inner.length - r.length);
      out += `{%${l} ${clean(inner)} ${r}%}`;
    }
    i = close + 2;
  }
  return out + source.slice(i);
}

function lineAt(source: string, offset: number | null): number | null {
  if (offset === null || offset < 0) return null;
  return source.slice(0, offset).split('\n').length;
}

function checkTree(node: unknown, source: string, pos: { offset: number | null }): void {
  if (Array.isArray(node)) {
    for (const n of node) checkTree(n, source, pos);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const obj = node as Record<string, any>;
  const p = obj.position;
  if (p && typeof p.start === 'number') pos.offset = p.start;
  else if (p?.open && typeof p.open.start === 'number') pos.offset = p.open.start;
  const type = obj.type;
  const fail = (msg: string) => {
    throw new TemplateError('security', msg, lineAt(source, pos.offset));
  };
  if (typeof type === 'string') {
    if (type.startsWith('Twig.logic.type.')) {
      const tag = TAG_NAME[type] ?? type.slice('Twig.logic.type.'.length);
      if (!(ALLOWED_TAGS as readonly string[]).includes(tag)) fail(`Tag "${tag}" is not allowed.`);
    } else if (type === 'Twig.expression.type.filter') {
      if (!(ALLOWED_FILTERS as readonly string[]).includes(obj.value)) fail(`Filter "${obj.value}" is not allowed.`);
    } else if (type === 'Twig.expression.type._function') {
      if (!(ALLOWED_FUNCTIONS as readonly string[]).includes(obj.fn)) fail(`Function "${obj.fn}" is not allowed.`);
    } else if (type === 'Twig.expression.type.context') {
      fail('Access to "_context" is not allowed.');
    } else if (type === 'Twig.expression.type.variable') {
      if (obj.value === '_self' || obj.value === '_charset' || !isSafeKey(obj.value)) fail(`Access to "${obj.value}" is not allowed.`);
    } else if (type === 'Twig.expression.type.key.period') {
      if (!isSafeKey(obj.key)) fail(`Access to "${obj.key}" is not allowed.`);
      if (obj.params) fail('Calling methods is not allowed.');
    } else if (type === 'Twig.expression.type.key.brackets') {
      if (obj.params) fail('Calling methods is not allowed.');
      const st = obj.stack;
      if (Array.isArray(st) && st.length === 1 && st[0]?.type === 'Twig.expression.type.string' && !isSafeKey(st[0].value)) fail(`Access to "${st[0].value}" is not allowed.`);
    } else if (type === 'Twig.expression.type.parameter.end' && obj.expression === true) {
      fail('Calling methods is not allowed.');
    } else if (type === 'Twig.expression.type.test') {
      if (!(ALLOWED_TESTS as readonly string[]).includes(obj.filter)) fail(`Test "${obj.filter}" is not allowed.`);
    } else if (type === 'Twig.expression.type.slice') {
      // Twig.js reads named bounds (`s[a:b]`) straight from the context: whole numbers only.
      if (!obj.params.every((p: unknown) => typeof p === 'string' && /^-?\d*$/.test(p))) fail('Slice bounds must be whole numbers; use the slice filter for variables.');
    } else if (type === 'Twig.expression.type.operator.binary') {
      if (obj.value === 'matches') fail('The "matches" operator is not allowed.');
      if (obj.key !== undefined && !isSafeKey(obj.key)) fail(`Key "${obj.key}" is not allowed.`);
    }
  }
  if (obj.key !== undefined && type === 'Twig.logic.type.set' && !isSafeKey(obj.key)) fail(`Setting "${obj.key}" is not allowed.`);
  if (type === 'Twig.logic.type.for' && [obj.keyVar, obj.valueVar].some((v) => v !== undefined && v !== null && !isSafeKey(v))) fail('This loop variable name is not allowed.');
  for (const [k, v] of Object.entries(obj)) if (k !== 'position' && k !== 'match' && v && typeof v === 'object') checkTree(v, source, pos);
}

/** Most tags a template may have. */
export const MAX_TAGS = 2000;
/**
 * Most a template may cost to compile: Twig.js's compile time grows with the number of tags
 * times the template's length, plus the square of each tag's length; both are capped together.
 */
export const MAX_COMPILE_COST = 32_000_000;

/** Number of tags and their compile cost, in one pass (an unclosed tag runs to the end). */
function measureTags(source: string): { tags: number; cost: number } {
  let tags = 0;
  let cost = 0;
  for (let i = source.indexOf('{'); i !== -1 && i < source.length - 1; i = source.indexOf('{', i + 1)) {
    const c = source[i + 1];
    if (c !== '{' && c !== '%' && c !== '#') continue;
    tags++;
    const close = source.indexOf(c === '{' ? '}}' : `${c}}`, i + 2);
    const end = close === -1 ? source.length : close + 2;
    cost += (end - i) ** 2;
    i = end - 1;
  }
  return { tags, cost: cost + tags * source.length };
}

function compile(source: string): TwigTemplate {
  const { tags, cost } = measureTags(source);
  if (tags > MAX_TAGS) throw new TemplateError('syntax', `The template has more than ${MAX_TAGS} tags.`, null);
  if (cost > MAX_COMPILE_COST) throw new TemplateLimitError('work', `The template is too big to compile: (tags × characters) + (each tag's length)² must stay under ${MAX_COMPILE_COST}.`);
  let template: TwigTemplate;
  try {
    template = Twig.twig({ data: source, rethrow: true, autoescape: false });
  } catch (err) {
    throw new TemplateError('syntax', friendlyMessage(err), guessLine(source, err));
  }
  checkTree(template.tokens, source, { offset: null });
  return template;
}

function friendlyMessage(err: unknown): string {
  let msg = err instanceof Error ? err.message : err && typeof err === 'object' && 'message' in err ? String((err as { message: unknown }).message) : String(err);
  const unclosed = /Unable to find an end tag for Twig\.logic\.type\.(\w+)/.exec(msg);
  if (unclosed) msg = `Unexpected end of template: the "${unclosed[1]}" tag is not closed.`;
  if (/Cannot read properties of undefined/.test(msg)) msg = 'Unexpected closing tag without a matching opening tag.';
  const unknownFilter = /Unable to find filter (\S+)/.exec(msg);
  if (unknownFilter) msg = `Filter "${unknownFilter[1]}" is not allowed.`;
  return msg.replace(/Twig\.(logic|expression)\.type\./g, '');
}

function guessLine(source: string, err: unknown): number | null {
  const msg = err && typeof err === 'object' && 'message' in err ? String((err as { message: unknown }).message) : '';
  const m = /position (\d+)/.exec(msg) ?? /template:(\d+)/.exec(msg);
  if (m) return lineAt(source, Number(m[1]));
  if (/Unable to find an end tag/.test(msg)) return source.split('\n').length;
  return null;
}

/** Deep copy into null-prototype plain data; functions and exotic objects are dropped. */
export function toSandboxData(value: unknown, depth = 0): unknown {
  if (depth > 20) return null;
  if (value === null || value === undefined) return value;
  const t = typeof value;
  if (t === 'string' || t === 'number' || t === 'boolean') return value;
  if (value instanceof Date) return Math.floor(value.getTime() / 1000);
  if (Array.isArray(value)) return value.map((v) => toSandboxData(v, depth + 1));
  if (t === 'object') {
    const out = Object.create(null) as Record<string, unknown>;
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (!isSafeKey(k) || typeof v === 'function') continue;
      out[k] = toSandboxData(v, depth + 1);
    }
    return out;
  }
  return null;
}

/** Renders a template in the sandbox. Throws TemplateError (TemplateLimitError when it needs too much). */
export function renderTemplate(source: string, context: Record<string, unknown>, lang: 'en' | 'de' = 'en'): string {
  const normalized = normalizeTemplate(source);
  const template = compile(normalized);
  renderLang = lang;
  currentOffset = null;
  steps = 0;
  deadline = performance.now() + RENDER_TIME_MS;
  try {
    const out = template.render(toSandboxData(context) as Record<string, unknown>);
    return typeof out === 'string' ? out : String(out ?? '');
  } catch (err) {
    if (err instanceof TemplateLimitError) {
      err.line ??= lineAt(normalized, currentOffset);
      throw err;
    }
    const msg = friendlyMessage(err);
    const security = /not allowed/.test(msg);
    throw new TemplateError(security ? 'security' : 'runtime', msg, lineAt(normalized, currentOffset));
  } finally {
    deadline = Infinity;
  }
}

const JS_ERROR = 'JavaScript is not allowed in Twig templates.';

/**
 * Finds JavaScript in a template: <script> elements, inline on…= handlers, javascript:/vbscript:
 * URLs. The markup is read with htmlparser2 (linear time, no backtracking regexes).
 */
export function containsJavaScript(source: string): boolean {
  let found = false;
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (name === 'script') found = true;
        for (const [k, v] of Object.entries(attribs)) {
          if (/^on[a-z]/i.test(k) || k === 'srcdoc') found = true;
          const compact = v.replace(/[\u0000-\u0020\u007f-\u009f]+/g, '').toLowerCase();
          if (compact.startsWith('javascript:') || compact.startsWith('vbscript:') || compact.startsWith('data:text/html')) found = true;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(source);
  parser.end();
  if (found) return true;
  // Script-ish text outside tags, e.g. a URL written into an href by a template expression.
  const decoded = source.replace(/&#x0*3a;?|&#0*58;?|&colon;/gi, ':');
  return /<\s*script\b/i.test(decoded) || /\b(?:javascript|vbscript)\s*:/i.test(decoded.replace(/[\t\n\r]+/g, ''));
}

export interface ValidationResult {
  success: boolean;
  error?: string;
  line?: number | null;
}

/**
 * templates/validate: JavaScript check, then normalise and render once in the sandbox with no
 * variables (unknown variables do not fail, as in the reference). Throws only TemplateLimitError.
 */
export function validateTemplate(source: string): ValidationResult {
  if (containsJavaScript(source)) return { success: false, error: JS_ERROR };
  try {
    const out = renderTemplate(source, {});
    // Script assembled by the template itself ("<scr" ~ "ipt>") is refused as well.
    if (containsJavaScript(out)) return { success: false, error: JS_ERROR };
    return { success: true };
  } catch (err) {
    if (err instanceof TemplateLimitError) throw err;
    if (err instanceof TemplateError) return { success: false, error: `Error: ${err.message}`, line: err.line };
    return { success: false, error: `Error: ${err instanceof Error ? err.message : String(err)}` };
  }
}

/** The HTML error summary shown instead of a preview (line, message, offending line), escaped. */
export function errorSummaryHtml(source: string, err: TemplateError): string {
  const normalized = normalizeTemplate(source);
  const lines = normalized.split('\n');
  const line = err.line;
  const offending = line !== null && lines[line - 1] !== undefined ? lines[line - 1] : '';
  return (
    '<div class="sched-template-error">' +
    `<p><strong>Template error${line !== null ? ` on line ${line}` : ''}:</strong> ${escapeHtml(err.message)}</p>` +
    (offending ? `<pre>${escapeHtml(offending)}</pre>` : '') +
    '</div>'
  );
}
