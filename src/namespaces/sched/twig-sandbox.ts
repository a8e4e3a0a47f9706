// The template sandbox's private Twig.js instance, the budget of the render in progress and the
// value guards every filter, function, operator and lookup goes through (see twig.ts's header).
import { createRequire } from 'node:module';
import { TemplateLimitError } from './twig-errors.ts';

const require = createRequire(import.meta.url);

// Minimal typing of the parts of Twig.js we use.
export interface TwigTemplate {
  tokens: unknown[];
  render(context: Record<string, unknown>): string;
}
interface TwigExports {
  twig(params: { data: string; rethrow?: boolean; autoescape?: boolean | string; id?: string }): TwigTemplate;
  extendFilter(name: string, fn: (value: unknown, params: unknown[] | false) => unknown): void;
  extend(fn: (twig: TwigInternals) => void): void;
  cache(on: boolean): void;
}
export type Callable = (this: unknown, ...args: any[]) => any;
export interface TwigInternals {
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

/** Keys that reach JavaScript internals or Twig.js's own bookkeeping (`_keys`); refused wherever they appear. */
const FORBIDDEN_KEYS = new Set([
  'constructor',
  '__proto__',
  'prototype',
  '__defineGetter__',
  '__defineSetter__',
  '__lookupGetter__',
  '__lookupSetter__',
  'call',
  'apply',
  'bind',
  'valueOf',
  'toString',
  'toLocaleString',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  '_keys',
]);

// ---- the private Twig.js instance -------------------------------------------------------

const twigFactory = require('twig/src/twig.factory.js') as () => TwigExports;
export const Twig: TwigExports = twigFactory();
export let internals!: TwigInternals;
Twig.extend((t) => {
  internals = t;
});
Twig.cache(false);
internals.cache = false;
// No template is ever loaded from a file or a URL.
for (const k of Object.keys(internals.Templates.loaders)) delete internals.Templates.loaders[k];

/** The render in progress (renders are synchronous): its language, steps taken, deadline and the source offset of the token being rendered, for error line numbers. */
export const run = { lang: 'en' as 'en' | 'de', steps: 0, deadline: Infinity, offset: null as number | null };

// ---- limits ---------------------------------------------------------------------------------

/** Work budget of one render, in steps (see twig.ts's header). */
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

export function charge(units: number): void {
  run.steps += units;
  if (run.steps > MAX_STEPS)
    throw new TemplateLimitError('work', `The template does too much work (more than ${MAX_STEPS} steps).`);
  if (performance.now() > run.deadline)
    throw new TemplateLimitError('time', `The template takes too long (more than ${RENDER_TIME_MS} ms).`);
}
export function chargeText(chars: number): void {
  charge(Math.ceil(chars / CHARS_PER_STEP));
}

/** Length of the text a value prints as (lists joined by commas), counted up to `cap`. */
export function textLength(value: unknown, cap = MAX_OUTPUT): number {
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

export function runtimeError(message: string): Error {
  return new internals.Error(message);
}

/** A value read from data, the context or a template's own objects: never a function. */
export function dataValue<T>(value: T): T {
  if (typeof value === 'function') throw runtimeError('Function values are not allowed in the sandbox.');
  return value;
}

/** A value a filter, function, test or operator made: also within the caps; making it is charged. */
export function made<T>(value: T): T {
  dataValue(value);
  if ((typeof value === 'string' || value instanceof String) && value.length > MAX_STRING) {
    throw new TemplateLimitError('size', `The template produces a text longer than ${MAX_STRING} characters.`);
  }
  if (Array.isArray(value) && value.length > MAX_LIST)
    throw new TemplateLimitError('size', `The template produces a list longer than ${MAX_LIST} items.`);
  chargeText(textLength(value));
  return value;
}

export function isSafeKey(key: unknown): boolean {
  return (
    (typeof key === 'string' || typeof key === 'number') &&
    !FORBIDDEN_KEYS.has(String(key)) &&
    !String(key).startsWith('__')
  );
}

/** Own-property lookup on plain data only. */
export function safeGet(object: unknown, key: unknown): unknown {
  if (object === null || object === undefined) return undefined;
  if (!isSafeKey(key)) throw runtimeError(`Access to "${String(key)}" is not allowed in the sandbox.`);
  if (typeof object === 'string' && key === 'length') return undefined;
  if (typeof object !== 'object') return undefined;
  return Object.hasOwn(object, key as string)
    ? dataValue((object as Record<string, unknown>)[key as string])
    : undefined;
}

// ---- arguments ----------------------------------------------------------------------------

export function paramList(params: unknown): unknown[] {
  return Array.isArray(params) ? params : [];
}

/** A short text argument (mask, separator, format), at most MAX_ARG_TEXT characters. */
export function shortText(value: unknown, what: string): string {
  const s = value === null || value === undefined ? '' : String(value);
  if (s.length > MAX_ARG_TEXT) throw runtimeError(`${what} is limited to ${MAX_ARG_TEXT} characters.`);
  return s;
}

/** A whole-number argument within [min, max]. */
export function wholeNumber(value: unknown, min: number, max: number, what: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max)
    throw runtimeError(`${what} must be a whole number from ${min} to ${max}.`);
  return n;
}

/** Text of a value for the string filters; a list or object prints as Twig.js prints it. */
export function textOf(value: unknown): string {
  return value === null || value === undefined ? '' : String(value);
}

export function occurrences(haystack: string, needle: string): number {
  let n = 0;
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length)) n++;
  return n;
}
