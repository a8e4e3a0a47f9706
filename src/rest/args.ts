// The pipeline's reading of an endpoint's args: parameters looked up through the request's
// layers, the per-endpoint plan (required, defaults, URL parameters), undeclared parameters,
// invalid args and an arg's own validate and sanitize callbacks.
import type { ArgSchema, EndpointDef, RestRequest } from './types.ts';
import { RestError } from './types.ts';
import { MSG } from './messages.ts';
import { ownValue } from '../util.ts';

export type Layers = Record<string, unknown>[];

/** Looks a parameter up through the layers: the first with a non-null value wins. */
export function lookup(layers: Layers, name: string): unknown {
  for (const layer of layers) {
    const v = ownValue(layer, name);
    if (v !== undefined && v !== null) return v;
  }
  return undefined;
}

/** The query and body parameters an endpoint does not declare, lowest layer first (so higher ones win). */
export function collectUndeclared(endpoint: EndpointDef, layers: Layers, into: Record<string, unknown>): void {
  const [json, form, query] = layers as [Record<string, unknown>, Record<string, unknown>, Record<string, unknown>];
  for (const layer of [query, form, json]) {
    for (const [name, value] of Object.entries(layer)) {
      if (!Object.hasOwn(endpoint.args, name) && !name.startsWith('_') && name !== 'rest_route') into[name] = value;
    }
  }
}

/** What the pipeline reads of an endpoint's args on every request, worked out once per endpoint. */
export interface ArgPlan {
  args: [string, ArgSchema][];
  required: string[];
  defaults: Record<string, unknown>;
  /** Args filled from a URL parameter: [arg, URL parameter]. */
  fromUrl: [string, string][];
}
const argPlans = new WeakMap<EndpointDef, ArgPlan>();

export function argPlan(endpoint: EndpointDef): ArgPlan {
  let plan = argPlans.get(endpoint);
  if (!plan) {
    const args = Object.entries(endpoint.args);
    plan = {
      args,
      required: args.filter(([, arg]) => arg.required === true).map(([name]) => name),
      defaults: Object.fromEntries(
        args
          .filter(([, arg]) => arg.default !== undefined && arg.default !== null)
          .map(([name, arg]) => [name, arg.default]),
      ),
      fromUrl: args.filter(([, arg]) => arg.urlParam).map(([name, arg]) => [name, arg.urlParam!]),
    };
    argPlans.set(endpoint, plan);
  }
  return plan;
}

/** The invalid args of a request: the first message of each, and the error details where known. */
export interface InvalidArgs {
  messages: Record<string, string>;
  details: Record<string, unknown>;
}

/** Records an invalid arg (its first error only); made on the first, as most requests have none. */
export function addInvalid(
  invalid: InvalidArgs | null,
  name: string,
  message: string,
  detail?: { code: string; message: string; data: unknown },
): InvalidArgs {
  const found = invalid ?? { messages: {}, details: {} };
  if (!(name in found.messages)) {
    found.messages[name] = message;
    if (detail) found.details[name] = detail;
  }
  return found;
}

/**
 * The validate and sanitize callbacks of an arg. A validate callback that answers false is a
 * plain refusal: "Invalid parameter." without an entry in `details`, as the reference has it.
 */
export function runCustomCallbacks(
  arg: ArgSchema,
  value: unknown,
  req: RestRequest,
  name: string,
): RestError | { refused: string } | { changed: boolean; value: unknown } {
  if (arg.validate) {
    const verdict = arg.validate(value, req, name);
    if (verdict instanceof RestError) return verdict;
    if (verdict === false) return { refused: MSG.invalidParameter[req.lang] };
    if (verdict !== true)
      return new RestError(
        'rest_invalid_param',
        typeof verdict === 'string' ? verdict : MSG.invalidParameter[req.lang],
        400,
      );
  }
  if (arg.sanitize) return { changed: true, value: arg.sanitize(value, req, name) };
  return { changed: false, value };
}
