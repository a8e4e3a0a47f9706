// The load generator's client for `distinct` jobs (the cold scenarios, bench/cold.ts): every
// request of the list is sent once, in list order, by `connections` keep-alive connections
// taking the next one as they become free; it stops when the list is sent or the time is up.
// Exact percentiles from every latency, per tag too, and the slowest requests (where an
// optimisation would start). wrk and autocannon repeat their request lists, hence this client.
import http from 'node:http';
import type { LoadJob, LoadResult, Percentiles } from './loadgen.ts';

const TIMEOUT_MS = 60_000;

export function percentiles(ms: number[]): Percentiles {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]! * 100) / 100 : 0;
  return { n: sorted.length, p50: at(0.5), p99: at(0.99) };
}

interface Sent {
  ms: number;
  path: string;
  tag: string;
  status: number;
  body: string;
}

function send(agent: http.Agent, base: string, shape: LoadJob['requests'][number]): Promise<Sent> {
  const started = performance.now();
  return new Promise((resolve) => {
    const answer = (status: number, body: string) =>
      resolve({ ms: performance.now() - started, path: shape.path, tag: shape.tag ?? '', status, body });
    const req = http.request(
      base + shape.path,
      { method: shape.method, headers: shape.headers, agent, timeout: TIMEOUT_MS },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => answer(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8', 0, 300)));
        // A connection lost mid-answer: no status, the error as its body.
        res.on('error', (err) => answer(0, err.message));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)));
    req.on('error', (err) => answer(0, err.message));
    req.end(shape.body);
  });
}

export async function runDistinct(job: LoadJob): Promise<LoadResult> {
  const agents = job.urls.map(() => new http.Agent({ keepAlive: true, maxSockets: job.connections }));
  const sent: Sent[] = [];
  const started = performance.now();
  const deadline = started + job.seconds * 1000;
  let next = 0;
  const worker = async (w: number) => {
    while (next < job.requests.length && performance.now() < deadline) {
      const shape = job.requests[next++]!;
      sent.push(await send(agents[w % agents.length]!, job.urls[w % job.urls.length]!, shape));
    }
  };
  await Promise.all(Array.from({ length: job.connections }, (_, w) => worker(w)));
  const elapsed = (performance.now() - started) / 1000;
  for (const a of agents) a.destroy();

  // Percentiles over every request, failed ones too: a dropped connection is time a user waited.
  const ok = sent.filter((s) => s.status > 0);
  const all = percentiles(sent.map((s) => s.ms));
  const byTag: Record<string, Percentiles> = {};
  for (const tag of new Set(sent.map((s) => s.tag)))
    if (tag) byTag[tag] = percentiles(sent.filter((s) => s.tag === tag).map((s) => s.ms));
  const failed = sent.filter((s) => s.status === 0 || s.status >= 300);
  return {
    tool: 'bench/loadgen-distinct.ts (node:http, each request once)',
    requests: sent.length,
    // Answers that answer: a timeout or an error page is no throughput.
    rps: ok.filter((s) => s.status < 300).length / elapsed,
    p50: all.p50,
    p99: all.p99,
    errors: sent.length - ok.length,
    non2xx: ok.filter((s) => s.status >= 300).length,
    byTag,
    slowest: [...sent]
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 5)
      .map((s) => ({ ms: Math.round(s.ms), path: s.status ? s.path : `${s.path} (no answer: ${s.body})` })),
    failures: failed
      .slice(0, 5)
      .map((s) => `${s.status || 'error'} ${s.path}: ${s.body.replace(/\s+/g, ' ').slice(0, 200)}`),
  };
}
