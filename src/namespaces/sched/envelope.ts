// The sched envelope `{response_code, error, data}` (reference plugins.md §2.1), sent with an
// honest HTTP status: response_code always equals the HTTP status.
import { RestResponse } from '../../rest/types.ts';

export interface Envelope<T = unknown> {
  response_code: number;
  error: string;
  data: T;
}

export function envelope<T>(data: T, status = 200, error = ''): Envelope<T> {
  return { response_code: status, error, data };
}

/** A handler result: plain body for 200, a RestResponse for any other status. */
export function sendEnvelope(env: Envelope): unknown {
  return env.response_code === 200 ? env : new RestResponse(env, env.response_code);
}
