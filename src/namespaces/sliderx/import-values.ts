// The checks of single values of imported slider data (import-check.ts walks the documents):
// each returns the value, or a fallback and the problem (`path: message`) in `Issues`. Numbers,
// booleans and enums use the kernel's document check, so that JSON is never coerced.
import { checkDocument, type DocumentSchema } from '../../rest/schema/documents.ts';
import type { Text } from './model.ts';

const MAX_TEXT = 5000;

/** Collects problems as `path: message`. */
export class Issues {
  list: string[] = [];
  add(path: string, message: string): void {
    this.list.push(`${path}: ${message}`);
  }
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function checkText(v: unknown, path: string, issues: Issues, required: boolean): Text | undefined {
  if (v === undefined || v === null) {
    if (required) issues.add(path, 'is required');
    return undefined;
  }
  if (typeof v === 'string') {
    if ([...v].length > MAX_TEXT) issues.add(path, `must be at most ${MAX_TEXT} characters`);
    if (required && v.trim() === '') issues.add(path, 'must not be empty');
    return v;
  }
  if (isObject(v)) {
    const out: { en?: string; de?: string } = {};
    const keys = Object.keys(v);
    if (!keys.length) issues.add(path, 'needs an "en" or "de" text');
    for (const k of keys) {
      if (k !== 'en' && k !== 'de') {
        issues.add(`${path}.${k}`, 'is not a language of the site (en, de)');
        continue;
      }
      const s = v[k];
      if (typeof s !== 'string') issues.add(`${path}.${k}`, 'must be a string');
      else if ([...s].length > MAX_TEXT) issues.add(`${path}.${k}`, `must be at most ${MAX_TEXT} characters`);
      else out[k] = s;
    }
    return out;
  }
  issues.add(path, 'must be a string or an object {"en": …, "de": …}');
  return undefined;
}

/** '' or an http(s) URL or a site-relative path. */
export function checkUrl(v: unknown, path: string, issues: Issues, required = false): string {
  if (v === undefined || v === null || v === '') {
    if (required) issues.add(path, 'is required');
    return '';
  }
  if (typeof v !== 'string') {
    issues.add(path, 'must be a URL string');
    return '';
  }
  if (v.length > 2000) {
    issues.add(path, 'must be at most 2000 characters');
    return '';
  }
  if (v.startsWith('/') && !v.startsWith('//') && !/[\s\\]/.test(v)) return v;
  try {
    const u = new URL(v);
    if (u.protocol === 'http:' || u.protocol === 'https:') return v;
  } catch {
    /* reported below */
  }
  issues.add(path, 'must be an http(s) URL or a path starting with /');
  return '';
}

/** Whether an imported value (JSON: never coerced) fits the schema of the kernel's document check. */
function fits(schema: DocumentSchema, v: unknown): boolean {
  const problems: string[] = [];
  checkDocument(schema, v, '', problems, { coerce: false });
  return problems.length === 0;
}

export function checkInt(v: unknown, path: string, issues: Issues, min: number, max: number, fallback: number): number {
  if (v === undefined) return fallback;
  if (!fits({ type: 'integer', minimum: min, maximum: max }, v)) {
    issues.add(path, `must be an integer from ${min} to ${max}`);
    return fallback;
  }
  return v as number;
}

export function checkBool(v: unknown, path: string, issues: Issues, fallback: boolean): boolean {
  if (v === undefined) return fallback;
  if (!fits({ type: 'boolean' }, v)) {
    issues.add(path, 'must be true or false');
    return fallback;
  }
  return v as boolean;
}

export function checkEnum<T extends string>(
  v: unknown,
  path: string,
  issues: Issues,
  values: readonly T[],
  fallback: T,
): T {
  if (v === undefined) return fallback;
  if (!fits({ type: 'string', enum: values }, v)) {
    issues.add(path, `must be one of ${values.join(', ')}`);
    return fallback;
  }
  return v as T;
}

export function unknownKeys(obj: Record<string, unknown>, allowed: string[], path: string, issues: Issues): void {
  for (const k of Object.keys(obj)) if (!allowed.includes(k)) issues.add(`${path}.${k}`, 'is not a known field');
}
