// Resolves the caller of a request from its HTTP Basic application-password credentials.
import type { AppServices } from '../app.ts';
import type { AuthUser } from './types.ts';

export interface Authenticated {
  user: AuthUser;
  appPasswordUuid: string;
}

/**
 * Returns null for anonymous requests (no Basic credentials); throws a RestError (401, or
 * 429 when throttled) for bad credentials.
 */
export async function authenticateRequest(_app: AppServices, _authorization: string | undefined, _ip: string): Promise<Authenticated | null> {
  return null; // replaced by the application-password implementation (issue 3)
}
