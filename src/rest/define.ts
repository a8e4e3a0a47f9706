// Small constructors that keep route declarations short and declarative.
import type {
  Args,
  EndpointDef,
  Handler,
  HttpMethod,
  Lang,
  Localized,
  NamespaceDef,
  ParamsOf,
  Permission,
  RestRequest,
  RouteDef,
} from './types.ts';
import { RestError } from './types.ts';

/** A text in English and German. */
export function l(en: string, de: string): Localized {
  return { en, de };
}

export function pick(text: Localized | string, lang: Lang): string {
  return typeof text === 'string' ? text : text[lang];
}

export const PUBLIC: Permission = { kind: 'public' };
export const LOGGED_IN: Permission = { kind: 'logged_in' };
export function cap(capability: string): Permission {
  return { kind: 'cap', cap: capability };
}
export function custom(
  label: Localized | string,
  check: (req: RestRequest) => boolean | RestError | Promise<boolean | RestError>,
  capability?: string,
): Permission {
  return { kind: 'custom', label, check, ...(capability ? { cap: capability } : {}) };
}

/**
 * An endpoint. Its handler's `params` are typed from its `args` (ParamsOf): the pipeline has
 * validated, sanitised and defaulted them, so handlers and services trust them as they are.
 */
export function endpoint<const A extends Args = {}>(
  methods: HttpMethod | HttpMethod[],
  def: Omit<EndpointDef, 'methods' | 'args' | 'handler'> & { args?: A; handler: Handler<ParamsOf<A>> },
): EndpointDef {
  // The one place where typed params meet the registry's untyped ones: sound, because the
  // pipeline only calls the handler with params that passed these very args.
  return {
    ...def,
    methods: Array.isArray(methods) ? methods : [methods],
    args: def.args ?? {},
    handler: def.handler as Handler,
  };
}

export function route(path: string, endpoints: EndpointDef[], schema?: (lang: Lang) => unknown): RouteDef {
  return schema ? { path, endpoints, schema } : { path, endpoints };
}

export function namespace(name: string, routes: RouteDef[]): NamespaceDef {
  return { namespace: name, routes };
}

/** Methods the reference groups as "editable". */
export const EDITABLE: HttpMethod[] = ['POST', 'PUT', 'PATCH'];

/** An error whose message is localized into the request's language. */
export function restError(
  req: { lang: Lang },
  code: string,
  message: Localized,
  status: number,
  data: Record<string, unknown> = {},
): RestError {
  return new RestError(code, message[req.lang], status, data);
}
