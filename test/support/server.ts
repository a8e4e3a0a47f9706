import { before, after } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/server/http.ts';
import { createTestApp, type DbTarget, type TestApp } from './db.ts';
// A test app and its server for one describe block, made before its tests and closed after.

export interface ServedTestApp {
  t: TestApp;
  /** Built, not listening: tests call it with inject(). */
  server: FastifyInstance;
}

/**
 * Registers before/after hooks giving the enclosing describe a test app on `target` and its server.
 * Inside a describe only: at the top level node:test starts a before hook as it is registered.
 */
export function servedTestApp(target: DbTarget): ServedTestApp {
  const served = {} as ServedTestApp;
  before(async () => {
    served.t = await createTestApp(target);
    served.server = await buildServer(served.t.app);
  });
  after(async () => {
    await served.server.close();
    await served.t.close();
  });
  return served;
}
