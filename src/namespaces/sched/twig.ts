// A sandboxed Twig engine for notification and calendar templates (reference plugins.md §2.4).
//
// Twig.js has no sandbox of its own, so this module builds one around a private Twig.js
// instance (the package's factory, so the global instance stays untouched):
// - a static check of the compiled token tree before anything runs: only the allowed tags,
//   filters and functions; no method calls (`a.b()`), no `_self` / `_context`, no keys such
//   as `constructor` or `__proto__`;
// - runtime guards: attribute access sees only own properties of plain data, and a value that
//   is a function is never called; file loaders are removed, so nothing can be read from disk;
// - the render context is deep-copied into null-prototype objects of plain data.
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
interface TwigInternals {
  Error: new (message: string) => Error;
  Templates: { loaders: Record<string, unknown>; registry: Record<string, unknown> };
  expression: {
    handler: Record<string, { parse: (...args: any[]) => unknown }>;
    parseAsync: (...args: any[]) => unknown;
    resolveAsync: (...args: any[]) => unknown;
    type: Record<string, any>;
  };
  logic: { parseAsync: (...args: any[]) => unknown };
  filter: ((...args: any[]) => unknown) & { extend: (...args: any[]) => unknown };
  ParseState: { prototype: { parseAsync: (...args: any[]) => unknown } };
  functions: Record<string, unknown>;
  filters: Record<string, unknown>;
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

/** Keys that reach JavaScript internals; refused wherever they appear. */
const FORBIDDEN_KEYS = new Set([
  'constructor', '__proto__', 'prototype', '__defineGetter__', '__defineSetter__', '__lookupGetter__', '__lookupSetter__',
  'call', 'apply', 'bind', 'valueOf', 'toString', 'toLocaleString', 'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable',
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

/** An error of a template: syntax, sandbox policy or runtime. `line` is 1-based when known. */
export class TemplateError extends Error {
  kind: 'syntax' | 'security' | 'runtime';
  line: number | null;
  constructor(kind: 'syntax' | 'security' | 'runtime', message: string, line: number | null) {
    super(message);
    this.kind = kind;
    this.line = line;
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
// Functions outside the allow-list are removed from this instance altogether.
for (const k of Object.keys(internals.functions)) if (!(ALLOWED_FUNCTIONS as readonly string[]).includes(k)) delete internals.functions[k];

/** Position (offset in the source) of the token being rendered, for error line numbers. */
let currentOffset: number | null = null;

// Resource limits: a template cannot exhaust memory or time.
export const MAX_STEPS = 50_000;
export const MAX_STRING = 256 * 1024;
export const MAX_RANGE = 1000;
let steps = 0;
function step(): void {
  if (++steps > MAX_STEPS) throw new internals.Error(`The template does too much work (more than ${MAX_STEPS} steps).`);
}
function checkSize(v: unknown): void {
  if (typeof v === 'string' && v.length > MAX_STRING) throw new internals.Error(`The template produces a text longer than ${MAX_STRING} characters.`);
  if (Array.isArray(v) && v.length > MAX_RANGE * 10) throw new internals.Error('The template produces a list that is too long.');
}

function isSafeKey(key: unknown): boolean {
  return (typeof key === 'string' || typeof key === 'number') && !FORBIDDEN_KEYS.has(String(key)) && !String(key).startsWith('__');
}

/** Own-property lookup on plain data only. */
function safeGet(object: unknown, key: unknown): unknown {
  if (object === null || object === undefined) return undefined;
  if (!isSafeKey(key)) throw new internals.Error(`Access to "${String(key)}" is not allowed in the sandbox.`);
  if (typeof object === 'string' && key === 'length') return undefined;
  if (typeof object !== 'object') return undefined;
  return Object.prototype.hasOwnProperty.call(object, key as string) ? (object as Record<string, unknown>)[key as string] : undefined;
}

{
  const T = internals.expression.type;
  const P = internals.Promise;
  // Values are resolved, never called.
  internals.expression.resolveAsync = function (value: unknown) {
    if (typeof value === 'function') throw new internals.Error('Calling methods is not allowed in the sandbox.');
    return P.resolve(value);
  };
  const period = internals.expression.handler[T.key.period];
  period.parse = function (token: { key: string; params?: unknown }, stack: unknown[]) {
    if (token.params) throw new internals.Error('Calling methods is not allowed in the sandbox.');
    const object = stack.pop();
    stack.push(safeGet(object, token.key));
    return P.resolve(undefined);
  };
  const brackets = internals.expression.handler[T.key.brackets];
  const origParseAsync = internals.expression.parseAsync;
  brackets.parse = function (this: unknown, token: { stack: unknown[]; params?: unknown }, stack: unknown[], context: unknown) {
    if (token.params) throw new internals.Error('Calling methods is not allowed in the sandbox.');
    const object = stack.pop();
    return (origParseAsync.call(this, token.stack, context) as Promise<unknown>).then((key) => {
      const v = safeGet(object, key);
      stack.push(v === undefined ? null : v);
    });
  };
  internals.expression.parseAsync = function (this: unknown, tokens: unknown, ...rest: unknown[]) {
    step();
    const first = Array.isArray(tokens) ? (tokens[0] as { position?: { start: number } } | undefined) : undefined;
    if (first?.position) currentOffset = first.position.start;
    return origParseAsync.call(this, tokens, ...rest);
  };
  const origLogic = internals.logic.parseAsync;
  internals.logic.parseAsync = function (this: unknown, token: { position?: { start: number } }, ...rest: unknown[]) {
    step();
    if (token?.position) currentOffset = token.position.start;
    return origLogic.call(this, token, ...rest);
  };
  // Every block body parsed (each loop iteration included) counts as a step.
  const origState = internals.ParseState.prototype.parseAsync;
  internals.ParseState.prototype.parseAsync = function (this: unknown, ...args: unknown[]) {
    step();
    return origState.apply(this, args);
  };
  const operator = (internals.expression as unknown as { operator: { parse: (op: string, stack: unknown[]) => unknown } }).operator;
  const origOperator = operator.parse;
  operator.parse = function (this: unknown, op: string, stack: unknown[]) {
    const r = origOperator.call(this, op, stack);
    checkSize(stack[stack.length - 1]);
    return r;
  };
  const origFilter = internals.filter;
  const wrapped = Object.assign(function (this: unknown, ...args: unknown[]) {
    const r = origFilter.apply(this, args);
    checkSize(r);
    return r;
  }, origFilter);
  internals.filter = wrapped;
  const origRange = internals.functions.range as (low: unknown, high: unknown, step?: unknown) => unknown[];
  internals.functions.range = function (this: unknown, low: unknown, high: unknown, stepBy?: unknown) {
    const lo = Number(low);
    const hi = Number(high);
    const st = Math.abs(Number(stepBy ?? 1)) || 1;
    if (Number.isFinite(lo) && Number.isFinite(hi) && Math.abs(hi - lo) / st > MAX_RANGE) throw new internals.Error(`range() is limited to ${MAX_RANGE} items.`);
    if (typeof low === 'number' && !Number.isFinite(hi) && typeof high === 'number') throw new internals.Error('range() needs finite bounds.');
    return origRange.call(this, low, high, stepBy);
  };
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
  const s = value === null || value === undefined ? '' : String(value);
  return renderLang === 'de' ? (ownValue(TRANSLATIONS, s) ?? s) : s;
});
Twig.extendFilter('internationalize', (value) => {
  const s = value === null || value === undefined ? '' : String(value);
  if (renderLang !== 'de') return s;
  return s.replace(/\b(January|February|March|May|June|July|October|December|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)\b/g, (m) => MONTHS_DE[m] ?? m);
});
// `date` with PHP formats, in UTC unless a timezone is given (reference: the Twig timezone is
// UTC), names localized to the render language. Twig.js's own filter would use the process's
// local timezone.
Twig.extendFilter('date', (value, params) => {
  const p = Array.isArray(params) ? params : [];
  const format = typeof p[0] === 'string' && p[0] !== '' ? p[0] : 'F j, Y H:i';
  const tz = typeof p[1] === 'string' && p[1] !== '' ? p[1] : 'UTC';
  if (!isValidTimeZone(tz)) throw new internals.Error(`Unknown timezone "${tz}".`);
  let d: Date;
  if (value instanceof Date) d = value;
  else if (typeof value === 'number') d = new Date(value * 1000);
  else if (value === null || value === undefined || value === '' || value === 'now') d = new Date();
  else if (typeof value === 'string' && /^\d+$/.test(value)) d = new Date(Number(value) * 1000);
  else if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$/.test(value)) d = new Date(value.replace(' ', 'T') + (value.length > 10 ? 'Z' : 'T00:00:00Z'));
  else if (typeof value === 'string') d = new Date(value);
  else throw new internals.Error('Unable to parse the date.');
  if (Number.isNaN(d.getTime())) throw new internals.Error(`Unable to parse the date "${String(value)}".`);
  return formatPhpDate(d, format, tz, renderLang);
});
Twig.extendFilter('link', (value, params) => {
  const url = value === null || value === undefined ? '' : String(value);
  const label = Array.isArray(params) && params.length ? String(params[0]) : url;
  if (!/^(https?:|mailto:|tel:)/i.test(url)) return escapeHtml(label);
  return `<a href="${escapeHtml(url)}">${escapeHtml(label)}</a>`;
});

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' })[c] as string);
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
    }
  }
  if (obj.key !== undefined && type === 'Twig.logic.type.set' && !isSafeKey(obj.key)) fail(`Setting "${obj.key}" is not allowed.`);
  for (const [k, v] of Object.entries(obj)) if (k !== 'position' && k !== 'match' && v && typeof v === 'object') checkTree(v, source, pos);
}

/** Most tags a template may have (Twig.js compiles in quadratic time). */
export const MAX_TAGS = 2000;

function countTags(source: string): number {
  let n = 0;
  for (let i = source.indexOf('{'); i !== -1 && i < source.length - 1; i = source.indexOf('{', i + 1)) {
    const c = source[i + 1];
    if (c === '{' || c === '%' || c === '#') {
      n++;
      i++;
    }
  }
  return n;
}

function compile(source: string): TwigTemplate {
  if (countTags(source) > MAX_TAGS) throw new TemplateError('syntax', `The template has more than ${MAX_TAGS} tags.`, null);
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

/** Renders a template in the sandbox. Throws TemplateError. */
export function renderTemplate(source: string, context: Record<string, unknown>, lang: 'en' | 'de' = 'en'): string {
  const normalized = normalizeTemplate(source);
  const template = compile(normalized);
  renderLang = lang;
  currentOffset = null;
  steps = 0;
  try {
    const out = template.render(toSandboxData(context) as Record<string, unknown>);
    const text = typeof out === 'string' ? out : String(out ?? '');
    if (text.length > MAX_STRING * 4) throw new internals.Error('The rendered template is too long.');
    return text;
  } catch (err) {
    const msg = friendlyMessage(err);
    const security = /not allowed/.test(msg);
    throw new TemplateError(security ? 'security' : 'runtime', msg, lineAt(normalized, currentOffset));
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
 * variables (unknown variables do not fail, as in the reference). Never throws.
 */
export function validateTemplate(source: string): ValidationResult {
  if (containsJavaScript(source)) return { success: false, error: JS_ERROR };
  try {
    const out = renderTemplate(source, {});
    // Script assembled by the template itself ("<scr" ~ "ipt>") is refused as well.
    if (containsJavaScript(out)) return { success: false, error: JS_ERROR };
    return { success: true };
  } catch (err) {
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
