// A small JSON-Schema validator for settings fields, tickets and imports. Field schemas are
// plain JSON Schema (so GET settings/schema can publish them as they are) plus optional
// `x-check` names resolved to the checks below (timezone, colour, date format…).
import { isValidTimeZone } from '../../site/time.ts';
import { ownValue, setOwn } from '../../util.ts';

export interface FieldSchema {
  type?: string | string[];
  enum?: readonly unknown[];
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  items?: FieldSchema;
  properties?: Record<string, FieldSchema>;
  required?: string[];
  additionalProperties?: boolean | FieldSchema;
  description?: string;
  default?: unknown;
  readOnly?: boolean;
  writeOnly?: boolean;
  /** Extra named check (not JSON Schema; removed from the published schema). */
  'x-check'?: CheckName;
  [k: string]: unknown;
}

export type CheckName = 'timezone' | 'color' | 'php-date-format' | 'twig-template' | 'css' | 'locale' | 'date' | 'recipient' | 'css-length' | 'font';

const EMAIL_RE = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;
const HEX_RE = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
const RGBA_RE = /^rgba?\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*(?:,\s*(0|1|0?\.\d+|1\.0+)\s*)?\)$/;

export function isEmail(v: string): boolean {
  return v.length <= 254 && EMAIL_RE.test(v);
}

export function isColor(v: string): boolean {
  if (HEX_RE.test(v)) return true;
  const m = RGBA_RE.exec(v);
  return !!m && [m[1], m[2], m[3]].every((n) => Number(n) <= 255);
}

function runCheck(name: CheckName, value: unknown): string | null {
  if (typeof value !== 'string') return null;
  switch (name) {
    case 'timezone':
      return value === '' || !isValidTimeZone(value) ? `"${value}" is not a valid IANA timezone name` : null;
    case 'color':
      return isColor(value) ? null : `"${value}" is not a colour (#rgb, #rrggbb, rgb() or rgba())`;
    case 'php-date-format':
      return /[<>]/.test(value) ? 'a date format may not contain < or >' : null;
    case 'css':
      return /<\/?\s*(style|script)/i.test(value) || /expression\s*\(|javascript:/i.test(value) ? 'the CSS contains markup or script' : null;
    case 'locale':
      return /^[a-z]{2,3}(_[A-Z]{2})?$/.test(value) ? null : `"${value}" is not a locale such as de_DE`;
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value + 'T00:00:00Z')) && new Date(value + 'T00:00:00Z').toISOString().startsWith(value)
        ? null
        : `"${value}" is not a date YYYY-MM-DD`;
    case 'recipient':
      return isEmail(value) || /^\{\{\s*[A-Za-z_][A-Za-z0-9_.]*\s*\}\}$/.test(value) ? null : `"${value}" is neither an email address nor a template token such as {{customer_email}}`;
    case 'css-length':
      return /^(0|\d+(\.\d+)?(px|rem|em|%|vh|vw|pt))$/.test(value) ? null : `"${value}" is not a CSS length such as 1rem or 12px`;
    case 'font':
      return /^[A-Za-z0-9 ,'"_-]{0,100}$/.test(value) ? null : `"${value}" is not a font family name`;
    case 'twig-template':
      return null; // checked in the template box, before the write (settings.ts checkTemplates)
  }
}

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function typeMatches(t: string, v: unknown): boolean {
  const actual = typeOf(v);
  if (t === 'number') return actual === 'number' || actual === 'integer';
  return t === actual;
}

/**
 * Validates and lightly coerces a value ("true"/"false" strings for booleans, numeric strings
 * for integers, as form-encoded clients send them). Returns the value or collects errors.
 */
export function validateValue(schema: FieldSchema, value: unknown, path: string, errors: string[]): unknown {
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  let v = value;
  if (types.length && !types.some((t) => typeMatches(t, v))) {
    // Coercions for form-encoded input.
    if (types.includes('boolean') && (v === 'true' || v === 'false' || v === '1' || v === '0' || v === 1 || v === 0)) v = v === 'true' || v === '1' || v === 1;
    else if (types.includes('integer') && typeof v === 'string' && /^-?\d{1,15}$/.test(v)) v = Number(v);
    else if (types.includes('number') && typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) v = Number(v);
    else {
      errors.push(`${path} must be of type ${types.join(' or ')}, ${typeOf(value)} given`);
      return value;
    }
  }
  if (schema.enum && !schema.enum.some((e) => e === v)) {
    errors.push(`${path} must be one of ${schema.enum.map((e) => JSON.stringify(e)).join(', ')}`);
    return v;
  }
  if (typeof v === 'string') {
    if (schema.maxLength !== undefined && v.length > schema.maxLength) errors.push(`${path} must be at most ${schema.maxLength} characters long`);
    if (schema.minLength !== undefined && v.length < schema.minLength) errors.push(`${path} must be at least ${schema.minLength} characters long`);
    if (schema.format === 'email' && v !== '' && !isEmail(v)) errors.push(`${path} must be an email address`);
    if (schema.pattern && !new RegExp(schema.pattern).test(v)) errors.push(`${path} does not match the pattern ${schema.pattern}`);
  }
  if (typeof v === 'number') {
    // Beyond 2^53 a number names no one integer (the REST kernel refuses such integers too).
    if (types.includes('integer') && !types.includes('number') && !Number.isSafeInteger(v)) errors.push(`${path} must be an integer between -${Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}`);
    if (schema.minimum !== undefined && v < schema.minimum) errors.push(`${path} must be at least ${schema.minimum}`);
    if (schema.maximum !== undefined && v > schema.maximum) errors.push(`${path} must be at most ${schema.maximum}`);
  }
  if (schema['x-check']) {
    const msg = runCheck(schema['x-check'], v);
    if (msg) errors.push(`${path}: ${msg}`);
  }
  if (Array.isArray(v)) {
    if (schema.maxItems !== undefined && v.length > schema.maxItems) errors.push(`${path} must have at most ${schema.maxItems} items`);
    if (schema.items) v = v.map((item, i) => validateValue(schema.items as FieldSchema, item, `${path}[${i}]`, errors));
  } else if (v && typeof v === 'object' && (schema.properties || schema.additionalProperties !== undefined)) {
    const obj = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const req of schema.required ?? []) if (!Object.hasOwn(obj, req)) errors.push(`${path}.${req} is required`);
    // The keys are the caller's: only the schema's own properties match ("constructor" is no
    // property), and "__proto__" stays an ordinary key of the copy.
    for (const [k, val] of Object.entries(obj)) {
      const ps = schema.properties && ownValue(schema.properties, k);
      if (ps) setOwn(out, k, validateValue(ps, val, `${path}.${k}`, errors));
      else if (schema.additionalProperties === false) errors.push(`${path}.${k} is not a known property`);
      else if (schema.additionalProperties && typeof schema.additionalProperties === 'object') setOwn(out, k, validateValue(schema.additionalProperties, val, `${path}.${k}`, errors));
      else setOwn(out, k, val);
    }
    v = out;
  }
  return v;
}

/** The schema as published (JSON Schema only: our `x-check` becomes a description hint). */
export function publishSchema(schema: FieldSchema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, val] of Object.entries(schema)) {
    if (k === 'x-check') {
      if (val === 'color') out.pattern ??= '^(#[0-9a-fA-F]{3,8}|rgba?\\(.*\\))$';
      out['x-format'] = val;
      continue;
    }
    if (k === 'items' && val) out.items = publishSchema(val as FieldSchema);
    else if (k === 'properties' && val) out.properties = Object.fromEntries(Object.entries(val as Record<string, FieldSchema>).map(([p, s]) => [p, publishSchema(s)]));
    else if (k === 'additionalProperties' && val && typeof val === 'object') out.additionalProperties = publishSchema(val as FieldSchema);
    else out[k] = val;
  }
  return out;
}

/**
 * The strings in `value` that `schema` marks with `check`, with their paths, for checks that
 * run elsewhere (templates: in the template box). Strings and lists beyond their schema's
 * bounds are left out: the schema check refuses them anyway.
 */
export function collectChecked(schema: FieldSchema, value: unknown, path: string, check: CheckName, out: { path: string; source: string }[] = []): { path: string; source: string }[] {
  if (typeof value === 'string') {
    if (schema['x-check'] === check && value.length <= (schema.maxLength ?? Infinity)) out.push({ path, source: value });
  } else if (Array.isArray(value)) {
    const items = schema.items;
    if (items) value.slice(0, schema.maxItems ?? value.length).forEach((item, i) => collectChecked(items, item, `${path}[${i}]`, check, out));
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const ps = schema.properties && Object.hasOwn(schema.properties, k) ? schema.properties[k] : typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
      if (ps) collectChecked(ps, v, `${path}.${k}`, check, out);
    }
  }
  return out;
}
