// Validation and sanitisation of request arguments against their schema: a port of the
// reference's rest_validate_value_from_schema / rest_sanitize_value_from_schema
// (reference rest-core §3). Values arrive as they came from the wire (strings, lists and maps
// from the query string, real JSON types from bodies); the PHP value model the reference works
// on is emulated by the small helpers in "PHP values" below. Nothing here throws: every input
// gives either a value or a SchemaError.
import type { ArgSchema } from '../types.ts';
import { asciiLower, setOwn } from '../../util.ts';

export interface SchemaError {
  code: string;
  message: string;
  /** null when the error carries no data, e.g. `{param: 'page'}` for rest_invalid_type. */
  data: unknown;
}

/**
 * What sanitizeValue returns when a value cannot be sanitised (anyOf/oneOf without a match,
 * duplicate items after coercion, too deep). Never a JSON value, so `instanceof` tells it apart.
 */
export class SchemaFailure implements SchemaError {
  code: string;
  message: string;
  data: unknown;
  constructor(code: string, message: string, data: unknown = null) {
    this.code = code;
    this.message = message;
    this.data = data;
  }
}

export function isSchemaFailure(value: unknown): value is SchemaFailure {
  return value instanceof SchemaFailure;
}

/** Deeper values are refused before any check (PHP's json_decode refuses them at 512 too). */
export const MAX_VALUE_DEPTH = 512;

// ---------------------------------------------------------------------------------------------
// Public API

export function validateValue(value: unknown, schema: ArgSchema, name: string): SchemaError | null {
  const error = tooDeep(value, name) ?? validate(value, schema, name);
  return error && plainError(error);
}

/** Sanitises without validating first; returns a SchemaFailure when the value cannot be sanitised. */
export function sanitizeValue(value: unknown, schema: ArgSchema, name: string): unknown {
  return tooDeep(value, name) ?? sanitize(value, schema, name);
}

/** validate, then sanitise: what the pipeline does for typed args without custom callbacks */
export function checkValue(value: unknown, schema: ArgSchema, name: string): { ok: true; value: unknown } | { ok: false; error: SchemaError } {
  const error = validateValue(value, schema, name);
  if (error) return { ok: false, error };
  const sanitized = sanitize(value, schema, name); // depth already checked
  if (sanitized instanceof SchemaFailure) return { ok: false, error: plainError(sanitized) };
  return { ok: true, value: sanitized };
}

function plainError(e: SchemaError): SchemaError {
  return { code: e.code, message: e.message, data: e.data };
}

function failure(code: string, message: string, data: unknown = null): SchemaFailure {
  return new SchemaFailure(code, message, data);
}

function invalidType(name: string, type: string): SchemaFailure {
  return failure('rest_invalid_type', `${name} is not of type ${type}.`, { param: name });
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

// ---------------------------------------------------------------------------------------------
// Schemas as the engine reads them. Keyword values of the wrong kind count as absent (PHP's
// isset()/is_array() checks), so a malformed schema never makes the engine throw.

type Schema = Record<string, unknown>;
type TypeKeyword = string | string[] | undefined;

const BUILT_IN_TYPES = ['array', 'object', 'string', 'number', 'integer', 'boolean', 'null'];

function asSchema(schema: unknown): Schema {
  return isPlainObject(schema) ? schema : {};
}

function typeOf(schema: Schema): TypeKeyword {
  const type = schema.type;
  if (type === undefined || type === null) return undefined;
  if (Array.isArray(type)) return type.map((t) => String(t));
  return String(type);
}

function numberKeyword(schema: Schema, key: string): number | undefined {
  const v = schema[key];
  return isNumeric(v) ? toNumber(v) : undefined;
}

function schemaList(schema: Schema, key: string): unknown[] | undefined {
  const v = schema[key];
  return Array.isArray(v) ? v : undefined;
}

function schemaMap(schema: Schema, key: string): Record<string, unknown> | undefined {
  const v = schema[key];
  return isPlainObject(v) ? v : undefined;
}

/** `format` applies when the effective type is string, absent, or not a built-in type. */
function formatApplies(type: string | undefined): boolean {
  return type === undefined || type === 'string' || !BUILT_IN_TYPES.includes(type);
}

// ---------------------------------------------------------------------------------------------
// Validation (rest_validate_value_from_schema)

function validate(value: unknown, rawSchema: unknown, name: string): SchemaFailure | null {
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

/** Whether applyCombiningSchemas has anything to do (most schemas have neither keyword). */
function combines(schema: Schema): boolean {
  return Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf);
}

/**
 * anyOf then oneOf: the schema with the type a matching sub-schema contributes when it had
 * none (the reference writes it into the schema it goes on with), or the failure.
 */
function applyCombiningSchemas(current: { value: unknown }, schema: Schema, name: string, onMatch?: (match: Schema) => SchemaFailure | null): Schema | SchemaFailure {
  let effective = schema;
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    if (!schemaList(effective, keyword)) continue;
    const match = keyword === 'anyOf' ? findAnyMatchingSchema(current.value, effective, name) : findOneMatchingSchema(current.value, effective, name);
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
      return validateNumber(value, schema, name, 'integer') ?? (isIntegerLike(value) ? unsafeInteger(toNumber(value), name) : invalidType(name, 'integer'));
    case 'string':
      return validateString(value, schema, name);
    default:
      // No type, or one the reference does not know: accepted as is (backward compatibility).
      return null;
  }
}

// --- number and integer: multipleOf, then the bounds ----------------------------------------

function validateNumber(value: unknown, schema: Schema, name: string, typeName: string): SchemaFailure | null {
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
      return outOfBounds(`between ${phpIntString(min)} ${side(exclusiveMin)} and ${phpIntString(max)} ${side(exclusiveMax)}`);
    }
  }
  return null;
}

/**
 * Beyond ±(2^53 − 1) a number no longer names one integer (1e16 + 1 reads as 1e16), and
 * nothing this server counts, stores or dates comes near: such an integer is refused, where
 * the reference's PHP would wrap or saturate it (a deliberate difference, docs/decisions.md).
 */
function unsafeInteger(n: number, name: string): SchemaFailure | null {
  if (Number.isSafeInteger(n)) return null;
  const max = phpIntString(Number.MAX_SAFE_INTEGER);
  return failure('rest_out_of_bounds', `${name} must be between -${max} (inclusive) and ${max} (inclusive)`);
}

// --- string: minLength, maxLength, pattern ---------------------------------------------------

function validateString(value: unknown, schema: Schema, name: string): SchemaFailure | null {
  if (typeof value !== 'string') return invalidType(name, 'string');

  const minLength = numberKeyword(schema, 'minLength');
  if (minLength !== undefined && codePointLength(value) < minLength) {
    return failure('rest_too_short', `${name} must be at least ${countNoun(minLength, 'character', 'characters')} long.`);
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

function duplicateItems(name: string): SchemaFailure {
  return failure('rest_duplicate_items', `${name} has duplicate items.`);
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
    return failure('rest_too_few_properties', `${name} must contain at least ${countNoun(minProperties, 'property', 'properties')}.`);
  }
  const maxProperties = numberKeyword(schema, 'maxProperties');
  if (maxProperties !== undefined && keys.length > maxProperties) {
    return failure('rest_too_many_properties', `${name} must contain at most ${countNoun(maxProperties, 'property', 'properties')}.`);
  }
  return null;
}

/** Draft-4 `required: [...]` on the object wins; otherwise draft-3 `required: true` in properties. */
function firstMissingRequired(schema: Schema, properties: Record<string, unknown> | undefined, map: Record<string, unknown>): string | undefined {
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
function propertySchemaFor(key: string, schema: Schema, properties: Record<string, unknown> | undefined): unknown {
  if (properties && Object.hasOwn(properties, key) && properties[key] !== null && properties[key] !== undefined) return properties[key];
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

/** rest_are_values_equal: lists/maps key by key, an integer equals a float of the same value. */
function valuesEqual(a: unknown, b: unknown): boolean {
  if (isPhpArray(a) && isPhpArray(b)) {
    const entriesA = toEntries(a);
    const mapB = new Map(toEntries(b));
    if (entriesA.length !== mapB.size) return false;
    return entriesA.every(([key, v]) => mapB.has(key) && valuesEqual(v, mapB.get(key)));
  }
  return (a ?? null) === (b ?? null);
}

// --- formats ----------------------------------------------------------------------------------

function validateFormat(value: unknown, format: string, name: string): SchemaFailure | null {
  const text = isScalar(value) ? phpScalarString(value) : null;
  switch (format) {
    case 'hex-color':
      return text !== null && isHexColor(text) ? null : failure('rest_invalid_hex_color', 'Invalid hex color.');
    case 'date-time':
      return text !== null && isDateTime(text) ? null : failure('rest_invalid_date', 'Invalid date.');
    case 'email':
      return text !== null && isEmail(text) ? null : failure('rest_invalid_email', 'Invalid email address.');
    case 'ip':
      return text !== null && isIpAddress(text) ? null : failure('rest_invalid_ip', `${name} is not a valid IP address.`);
    case 'uuid':
      return typeof value === 'string' && isUuid(value) ? null : failure('rest_invalid_uuid', `${name} is not a valid UUID.`);
    default:
      return null; // uri, text-field, textarea-field and unknown formats are not validated
  }
}

// PHP's `$` (no D modifier) also matches before a final newline; the format checks keep that.
const HEX_COLOR = /^#(?:[A-Fa-f0-9]{3}){1,2}\n?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\n?$/;
const IPV4 = /^(?:(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\.){3}(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\n?$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:Z|[+-](\d{2})(?::(\d{2}))?)?\n?$/;

export function isHexColor(text: string): boolean {
  return HEX_COLOR.test(text);
}

export function isUuid(text: string): boolean {
  return UUID.test(text);
}

/** rest_parse_date: the ISO-8601 shape, then what PHP's strtotime accepts in each field. */
export function isDateTime(text: string): boolean {
  const m = DATE_TIME.exec(text);
  if (!m) return false;
  const [month, day, hour, minute, second] = [m[2], m[3], m[4], m[5], m[6]].map(Number) as [number, number, number, number, number];
  if (month < 1 || month > 12 || day > 31 || hour > 24 || minute > 59 || second > 60) return false;
  if (m[7] !== undefined && (Number(m[7]) > 24 || (m[8] !== undefined && Number(m[8]) > 59))) return false;
  return true;
}

/** WordPress is_email(): the basic, non-RFC check. */
export function isEmail(email: string): boolean {
  if (Buffer.byteLength(email, 'utf8') < 6) return false;
  const at = email.indexOf('@', 1);
  if (at === -1) return false;
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  if (!/^[a-zA-Z0-9!#$%&'*+/=?^_`{|}~.-]+\n?$/.test(local)) return false;
  if (/\.{2,}/.test(domain)) return false;
  if (phpTrim(domain, ' \t\n\r\0\x0B.') !== domain) return false;
  const subs = domain.split('.');
  if (subs.length < 2) return false;
  return subs.every((sub) => phpTrim(sub, ' \t\n\r\0\x0B-') === sub && /^[a-z0-9-]+$/i.test(sub));
}

/** rest_is_ip_address: dotted IPv4, or IPv6 as the Requests library checks it. */
export function isIpAddress(ip: string): boolean {
  return IPV4.test(ip) || isIpv6(ip);
}

function isIpv6(input: string): boolean {
  const ip = uncompressIpv6(input);
  if (ip === null) return false;
  let v6 = ip;
  let v4 = '';
  if (ip.includes('.')) {
    const colon = ip.lastIndexOf(':');
    v6 = colon === -1 ? '' : ip.slice(0, colon);
    v4 = ip.slice(colon + 1);
  }
  const groups = v6.split(':');
  const octets = v4.split('.');
  if (!((groups.length === 8 && octets.length === 1) || (groups.length === 6 && octets.length === 4))) return false;
  for (const group of groups) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return false;
  }
  if (octets.length === 4) {
    for (const octet of octets) {
      if (!/^(?:0|[1-9][0-9]{0,2})$/.test(octet) || Number(octet) > 255) return false;
    }
  }
  return true;
}

/** Expands the one `::` of an IPv6 address; null where the Requests library would fail. */
function uncompressIpv6(ip: string): string | null {
  const halves = ip.split('::');
  if (halves.length !== 2) return ip;
  const [left, right] = halves as [string, string];
  const leftColons = left === '' ? -1 : left.split(':').length - 1;
  const rightColons = right === '' ? -1 : right.split(':').length - 1 + (right.includes('.') ? 1 : 0);
  if (leftColons === -1 && rightColons === -1) return '0:0:0:0:0:0:0:0';
  let fill: string;
  if (leftColons === -1) fill = '0:'.repeat(Math.max(0, 7 - rightColons));
  else if (rightColons === -1) fill = ':0'.repeat(Math.max(0, 7 - leftColons));
  else {
    const zeros = 6 - rightColons - leftColons;
    if (zeros < 0) return null; // str_repeat() with a negative count fails in PHP
    fill = ':' + '0:'.repeat(zeros);
  }
  return ip.replace('::', fill);
}

// --- anyOf / oneOf ----------------------------------------------------------------------------

interface CandidateError {
  error: SchemaFailure;
  schema: Schema;
  index: number;
}

/** Sub-schemas inherit the parent's type when they have none. */
function subSchemas(schema: Schema, keyword: 'anyOf' | 'oneOf'): Schema[] {
  const parentType = schema.type;
  return (schemaList(schema, keyword) ?? []).map((sub) => {
    const s = asSchema(sub);
    return (s.type === undefined || s.type === null) && parentType !== undefined && parentType !== null ? { ...s, type: parentType } : s;
  });
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
    const titles = matches.filter((m) => m.schema.title !== undefined && m.schema.title !== null).map((m) => String(m.schema.title));
    if (titles.length === matches.length) {
      return failure('rest_one_of_multiple_matches', `${name} matches ${humanList(titles)}, but should match only one.`, { positions });
    }
    return failure('rest_one_of_multiple_matches', `${name} matches more than one of the expected formats.`, { positions });
  }
  return matches[0]!.schema;
}

/** rest_get_combining_operation_error: picks the most telling candidate error. */
function combiningError(value: unknown, name: string, errors: CandidateError[]): SchemaFailure {
  if (errors.length === 1) return candidateFailure(name, errors[0]!);

  // Plain type mismatches of the value itself say nothing about which candidate was meant.
  const filtered = errors.filter(({ error }) => {
    const param = isPlainObject(error.data) ? error.data.param : undefined;
    return error.code !== 'rest_invalid_type' || (param !== undefined && param !== name);
  });
  if (filtered.length === 1) return candidateFailure(name, filtered[0]!);

  // Object candidates: the one sharing most property names with the value.
  if (filtered.length > 1 && filtered[0]!.schema.type === 'object') {
    const valueKeys = isPhpArray(value) ? new Set(toEntries(value).map(([key]) => key)) : new Set<string>();
    let best: CandidateError | null = null;
    let bestShared = 0;
    for (const candidate of filtered) {
      const properties = schemaMap(candidate.schema, 'properties');
      if (!properties) continue;
      const shared = Object.keys(properties).filter((key) => valueKeys.has(key)).length;
      if (shared > bestShared) {
        best = candidate;
        bestShared = shared;
      }
    }
    if (best) return candidateFailure(name, best);
  }

  const titles = errors.filter((e) => e.schema.title !== undefined && e.schema.title !== null).map((e) => String(e.schema.title));
  if (titles.length === errors.length) return failure('rest_no_matching_schema', `${name} is not a valid ${humanList(titles)}.`);
  return failure('rest_no_matching_schema', `${name} does not match any of the expected formats.`);
}

function candidateFailure(name: string, { error, schema, index }: CandidateError): SchemaFailure {
  if (schema.title !== undefined && schema.title !== null) {
    return failure('rest_no_matching_schema', `${name} is not a valid ${String(schema.title)}. Reason: ${error.message}`, { position: index });
  }
  return failure('rest_no_matching_schema', `${name} does not match the expected format. Reason: ${error.message}`, { position: index });
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
function bestTypeForMultiType(value: unknown, types: string[]): string {
  if (value === '' && types.includes('string')) return 'string';
  for (const type of types) {
    if (Object.hasOwn(TYPE_CHECKS, type) && TYPE_CHECKS[type]!(value)) return type;
  }
  return types.find((type) => !BUILT_IN_TYPES.includes(type)) ?? '';
}

// ---------------------------------------------------------------------------------------------
// Sanitisation (rest_sanitize_value_from_schema)

function sanitize(value: unknown, rawSchema: unknown, name: string): unknown {
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

/** undefined = the format has no sanitiser (then the plain type cast applies). */
function sanitizeFormat(value: unknown, format: string): string | undefined {
  switch (format) {
    case 'hex-color':
      return sanitizeHexColor(value);
    case 'uri':
      return sanitizeUrl(value);
    case 'textarea-field':
      return sanitizeTextField(value, true);
    case 'date-time':
    case 'email': // no validation-style stripping, unlike sanitize_email()
    case 'ip':
    case 'uuid':
    case 'text-field':
      return sanitizeTextField(value);
    default:
      return undefined;
  }
}

export function sanitizeHexColor(value: unknown): string {
  if (value === '') return '';
  return typeof value === 'string' && isHexColor(value) ? value : '';
}

// --- text-field cleanup (sanitize_text_field / sanitize_textarea_field) -----------------------

export function sanitizeTextField(value: unknown, keepNewlines = false): string {
  if (!isScalar(value) && !isNull(value)) return '';
  let text = phpString(value);
  if (!text.isWellFormed()) return ''; // wp_check_invalid_utf8: invalid text is dropped whole

  if (text.includes('<')) {
    text = escapeUnclosedTags(text);
    text = stripAllTags(text);
    // An entity, so that later newline stripping cannot produce a working tag.
    text = text.replaceAll('<\n', '&lt;\n');
  }
  // Runs of whitespace other than a lone space become one space.
  if (!keepNewlines) text = text.replace(/(?: [\r\n\t ]|[\r\n\t])[\r\n\t ]*/g, ' ');
  text = phpTrim(text);

  const removed = removePercentOctets(text);
  return removed === text ? text : phpTrim(removed.replace(/ +/g, ' '));
}

/**
 * Removes `%XX` octets until none is left, as the reference's loop does (removals can make
 * new ones: `%%4141` → ``). Removals cannot overlap, so one stack pass gives the same result in
 * linear time.
 */
function removePercentOctets(text: string): string {
  if (!/%[0-9a-fA-F]{2}/.test(text)) return text;
  const out: string[] = [];
  for (const ch of text) {
    out.push(ch);
    const n = out.length;
    if (n >= 3 && out[n - 3] === '%' && isHexDigit(out[n - 2]!) && isHexDigit(out[n - 1]!)) out.length = n - 3;
  }
  return out.join('');
}

function isHexDigit(ch: string): boolean {
  return /^[0-9a-fA-F]$/.test(ch);
}

/** wp_pre_kses_less_than: a `<` not closed by `>` before the next `<` is HTML-escaped. */
function escapeUnclosedTags(text: string): string {
  return text.replace(/<[^>]*?(?:(?=<)|>|(?=\n?$))/g, (segment) => (segment.includes('>') ? segment : escHtml(segment)));
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' };

/** esc_html without double encoding: existing entities are kept. */
function escHtml(text: string): string {
  return text.replace(/&(?!(?:[a-zA-Z][a-zA-Z0-9]*|#[0-9]+|#[xX][0-9a-fA-F]+);)|[<>"']/g, (ch) => HTML_ESCAPES[ch]!);
}

/** wp_strip_all_tags: script/style elements with their content, then PHP strip_tags, then trim. */
function stripAllTags(text: string): string {
  // After escapeUnclosedTags there is often no `<` left: then both steps only drop NUL bytes.
  if (!text.includes('<')) return phpTrim(text.replaceAll('\0', ''));
  return phpTrim(phpStripTags(removeScriptAndStyle(text)));
}

/** `@<(script|style)[^>]*?>.*?</\1>@si`, in linear time. */
function removeScriptAndStyle(text: string): string {
  const lower = asciiLower(text);
  const opening = /<(script|style)[^>]*>/g;
  const closed = new Set<string>(); // tags with no closing tag left
  let out = '';
  let copiedUpTo = 0;
  let m: RegExpExecArray | null;
  while ((m = opening.exec(lower))) {
    const tag = m[1]!;
    if (closed.has(tag)) {
      opening.lastIndex = m.index + 1;
      continue;
    }
    const close = lower.indexOf(`</${tag}>`, opening.lastIndex);
    if (close === -1) {
      closed.add(tag);
      opening.lastIndex = m.index + 1;
      continue;
    }
    out += text.slice(copiedUpTo, m.index);
    copiedUpTo = close + tag.length + 3;
    opening.lastIndex = copiedUpTo;
  }
  return out + text.slice(copiedUpTo);
}

/** PHP's strip_tags() state machine (no allowed tags): text, tag, `<?`, `<!`, comment. */
function phpStripTags(text: string): string {
  let out = '';
  let state = 0; // 0 text, 1 tag, 2 php, 3 declaration, 4 comment
  let depth = 0;
  let inQuote = '';
  let lastChar = '';
  let parens = 0;
  const isSpace = (ch: string | undefined) => ch !== undefined && ' \t\n\v\f\r'.includes(ch);
  const plainRun = /[^<>\0]+/y;
  for (let i = 0; i < text.length; i++) {
    if (state === 0) {
      // Copy runs of ordinary text at once.
      plainRun.lastIndex = i;
      if (plainRun.test(text)) {
        out += text.slice(i, plainRun.lastIndex);
        i = plainRun.lastIndex - 1;
        continue;
      }
    }
    const c = text[i]!;
    const prev = i > 0 ? text[i - 1]! : '';
    switch (state) {
      case 0:
        if (c === '\0') break;
        if (c === '<') {
          if (isSpace(text[i + 1])) out += c;
          else {
            lastChar = '<';
            state = 1;
          }
        } else if (c === '>') {
          if (depth) depth--;
          else out += c;
        } else out += c;
        break;
      case 1:
        if (c === '<') {
          if (!inQuote && !isSpace(text[i + 1])) depth++;
        } else if (c === '>') {
          if (depth) depth--;
          else if (!inQuote) {
            lastChar = '>';
            state = 0;
            inQuote = '';
          }
        } else if (c === '"' || c === "'") {
          if (i !== 0 && (!inQuote || c === inQuote)) inQuote = inQuote ? '' : c;
        } else if (c === '!' && prev === '<') {
          state = 3;
          lastChar = c;
        } else if (c === '?' && prev === '<') {
          parens = 0;
          state = 2;
        }
        break;
      case 2:
        if (c === '(' && lastChar !== '"' && lastChar !== "'") {
          lastChar = '(';
          parens++;
        } else if (c === ')' && lastChar !== '"' && lastChar !== "'") {
          lastChar = ')';
          parens--;
        } else if (c === '>') {
          if (depth) depth--;
          else if (!inQuote && !parens && lastChar !== '"' && prev === '?') {
            inQuote = '';
            state = 0;
          }
        } else if (c === '"' || c === "'") {
          if (prev !== '\\') {
            if (lastChar === c) lastChar = '';
            else if (lastChar !== '\\') lastChar = c;
          }
          if (!inQuote || c === inQuote) inQuote = inQuote ? '' : c;
        } else if ((c === 'l' || c === 'L') && i > 4 && /^<\?xm$/i.test(text.slice(i - 4, i))) {
          state = 1;
        }
        break;
      case 3:
        if (c === '>') {
          if (depth) depth--;
          else if (!inQuote) {
            inQuote = '';
            state = 0;
          }
        } else if (c === '"' || c === "'") {
          if (prev !== '\\' && (!inQuote || c === inQuote)) inQuote = inQuote ? '' : c;
        } else if (c === '-' && i >= 2 && text.slice(i - 2, i) === '!-') {
          state = 4;
        } else if ((c === 'e' || c === 'E') && i >= 6 && text.slice(i - 6, i).toLowerCase() === 'doctyp') {
          state = 1;
        }
        break;
      case 4:
        if (c === '>' && !inQuote && i >= 2 && text.slice(i - 2, i) === '--') {
          inQuote = '';
          state = 0;
        }
        break;
    }
  }
  return out;
}

// --- URL sanitiser (esc_url_raw / sanitize_url) -----------------------------------------------

const ALLOWED_PROTOCOLS = [
  'http', 'https', 'ftp', 'ftps', 'mailto', 'news', 'irc', 'irc6', 'ircs', 'gopher', 'nntp', 'feed',
  'telnet', 'mms', 'rtsp', 'sms', 'svn', 'tel', 'fax', 'xmpp', 'webcal', 'urn',
];

export function sanitizeUrl(value: unknown): string {
  if (!isScalar(value)) return '';
  let url = phpScalarString(value);
  if (url === '') return url;

  url = phpLtrim(url).replaceAll(' ', '%20');
  url = url.replace(/[^a-z0-9\-~+_.?#=!&;,/:%@$|*'()[\]\u0080-\uffff]/gi, '');
  if (url === '') return url;

  if (!asciiLower(url).startsWith('mailto:')) url = removeEncodedNewlines(url);
  url = url.replaceAll(';//', '://');
  // No scheme: presume http://, unless relative (/ # ?) or a PHP file.
  if (!url.includes(':') && !'/#?'.includes(url[0]!) && !/^[a-z0-9-]+?\.php/i.test(url)) url = 'http://' + url;
  if (url.includes('[') || url.includes(']')) url = encodeBracketsAfterHost(url);

  if (url[0] === '/') return url;
  const goodProtocolUrl = ksesBadProtocol(url);
  return asciiLower(goodProtocolUrl) === asciiLower(url) ? goodProtocolUrl : '';
}

/** _deep_replace of %0d/%0a/%0D/%0A; removals cannot overlap, so one stack pass suffices. */
function removeEncodedNewlines(url: string): string {
  if (!/%0[dDaA]/.test(url)) return url;
  const out: string[] = [];
  for (const ch of url) {
    out.push(ch);
    const n = out.length;
    if (n >= 3 && out[n - 3] === '%' && out[n - 2] === '0' && 'dDaA'.includes(out[n - 1]!)) out.length = n - 3;
  }
  return out.join('');
}

/** Square brackets are only legal in the host ([::1]); elsewhere they become %5B / %5D. */
function encodeBracketsAfterHost(url: string): string {
  let front = '';
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(url);
  if (scheme) {
    front = scheme[1] + '://';
    const authority = /^\/\/(?:([^/?#@]*)@)?(\[[^\]/?#]*\]|[^:/?#[\]]*)(?::(\d+))?/.exec(url.slice(scheme[0].length));
    if (authority) front += (authority[1] !== undefined ? authority[1] + '@' : '') + authority[2] + (authority[3] ? ':' + authority[3] : '');
  } else if (url[0] === '/') {
    front = '//';
  }
  const endDirty = front === '' ? url : url.replaceAll(front, '');
  const endClean = endDirty.replaceAll('[', '%5B').replaceAll(']', '%5D');
  return endDirty === '' ? url : url.replaceAll(endDirty, endClean);
}

/** wp_kses_bad_protocol: strips disallowed schemes, repeatedly (up to 6 times). */
function ksesBadProtocol(url: string): string {
  let content = ksesNoNull(url);
  if (content.startsWith('https://') || content.startsWith('http://')) return content;
  let original: string;
  let iterations = 0;
  do {
    original = content;
    content = ksesBadProtocolOnce(content, 1);
  } while (original !== content && ++iterations < 6);
  return original !== content ? '' : content;
}

function ksesBadProtocolOnce(text: string, count: number): string {
  let content = text.replace(/(&#0*58(?![;0-9])|&#x0*3a(?![;a-f0-9]))/gi, '$1;');
  const separator = /:|&#0*58;|&#x0*3a;|&colon;/i.exec(content);
  if (!separator) return content;
  const scheme = content.slice(0, separator.index);
  if (scheme.includes('/?')) return content;
  content = phpTrim(content.slice(separator.index + separator[0].length));
  const protocol = allowedProtocolPrefix(scheme);
  if (protocol === 'feed:') {
    if (count > 2) return '';
    content = ksesBadProtocolOnce(content, count + 1);
    if (content === '' || content === '0') return content;
  }
  return protocol + content;
}

function allowedProtocolPrefix(rawScheme: string): string {
  const scheme = asciiLower(
    ksesNoNull(
      rawScheme
        .replace(/&#([0-9]+);/g, (_, n: string) => String.fromCharCode(Number(n) % 256))
        .replace(/&#[Xx]([0-9A-Fa-f]+);/g, (_, h: string) => String.fromCharCode(parseInt(h, 16) % 256))
        .replace(/[ \t\n\r\v\f]/g, ''),
    ),
  );
  return ALLOWED_PROTOCOLS.includes(scheme) ? `${scheme}:` : '';
}

function ksesNoNull(text: string): string {
  return text.replace(/[\x00-\x08\x0B\x0C\x0E-\x1F]/g, '').replace(/\\+0+/g, '');
}

// ---------------------------------------------------------------------------------------------
// `pattern` and patternProperties: PCRE (Unicode mode, unanchored) run as a JS RegExp.

const patternCache = new Map<string, RegExp | null>();
const PATTERN_CACHE_LIMIT = 500;

/** A pattern that does not compile never matches, as preg_match() failing does. */
export function matchesPattern(pattern: string, value: string): boolean {
  if (!value.isWellFormed()) return false; // preg_match with /u fails on invalid UTF-8
  let regex = patternCache.get(pattern);
  if (regex === undefined) {
    regex = compilePcre(pattern);
    if (patternCache.size >= PATTERN_CACHE_LIMIT) patternCache.clear();
    patternCache.set(pattern, regex);
  }
  return regex !== null && regex.test(value);
}

export function compilePcre(pattern: string): RegExp | null {
  try {
    const translated = translatePcre(pattern);
    return translated === null ? null : new RegExp(translated.source, translated.flags);
  } catch {
    return null;
  }
}

// With PHP's /u, PCRE also turns on Unicode properties: \w, \d and friends are Unicode-aware.
const WORD_CHARS = '\\p{L}\\p{N}_';
const DIGIT_CHARS = '\\p{Nd}';
const HORIZONTAL_SPACE = '\\t \\u00A0\\u1680\\u180E\\u2000-\\u200A\\u202F\\u205F\\u3000';
const POSIX_CLASSES: Record<string, string> = {
  alpha: '\\p{L}', digit: '\\p{Nd}', alnum: '\\p{L}\\p{N}', upper: '\\p{Lu}', lower: '\\p{Ll}',
  space: '\\s', blank: '\\t \\p{Zs}', xdigit: '0-9A-Fa-f', word: WORD_CHARS, punct: '\\p{P}',
  cntrl: '\\p{Cc}', print: '\\P{C}',
};
const JS_SYNTAX_CHARS = '^$\\.*+?()[]{}|/';

/**
 * Rewrites the PCRE constructs that JavaScript lacks or reads differently: leading option
 * settings, `$` (also before a final newline), `.` (everything but \n), \A \z \Z \h \R \Q…\E
 * \x{…}, POSIX classes, Python-style named groups, identity escapes and lone braces (syntax
 * errors in JS Unicode mode), possessive quantifiers and atomic groups (approximated as
 * greedy). Returns null for constructs with no JS counterpart (recursion, \K, \G, …).
 */
function translatePcre(pattern: string): { source: string; flags: string } | null {
  let flags = 'u';
  let i = 0;
  const leading = /^\(\?([imsxU]+)\)/.exec(pattern);
  if (leading) {
    for (const f of leading[1]!) {
      if (f === 'x' || f === 'U') return null;
      if (!flags.includes(f)) flags += f;
    }
    i = leading[0].length;
  }
  const dotAll = flags.includes('s');
  const multiline = flags.includes('m');
  let out = '';
  let inClass = false;
  let classStart = false; // right after `[` or `[^`
  let prevClassAtomIsChar = false;

  const emitClassAtom = (atom: string, isChar: boolean) => {
    out += atom;
    prevClassAtomIsChar = isChar;
    classStart = false;
  };

  while (i < pattern.length) {
    const c = pattern[i]!;
    if (c === '\\') {
      const escape = translateEscape(pattern, i, inClass);
      if (escape === null) return null;
      if (inClass) emitClassAtom(escape.text, escape.isChar);
      else out += escape.text;
      i = escape.end;
      continue;
    }
    if (inClass) {
      if (c === ']' && !classStart) {
        out += ']';
        inClass = false;
      } else if (c === '[' && pattern[i + 1] === ':') {
        const posix = /^\[:(\^?)([a-z]+):\]/.exec(pattern.slice(i));
        if (!posix || !Object.hasOwn(POSIX_CLASSES, posix[2]!) || posix[1]) return null;
        emitClassAtom(POSIX_CLASSES[posix[2]!]!, false);
        i += posix[0].length;
        continue;
      } else if (c === '-') {
        // A range only between two single characters; otherwise a literal hyphen.
        const next = pattern[i + 1];
        const nextIsChar = next !== undefined && next !== ']' && !(next === '\\' && /[dDwWsShHpP]/.test(pattern[i + 2] ?? ''));
        if (prevClassAtomIsChar && nextIsChar && !classStart) {
          out += '-';
          prevClassAtomIsChar = false;
        } else emitClassAtom('\\-', true);
      } else emitClassAtom(JS_SYNTAX_CHARS.includes(c) || c === '-' ? '\\' + c : c, true);
      i++;
      continue;
    }
    switch (c) {
      case '[': {
        inClass = true;
        classStart = true;
        prevClassAtomIsChar = false;
        out += '[';
        i++;
        if (pattern[i] === '^') {
          out += '^';
          i++;
        }
        if (pattern[i] === ']') {
          out += '\\]'; // a leading `]` is a literal in PCRE
          prevClassAtomIsChar = true;
          classStart = false;
          i++;
        }
        continue;
      }
      case '$':
        out += multiline ? '$' : '(?=\\n?(?![\\s\\S]))';
        break;
      case '.':
        out += dotAll ? '.' : '[^\\n]';
        break;
      case '(': {
        const group = translateGroupOpening(pattern, i);
        if (group === null) return null;
        out += group.text;
        i = group.end;
        continue;
      }
      case '{': {
        const quantifier = /^\{\d+(?:,\d*)?\}/.exec(pattern.slice(i));
        if (quantifier) {
          out += quantifier[0];
          i += quantifier[0].length;
          if (pattern[i] === '+') i++; // possessive → greedy
          continue;
        }
        out += '\\{';
        break;
      }
      case '}':
      case ']':
        out += '\\' + c;
        break;
      case '*':
      case '+':
      case '?':
        out += c;
        if (pattern[i + 1] === '+') i++; // possessive → greedy
        break;
      default:
        out += c;
    }
    i++;
  }
  if (inClass) return null;
  return { source: out, flags };
}

function translateGroupOpening(pattern: string, i: number): { text: string; end: number } | null {
  const rest = pattern.slice(i);
  if (!rest.startsWith('(?')) return { text: '(', end: i + 1 };
  const named = /^\(\?(?:P?<([A-Za-z_][A-Za-z0-9_]*)>|'([A-Za-z_][A-Za-z0-9_]*)')/.exec(rest);
  if (named) return { text: `(?<${named[1] ?? named[2]}>`, end: i + named[0].length };
  const backReference = /^\(\?P=([A-Za-z_][A-Za-z0-9_]*)\)/.exec(rest);
  if (backReference) return { text: `\\k<${backReference[1]}>`, end: i + backReference[0].length };
  const comment = /^\(\?#[^)]*\)/.exec(rest);
  if (comment) return { text: '', end: i + comment[0].length };
  if (rest.startsWith('(?>')) return { text: '(?:', end: i + 3 }; // atomic → plain group
  if (/^\(\?(?::|=|!|<=|<!)/.test(rest)) {
    const opening = /^\(\?(?::|=|!|<=|<!)/.exec(rest)![0];
    return { text: opening, end: i + opening.length };
  }
  const modifiers = /^\(\?([ims]*)(?:-([ims]*))?:/.exec(rest);
  if (modifiers) return { text: modifiers[0], end: i + modifiers[0].length };
  return null; // recursion, conditionals, inline options mid-pattern…
}

function translateEscape(pattern: string, i: number, inClass: boolean): { text: string; end: number; isChar: boolean } | null {
  const c = pattern[i + 1];
  if (c === undefined) return null;
  const simple = (text: string, isChar = false) => ({ text, end: i + 2, isChar });
  switch (c) {
    case 'w':
      return simple(inClass ? WORD_CHARS : `[${WORD_CHARS}]`);
    case 'W':
      return inClass ? null : simple(`[^${WORD_CHARS}]`);
    case 'd':
      return simple(DIGIT_CHARS);
    case 'D':
      return simple('\\P{Nd}');
    case 's':
    case 'S':
      return simple('\\' + c);
    case 'b':
      return simple(inClass ? '\\x08' : '\\b', inClass); // backspace inside a class
    case 'B':
      return inClass ? null : simple('\\B');
    case 'h':
      return simple(inClass ? HORIZONTAL_SPACE : `[${HORIZONTAL_SPACE}]`);
    case 'H':
      return inClass ? null : simple(`[^${HORIZONTAL_SPACE}]`);
    case 'R':
      return inClass ? null : simple('(?:\\r\\n|[\\n\\v\\f\\r\\u0085\\u2028\\u2029])');
    case 'A':
      return inClass ? null : simple('(?<![\\s\\S])');
    case 'z':
      return inClass ? null : simple('(?![\\s\\S])');
    case 'Z':
      return inClass ? null : simple('(?=\\n?(?![\\s\\S]))');
    case 'e':
      return simple('\\x1B', true);
    case 'a':
      return simple('\\x07', true);
    case 'n':
    case 'r':
    case 't':
    case 'f':
    case 'v':
      return simple('\\' + c, true);
    case 'x': {
      const braced = /^\\x\{([0-9a-fA-F]{1,6})\}/.exec(pattern.slice(i));
      if (braced) return { text: `\\u{${braced[1]}}`, end: i + braced[0].length, isChar: true };
      const short = /^\\x([0-9a-fA-F]{0,2})/.exec(pattern.slice(i))!;
      return { text: `\\u{${short[1] || '0'}}`, end: i + short[0].length, isChar: true };
    }
    case 'p':
    case 'P': {
      const property = /^\\[pP](?:\{(\^?)([A-Za-z_&]+)\}|([A-Za-z]))/.exec(pattern.slice(i));
      if (!property) return null;
      const negated = (c === 'P') !== Boolean(property[1]);
      const name = property[2] ?? property[3]!;
      const jsName = /^(?:L[ultmo&]?|M[nce]?|N[dlo]?|P[cdseifo]?|S[mcko]?|Z[slp]?|C[cfson]?|Any)$/.test(name)
        ? name.replace('&', 'C') // PCRE's L& is LC
        : `Script=${name}`;
      return { text: `\\${negated ? 'P' : 'p'}{${jsName}}`, end: i + property[0].length, isChar: false };
    }
    case 'Q': {
      const close = pattern.indexOf('\\E', i + 2);
      const literal = pattern.slice(i + 2, close === -1 ? undefined : close);
      const escaped = Array.from(literal, (ch) => (/[0-9A-Za-z]/.test(ch) ? ch : `\\u{${ch.codePointAt(0)!.toString(16)}}`)).join('');
      return { text: inClass ? escaped : `(?:${escaped})`, end: close === -1 ? pattern.length : close + 2, isChar: false };
    }
    case 'E':
      return { text: '', end: i + 2, isChar: false };
  }
  if (/[0-9]/.test(c)) {
    if (inClass) return null;
    const digits = /^\\([0-9]+)/.exec(pattern.slice(i))!;
    return { text: '\\' + digits[1], end: i + digits[0].length, isChar: false };
  }
  if (/[A-Za-z]/.test(c)) return null; // \K \G \X \C and unknown letters
  // Identity escape of a non-alphanumeric: only syntax characters may be escaped in JS /u.
  const code = pattern.codePointAt(i + 1)!;
  const ch = String.fromCodePoint(code);
  const text = JS_SYNTAX_CHARS.includes(ch) || (inClass && ch === '-') ? '\\' + ch : `\\u{${code.toString(16)}}`;
  return { text, end: i + 1 + ch.length, isChar: true };
}

// ---------------------------------------------------------------------------------------------
// PHP values: what the reference's is_numeric(), (int), (string), wp_parse_list()… do, applied
// to the JavaScript values a request can carry.

function isNull(value: unknown): boolean {
  return value === null || value === undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** A PHP array: a list or a map. */
function isPhpArray(value: unknown): value is unknown[] | Record<string, unknown> {
  return Array.isArray(value) || isPlainObject(value);
}

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/**
 * A list or map read as a map: a list's keys are its indexes as strings, which is what
 * Object.keys gives for the (never sparse) lists of parsed input. '' and scalars are empty.
 */
function asMap(value: unknown): Record<string, unknown> {
  return isPhpArray(value) ? (value as Record<string, unknown>) : {};
}

/** Key/value pairs of a PHP array (list indexes as strings). */
function toEntries(value: unknown): [string, unknown][] {
  if (Array.isArray(value)) return value.map((item, index) => [String(index), item]);
  if (isPlainObject(value)) return Object.keys(value).map((key) => [key, value[key]]);
  return [];
}

// PHP 8 numeric strings: optional surrounding whitespace, sign, decimal digits, exponent.
const NUMERIC_STRING = /^[ \t\n\r\v\f]*[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?[ \t\n\r\v\f]*$/;
const LEADING_NUMERIC = /^[ \t\n\r\v\f]*[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/;

/** is_numeric(), except that values overflowing to ±Infinity are not numbers here. */
function isNumeric(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'string' || !NUMERIC_STRING.test(value)) return false;
  return Number.isFinite(Number(value.trim()));
}

/** rest_is_integer: numeric without a fractional part. */
function isIntegerLike(value: unknown): boolean {
  if (!isNumeric(value)) return false;
  const n = toNumber(value);
  return Math.round(n) === n;
}

/** rest_is_boolean: booleans, "true"/"false"/"1"/"0" in any case, and the integers 0 and 1. */
function isBooleanLike(value: unknown): boolean {
  if (typeof value === 'boolean') return true;
  if (typeof value === 'string') return ['false', 'true', '0', '1'].includes(asciiLower(value));
  return value === 0 || value === 1;
}

/** rest_is_array: a list, or any scalar (split as a comma/space separated list). */
function isArrayLike(value: unknown): boolean {
  if (isScalar(value)) return true;
  if (Array.isArray(value)) return true;
  return isPlainObject(value) && Object.keys(value).every(isPhpIntegerKey);
}

/** rest_is_object: a map, a list, or the empty string. */
function isObjectLike(value: unknown): boolean {
  return value === '' || isPhpArray(value);
}

/** PHP turns keys like "0" and "-5" (but not "05") into integer keys. */
function isPhpIntegerKey(key: string): boolean {
  return /^(?:0|-?[1-9][0-9]{0,18})$/.test(key) && Number.isSafeInteger(Number(key));
}

/** rest_sanitize_array: scalars via wp_parse_list, arrays re-indexed, anything else empty. */
function toList(value: unknown): unknown[] {
  if (isScalar(value)) return parseList(phpScalarString(value));
  if (Array.isArray(value)) return Array.from(value, (item) => item ?? null);
  if (isPlainObject(value)) return Object.keys(value).map((key) => value[key]);
  return [];
}

/** wp_parse_list: split on runs of commas and/or (ASCII) whitespace, empty pieces dropped. */
function parseList(text: string): string[] {
  return text.split(/[ \t\n\r\v\f,]+/).filter((piece) => piece !== '');
}

function toInteger(value: unknown): number {
  const n = Math.trunc(toNumber(value));
  return n === 0 ? 0 : n; // no -0
}

/** (float) cast: numeric prefix of strings, 1/0 for booleans, 0 for null, 1/0 for (non-)empty arrays. */
function toNumber(value: unknown): number {
  let n: number;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'boolean') n = value ? 1 : 0;
  else if (typeof value === 'string') {
    const prefix = LEADING_NUMERIC.exec(value);
    n = prefix ? Number(prefix[0].trim()) : 0;
  } else if (isPhpArray(value)) n = toEntries(value).length > 0 ? 1 : 0;
  else n = 0;
  return Number.isFinite(n) ? n : 0;
}

/** rest_sanitize_boolean: "false" and "0" (any case) are false, the rest is PHP truthiness. */
function toBoolean(value: unknown): boolean {
  if (typeof value === 'string') return !['false', '0', ''].includes(asciiLower(value));
  if (isPhpArray(value)) return toEntries(value).length > 0;
  return Boolean(value);
}

/** (string) cast; arrays become "Array" as in PHP. */
function phpString(value: unknown): string {
  if (isNull(value)) return '';
  if (isScalar(value)) return phpScalarString(value);
  return isPhpArray(value) ? 'Array' : '';
}

function phpScalarString(value: string | number | boolean): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? '1' : '';
  return phpNumberString(value);
}

/** PHP's float-to-string (precision 14): 0.1 + 0.2 → "0.3", 1e25 → "1.0E+25". */
function phpNumberString(n: number): string {
  if (Number.isNaN(n)) return 'NAN';
  if (!Number.isFinite(n)) return n > 0 ? 'INF' : '-INF';
  if (Number.isSafeInteger(n)) return String(n);
  const [mantissa, exponentText] = n.toExponential(13).split('e') as [string, string];
  const sign = mantissa.startsWith('-') ? '-' : '';
  const digits = mantissa.replace('-', '').replace('.', '').replace(/0+$/, '') || '0';
  const exponent = Number(exponentText);
  const decimalPoint = exponent + 1;
  if (decimalPoint < -3 || decimalPoint > 14) {
    return `${sign}${digits[0]}.${digits.slice(1) || '0'}E${exponent < 0 ? '-' : '+'}${Math.abs(exponent)}`;
  }
  if (decimalPoint <= 0) return `${sign}0.${'0'.repeat(-decimalPoint)}${digits}`;
  if (decimalPoint >= digits.length) return sign + digits + '0'.repeat(decimalPoint - digits.length);
  return `${sign}${digits.slice(0, decimalPoint)}.${digits.slice(decimalPoint)}`;
}

/** sprintf('%d'): the bound truncated to an integer. */
function phpIntString(n: number): string {
  const truncated = Math.trunc(n);
  return truncated === 0 ? '0' : BigInt(truncated).toString();
}

/** "N thing(s)" with _n()'s singular for 1 and number_format_i18n()'s thousands separators. */
function countNoun(n: number, singular: string, plural: string): string {
  const rounded = Math.round(Math.abs(n)) * Math.sign(n);
  const formatted = BigInt(rounded === 0 ? 0 : rounded).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${formatted} ${Math.trunc(n) === 1 ? singular : plural}`;
}

/** wp_sprintf's %l: "A", "A and B", "A, B, and C". */
function humanList(items: string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  if (items.length === 2) return `${items[0]} and ${items[1]}`;
  return `${items.slice(0, -1).join(', ')}, and ${items[items.length - 1]}`;
}

/** json_encode() defaults: slashes and non-ASCII characters escaped. */
function phpJsonEncode(value: unknown): string {
  const json = JSON.stringify(value) ?? 'null';
  return json.replace(/[\u0080-\uffff]/g, (ch) => '\\u' + ch.charCodeAt(0).toString(16).padStart(4, '0')).replaceAll('/', '\\/');
}

function codePointLength(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // A surrogate pair is one code point; a lone surrogate counts as one.
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    length++;
  }
  return length;
}

/** rest_validate_array_contains_unique_items: strict equality after sorting keys recursively. */
function hasUniqueItems(list: unknown[]): boolean {
  const seen = new Set<string>();
  for (const item of list) {
    const key = stableKey(item);
    if (seen.has(key)) return false;
    seen.add(key);
  }
  return true;
}

/** A serialisation in which equal values (maps with keys in any order) give equal strings. */
function stableKey(value: unknown): string {
  if (isNull(value)) return 'N';
  if (typeof value === 'boolean') return value ? 'b1' : 'b0';
  if (typeof value === 'number') return (Number.isInteger(value) ? 'i' : 'd') + String(value);
  if (typeof value === 'string') return 's' + JSON.stringify(value);
  if (isPhpArray(value)) {
    const entries = toEntries(value).sort(([a], [b]) => compareKeys(a, b));
    return 'a{' + entries.map(([key, item]) => `${JSON.stringify(key)}:${stableKey(item)}`).join(',') + '}';
  }
  return 'o' + String(value);
}

function compareKeys(a: string, b: string): number {
  if (isPhpIntegerKey(a) && isPhpIntegerKey(b)) return Number(a) - Number(b);
  return a < b ? -1 : a > b ? 1 : 0;
}

const PHP_TRIM_CHARS = ' \t\n\r\0\x0B';

function phpTrim(text: string, chars = PHP_TRIM_CHARS): string {
  let start = 0;
  let end = text.length;
  while (start < end && chars.includes(text[start]!)) start++;
  while (end > start && chars.includes(text[end - 1]!)) end--;
  return text.slice(start, end);
}

function phpLtrim(text: string): string {
  let start = 0;
  while (start < text.length && PHP_TRIM_CHARS.includes(text[start]!)) start++;
  return text.slice(start);
}
