// Permission checks of the pipeline: each endpoint's check on a request (asynchronous only when
// a custom check is), `Allow` from the checks that passed, and the forbidden error.
import type { CompiledRoute } from './registry.ts';
import type { EndpointDef, Permission, RestRequest } from './types.ts';
import { RestError } from './types.ts';
import { MSG } from './messages.ts';

export type Verdict = PromiseSettledResult<boolean | RestError>;

/** A permission check; a custom check may be asynchronous, and one that throws is a rejected verdict. */
function checkPermission(permission: Permission, req: RestRequest): boolean | RestError | Promise<boolean | RestError> {
  switch (permission.kind) {
    case 'public':
      return true;
    case 'logged_in':
      return req.user !== null;
    case 'cap':
      return req.user?.can(permission.cap) ?? false;
    case 'custom':
      try {
        return permission.check(req);
      } catch (err) {
        return Promise.reject(err);
      }
  }
}

/**
 * The permission check of each endpoint of the route on this request, settled (a check that
 * throws is rejected); without a promise when no check is asynchronous (the common case).
 */
export function permissionsOf(route: CompiledRoute, req: RestRequest): Verdict[] | Promise<Verdict[]> {
  const checks = route.endpoints.map((endpoint) => checkPermission(endpoint.permission, req));
  if (checks.some((check) => check instanceof Promise)) return Promise.allSettled(checks);
  return checks.map((value): Verdict => ({ status: 'fulfilled', value: value as boolean | RestError }));
}

/** `Allow` from the settled checks of permissionsOf: the methods of the endpoints that passed. */
export function allowFrom(route: CompiledRoute, permissions: Verdict[]): Record<string, string> {
  const allowed: string[] = [];
  route.endpoints.forEach((endpoint, i) => {
    const p = permissions[i]!;
    if (p.status === 'fulfilled' && p.value === true) allowed.push(...endpoint.methods);
  });
  return allowed.length ? { Allow: allowed.join(', ') } : {};
}

/** `rest_forbidden`: 401 for anonymous callers, 403 for logged-in ones (§5.3). */
export function forbidden(endpoint: EndpointDef, req: RestRequest): RestError {
  const message = endpoint.forbiddenMessage ? endpoint.forbiddenMessage[req.lang] : MSG.forbidden[req.lang];
  return new RestError(endpoint.forbiddenCode ?? 'rest_forbidden', message, req.user ? 403 : 401);
}
