// A small JSON-Schema check for the documents features store (sched's settings sections,
// sliderx's imports): unlike the REST engine it collects every problem as a message
// (`path must be …`) and returns the value, lightly coerced where form-encoded input asks for it.
// Formats are the REST core's (formats.ts); `x-check` names are the caller's own checks.
import { ownValue, setOwn } from '../../util.ts';
import { matchesFormat } from './formats.ts';

export interface DocumentSchema<Check extends string = string> {
  type?: string | string[];
  enum?: readonly unknown[];
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  items?: DocumentSchema<Check>;
  properties?: Record<string, DocumentSchema<Check>>;
  required?: string[];
  additionalProperties?: boolean | DocumentSchema<Check>;
  description?: string;
  default?: unknown;
  readOnly?: boolean;
  writeOnly?: boolean;
  /** Extra named check (not JSON Schema), run by the caller's `check`. */
  'x-check'?: Check;
  [k: string]: unknown;
}

export interface DocumentCheckOptions<Check extends string> {
  /** "true"/"false" for booleans, numeric strings for numbers (form-encoded input); default true. */
  coerce?: boolean;
  /** Runs an `x-check`: a message when the value fails it. */
  check?: (name: Check, value: unknown) => string | null;
}

const HEX_CSS_COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
const RGBA = /^rgba?\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*(?:,\s*(0|1|0?\.\d+|1\.0+)\s*)?\)$/;

/** A CSS colour: #rgb, #rgba, #rrggbb, #rrggbbaa, rgb() or rgba() with channels up to 255. */
export function isCssColor(text: string): boolean {
  if (HEX_CSS_COLOR.test(text)) return true;
  const m = RGBA.exec(text);
  return !!m && [m[1], m[2], m[3]].every((n) => Number(n) <= 255);
}

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function typeMatches(t: string, v: unknown): boolean {
  const actual = jsonType(v);
  if (t === 'number') return actual === 'number' || actual === 'integer';
  return t === actual;
}

function coerced(types: string[], v: unknown): { value: unknown } | null {
  if (types.includes('boolean') && (v === 'true' || v === 'false' || v === '1' || v === '0' || v === 1 || v === 0))
    return { value: v === 'true' || v === '1' || v === 1 };
  if (types.includes('integer') && typeof v === 'string' && /^-?\d{1,15}$/.test(v)) return { value: Number(v) };
  if (types.includes('number') && typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)))
    return { value: Number(v) };
  return null;
}

/** Checks `value` against `schema`, pushing each problem onto `errors`; returns the (coerced) value. */
export function checkDocument<Check extends string>(
  schema: DocumentSchema<Check>,
  value: unknown,
  path: string,
  errors: string[],
  options: DocumentCheckOptions<Check> = {},
): unknown {
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  let v = value;
  if (types.length && !types.some((t) => typeMatches(t, v))) {
    const form = options.coerce === false ? null : coerced(types, v);
    if (!form) {
      errors.push(`${path} must be of type ${types.join(' or ')}, ${jsonType(value)} given`);
      return value;
    }
    v = form.value;
  }
  if (schema.enum && !schema.enum.some((e) => e === v)) {
    errors.push(`${path} must be one of ${schema.enum.map((e) => JSON.stringify(e)).join(', ')}`);
    return v;
  }
  if (typeof v === 'string') {
    if (schema.maxLength !== undefined && v.length > schema.maxLength)
      errors.push(`${path} must be at most ${schema.maxLength} characters long`);
    if (schema.minLength !== undefined && v.length < schema.minLength)
      errors.push(`${path} must be at least ${schema.minLength} characters long`);
    if (schema.format !== undefined && v !== '' && !matchesFormat(schema.format, v))
      errors.push(`${path} must be ${schema.format === 'email' ? 'an email address' : `of format ${schema.format}`}`);
    if (schema.pattern && !new RegExp(schema.pattern).test(v))
      errors.push(`${path} does not match the pattern ${schema.pattern}`);
  }
  if (typeof v === 'number') {
    // Beyond 2^53 a number names no one integer (the REST kernel refuses such integers too).
    if (types.includes('integer') && !types.includes('number') && !Number.isSafeInteger(v))
      errors.push(`${path} must be an integer between -${Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}`);
    if (schema.minimum !== undefined && v < schema.minimum) errors.push(`${path} must be at least ${schema.minimum}`);
    if (schema.maximum !== undefined && v > schema.maximum) errors.push(`${path} must be at most ${schema.maximum}`);
  }
  if (schema['x-check'] && options.check) {
    const msg = options.check(schema['x-check'], v);
    if (msg) errors.push(`${path}: ${msg}`);
  }
  if (Array.isArray(v)) {
    if (schema.maxItems !== undefined && v.length > schema.maxItems)
      errors.push(`${path} must have at most ${schema.maxItems} items`);
    const items = schema.items;
    if (items) v = v.map((item, i) => checkDocument(items, item, `${path}[${i}]`, errors, options));
  } else if (v && typeof v === 'object' && (schema.properties || schema.additionalProperties !== undefined)) {
    const obj = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const req of schema.required ?? []) if (!Object.hasOwn(obj, req)) errors.push(`${path}.${req} is required`);
    // The keys are the caller's: only the schema's own properties match ("constructor" is no
    // property), and "__proto__" stays an ordinary key of the copy.
    for (const [k, val] of Object.entries(obj)) {
      const ps = schema.properties && ownValue(schema.properties, k);
      if (ps) setOwn(out, k, checkDocument(ps, val, `${path}.${k}`, errors, options));
      else if (schema.additionalProperties === false) errors.push(`${path}.${k} is not a known property`);
      else if (schema.additionalProperties && typeof schema.additionalProperties === 'object')
        setOwn(out, k, checkDocument(schema.additionalProperties, val, `${path}.${k}`, errors, options));
      else setOwn(out, k, val);
    }
    v = out;
  }
  return v;
}
