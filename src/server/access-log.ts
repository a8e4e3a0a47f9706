// The access log (ACCESS_LOG=on): one record per HTTP request, written when the response is
// done — method, path, status, duration, bytes sent and client address. Values of query
// parameters that can carry secrets (nonces, passwords, tokens, keys) are replaced by
// `[redacted]`, so the log never holds a credential.
import type http from 'node:http';
import type { Logger } from 'pino';

/** Words of a parameter name that mark its value as secret (`_wpnonce`, `app_password`, `license_key`, `access_token`…). */
const SECRET_WORDS = new Set([
  'pass',
  'passwd',
  'password',
  'pwd',
  'secret',
  'token',
  'key',
  'apikey',
  'nonce',
  'wpnonce',
  'auth',
  'authorization',
  'session',
  'signature',
  'sig',
  'credential',
  'credentials',
  'otp',
]);

function isSecretName(encodedName: string): boolean {
  let name: string;
  try {
    name = decodeURIComponent(encodedName.replace(/\+/g, ' '));
  } catch {
    name = encodedName;
  }
  return name
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .some((word) => SECRET_WORDS.has(word));
}

/** The request target with the values of secret-bearing query parameters replaced by `[redacted]`. */
export function redactedPath(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq >= 0 && isSecretName(pair.slice(0, eq)) ? `${pair.slice(0, eq)}=[redacted]` : pair;
    })
    .join('&');
  return `${url.slice(0, q)}?${query}`;
}

/** Logs the request once its response is finished (or the client gave up on it). */
export function logAccess(log: Logger, req: http.IncomingMessage, res: http.ServerResponse): void {
  const started = process.hrtime.bigint();
  const socket = req.socket;
  const writtenBefore = socket.bytesWritten;
  res.once('close', () => {
    const record: Record<string, unknown> = {
      method: req.method,
      path: redactedPath(req.url ?? ''),
      status: res.statusCode,
      ms: Math.round(Number(process.hrtime.bigint() - started) / 10_000) / 100,
      // Headers included, as sent on the connection.
      bytes: socket.bytesWritten - writtenBefore,
      ip: socket.remoteAddress,
    };
    if (!res.writableFinished) record.aborted = true;
    log.info(record, 'request');
  });
}
