// Health checks for load balancers and orchestrators, outside the REST roots (the index stays
// the contract's) and without authentication:
//   GET /healthz  liveness: the process answers HTTP (no database involved) → 200
//   GET /readyz   readiness: the database answers a trivial query in time, the process has done
//                 its start-up work (a large log's columns, seconds a million events) and is not
//                 shutting down → 200; otherwise 503, so the balancer sends traffic elsewhere
// Kubernetes' names: the ones load balancers and orchestrators are most often configured with.
import { sql } from 'kysely';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppServices } from '../site/services.ts';
import type { WarmUp } from '../site/module.ts';

export const HEALTH_PATHS = { live: '/healthz', ready: '/readyz' } as const;

/** A database that has not answered by then counts as unavailable (PostgreSQL unreachable waits for its connect timeout). */
const DATABASE_CHECK_MS = 2000;

const HEADERS = {
  'Content-Type': 'application/json; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
};

function answer(reply: FastifyReply, status: number, body: Record<string, string>): FastifyReply {
  return reply
    .code(status)
    .headers(HEADERS)
    .send(reply.request.method === 'HEAD' ? undefined : JSON.stringify(body));
}

/** Resolves when the database answers `select 1`; rejects on error or after DATABASE_CHECK_MS. */
async function pingDatabase(app: AppServices): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${DATABASE_CHECK_MS} ms`)), DATABASE_CHECK_MS);
  });
  try {
    await Promise.race([sql`select 1`.execute(app.db), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Start-up work readiness waits for at most: a supervisor that waits for readiness (the systemd
 * unit of docs/deploy, 60 s) must not take a slow start for a failed one and restart it.
 */
export const WARM_UP_WAIT_MS = 30_000;

/** The start-up work not yet done, kept current as each settles (or the wait ends). */
function warmingUp(app: AppServices, warmUps: readonly WarmUp[], maxWaitMs: number): () => string[] {
  const pending = new Set(warmUps);
  for (const w of warmUps) {
    const settled = () => {
      pending.delete(w);
      if (!pending.size) app.log.info('ready: the start-up work is done');
    };
    w.done.then(settled, settled);
  }
  if (pending.size) {
    const waited = setTimeout(() => {
      if (!pending.size) return;
      app.log.warn({ warming_up: [...pending].map((w) => w.what) }, 'ready: no longer waiting for the start-up work');
      pending.clear();
    }, maxWaitMs);
    waited.unref();
  }
  return () => [...pending].map((w) => w.what);
}

export function registerHealthRoutes(
  server: FastifyInstance,
  app: AppServices,
  warmUps: readonly WarmUp[],
  maxWarmUpMs = WARM_UP_WAIT_MS,
): void {
  const stillWarming = warmingUp(app, warmUps, maxWarmUpMs);
  let closing = false;
  // Logged when the database stops (and again when it starts) answering, not on every probe.
  let databaseFailing = false;
  server.addHook('preClose', async () => {
    closing = true;
  });
  server.route({
    method: ['GET', 'HEAD'],
    url: HEALTH_PATHS.live,
    handler: (_request, reply) => answer(reply, 200, { status: 'ok' }),
  });
  server.route({
    method: ['GET', 'HEAD'],
    url: HEALTH_PATHS.ready,
    handler: async (_request, reply) => {
      if (closing) return answer(reply, 503, { status: 'unavailable', reason: 'shutting down' });
      try {
        await pingDatabase(app);
      } catch (err) {
        if (!databaseFailing) app.log.warn({ err }, 'readiness: the database does not answer');
        databaseFailing = true;
        return answer(reply, 503, { status: 'unavailable', database: 'unavailable' });
      }
      if (databaseFailing) app.log.info('readiness: the database answers again');
      databaseFailing = false;
      // Requests are answered meanwhile, only slower: a balancer waits, a lone process serves.
      const warming = stillWarming();
      if (warming.length)
        return answer(reply, 503, { status: 'starting', database: 'ok', warming_up: warming.join(', ') });
      return answer(reply, 200, { status: 'ok', database: 'ok' });
    },
  });
}
