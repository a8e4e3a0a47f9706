// Tests that need something of the machine (a browser, a database server) skip through
// needs(): its reason starts with "needs ", which `npm test` (scripts/test.ts) names in its
// closing summary and, under CI, counts as a failure — CI installs everything, so nothing of the
// kind may be skipped there.
export const NEEDS_PREFIX = 'needs ';

/** false when `available`, else the skip reason `needs <what>: <how to get it>`. */
export function needs(what: string, available: boolean, howToGet: string): string | false {
  return available ? false : `${NEEDS_PREFIX}${what}: ${howToGet}`;
}
