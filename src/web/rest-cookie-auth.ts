// Cookie authentication of the REST API as WordPress does it (rest_cookie_check_errors,
// reference rest-core §6.3): the login cookie of the web pages counts for a REST request only
// together with a `wp_rest` nonce issued to that session, sent as the `_wpnonce` parameter
// (query or form body) or the `X-WP-Nonce` header. Without a nonce the cookie is ignored and
// the request is anonymous, so that a page of another site cannot use a visitor's session
// (the nonce is in the console's pages, which other origins cannot read). A wrong or stale
// nonce, or one without a live session, is 403 `rest_cookie_invalid_nonce`; a good one is
// answered with a fresh nonce in `X-WP-Nonce`. HTTP Basic credentials, when present, decide
// alone (the caller of authenticateCookie only asks when they did not authenticate).
//
// Nonces are HMACs of (action, tick, session) under the site's key, as WordPress's are of
// (action, tick, user, session token): a tick is 12 hours and a nonce is accepted in its own
// tick and the next, so it lives 12 to 24 hours, and dies at once with its session (logout,
// expiry, disabled user), which every process sees because sessions live in the database.
import type { Authenticated } from '../auth/authenticate.ts';
import { toAuthUser } from '../auth/user-rows.ts';
import type { BodyInput } from '../rest/pipeline.ts';
import { RestError, type Lang } from '../rest/types.ts';
import { parseCookies } from './page.ts';
import { SESSION_COOKIE, loadSession, sameToken, signWithSiteKey, type WebSession } from './session.ts';
import type { AppServices } from '../site/services.ts';

export const REST_NONCE_ACTION = 'wp_rest';
const TICK_MS = 12 * 3600 * 1000;

function tickOf(now: Date): number {
  return Math.ceil(now.getTime() / TICK_MS);
}

function sign(app: AppServices, idHash: string, tick: number): Promise<string> {
  return signWithSiteKey(app, `nonce|${REST_NONCE_ACTION}|${tick}|${idHash}`);
}

/** The `wp_rest` nonce of a session, for pages that call the REST API with its cookie. */
export function restNonce(app: AppServices, session: Pick<WebSession, 'idHash'>, now = new Date()): Promise<string> {
  return sign(app, session.idHash, tickOf(now));
}

async function validNonce(app: AppServices, session: WebSession, nonce: string, now: Date): Promise<boolean> {
  const tick = tickOf(now);
  for (const t of [tick, tick - 1]) if (sameToken(nonce, await sign(app, session.idHash, t))) return true;
  return false;
}

/** The nonce a request carries: `_wpnonce` (query, then form body) before the header, as WordPress reads $_REQUEST first. */
function nonceOf(
  headers: Record<string, string | string[] | undefined>,
  query: Record<string, unknown>,
  body: BodyInput,
): unknown {
  if (query._wpnonce !== undefined) return query._wpnonce;
  if (body.type === 'form' && body.params._wpnonce !== undefined) return body.params._wpnonce;
  return headers['x-wp-nonce'];
}

const COOKIE_CHECK_FAILED: Record<Lang, string> = { en: 'Cookie check failed', de: 'Cookie-Prüfung fehlgeschlagen' };

export interface CookieAuthentication {
  auth: Authenticated | null;
  /** A fresh nonce for the `X-WP-Nonce` response header (only after a valid one). */
  refreshedNonce: string | null;
}

/**
 * The caller of a REST request that carries no (usable) Basic credentials. Throws the 403
 * RestError for a nonce that is not valid for the request's session.
 */
export async function authenticateCookie(
  app: AppServices,
  request: { headers: Record<string, string | string[] | undefined>; query: Record<string, unknown>; body: BodyInput },
  lang: Lang,
  now = new Date(),
): Promise<CookieAuthentication> {
  const nonce = nonceOf(request.headers, request.query, request.body);
  if (nonce === undefined) return { auth: null, refreshedNonce: null };
  const cookieHeader = request.headers.cookie;
  const session = await loadSession(
    app,
    parseCookies(typeof cookieHeader === 'string' ? cookieHeader : undefined)[SESSION_COOKIE],
    now,
  );
  if (!session || typeof nonce !== 'string' || !(await validNonce(app, session, nonce, now))) {
    const err = new RestError('rest_cookie_invalid_nonce', COOKIE_CHECK_FAILED[lang], 403);
    // As the reference: a failed cookie check is never cached.
    err.headers['Cache-Control'] = 'no-cache, must-revalidate, max-age=0, no-store, private';
    err.headers.Expires = 'Wed, 11 Jan 1984 05:00:00 GMT';
    throw err;
  }
  return {
    auth: { user: toAuthUser(session.user), appPasswordUuid: null },
    refreshedNonce: await restNonce(app, session, now),
  };
}
