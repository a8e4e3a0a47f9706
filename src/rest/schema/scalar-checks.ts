// The leaf checks of numbers, integers and strings (multipleOf, bounds, lengths, pattern): the
// parts of rest_validate_value_from_schema that look at one value and recurse into nothing.
import { failure, invalidType, type SchemaFailure } from './errors.ts';
import { numberKeyword, type Schema } from './keywords.ts';
import { matchesPattern } from './pcre.ts';
import { codePointLength, countNoun, isNumeric, phpIntString, phpNumberString, toNumber } from './php.ts';

// --- number and integer: multipleOf, then the bounds ----------------------------------------

export function validateNumber(value: unknown, schema: Schema, name: string, typeName: string): SchemaFailure | null {
  if (!isNumeric(value)) return invalidType(name, typeName);
  const n = toNumber(value);

  const multipleOf = numberKeyword(schema, 'multipleOf');
  if (multipleOf !== undefined && n % multipleOf !== 0) {
    return failure('rest_invalid_multiple', `${name} must be a multiple of ${phpNumberString(multipleOf)}.`);
  }
  return validateBounds(n, schema, name);
}

function validateBounds(n: number, schema: Schema, name: string): SchemaFailure | null {
  const min = numberKeyword(schema, 'minimum');
  const max = numberKeyword(schema, 'maximum');
  const exclusiveMin = Boolean(schema.exclusiveMinimum);
  const exclusiveMax = Boolean(schema.exclusiveMaximum);
  const outOfBounds = (text: string) => failure('rest_out_of_bounds', `${name} must be ${text}`);

  if (min !== undefined && max === undefined) {
    if (exclusiveMin && n <= min) return outOfBounds(`greater than ${phpIntString(min)}`);
    if (!exclusiveMin && n < min) return outOfBounds(`greater than or equal to ${phpIntString(min)}`);
  }
  if (max !== undefined && min === undefined) {
    if (exclusiveMax && n >= max) return outOfBounds(`less than ${phpIntString(max)}`);
    if (!exclusiveMax && n > max) return outOfBounds(`less than or equal to ${phpIntString(max)}`);
  }
  if (min !== undefined && max !== undefined) {
    const belowMin = exclusiveMin ? n <= min : n < min;
    const aboveMax = exclusiveMax ? n >= max : n > max;
    if (belowMin || aboveMax) {
      const side = (exclusive: boolean) => (exclusive ? '(exclusive)' : '(inclusive)');
      return outOfBounds(
        `between ${phpIntString(min)} ${side(exclusiveMin)} and ${phpIntString(max)} ${side(exclusiveMax)}`,
      );
    }
  }
  return null;
}

/**
 * Beyond ±(2^53 − 1) a number no longer names one integer (1e16 + 1 reads as 1e16), and
 * nothing this server counts, stores or dates comes near: such an integer is refused, where
 * the reference's PHP would wrap or saturate it (a deliberate difference, docs/decisions.md).
 */
export function unsafeInteger(n: number, name: string): SchemaFailure | null {
  if (Number.isSafeInteger(n)) return null;
  const max = phpIntString(Number.MAX_SAFE_INTEGER);
  return failure('rest_out_of_bounds', `${name} must be between -${max} (inclusive) and ${max} (inclusive)`);
}

// --- string: minLength, maxLength, pattern ---------------------------------------------------

export function validateString(value: unknown, schema: Schema, name: string): SchemaFailure | null {
  if (typeof value !== 'string') return invalidType(name, 'string');

  const minLength = numberKeyword(schema, 'minLength');
  if (minLength !== undefined && codePointLength(value) < minLength) {
    return failure(
      'rest_too_short',
      `${name} must be at least ${countNoun(minLength, 'character', 'characters')} long.`,
    );
  }
  const maxLength = numberKeyword(schema, 'maxLength');
  if (maxLength !== undefined && codePointLength(value) > maxLength) {
    return failure('rest_too_long', `${name} must be at most ${countNoun(maxLength, 'character', 'characters')} long.`);
  }
  if (schema.pattern !== undefined && schema.pattern !== null && !matchesPattern(String(schema.pattern), value)) {
    return failure('rest_invalid_pattern', `${name} does not match pattern ${String(schema.pattern)}.`);
  }
  return null;
}
