// The site's own HTML pages outside the API: login and the application authorization flow.
import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../app.ts';

export async function registerWebRoutes(_server: FastifyInstance, _app: AppServices): Promise<void> {
  // filled by the authorization-flow work (issue 8)
}
