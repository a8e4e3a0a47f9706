// Small helpers that several layers need (the REST schema engine, the activity log).

/** Sets an own, enumerable property, also for the key "__proto__". */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  // defineProperty, so a "__proto__" key stays an ordinary property; plain assignment for the
  // rest (defineProperty on every key turned the objects into slow dictionaries).
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** Lower-cases A–Z only, as PHP's strtolower and SQLite's LIKE do. */
export function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (c) => c.toLowerCase());
}
