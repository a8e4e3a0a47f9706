// Secret tokens handed to a browser (session cookies, login nonces, password-reset keys):
// 256 random bits, base64url, and stored only as their SHA-256 so that a copy of the table
// hands nothing out.
import crypto from 'node:crypto';

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function randomToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

/** Whether a value from a request can be a token at all (checked before hashing or a query). */
export function isTokenShaped(value: unknown): value is string {
  return typeof value === 'string' && TOKEN_PATTERN.test(value);
}

/** The hex SHA-256 a table keeps instead of the token. */
export function tokenHash(token: string): string {
  return crypto.createHash('sha256').update(token, 'utf8').digest('hex');
}
