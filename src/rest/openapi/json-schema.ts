// The registry's arg schemas and route schemas as JSON Schema 2020-12, the dialect of OpenAPI 3.1.
import type { ArgSchema, Lang } from '../types.ts';
import { pick } from '../define.ts';
import { EXPOSED_KEYWORDS } from '../describe.ts';

export type Json = Record<string, unknown>;

/**
 * The keys of the registry's arg schemas copied as they are: those the index exposes, but the
 * description (localized) and the draft-4 boolean exclusive bounds (turned into 2020-12's numbers).
 */
const SCHEMA_KEYWORDS = new Set(
  [...EXPOSED_KEYWORDS].filter((key) => !['description', 'exclusiveMinimum', 'exclusiveMaximum'].includes(key)),
);

/**
 * An arg schema as JSON Schema 2020-12: description localized; draft-3/4 forms modernized
 * (boolean `exclusiveMinimum`, `required: true` on a property); the server's callbacks dropped.
 */
export function jsonSchemaOf(arg: ArgSchema, lang: Lang): Json {
  const out: Json = {};
  if (arg.description !== undefined) out.description = pick(arg.description, lang);
  for (const [key, value] of Object.entries(arg)) {
    if (!SCHEMA_KEYWORDS.has(key) || value === undefined) continue;
    if (key === 'items' || key === 'additionalProperties')
      out[key] = typeof value === 'object' ? jsonSchemaOf(value as ArgSchema, lang) : value;
    else if (key === 'anyOf' || key === 'oneOf') out[key] = (value as ArgSchema[]).map((s) => jsonSchemaOf(s, lang));
    else if (key === 'properties' || key === 'patternProperties')
      out[key] = mapValues(value as Record<string, ArgSchema>, (s) => jsonSchemaOf(s, lang));
    else out[key] = value;
  }
  if (arg.exclusiveMinimum && arg.minimum !== undefined) {
    out.exclusiveMinimum = arg.minimum;
    delete out.minimum;
  }
  if (arg.exclusiveMaximum && arg.maximum !== undefined) {
    out.exclusiveMaximum = arg.maximum;
    delete out.maximum;
  }
  if (arg.properties) {
    const required = Array.isArray(arg.required)
      ? [...arg.required]
      : Object.keys(arg.properties).filter((name) => arg.properties![name]!.required === true);
    if (required.length) out.required = required;
  }
  return out;
}

function mapValues<V>(record: Record<string, V>, fn: (value: V) => Json): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(record)) out[key] = fn(value);
  return out;
}

/** A route's schema (draft-04, as the reference declares it) without its `$schema`, which 2020-12 would misread. */
export function resourceSchema(schema: unknown): Json {
  const { $schema: _dialect, ...rest } = schema as Json;
  return rest;
}
