// Schemas as the engine reads them. Keyword values of the wrong kind count as absent (PHP's
// isset()/is_array() checks), so a malformed schema never makes the engine throw.
import { matchesPattern } from './pcre.ts';
import {
  isArrayLike,
  isBooleanLike,
  isIntegerLike,
  isNull,
  isNumeric,
  isObjectLike,
  isPlainObject,
  toNumber,
} from './php.ts';

export type Schema = Record<string, unknown>;
type TypeKeyword = string | string[] | undefined;

const BUILT_IN_TYPES = ['array', 'object', 'string', 'number', 'integer', 'boolean', 'null'];

export function asSchema(schema: unknown): Schema {
  return isPlainObject(schema) ? schema : {};
}

export function typeOf(schema: Schema): TypeKeyword {
  const type = schema.type;
  if (type === undefined || type === null) return undefined;
  if (Array.isArray(type)) return type.map((t) => String(t));
  return String(type);
}

export function numberKeyword(schema: Schema, key: string): number | undefined {
  const v = schema[key];
  return isNumeric(v) ? toNumber(v) : undefined;
}

export function schemaList(schema: Schema, key: string): unknown[] | undefined {
  const v = schema[key];
  return Array.isArray(v) ? v : undefined;
}

export function schemaMap(schema: Schema, key: string): Record<string, unknown> | undefined {
  const v = schema[key];
  return isPlainObject(v) ? v : undefined;
}

/** `format` applies when the effective type is string, absent, or not a built-in type. */
export function formatApplies(type: string | undefined): boolean {
  return type === undefined || type === 'string' || !BUILT_IN_TYPES.includes(type);
}

/** Whether applyCombiningSchemas has anything to do (most schemas have neither keyword). */
export function combines(schema: Schema): boolean {
  return Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf);
}

/** Draft-4 `required: [...]` on the object wins; otherwise draft-3 `required: true` in properties. */
export function firstMissingRequired(
  schema: Schema,
  properties: Record<string, unknown> | undefined,
  map: Record<string, unknown>,
): string | undefined {
  const required = Array.isArray(schema.required) ? schema.required : properties ? requiredProperties(properties) : [];
  for (const key of required) {
    if (!Object.hasOwn(map, String(key))) return String(key);
  }
  return undefined;
}

/** The draft-3 `required: true` properties, worked out once per properties object (schemas do not change). */
const requiredByProperties = new WeakMap<Record<string, unknown>, string[]>();
function requiredProperties(properties: Record<string, unknown>): string[] {
  let required = requiredByProperties.get(properties);
  if (!required) {
    required = Object.keys(properties).filter((key) => {
      const propertySchema = properties[key];
      return isPlainObject(propertySchema) && propertySchema.required === true;
    });
    requiredByProperties.set(properties, required);
  }
  return required;
}

/**
 * The schema a property is checked against: its own, else the first matching patternProperties
 * schema, else additionalProperties (a schema, or 'forbidden' when false); undefined = anything.
 */
export function propertySchemaFor(
  key: string,
  schema: Schema,
  properties: Record<string, unknown> | undefined,
): unknown {
  if (properties && Object.hasOwn(properties, key) && properties[key] !== null && properties[key] !== undefined)
    return properties[key];
  const patternProperties = schemaMap(schema, 'patternProperties');
  if (patternProperties) {
    for (const pattern of Object.keys(patternProperties)) {
      if (matchesPattern(pattern, key)) return patternProperties[pattern];
    }
  }
  const additional = schema.additionalProperties;
  if (additional === false) return 'forbidden';
  if (isPlainObject(additional)) return additional;
  return undefined;
}

/** Sub-schemas inherit the parent's type when they have none. */
export function subSchemas(schema: Schema, keyword: 'anyOf' | 'oneOf'): Schema[] {
  const parentType = schema.type;
  return (schemaList(schema, keyword) ?? []).map((sub) => {
    const s = asSchema(sub);
    return (s.type === undefined || s.type === null) && parentType !== undefined && parentType !== null
      ? { ...s, type: parentType }
      : s;
  });
}

// --- multiple types ---------------------------------------------------------------------------

const TYPE_CHECKS: Record<string, (value: unknown) => boolean> = {
  array: isArrayLike,
  object: isObjectLike,
  integer: isIntegerLike,
  number: isNumeric,
  boolean: isBooleanLike,
  string: (v) => typeof v === 'string',
  null: isNull,
};

/**
 * The first listed type whose check accepts the value ('' = none); the empty string prefers
 * `string`. Lists with unknown types fall back to the first unknown one (reference compat).
 */
export function bestTypeForMultiType(value: unknown, types: string[]): string {
  if (value === '' && types.includes('string')) return 'string';
  for (const type of types) {
    if (Object.hasOwn(TYPE_CHECKS, type) && TYPE_CHECKS[type]!(value)) return type;
  }
  return types.find((type) => !BUILT_IN_TYPES.includes(type)) ?? '';
}
