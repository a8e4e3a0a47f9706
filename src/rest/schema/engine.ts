// Validation and sanitisation of request arguments against their schema: a port of the
// reference's rest_validate_value_from_schema / rest_sanitize_value_from_schema
// (reference rest-core §3). Values arrive as they came from the wire (strings, lists and maps
// from the query string, real JSON types from bodies); the PHP value model the reference works
// on is emulated by php.ts. Validation and sanitisation call each other (enum sanitises first,
// anyOf/oneOf validate their candidates), so both walks live here; the leaves are beside it
// (scalar-checks.ts, formats.ts), the entry points with the depth guard in check-value.ts.
// Nothing here throws: every input gives either a value or a SchemaError.
import { setOwn } from '../../util.ts';
import { SchemaFailure, combiningError, duplicateItems, failure, invalidType, type CandidateError } from './errors.ts';
import { sanitizeFormat, validateFormat } from './formats.ts';
import {
  asSchema,
  bestTypeForMultiType,
  combines,
  firstMissingRequired,
  formatApplies,
  numberKeyword,
  propertySchemaFor,
  schemaList,
  schemaMap,
  subSchemas,
  typeOf,
  type Schema,
} from './keywords.ts';
import { unsafeInteger, validateNumber, validateString } from './scalar-checks.ts';
import {
  asMap,
  countNoun,
  hasUniqueItems,
  humanList,
  isArrayLike,
  isBooleanLike,
  isIntegerLike,
  isNull,
  isObjectLike,
  isPlainObject,
  isScalar,
  phpJsonEncode,
  phpScalarString,
  phpString,
  toBoolean,
  toInteger,
  toList,
  toNumber,
  valuesEqual,
} from './php.ts';

// ---------------------------------------------------------------------------------------------
// Validation (rest_validate_value_from_schema)

export function validate(value: unknown, rawSchema: unknown, name: string): SchemaFailure | null {
  const base = asSchema(rawSchema);
  const schema = combines(base) ? applyCombiningSchemas({ value }, base, name) : base;
  if (schema instanceof SchemaFailure) return schema;
  let type = typeOf(schema);

  if (Array.isArray(type)) {
    const best = bestTypeForMultiType(value, type);
    if (best === '') return invalidType(name, type.join(','));
    type = best;
  }

  const typeError = validateForType(value, schema, type, name);
  if (typeError) return typeError;

  const enumValues = schemaList(schema, 'enum');
  if (enumValues && enumValues.length > 0) {
    const enumError = validateEnum(value, type === schema.type ? schema : { ...schema, type }, enumValues, name);
    if (enumError) return enumError;
  }

  if (schema.format !== undefined && schema.format !== null && formatApplies(type)) {
    return validateFormat(value, String(schema.format), name);
  }
  return null;
}

/**
 * anyOf then oneOf: the schema with the type a matching sub-schema contributes when it had
 * none (the reference writes it into the schema it goes on with), or the failure.
 */
function applyCombiningSchemas(
  current: { value: unknown },
  schema: Schema,
  name: string,
  onMatch?: (match: Schema) => SchemaFailure | null,
): Schema | SchemaFailure {
  let effective = schema;
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    if (!schemaList(effective, keyword)) continue;
    const match =
      keyword === 'anyOf'
        ? findAnyMatchingSchema(current.value, effective, name)
        : findOneMatchingSchema(current.value, effective, name);
    if (match instanceof SchemaFailure) return match;
    if (typeOf(effective) === undefined && typeOf(match) !== undefined) effective = { ...effective, type: match.type };
    const error = onMatch?.(match);
    if (error) return error;
  }
  return effective;
}

function validateForType(value: unknown, schema: Schema, type: string | undefined, name: string): SchemaFailure | null {
  switch (type) {
    case 'null':
      return isNull(value) ? null : invalidType(name, 'null');
    case 'boolean':
      return isBooleanLike(value) ? null : invalidType(name, 'boolean');
    case 'object':
      return validateObject(value, schema, name);
    case 'array':
      return validateArray(value, schema, name);
    case 'number':
      return validateNumber(value, schema, name, 'number');
    case 'integer':
      return (
        validateNumber(value, schema, name, 'integer') ??
        (isIntegerLike(value) ? unsafeInteger(toNumber(value), name) : invalidType(name, 'integer'))
      );
    case 'string':
      return validateString(value, schema, name);
    default:
      // No type, or one the reference does not know: accepted as is (backward compatibility).
      return null;
  }
}

// --- array: items, minItems, maxItems, uniqueItems -------------------------------------------

function validateArray(value: unknown, schema: Schema, name: string): SchemaFailure | null {
  if (!isArrayLike(value)) return invalidType(name, 'array');
  const list = toList(value);

  if (schema.items !== undefined && schema.items !== null) {
    for (let i = 0; i < list.length; i++) {
      const error = validate(list[i], schema.items, `${name}[${i}]`);
      if (error) return error;
    }
  }
  const minItems = numberKeyword(schema, 'minItems');
  if (minItems !== undefined && list.length < minItems) {
    return failure('rest_too_few_items', `${name} must contain at least ${countNoun(minItems, 'item', 'items')}.`);
  }
  const maxItems = numberKeyword(schema, 'maxItems');
  if (maxItems !== undefined && list.length > maxItems) {
    return failure('rest_too_many_items', `${name} must contain at most ${countNoun(maxItems, 'item', 'items')}.`);
  }
  if (schema.uniqueItems && !hasUniqueItems(list)) return duplicateItems(name);
  return null;
}

// --- object: required, properties / patternProperties / additionalProperties, counts --------

function validateObject(value: unknown, schema: Schema, name: string): SchemaFailure | null {
  if (!isObjectLike(value)) return invalidType(name, 'object');
  const map = asMap(value);
  const keys = Object.keys(map);
  const properties = schemaMap(schema, 'properties');

  const missing = firstMissingRequired(schema, properties, map);
  if (missing !== undefined) return failure('rest_property_required', `${missing} is a required property of ${name}.`);

  for (const key of keys) {
    const propertySchema = propertySchemaFor(key, schema, properties);
    if (propertySchema === 'forbidden') {
      return failure('rest_additional_properties_forbidden', `${key} is not a valid property of Object.`);
    }
    if (propertySchema !== undefined) {
      const error = validate(map[key], propertySchema, `${name}[${key}]`);
      if (error) return error;
    }
  }

  const minProperties = numberKeyword(schema, 'minProperties');
  if (minProperties !== undefined && keys.length < minProperties) {
    return failure(
      'rest_too_few_properties',
      `${name} must contain at least ${countNoun(minProperties, 'property', 'properties')}.`,
    );
  }
  const maxProperties = numberKeyword(schema, 'maxProperties');
  if (maxProperties !== undefined && keys.length > maxProperties) {
    return failure(
      'rest_too_many_properties',
      `${name} must contain at most ${countNoun(maxProperties, 'property', 'properties')}.`,
    );
  }
  return null;
}

// --- enum -------------------------------------------------------------------------------------

/** The value is sanitised first, then compared with each allowed value. */
function validateEnum(value: unknown, schema: Schema, enumValues: unknown[], name: string): SchemaFailure | null {
  const sanitized = sanitize(value, schema, name);
  if (sanitized instanceof SchemaFailure) return sanitized;
  if (enumValues.some((allowed) => valuesEqual(sanitized, allowed))) return null;

  const shown = enumValues.map((v) => (isScalar(v) ? phpScalarString(v) : phpJsonEncode(v)));
  if (shown.length === 1) return failure('rest_not_in_enum', `${name} is not ${shown[0]}.`);
  return failure('rest_not_in_enum', `${name} is not one of ${humanList(shown)}.`);
}

function findAnyMatchingSchema(value: unknown, schema: Schema, name: string): Schema | SchemaFailure {
  const errors: CandidateError[] = [];
  const candidates = subSchemas(schema, 'anyOf');
  for (let index = 0; index < candidates.length; index++) {
    const candidate = candidates[index]!;
    const error = validate(value, candidate, name);
    if (!error) return candidate;
    errors.push({ error, schema: candidate, index });
  }
  return combiningError(value, name, errors);
}

function findOneMatchingSchema(value: unknown, schema: Schema, name: string): Schema | SchemaFailure {
  const errors: CandidateError[] = [];
  const matches: { schema: Schema; index: number }[] = [];
  const candidates = subSchemas(schema, 'oneOf');
  for (let index = 0; index < candidates.length; index++) {
    const candidate = candidates[index]!;
    const error = validate(value, candidate, name);
    if (error) errors.push({ error, schema: candidate, index });
    else matches.push({ schema: candidate, index });
  }
  if (matches.length === 0) return combiningError(value, name, errors);
  if (matches.length > 1) {
    const positions = matches.map((m) => m.index);
    const titles = matches
      .filter((m) => m.schema.title !== undefined && m.schema.title !== null)
      .map((m) => String(m.schema.title));
    if (titles.length === matches.length) {
      return failure(
        'rest_one_of_multiple_matches',
        `${name} matches ${humanList(titles)}, but should match only one.`,
        { positions },
      );
    }
    return failure('rest_one_of_multiple_matches', `${name} matches more than one of the expected formats.`, {
      positions,
    });
  }
  return matches[0]!.schema;
}

// ---------------------------------------------------------------------------------------------
// Sanitisation (rest_sanitize_value_from_schema)

export function sanitize(value: unknown, rawSchema: unknown, name: string): unknown {
  let schema: Schema | SchemaFailure = asSchema(rawSchema);
  if (combines(schema)) {
    // The value is first sanitised with the matching sub-schema, then with this one.
    const current = { value };
    schema = applyCombiningSchemas(current, schema, name, (match) => {
      current.value = sanitize(current.value, match, name);
      return current.value instanceof SchemaFailure ? current.value : null;
    });
    if (schema instanceof SchemaFailure) return schema;
    value = current.value;
  }
  let type = typeOf(schema);

  if (Array.isArray(type)) {
    const best = bestTypeForMultiType(value, type);
    if (best === '') return null;
    type = best;
  }

  switch (type) {
    case 'array':
      return sanitizeArray(value, schema, name);
    case 'object':
      return sanitizeObject(value, schema, name);
    case 'null':
      return null;
    case 'integer':
      return toInteger(value);
    case 'number':
      return toNumber(value);
    case 'boolean':
      return toBoolean(value);
  }
  if (schema.format !== undefined && schema.format !== null && formatApplies(type)) {
    const formatted = sanitizeFormat(value, String(schema.format));
    if (formatted !== undefined) return formatted;
  }
  return type === 'string' ? phpString(value) : value;
}

/** Nested failures propagate (the reference would embed the error object in the list). */
function sanitizeArray(value: unknown, schema: Schema, name: string): unknown {
  let list = toList(value);
  if (isPlainObject(schema.items) && Object.keys(schema.items).length > 0) {
    const sanitized: unknown[] = [];
    for (let i = 0; i < list.length; i++) {
      const item = sanitize(list[i], schema.items, `${name}[${i}]`);
      if (item instanceof SchemaFailure) return item;
      sanitized.push(item);
    }
    list = sanitized;
  }
  if (schema.uniqueItems && !hasUniqueItems(list)) return duplicateItems(name);
  return list;
}

function sanitizeObject(value: unknown, schema: Schema, name: string): unknown {
  const properties = schemaMap(schema, 'properties');
  const result: Record<string, unknown> = {};
  const map = isObjectLike(value) ? asMap(value) : {};
  for (const key of Object.keys(map)) {
    const propertySchema = propertySchemaFor(key, schema, properties);
    if (propertySchema === 'forbidden') continue;
    const item = map[key];
    const sanitized = propertySchema === undefined ? item : sanitize(item, propertySchema, `${name}[${key}]`);
    if (sanitized instanceof SchemaFailure) return sanitized;
    setOwn(result, key, sanitized);
  }
  return result;
}
