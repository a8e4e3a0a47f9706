// The route registry: every route of the site, declared once, compiled for matching.
// The index, namespace indexes, OPTIONS, Allow, validation and batch dispatch all read it.
import type { ArgSchema, EndpointDef, HttpMethod, Lang, NamespaceDef, RouteDef } from './types.ts';
import { l } from './define.ts';

/** Added to every endpoint of every route (contract §4: "Every route accepts i18n_language"). */
export const I18N_LANGUAGE_ARG: ArgSchema = {
  description: l(
    'Language of the response (descriptions, messages, localized content); defaults to the language of the API root.',
    'Sprache der Antwort (Beschreibungen, Meldungen, lokalisierte Inhalte); Standard ist die Sprache des API-Stamms.',
  ),
  type: 'string',
  enum: ['en', 'de'],
};

export interface CompiledRoute {
  /** The pattern as shown in the index, e.g. /history/v1/events/(?P<event_id>\d+). */
  pattern: string;
  namespace: string;
  regex: RegExp;
  /** True when the pattern has named groups (no `_links.self` in the index). */
  hasVariables: boolean;
  endpoints: EndpointDef[];
  schema?: (lang: Lang) => unknown;
}

export interface RouteMatch {
  route: CompiledRoute;
  urlParams: Record<string, string>;
}

export interface EndpointMatch extends RouteMatch {
  endpoint: EndpointDef;
}

/** Turns the reference's PCRE-style pattern into an anchored, case-insensitive JS RegExp. */
export function compilePattern(pattern: string): RegExp {
  return new RegExp(`^${pattern.replace(/\(\?P</g, '(?<')}$`, 'i');
}

function withLanguageArg(endpoint: EndpointDef): EndpointDef {
  return { ...endpoint, args: { ...endpoint.args, i18n_language: I18N_LANGUAGE_ARG } };
}

export class Registry {
  readonly routes: CompiledRoute[] = [];
  readonly namespaces: string[] = [];
  /** Each namespace lower-cased with a trailing slash, as paths are compared with it. */
  private readonly prefixes: string[] = [];
  private readonly byNamespace = new Map<string, CompiledRoute[]>();

  /**
   * @param rootRoutes routes outside any namespace (`/`, `/batch/v1`), shown first.
   * @param namespaceDefs namespaces in index order; each gets its namespace index route first.
   * @param namespaceIndex builds the namespace index route of a namespace.
   */
  constructor(
    rootRoutes: RouteDef[],
    namespaceDefs: readonly NamespaceDef[],
    namespaceIndex: (ns: string) => RouteDef,
  ) {
    for (const def of rootRoutes) this.add('', def.path, def);
    for (const ns of namespaceDefs) {
      this.namespaces.push(ns.namespace);
      this.prefixes.push(ns.namespace.toLowerCase() + '/');
      const prefix = `/${ns.namespace}`;
      this.add(ns.namespace, prefix, namespaceIndex(ns.namespace));
      for (const def of ns.routes) this.add(ns.namespace, prefix + def.path, def);
    }
  }

  private add(namespace: string, pattern: string, def: RouteDef): void {
    const compiled: CompiledRoute = {
      pattern,
      namespace,
      regex: compilePattern(pattern),
      hasVariables: /\(\?P</.test(pattern),
      endpoints: def.endpoints.map(withLanguageArg),
      ...(def.schema ? { schema: def.schema } : {}),
    };
    this.routes.push(compiled);
    if (namespace) {
      const list = this.byNamespace.get(namespace) ?? [];
      list.push(compiled);
      this.byNamespace.set(namespace, list);
    }
  }

  routesOf(namespace: string): CompiledRoute[] | undefined {
    return this.byNamespace.get(namespace);
  }

  /**
   * Routes to try for a path: only those of namespaces the path starts with (as the
   * reference's matching optimisation), else all of them.
   */
  private candidates(path: string): CompiledRoute[] {
    const probe = path.replace(/^\//, '').toLowerCase() + '/';
    let first = -1;
    let count = 0;
    for (let i = 0; i < this.prefixes.length; i++) {
      if (!probe.startsWith(this.prefixes[i]!)) continue;
      if (first < 0) first = i;
      count++;
    }
    if (!count) return this.routes;
    // One namespace (the usual case): its routes, in registry order, without building a list.
    if (count === 1) return this.byNamespace.get(this.namespaces[first]!)!;
    const matching = this.namespaces.filter((_, i) => probe.startsWith(this.prefixes[i]!));
    return this.routes.filter((r) => matching.includes(r.namespace));
  }

  /** First route whose pattern matches the path, whatever the method (OPTIONS, Allow). */
  matchPath(path: string): RouteMatch | null {
    for (const route of this.candidates(path)) {
      const m = route.regex.exec(path);
      if (m) return { route, urlParams: { ...(m.groups ?? {}) } };
    }
    return null;
  }

  /**
   * First route matching the path with a handler for the method; a route that matches
   * without the method lets matching continue (the reference never answers 405).
   */
  match(path: string, method: HttpMethod): EndpointMatch | null {
    for (const route of this.candidates(path)) {
      const m = route.regex.exec(path);
      if (!m) continue;
      const endpoint = route.endpoints.find((e) => e.methods.includes(method));
      if (endpoint) return { route, endpoint, urlParams: { ...(m.groups ?? {}) } };
    }
    return null;
  }
}
