// The time a request's read queries may take. The REST pipeline runs each handler under a
// deadline; the read executors (read-pool.ts, pg-read.ts) give every query only what is left
// of it, at most the query timeout, and cancel it when that runs out: the request then
// answers 503 `rest_query_timeout` instead of holding the server (or its connection) longer.
import { AsyncLocalStorage } from 'node:async_hooks';

const deadlines = new AsyncLocalStorage<number>();

/** Runs `fn` with its read queries due `ms` from now (or earlier, when an outer deadline is). */
export function withDeadline<T>(ms: number, fn: () => T): T {
  const outer = deadlines.getStore();
  const due = Date.now() + ms;
  return deadlines.run(outer !== undefined && outer < due ? outer : due, fn);
}

/** Milliseconds a query started now may run: the query timeout, cut to the request's deadline. */
export function queryBudget(timeoutMs: number): number {
  const due = deadlines.getStore();
  return due === undefined ? timeoutMs : Math.min(timeoutMs, due - Date.now());
}

/** A read query cancelled because its time ran out. */
export class QueryTimeoutError extends Error {
  readonly code = 'QUERY_TIMEOUT';
  constructor(ms: number) {
    super(`query cancelled after ${ms} ms`);
  }
}

/** The cancellation of a read query that ran out of time, on either database. */
export function isQueryTimeout(err: unknown): boolean {
  const code = err && typeof err === 'object' ? (err as { code?: unknown }).code : undefined;
  // 57014: PostgreSQL's query_canceled (statement_timeout).
  return code === 'QUERY_TIMEOUT' || code === '57014';
}
