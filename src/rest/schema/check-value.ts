// The schema engine's entry points, what the pipeline and the tests call: validate, sanitise, or
// both in turn, each behind the depth guard. The recursive walks they start are in engine.ts.
import type { ArgSchema } from '../types.ts';
import { SchemaFailure, failure, plainError, type SchemaError } from './errors.ts';
import { sanitize, validate } from './engine.ts';
import { isPlainObject } from './php.ts';

/** Deeper values are refused before any check (PHP's json_decode refuses them at 512 too). */
export const MAX_VALUE_DEPTH = 512;

export function validateValue(value: unknown, schema: ArgSchema, name: string): SchemaError | null {
  const error = tooDeep(value, name) ?? validate(value, schema, name);
  return error && plainError(error);
}

/** Sanitises without validating first; returns a SchemaFailure when the value cannot be sanitised. */
export function sanitizeValue(value: unknown, schema: ArgSchema, name: string): unknown {
  return tooDeep(value, name) ?? sanitize(value, schema, name);
}

/** validate, then sanitise: what the pipeline does for typed args without custom callbacks */
export function checkValue(
  value: unknown,
  schema: ArgSchema,
  name: string,
): { ok: true; value: unknown } | { ok: false; error: SchemaError } {
  const error = validateValue(value, schema, name);
  if (error) return { ok: false, error };
  const sanitized = sanitize(value, schema, name); // depth already checked
  if (sanitized instanceof SchemaFailure) return { ok: false, error: plainError(sanitized) };
  return { ok: true, value: sanitized };
}

/** Iterative depth check, so hostile nesting cannot overflow the stack of the recursive checks. */
function tooDeep(value: unknown, name: string): SchemaFailure | null {
  let level: unknown[] = [value];
  for (let depth = 0; level.length > 0; depth++) {
    if (depth > MAX_VALUE_DEPTH) return failure('rest_invalid_param', `${name} is nested too deeply.`, { param: name });
    const next: unknown[] = [];
    for (const v of level) {
      if (Array.isArray(v)) {
        for (const item of v) if (typeof item === 'object' && item !== null) next.push(item);
      } else if (isPlainObject(v)) {
        for (const key of Object.keys(v)) {
          const item = v[key];
          if (typeof item === 'object' && item !== null) next.push(item);
        }
      }
    }
    level = next;
  }
  return null;
}
