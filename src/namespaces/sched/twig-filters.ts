// The sandbox's filters and functions: SSA's own (trans, internationalize, date, link) and bounded
// versions of Twig.js's, installed as null-prototype tables of the allowed names only.
import { escapeHtml } from '../../site/html.ts';
import { isValidTimeZone } from '../../site/time.ts';
import { ownValue } from '../../util.ts';
import { formatPhpDate } from './dates.ts';
import { TemplateLimitError } from './twig-errors.ts';
import { ALLOWED_FILTERS, ALLOWED_FUNCTIONS, ALLOWED_TESTS } from './twig-policy.ts';
import {
  charge,
  chargeText,
  internals,
  made,
  MAX_ARG_TEXT,
  MAX_DECIMALS,
  MAX_LIST,
  MAX_RANGE,
  MAX_STRING,
  occurrences,
  paramList,
  run,
  runtimeError,
  shortText,
  textLength,
  textOf,
  Twig,
  wholeNumber,
  type Callable,
} from './twig-sandbox.ts';

const TRANSLATIONS: Record<string, string> = {
  'Appointment Details': 'Termindetails',
  Date: 'Datum',
  Time: 'Uhrzeit',
  Name: 'Name',
  Email: 'E-Mail',
  Phone: 'Telefon',
  'Cancel or reschedule': 'Absagen oder verschieben',
  'Add to Calendar': 'Zum Kalender hinzufügen',
  Location: 'Ort',
  Instructions: 'Hinweise',
  'Your appointment': 'Ihr Termin',
  Hello: 'Hallo',
  'Thank you': 'Vielen Dank',
};
const MONTHS_DE: Record<string, string> = {
  January: 'Januar',
  February: 'Februar',
  March: 'März',
  May: 'Mai',
  June: 'Juni',
  July: 'Juli',
  October: 'Oktober',
  December: 'Dezember',
  Monday: 'Montag',
  Tuesday: 'Dienstag',
  Wednesday: 'Mittwoch',
  Thursday: 'Donnerstag',
  Friday: 'Freitag',
  Saturday: 'Samstag',
  Sunday: 'Sonntag',
};

Twig.extendFilter('trans', (value) => {
  const s = textOf(value);
  return run.lang === 'de' ? (ownValue(TRANSLATIONS, s) ?? s) : s;
});
Twig.extendFilter('internationalize', (value) => {
  const s = textOf(value);
  if (run.lang !== 'de') return s;
  return s.replace(
    /\b(January|February|March|May|June|July|October|December|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)\b/g,
    (m) => MONTHS_DE[m] ?? m,
  );
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
  else if (typeof value === 'string' && value.length > MAX_ARG_TEXT)
    throw runtimeError(`A date is limited to ${MAX_ARG_TEXT} characters.`);
  else if (typeof value === 'string' && /^\d+$/.test(value)) d = new Date(Number(value) * 1000);
  else if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$/.test(value))
    d = new Date(value.replace(' ', 'T') + (value.length > 10 ? 'Z' : 'T00:00:00Z'));
  else if (typeof value === 'string') d = new Date(value);
  else throw runtimeError('Unable to parse the date.');
  if (Number.isNaN(d.getTime())) throw runtimeError(`Unable to parse the date "${String(value)}".`);
  return formatPhpDate(d, format, tz, run.lang);
});
Twig.extendFilter('link', (value, params) => {
  const url = textOf(value);
  const label = Array.isArray(params) && params.length ? textOf(params[0]) : url;
  if (!/^(https?:|mailto:|tel:)/i.test(url)) return escapeHtml(label);
  return `<a href="${escapeHtml(url)}">${escapeHtml(label)}</a>`;
});

// ---- bounded filters and functions ----------------------------------------------------------
// Twig.js's versions of these loop without end (`split('', 0)`, a negative `range` step), cost
// the product of their arguments (`trim` masks, `striptags`), or make texts as long as an
// argument says (`number_format` decimals, `join`/`replace` with long texts).

const TRIM_WHITESPACE =
  ' \n\r\t\f\u000B\u00A0\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u200b\u2028\u2029\u3000';

/** `trim(mask, side)`: linear in the text; the mask is a short text. */
function trimFilter(value: unknown, params: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  const p = paramList(params);
  const mask = new Set((p[0] ? shortText(p[0], 'A trim mask') : TRIM_WHITESPACE).split(''));
  const side = p[1] === undefined || p[1] === null ? 'both' : String(p[1]);
  if (side !== 'both' && side !== 'left' && side !== 'right')
    throw runtimeError('trim: the side must be "left", "right" or "both".');
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
  if (typeof value !== 'string' && !(value instanceof String))
    throw runtimeError('split filter expects value to be a string');
  const s = String(value);
  const delimiter = textOf(p[0]);
  const limit =
    p[1] === undefined || p[1] === null ? null : wholeNumber(p[1], -MAX_STRING, MAX_STRING, 'The split limit');
  if (delimiter === '') {
    const size = limit ?? 1;
    if (size < 1)
      throw runtimeError('split: with an empty delimiter the limit is the chunk size and must be at least 1.');
    if (Math.ceil(s.length / size) > MAX_LIST)
      throw new TemplateLimitError('size', `The template produces a list longer than ${MAX_LIST} items.`);
    const chunks: string[] = [];
    for (let i = 0; i < s.length; i += size) chunks.push(s.slice(i, i + size));
    return chunks;
  }
  if (occurrences(s, delimiter) + 1 > MAX_LIST)
    throw new TemplateLimitError('size', `The template produces a list longer than ${MAX_LIST} items.`);
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
    if (typeof to === 'function' || (to !== null && typeof to === 'object' && !(to instanceof String)))
      throw runtimeError('replace: every replacement must be a text or a number.');
    const toText = textOf(to);
    const count = occurrences(s, from);
    if (count === 0) continue;
    const length = s.length + count * (toText.length - from.length);
    if (length > MAX_STRING)
      throw new TemplateLimitError('size', `The template produces a text longer than ${MAX_STRING} characters.`);
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
  const allowed = new Set(
    [
      ...shortText(paramList(params)[0], 'The allowed tags')
        .toLowerCase()
        .matchAll(/<([a-z][a-z0-9]*)>/g),
    ].map((m) => m[1]),
  );
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
  const bound = (v: unknown) =>
    chars
      ? (v as string).charCodeAt(0)
      : numeric(low) && numeric(high)
        ? Math.trunc(Number(v))
        : numeric(v)
          ? Number(v)
          : 0;
  const from = bound(low);
  const to = bound(high);
  if (!Number.isFinite(from) || !Number.isFinite(to)) throw runtimeError('range() needs finite bounds.');
  if (Math.abs(to - from) / by > MAX_RANGE) throw runtimeError(`range() is limited to ${MAX_RANGE} items.`);
  const direction = from <= to ? 1 : -1;
  const out: unknown[] = [];
  for (let v = from; direction > 0 ? v <= to : v >= to; v += direction * by)
    out.push(chars ? String.fromCharCode(v) : v);
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
    const decimals =
      p[0] === undefined || p[0] === null || p[0] === ''
        ? 0
        : Math.abs(wholeNumber(p[0], -MAX_DECIMALS, MAX_DECIMALS, 'number_format: the decimals'));
    return twigFilters.number_format(value, [
      decimals,
      p[1] === undefined ? '.' : shortText(p[1], 'A decimal point'),
      p[2] === undefined ? ',' : shortText(p[2], 'A thousands separator'),
    ]);
  },
  round(value, params) {
    const p = paramList(params);
    const precision = p[0] === undefined ? 0 : wholeNumber(p[0], -MAX_DECIMALS, MAX_DECIMALS, 'round: the precision');
    const method = p[1] === undefined ? 'common' : String(p[1]);
    if (method !== 'common' && method !== 'floor' && method !== 'ceil')
      throw runtimeError('round: the method must be "common", "floor" or "ceil".');
    return twigFilters.round(value, [precision, method]);
  },
  join(value, params) {
    if (value === null || value === undefined) return undefined;
    const separator = paramList(params)[0];
    const items = Array.isArray(value)
      ? value
      : Object.keys(Object(value))
          .filter((k) => k !== '_keys')
          .map((k) => (value as Record<string, unknown>)[k]);
    if (
      textLength(items, MAX_STRING) + Math.max(0, items.length - 1) * (textLength(separator, MAX_STRING) - 1) >
      MAX_STRING
    ) {
      throw new TemplateLimitError('size', `The template produces a text longer than ${MAX_STRING} characters.`);
    }
    return twigFilters.join(value, params);
  },
};

const BOUNDED_FUNCTIONS: Record<string, Callable> = {
  range: rangeFunction,
  date(value, ...rest) {
    if (typeof value === 'string' && value.length > MAX_ARG_TEXT)
      throw runtimeError(`A date is limited to ${MAX_ARG_TEXT} characters.`);
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
function sandboxTable(
  names: readonly string[],
  bounded: Record<string, Callable>,
  original: Record<string, Callable>,
): Record<string, Callable> {
  const table = Object.create(null) as Record<string, Callable>;
  for (const name of names) {
    const fn = Object.hasOwn(bounded, name) ? bounded[name] : original[name];
    if (typeof fn !== 'function') throw new Error(`twig-filters.ts: Twig.js has no "${name}"`);
    table[name] = function (this: unknown, ...args: unknown[]) {
      charge(1);
      chargeText(textLength(args));
      return made(fn.apply(this, args));
    };
  }
  return table;
}

const FILTERS = sandboxTable(ALLOWED_FILTERS, BOUNDED_FILTERS, twigFilters);
export const FUNCTIONS = sandboxTable(ALLOWED_FUNCTIONS, BOUNDED_FUNCTIONS, twigFunctions);
const TESTS = sandboxTable(ALLOWED_TESTS, {}, internals.tests);
internals.filters = FILTERS;
internals.functions = FUNCTIONS;
internals.tests = TESTS;
internals.filter = Object.assign(
  function (this: unknown, name: string, value: unknown, params: unknown) {
    if (!Object.hasOwn(FILTERS, name)) throw runtimeError(`Filter "${name}" is not allowed.`);
    return FILTERS[name].call(this, value, params);
  },
  { extend: internals.filter.extend },
);
internals.test = function (name: string, value: unknown, params: unknown) {
  if (!Object.hasOwn(TESTS, name)) throw runtimeError(`Test "${name}" is not allowed.`);
  return Boolean(TESTS[name].call(TESTS, value, params));
};
