// Small constructors that keep route declarations short and declarative.
import type { Args, EndpointDef, HttpMethod, Lang, Localized, NamespaceDef, Permission, RestRequest, RouteDef } from './types.ts';
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
export function custom(label: string, check: (req: RestRequest) => boolean | RestError | Promise<boolean | RestError>, capability?: string): Permission {
  return { kind: 'custom', label, check, ...(capability ? { cap: capability } : {}) };
}

export function endpoint(methods: HttpMethod | HttpMethod[], def: Omit<EndpointDef, 'methods' | 'args'> & { args?: Args }): EndpointDef {
  return { methods: Array.isArray(methods) ? methods : [methods], args: def.args ?? {}, ...def };
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
export function restError(req: { lang: Lang }, code: string, message: Localized, status: number, data: Record<string, unknown> = {}): RestError {
  return new RestError(code, message[req.lang], status, data);
}
