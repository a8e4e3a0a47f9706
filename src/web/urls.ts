// Addresses of the web pages, the same-site check for `redirect_to`, and the validation of the
// authorize-application parameters (reference rest-core §6.5).

import { LOGIN_PAGE_PATH } from '../auth/password-reset.ts';

/** Paths of our pages relative to the site's base address. */
export const PATHS = {
  login: LOGIN_PAGE_PATH,
  authorize: '/cms-admin/authorize-application.php',
  /** The console (src/console): where a login goes by default, and the profile with one's application passwords. */
  dashboard: '/cms-admin/',
  profile: '/cms-admin/profile.php',
  /** The former list of application passwords, now part of the profile. */
  legacyPasswords: '/cms-admin/application-passwords.php',
  css: '/cms-includes/web.css',
} as const;

export interface SiteAddress {
  /** `scheme://host[:port]` of the site. */
  origin: string;
  /** `host[:port]` of the site, lower case, the port only when not the scheme's default. */
  host: string;
  /** Path of the site below its origin, without trailing slash ('' at the root). */
  basePath: string;
  https: boolean;
  /** The site counts as a local environment (plain http redirect URLs allowed). */
  local: boolean;
}

export function siteAddress(siteUrl: string): SiteAddress {
  const u = new URL(siteUrl);
  const host = u.hostname.toLowerCase();
  const local =
    host === 'localhost' ||
    host === '127.0.0.1' ||
    host === '[::1]' ||
    host.endsWith('.local') ||
    host.endsWith('.test') ||
    host.endsWith('.localhost');
  return {
    origin: u.origin,
    host: u.host,
    basePath: u.pathname.replace(/\/+$/, ''),
    https: u.protocol === 'https:',
    local,
  };
}

/** A Host header value as `host[:port]`, lower case, without the site scheme's default port. */
function normalHost(value: string, https: boolean): string {
  const m = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(value.trim().toLowerCase());
  if (!m) return value;
  return m[2] && m[2] !== (https ? '443' : '80') ? `${m[1]}:${m[2]}` : m[1]!;
}

/**
 * Whether a request reached the site at its own address: its Host header, or the host a reverse
 * proxy received (X-Forwarded-Host, first entry), is the host and port of SITE_URL. Forms are only
 * shown there — their cookies and their `form-action 'self'` policy belong to that address.
 */
export function atSiteAddress(
  site: SiteAddress,
  headers: { host?: string; 'x-forwarded-host'?: string | string[] },
): boolean {
  const forwarded = headers['x-forwarded-host'];
  const candidates = [headers.host, (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]];
  return candidates.some((h) => h !== undefined && normalHost(h, site.https) === site.host);
}

/** The absolute URL of one of our pages, with query arguments. */
export function pageUrl(site: SiteAddress, path: string, query: Record<string, string | undefined> = {}): string {
  return addQueryArgs(site.origin + site.basePath + path, query);
}

/**
 * Appends `name=value` pairs (values percent-encoded, in the given order) to a URL, before
 * its fragment, with `?` or `&` as needed; undefined values are left out.
 */
export function addQueryArgs(url: string, args: Record<string, string | undefined>): string {
  const pairs = Object.entries(args)
    .filter((e): e is [string, string] => e[1] !== undefined)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
  if (!pairs.length) return url;
  const hash = url.indexOf('#');
  const base = hash < 0 ? url : url.slice(0, hash);
  const fragment = hash < 0 ? '' : url.slice(hash);
  const sep = base.includes('?') ? (base.endsWith('?') || base.endsWith('&') ? '' : '&') : '?';
  return base + sep + pairs.join('&') + fragment;
}

/**
 * A redirect target for `redirect_to`: only paths of this site (relative `/…` below the base
 * path, or absolute URLs with the site's own origin). Returns the absolute URL, or null
 * when the target is off-site or malformed.
 */
export function sameSiteRedirect(site: SiteAddress, target: unknown): string | null {
  if (typeof target !== 'string' || target === '' || target.length > 2000) return null;
  // No control characters, whitespace or backslashes (browsers read `\` as `/`).
  if (/[\u0000-\u0020\u007f\\]/.test(target)) return null;
  let path: string;
  if (target.startsWith('/')) {
    if (target.startsWith('//')) return null;
    path = target;
  } else {
    let u: URL;
    try {
      u = new URL(target);
    } catch {
      return null;
    }
    if (u.origin !== site.origin || u.username || u.password) return null;
    path = u.pathname + u.search + u.hash;
  }
  // The resolved URL must stay on the site's origin and below its base path.
  let resolved: URL;
  try {
    resolved = new URL(path, site.origin);
  } catch {
    return null;
  }
  if (resolved.origin !== site.origin) return null;
  if (site.basePath && resolved.pathname !== site.basePath && !resolved.pathname.startsWith(site.basePath + '/'))
    return null;
  return resolved.origin + resolved.pathname + resolved.search + resolved.hash;
}

// --- authorize-application parameters ---

export const APP_NAME_MAX = 250;
const URL_MAX = 2000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;
const BAD_SCHEMES = new Set(['javascript', 'data', 'vbscript']);

export type ProblemCode =
  | 'invalid_redirect_url_format'
  | 'invalid_redirect_scheme'
  | 'invalid_app_id'
  | 'missing_app_name'
  | 'app_name_too_long'
  | 'invalid_param_type';

export interface Problem {
  param: 'app_name' | 'app_id' | 'success_url' | 'reject_url';
  code: ProblemCode;
}

export interface AuthorizeParams {
  appName: string;
  appId: string;
  successUrl: string;
  rejectUrl: string;
}

/** The host part of `scheme://[userinfo@]host[:port]…`, or '' when there is none. */
function hostOf(url: string, scheme: string): string {
  const rest = url.slice(scheme.length + 1);
  if (!rest.startsWith('//')) return '';
  const authority = rest.slice(2).split(/[/?#]/, 1)[0]!;
  const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
  if (hostPort.startsWith('[')) {
    const end = hostPort.indexOf(']');
    return end > 1 ? hostPort.slice(0, end + 1) : '';
  }
  return hostPort.split(':', 1)[0]!;
}

/** Problems of one redirect URL (§6.5): empty is fine. */
export function redirectUrlProblem(url: string, site: SiteAddress): ProblemCode | null {
  if (url === '') return null;
  // Control characters and whitespace could never be sent in a Location header as given.
  if (url.length > URL_MAX || /[\u0000-\u0020\u007f-\u009f]/.test(url)) return 'invalid_redirect_url_format';
  const m = SCHEME.exec(url);
  if (!m) return 'invalid_redirect_url_format';
  const scheme = m[1]!.toLowerCase();
  if (BAD_SCHEMES.has(scheme)) return 'invalid_redirect_url_format';
  if (!hostOf(url, m[1]!)) return 'invalid_redirect_url_format';
  if (scheme === 'http' && !site.local) return 'invalid_redirect_scheme';
  return null;
}

/** A parameter as text: absent → '', a single string → itself, anything else → null. */
export function textParam(value: unknown): string | null {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : null;
}

/**
 * Reads and validates the four parameters. `requireName`: the initial request must name
 * the application (app_name) unless it gives an app_id; the form post may carry any name
 * (an empty one is refused when the password is created).
 */
export function readAuthorizeParams(
  source: Record<string, unknown>,
  site: SiteAddress,
  requireName: boolean,
): { params: AuthorizeParams; problems: Problem[] } {
  const problems: Problem[] = [];
  const read = (param: Problem['param']): string => {
    const v = textParam(source[param]);
    if (v === null) {
      problems.push({ param, code: 'invalid_param_type' });
      return '';
    }
    return v;
  };
  const params: AuthorizeParams = {
    appName: read('app_name'),
    appId: read('app_id'),
    successUrl: read('success_url').trim(),
    rejectUrl: read('reject_url').trim(),
  };
  if (params.appName.length > APP_NAME_MAX) problems.push({ param: 'app_name', code: 'app_name_too_long' });
  if (
    requireName &&
    params.appName.trim() === '' &&
    params.appId === '' &&
    !problems.some((p) => p.param === 'app_name' || p.param === 'app_id')
  ) {
    problems.push({ param: 'app_name', code: 'missing_app_name' });
  }
  if (params.appId !== '' && !UUID.test(params.appId)) problems.push({ param: 'app_id', code: 'invalid_app_id' });
  for (const [param, url] of [
    ['success_url', params.successUrl],
    ['reject_url', params.rejectUrl],
  ] as const) {
    const code = redirectUrlProblem(url, site);
    if (code) problems.push({ param, code });
  }
  problems.sort((a, b) => PARAM_ORDER.indexOf(a.param) - PARAM_ORDER.indexOf(b.param));
  return { params, problems };
}

const PARAM_ORDER: Problem['param'][] = ['app_name', 'app_id', 'success_url', 'reject_url'];

/**
 * A validated redirect URL made safe for a Location header: characters outside printable
 * ASCII are percent-encoded (validation already refused controls and whitespace).
 */
export function locationSafe(url: string): string {
  return url.replace(/[^\x21-\x7e]/gu, (ch) => {
    try {
      return encodeURIComponent(ch);
    } catch {
      return '';
    }
  });
}
