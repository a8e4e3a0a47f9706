// Bounded work before permission (issue 25): whatever a route runs before its permission check
// (body parsing, schema validation, validate and sanitize callbacks) is linear in the request or
// capped, so an anonymous caller cannot make the server pay. Every route of the registry, both
// language roots, anonymously: the largest body the server reads (BODY_LIMIT) in the worst
// shapes (many items, many keys, deep nesting, long and regex-hostile strings, unclosed markup),
// as JSON and as a form, and the longest query a client's headers carry; meanwhile an unrelated
// anonymous request must be answered within 200 ms (more on a slow machine: MEANWHILE_LIMIT_MS).
// Every answer is 2xx/4xx in the contract's shape. The same shapes, doubled from 1 KB to 1 MiB,
// are the growth stage of `npm run soak`.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { InjectOptions } from 'fastify';
import { BATCH_MAX_ITEMS } from '../../src/rest/api.ts';
import { BODY_LIMIT } from '../../src/server/http.ts';
import type { CompiledRoute } from '../../src/rest/registry.ts';
import type { EndpointDef } from '../../src/rest/types.ts';
import { dbTargets } from '../support/db.ts';
import { MEANWHILE_LIMIT_MS, meanwhileSettled } from '../support/latency.ts';
import { assertWellFormedAnswer, samplePath } from '../support/registry.ts';
import { servedTestApp } from '../support/server.ts';
import { BODY_SHAPES, FORM_SHAPES, QUERY_BYTES, QUERY_SHAPES, bodyOf, formOf, queryOf } from '../support/shapes.ts';

interface Probe {
  what: string;
  options: InjectOptions;
  bytes: number;
}

function probesOf(route: CompiledRoute, endpoint: EndpointDef, index: number): Probe[] {
  const method = endpoint.methods[0]!;
  const names = [...Object.keys(endpoint.args), '_fields', 'x'];
  const root = (i: number) => ((index + i) % 2 ? 'de' : 'en');
  const path = samplePath(route.pattern);
  const probes: Probe[] = [];
  BODY_SHAPES.forEach((shape, i) => {
    const payload = bodyOf(names, shape, BODY_LIMIT);
    probes.push({
      what: `${method} ${path} JSON ${shape.name}`,
      bytes: payload.length,
      options: { method, url: `/${root(i)}/cms-json${path}`, payload, headers: { 'content-type': 'application/json' } },
    });
  });
  FORM_SHAPES.forEach((shape, i) => {
    const payload = formOf(names, shape, BODY_LIMIT);
    probes.push({
      what: `${method} ${path} form ${shape.name}`,
      bytes: payload.length,
      options: {
        method,
        url: `/${root(i)}/cms-json${path}`,
        payload,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      },
    });
  });
  QUERY_SHAPES.forEach((shape, i) => {
    const query = queryOf(names, shape, QUERY_BYTES);
    probes.push({
      what: `${method} ${path} query ${shape.name}`,
      bytes: query.length,
      options: { method, url: `/${root(i)}/cms-json${path}?${query}` },
    });
  });
  return probes;
}

/**
 * Batches: every item is matched and validated before any runs (and before its permission is
 * checked), so 25 items, each another route's worst body, in one largest body.
 */
function* batchProbes(endpoints: { route: CompiledRoute; endpoint: EndpointDef }[]): Generator<Probe> {
  const writes = endpoints.filter(({ endpoint }) => endpoint.methods[0] !== 'GET' && !endpoint.methods.includes('GET'));
  for (let from = 0; from < writes.length; from += BATCH_MAX_ITEMS) {
    const group = writes.slice(from, from + BATCH_MAX_ITEMS);
    const heads = group.map(
      ({ route, endpoint }) =>
        `{"method":${JSON.stringify(endpoint.methods[0])},"path":${JSON.stringify(samplePath(route.pattern))},"body":`,
    );
    const each = Math.floor((BODY_LIMIT - 64 - heads.reduce((n, h) => n + h.length + 2, 0)) / group.length);
    for (const shape of BODY_SHAPES) {
      const items = group.map(
        ({ endpoint }, i) => `${heads[i]}${bodyOf([...Object.keys(endpoint.args), 'x'], shape, each)}}`,
      );
      const payload = `{"requests":[${items.join(',')}]}`;
      yield {
        what: `POST /batch/v1 items ${from + 1}–${from + group.length} of the writes, JSON ${shape.name}`,
        bytes: payload.length,
        options: {
          method: 'POST',
          url: '/en/cms-json/batch/v1',
          payload,
          headers: { 'content-type': 'application/json' },
        },
      };
    }
  }
}

for (const target of dbTargets()) {
  describe(`bounded work before permission, every route (${target.name})`, () => {
    const site = servedTestApp(target);

    test(`the largest bodies in the worst shapes, anonymously: other requests answered within ${Math.round(MEANWHILE_LIMIT_MS)} ms, never a 500`, async (ctx) => {
      const endpoints = site.server.restApi.registry.routes.flatMap((route) =>
        route.endpoints.map((endpoint) => ({ route, endpoint })),
      );
      const problems: string[] = [];
      let requests = 0;
      let bytes = 0;
      let costliest = { what: '', ms: 0, bytes: 0 };
      let slowestWait = { what: '', ms: 0 };
      // Generated one route at a time: all of them at once would be gigabytes.
      function* probes(): Generator<Probe> {
        for (const [index, { route, endpoint }] of endpoints.entries()) yield* probesOf(route, endpoint, index);
        yield* batchProbes(endpoints);
      }
      for (const probe of probes()) {
        const run = await meanwhileSettled(site.server, probe.options);
        requests++;
        bytes += probe.bytes;
        if (run.ms > costliest.ms) costliest = { what: probe.what, ms: run.ms, bytes: probe.bytes };
        if (run.slowestMs > slowestWait.ms) slowestWait = { what: probe.what, ms: run.slowestMs };
        try {
          assertWellFormedAnswer(run.res.statusCode, run.res.headers['content-type'], run.res.body, probe.what);
        } catch (err) {
          problems.push((err as Error).message);
        }
        if (run.slowestMs > MEANWHILE_LIMIT_MS) {
          problems.push(
            `${probe.what} (${probe.bytes} bytes): the unrelated request waited ${Math.round(run.slowestMs)} ms; the request took ${Math.round(run.ms)} ms`,
          );
        }
      }
      ctx.diagnostic(
        `${endpoints.length} endpoints, ${requests} anonymous requests, ${(bytes / 2 ** 20).toFixed(0)} MiB; ` +
          `costliest: ${costliest.what} (${costliest.bytes} bytes) ${Math.round(costliest.ms)} ms; ` +
          `longest wait of the unrelated request: ${Math.round(slowestWait.ms)} ms (during ${slowestWait.what})`,
      );
      assert.deepEqual(problems, []);
    });
  });
}
