// Small helpers that several layers need (the REST schema engine, the activity log).

/** Sets an own, enumerable property, also for the key "__proto__". */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  // defineProperty, so a "__proto__" key stays an ordinary property; plain assignment for the
  // rest (defineProperty on every key turned the objects into slow dictionaries).
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/**
 * The value a table holds under a key of its own: a key from a request ("constructor",
 * "__proto__", "toString") never reaches what every object inherits.
 */
export function ownValue<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** A failed system call's code (ENOENT, EACCES…), else the error's message: one word for a one-line report. */
export function errorCode(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? (err as Error).message;
}

/** Lower-cases A–Z only, as PHP's strtolower and SQLite's LIKE do. */
export function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/** Whether a DATABASE_URL names a PostgreSQL database (`postgres://` or `postgresql://`). */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}
