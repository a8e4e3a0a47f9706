// The failures the schema engine reports: SchemaError (plain, for responses), SchemaFailure
// (what sanitising returns instead of a value) and the reference's wording of the errors that
// pick among anyOf/oneOf candidates (rest_get_combining_operation_error).
import { schemaMap, type Schema } from './keywords.ts';
import { humanList, isPhpArray, isPlainObject, toEntries } from './php.ts';

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

export function plainError(e: SchemaError): SchemaError {
  return { code: e.code, message: e.message, data: e.data };
}

export function failure(code: string, message: string, data: unknown = null): SchemaFailure {
  return new SchemaFailure(code, message, data);
}

export function invalidType(name: string, type: string): SchemaFailure {
  return failure('rest_invalid_type', `${name} is not of type ${type}.`, { param: name });
}

export function duplicateItems(name: string): SchemaFailure {
  return failure('rest_duplicate_items', `${name} has duplicate items.`);
}

// --- anyOf / oneOf ----------------------------------------------------------------------------

export interface CandidateError {
  error: SchemaFailure;
  schema: Schema;
  index: number;
}

/** rest_get_combining_operation_error: picks the most telling candidate error. */
export function combiningError(value: unknown, name: string, errors: CandidateError[]): SchemaFailure {
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

  const titles = errors
    .filter((e) => e.schema.title !== undefined && e.schema.title !== null)
    .map((e) => String(e.schema.title));
  if (titles.length === errors.length)
    return failure('rest_no_matching_schema', `${name} is not a valid ${humanList(titles)}.`);
  return failure('rest_no_matching_schema', `${name} does not match any of the expected formats.`);
}

function candidateFailure(name: string, { error, schema, index }: CandidateError): SchemaFailure {
  if (schema.title !== undefined && schema.title !== null) {
    return failure(
      'rest_no_matching_schema',
      `${name} is not a valid ${String(schema.title)}. Reason: ${error.message}`,
      { position: index },
    );
  }
  return failure('rest_no_matching_schema', `${name} does not match the expected format. Reason: ${error.message}`, {
    position: index,
  });
}
