// The vocabulary of the route registry. Every route of the site is declared once with
// these types; the index, OPTIONS, Allow, validation and batch dispatch all read them.
import type { AppServices } from '../site/services.ts';
import type { AuthUser } from '../auth/types.ts';

export type Lang = 'en' | 'de';
export const LANGS: readonly Lang[] = ['en', 'de'];

/** A human-readable text in both languages of the site. */
export interface Localized {
  en: string;
  de: string;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type JsonType = 'array' | 'object' | 'string' | 'number' | 'integer' | 'boolean' | 'null';

/**
 * A JSON-Schema-like argument definition, as the reference's REST server understands it
 * (rest-core §3). Nested schemas (items, properties, anyOf…) use the same shape; their
 * descriptions may be plain strings.
 */
export interface ArgSchema {
  title?: string;
  description?: Localized | string;
  default?: unknown;
  type?: JsonType | readonly JsonType[];
  format?: 'date-time' | 'email' | 'ip' | 'uuid' | 'hex-color' | 'uri' | 'text-field' | 'textarea-field';
  enum?: readonly unknown[];
  items?: ArgSchema;
  properties?: Record<string, ArgSchema>;
  additionalProperties?: boolean | ArgSchema;
  patternProperties?: Record<string, ArgSchema>;
  minProperties?: number;
  maxProperties?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  anyOf?: readonly ArgSchema[];
  oneOf?: readonly ArgSchema[];
  /** Top level: boolean (required arg). Inside an object schema: list of required properties. */
  required?: boolean | readonly string[];
  /**
   * Extra check run after the schema check, on the sanitised value (the reference's
   * validate_callback). Return true when valid, or a message / RestError when not; false is
   * the reference's plain "Invalid parameter." (no entry in the error's `details`).
   */
  validate?: (value: unknown, req: RestRequest, name: string) => boolean | string | RestError;
  /**
   * The path variable this arg takes its value from when the caller does not give it, e.g.
   * `user_id` for the `id` of `/users/(?P<user_id>\d+)/card` (query and body still outrank it).
   */
  urlParam?: string;
  /**
   * Extra transformation after schema sanitisation (the reference's sanitize_callback). Its
   * return type is the type the handler sees (e.g. a parsed list).
   */
  sanitize?: (value: unknown, req: RestRequest, name: string) => unknown;
  /**
   * Validated, sanitised and typed like any arg, but not listed in the index or OPTIONS: for
   * parameters the original understands without declaring them (the contract lists exactly
   * the declared ones).
   */
  internal?: boolean;
}

export type Args = Record<string, ArgSchema>;

// ---- Typed arguments: what a handler's `params` hold, derived from its endpoint's `args` ----

type ValueOfType<T, S> = T extends 'integer' | 'number'
  ? number
  : T extends 'string'
    ? string
    : T extends 'boolean'
      ? boolean
      : T extends 'null'
        ? null
        : T extends 'array'
          ? S extends { items: infer I }
            ? ArgValue<I>[]
            : unknown[]
          : T extends 'object'
            ? Record<string, unknown>
            : unknown;

/** The type of a validated value of schema S: its sanitizer's result, its enum, or its JSON type. */
export type ArgValue<S> = S extends { sanitize: (...args: never[]) => infer R }
  ? R
  : S extends { enum: readonly (infer E)[] }
    ? E
    : S extends { type: infer T }
      ? T extends readonly (infer U)[]
        ? ValueOfType<U, S>
        : ValueOfType<T, S>
      : unknown;

/** An arg the handler always receives: required, or with a non-null default. */
type AlwaysPresent<S> = S extends { required: true }
  ? true
  : S extends { default: null | undefined }
    ? false
    : S extends { default: unknown }
      ? true
      : false;

/** The validated, sanitised and defaulted arguments of an endpoint whose args are A. */
export type ParamsOf<A extends Args> = {
  -readonly [K in keyof A as AlwaysPresent<A[K]> extends true ? K : never]: ArgValue<A[K]>;
} & {
  -readonly [K in keyof A as AlwaysPresent<A[K]> extends true ? never : K]?: ArgValue<A[K]>;
};

/**
 * Who may call an endpoint. Declared once per endpoint; the pipeline, the `Allow` header,
 * OPTIONS and the permission-matrix tests all evaluate it.
 */
export type Permission =
  | { kind: 'public' }
  | { kind: 'logged_in' }
  | { kind: 'cap'; cap: string }
  | {
      kind: 'custom';
      /** A short description for the API's documentation, e.g. "manage_translations or own job". */
      label: Localized | string;
      /** The capability whose holders always pass (used by the permission-matrix tests). */
      cap?: string;
      check: (req: RestRequest) => boolean | RestError | Promise<boolean | RestError>;
    };

export type Handler<P = Record<string, unknown>> = (req: RestRequest<P>) => unknown | Promise<unknown>;

export interface EndpointDef {
  methods: HttpMethod[];
  args: Args;
  permission: Permission;
  handler: Handler;
  /** Error message used when the permission check fails with false. */
  forbiddenMessage?: Localized;
  /** Error code used when the permission check fails with false (default rest_forbidden). */
  forbiddenCode?: string;
  /**
   * Renders this endpoint's errors (validation, permission, handler) in another format, e.g.
   * oEmbed's XML; null keeps the JSON error.
   */
  renderError?: (err: RestError, req: RestRequest) => RestResponse | null;
  /** Collect the parameters it does not declare into `req.undeclared` (an open body). */
  undeclaredParams?: boolean;
  /**
   * In a batch, consecutive items on this endpoint may run concurrently: each item's effect
   * is independent of the others' (e.g. appending a log event), so starting them together
   * changes nothing but lets their writes share one transaction. Responses keep item order,
   * and the items start in order. Off by default: batch items run one after the other.
   */
  concurrentInBatch?: boolean;
  /** A GET answers with a list of the route's schema items rather than one (the OpenAPI document says so). */
  returnsList?: boolean;
}

export interface RouteDef {
  /** Path relative to the namespace, with `(?P<name>…)` groups; '' for the namespace index. */
  path: string;
  endpoints: EndpointDef[];
  /** JSON schema shown with context=help, when the route has one (in the request's language). */
  schema?: (lang: Lang) => unknown;
}

export interface NamespaceDef {
  namespace: string;
  routes: RouteDef[];
}

/**
 * One incoming REST request, after matching, as handlers and permission checks see it. P is
 * the type of its validated arguments (ParamsOf the endpoint's args for a handler).
 */
export interface RestRequest<P = Record<string, unknown>> {
  method: HttpMethod | 'HEAD' | 'OPTIONS';
  /** Route path, e.g. /history/v1/events/5 (no API prefix, no query). */
  route: string;
  /** Effective language: i18n_language if given, else the root's. */
  lang: Lang;
  /** Language of the API root the request came through (URLs are built under it). */
  rootLang: Lang;
  /** Validated, sanitised arguments merged over all layers (declared args only). */
  params: P;
  /** Every parameter of every layer, raw (undeclared ones included). */
  rawParams: Record<string, unknown>;
  /**
   * The parameters the endpoint does not declare (query and body, not the URL's, not the
   * framework's `_…`), in a map without a prototype; empty unless the endpoint sets
   * `undeclaredParams`: for open bodies such as a settings section's fields.
   */
  undeclared: Record<string, unknown>;
  /** Whether the caller supplied the parameter (any layer, even null). */
  has(name: string): boolean;
  urlParams: Record<string, string>;
  query: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
  user: AuthUser | null;
  /** uuid of the application password that authenticated this request, if any. */
  appPasswordUuid: string | null;
  ip: string;
  /** True for items of a batch request. */
  inBatch: boolean;
  app: AppServices;
  /** Absolute URL of a route under this request's language root. */
  restUrl(route: string, query?: Record<string, unknown>): string;
}

/** A handler may return plain data (HTTP 200) or a RestResponse for other statuses/headers. */
export class RestResponse {
  status: number;
  body: unknown;
  headers: Record<string, string>;
  /** Non-JSON body (XML, JavaScript, HTML…) sent as is with its content type. */
  raw?: { contentType: string; content: string | Buffer };
  constructor(body: unknown, status = 200, headers: Record<string, string> = {}) {
    this.body = body;
    this.status = status;
    this.headers = headers;
  }
  static raw(
    content: string | Buffer,
    contentType: string,
    status = 200,
    headers: Record<string, string> = {},
  ): RestResponse {
    const r = new RestResponse(null, status, headers);
    r.raw = { contentType, content };
    return r;
  }
}

/**
 * An error in the contract's shape `{code, message, data: {status, …}}`.
 * Handlers throw it; the pipeline renders it.
 */
export class RestError extends Error {
  code: string;
  status: number;
  data: Record<string, unknown>;
  additionalErrors: { code: string; message: string; data: unknown }[] = [];
  /** Headers to send with the error (e.g. Retry-After). */
  headers: Record<string, string> = {};
  constructor(code: string, message: string, status: number, data: Record<string, unknown> = {}) {
    super(message);
    this.code = code;
    this.status = status;
    this.data = data;
  }
  toBody(): Record<string, unknown> {
    const body: Record<string, unknown> = {
      code: this.code,
      message: this.message,
      data: { status: this.status, ...this.data },
    };
    if (this.additionalErrors.length) body.additional_errors = this.additionalErrors;
    return body;
  }
}
