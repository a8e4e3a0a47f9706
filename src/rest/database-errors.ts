// Database failures that are not the request's fault, as the 503 a REST answer gives for them.
// The pipeline maps its handlers' failures with it, the HTTP adapter's error handler those thrown
// outside the pipeline.
import type { Lang } from './types.ts';
import { RestError } from './types.ts';
import { MSG } from './messages.ts';
import { isQueryTimeout } from '../db/deadline.ts';

/**
 * The answer to a database failure that is not the request's fault: a read that ran out of
 * time (db/deadline.ts) or a database that cannot be reached; null for any other error.
 */
export function databaseError(err: unknown, lang: Lang): RestError | null {
  if (isQueryTimeout(err)) return new RestError('rest_query_timeout', MSG.queryTimeout[lang], 503);
  if (isDatabaseUnavailable(err)) return new RestError('rest_database_unavailable', MSG.unavailable[lang], 503);
  return null;
}

/** Connection-level database failures (server down, file locked, disk full) become 503. */
function isDatabaseUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const code = (err as { code?: unknown }).code;
  return (
    code === 'ECONNREFUSED' ||
    code === 'ECONNRESET' ||
    code === '57P01' ||
    code === '57P03' ||
    code === '53300' ||
    code === 'SQLITE_BUSY' ||
    code === 'SQLITE_LOCKED' ||
    code === 'SQLITE_FULL' ||
    code === 'SQLITE_IOERR' ||
    (err instanceof Error && /Connection terminated|timeout exceeded when trying to connect/i.test(err.message))
  );
}
