import { before, after } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/server/http.ts';
import { createTestApp, type TestApp } from './db.ts';
import { userWithRole } from './http.ts';
// Helpers for tests generated from the route registry.

/** A concrete path for a route pattern: each named group replaced by a value its regex accepts. */
export function samplePath(pattern: string): string {
  return pattern.replace(/\(\?P<(\w+)>([^)]*)\)/g, (_m, name: string, re: string) => {
    if (name === 'initiator_type') return 'cms';
    if (re.includes('\\d,')) return '1,2';
    if (re.includes('\\d')) return '1';
    return 'global';
  });
}

/**
 * An answer in the contract's shape: 2xx/4xx (501 for routes not built yet), errors as
 * `{code, message, data: {status}}` — or, for sched/v1, its envelope `{response_code, error}`
 * whose response_code equals the HTTP status.
 */
export function assertWellFormedAnswer(
  status: number,
  contentType: string | undefined,
  body: string,
  where: string,
): void {
  if (!(status < 500 || status === 501)) throw new Error(`${where}: status ${status} ${body.slice(0, 300)}`);
  if (status < 400 || !String(contentType).includes('json')) return;
  const json = JSON.parse(body) as Record<string, any>;
  const ok =
    'response_code' in json
      ? json.response_code === status && typeof json.error === 'string'
      : typeof json.code === 'string' && typeof json.message === 'string' && json.data?.status === status;
  if (!ok) throw new Error(`${where}: error body not in the contract's shape: ${body.slice(0, 300)}`);
}

/** Routes that reach outside the process (network, mail): fuzzed by their own suites. */
export const OUTBOUND_ROUTES = new Set(['/oembed/1.0/proxy', '/history/v1/email-report/preview/email']);

export interface SiteUnderTest {
  t: TestApp;
  server: FastifyInstance;
  /** Authorization header of an administrator. */
  admin: string;
}

/** Registers before/after hooks giving the file a whole site on SQLite and an administrator. */
export function siteUnderTest(): SiteUnderTest {
  const site = {} as SiteUnderTest;
  before(async () => {
    site.t = await createTestApp({ name: 'sqlite' });
    site.server = await buildServer(site.t.app);
    site.admin = (await userWithRole(site.t.app, 'administrator')).authorization;
  });
  after(async () => {
    await site.server.close();
    await site.t.close();
  });
  return site;
}
