// How routes appear in the index, the namespace indexes and OPTIONS (reference rest-core §1.2–1.3).
import type { ArgSchema, Args, Lang } from './types.ts';
import type { CompiledRoute } from './registry.ts';
import { pick } from './define.ts';

/** The only arg keys the index exposes, as the reference lists them; `required` is appended. */
export const EXPOSED_KEYWORDS = new Set([
  'title',
  'description',
  'default',
  'type',
  'format',
  'enum',
  'items',
  'properties',
  'additionalProperties',
  'patternProperties',
  'minProperties',
  'maxProperties',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'uniqueItems',
  'anyOf',
  'oneOf',
]);

/** Nested schemas are copied as they are, but localized and without functions. */
function localizeNested(value: unknown, lang: Lang): unknown {
  if (Array.isArray(value)) return value.map((v) => localizeNested(v, lang));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (typeof v === 'function') continue;
    out[key] =
      key === 'description' && v && typeof v === 'object' && 'en' in v
        ? pick(v as { en: string; de: string }, lang)
        : localizeNested(v, lang);
  }
  return out;
}

export function describeArg(arg: ArgSchema, lang: Lang): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(arg)) {
    if (!EXPOSED_KEYWORDS.has(key) || value === undefined) continue;
    out[key] =
      key === 'description' ? pick(value as ArgSchema['description'] & object, lang) : localizeNested(value, lang);
  }
  out.required = arg.required === true;
  return out;
}

/** Endpoint `args`: an empty JSON array when there are none, as the reference emits. Internal args are not listed. */
export function describeArgs(args: Args, lang: Lang): Record<string, unknown> | [] {
  const names = Object.keys(args).filter((name) => !args[name]!.internal);
  if (!names.length) return [];
  const out: Record<string, unknown> = {};
  for (const name of names) out[name] = describeArg(args[name]!, lang);
  return out;
}

export interface DescribeOptions {
  lang: Lang;
  /** `help` adds the route's schema. */
  help: boolean;
  /** Absolute URL of a route under the API root (for `_links.self`). */
  restUrl: (route: string) => string;
}

export function describeRoute(route: CompiledRoute, opts: DescribeOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {
    namespace: route.namespace,
    methods: route.endpoints.flatMap((e) => e.methods),
    endpoints: route.endpoints.map((e) => ({ methods: e.methods, args: describeArgs(e.args, opts.lang) })),
  };
  if (opts.help && route.schema) out.schema = route.schema(opts.lang);
  if (!route.hasVariables) out._links = { self: [{ href: opts.restUrl(route.pattern) }] };
  return out;
}

export function describeRoutes(routes: CompiledRoute[], opts: DescribeOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const route of routes) out[route.pattern] = describeRoute(route, opts);
  return out;
}
