// Growth (issue 25), a stage of `npm run soak`: every route, anonymously, with each worst shape
// of test/support/shapes.ts as JSON and as a form, the body doubled from 1 KiB to 1 MiB. Fails
// when time grows faster than linearly. On a noisy machine the judgement is:
//   - each size is timed as the fastest of REPEATS tries (noise only ever adds time), in wall
//     time or this process's CPU time, whichever is less (other processes' load is not ours);
//   - time per byte at 1 MiB against time per byte at 64 KiB: linear work gives about 1 (less
//     when a fixed cost is spread), n log n 1.25, quadratic 16; more than TOLERANCE fails;
//   - unless the largest request takes under FLOOR_MS, half the wait allowed to an unrelated
//     request (test/security/bounded-work.test.ts): below the body limit it cannot matter then.
//     V8's own JSON.parse is not linear everywhere: one object of 80,000 keys costs 3.6 times
//     more per byte at 1 MiB than at 64 KiB (0.7 → 39 ms), bounded by the body limit.
// Outside the soak it is skipped: `SOAK=1 node --test test/reliability/growth.test.ts`.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { InjectOptions } from 'fastify';
import { BODY_LIMIT } from '../../src/server/http.ts';
import { dbTargets } from '../support/db.ts';
import { MEANWHILE_LIMIT_MS } from '../support/latency.ts';
import { assertWellFormedAnswer, samplePath } from '../support/registry.ts';
import { servedTestApp } from '../support/server.ts';
import { BODY_SHAPES, FORM_SHAPES, bodyOf, formOf } from '../support/shapes.ts';
import { report } from './child-server.ts';

const SOAK = process.env.SOAK === '1';
const SIZES = Array.from({ length: 11 }, (_, i) => 1024 * 2 ** i); // 1 KiB … 1 MiB
const MID = 64 * 1024;
const REPEATS = 3;
const TOLERANCE = 4;
const FLOOR_MS = MEANWHILE_LIMIT_MS / 2;

interface Series {
  what: string;
  /** Fastest time per size, in ms. */
  ms: number[];
  /** Time per byte at 1 MiB over time per byte at 64 KiB. */
  ratio: number;
}

for (const target of dbTargets()) {
  describe(`growth: bodies doubled from 1 KiB to 1 MiB on every route (${target.name})`, {
    skip: !SOAK && 'a soak stage: npm run soak (SOAK=1)',
  }, () => {
    const site = servedTestApp(target);

    async function fastest(options: InjectOptions, what: string, tries: number): Promise<number> {
      let best = Infinity;
      for (let i = 0; i < tries; i++) {
        const t0 = performance.now();
        const cpu0 = process.cpuUsage();
        const res = await site.server.inject(options);
        const cpu = process.cpuUsage(cpu0);
        best = Math.min(best, performance.now() - t0, (cpu.user + cpu.system) / 1000);
        assertWellFormedAnswer(res.statusCode, res.headers['content-type'], res.body, what);
      }
      return best;
    }

    test('time grows at most linearly with the body, per route and shape', async (ctx) => {
      const series: Series[] = [];
      const started = performance.now();
      for (const route of site.server.restApi.registry.routes) {
        for (const endpoint of route.endpoints) {
          const method = endpoint.methods[0]!;
          const names = [...Object.keys(endpoint.args), '_fields', 'x'];
          const url = `/en/cms-json${samplePath(route.pattern)}`;
          const kinds = [
            ...BODY_SHAPES.map((shape) => ({
              what: `${method} ${url} JSON ${shape.name}`,
              type: 'application/json',
              payload: (bytes: number) => bodyOf(names, shape, bytes),
            })),
            ...FORM_SHAPES.map((shape) => ({
              what: `${method} ${url} form ${shape.name}`,
              type: 'application/x-www-form-urlencoded',
              payload: (bytes: number) => formOf(names, shape, bytes),
            })),
          ];
          for (const kind of kinds) {
            const ms: number[] = [];
            for (const size of SIZES) {
              const tries = size === MID || size === BODY_LIMIT ? REPEATS : 1;
              ms.push(
                await fastest(
                  { method, url, payload: kind.payload(size), headers: { 'content-type': kind.type } },
                  `${kind.what} ${size}`,
                  tries,
                ),
              );
            }
            const at = (size: number) => ms[SIZES.indexOf(size)]!;
            series.push({ what: kind.what, ms, ratio: at(BODY_LIMIT) / BODY_LIMIT / (at(MID) / MID) });
          }
        }
      }
      const faster = series.filter((s) => s.ratio > TOLERANCE && s.ms.at(-1)! > FLOOR_MS);
      const steepest = [...series].sort((a, b) => b.ratio - a.ratio).slice(0, 5);
      const slowest = [...series].sort((a, b) => b.ms.at(-1)! - a.ms.at(-1)!).slice(0, 5);
      const totals = SIZES.map((_, i) => series.reduce((n, s) => n + s.ms[i]!, 0));
      const round = (n: number) => Math.round(n * 100) / 100;
      const figures = {
        suite: 'growth',
        db: target.name,
        series: series.length,
        minutes: round((performance.now() - started) / 60_000),
        totalMsBySize: Object.fromEntries(SIZES.map((size, i) => [`${size / 1024}KiB`, Math.round(totals[i]!)])),
        steepest: steepest.map((s) => ({ what: s.what, ratio: round(s.ratio), msAt1MiB: round(s.ms.at(-1)!) })),
        slowestAt1MiB: slowest.map((s) => ({ what: s.what, ms: round(s.ms.at(-1)!), ratio: round(s.ratio) })),
        fasterThanLinear: faster.map((s) => s.what),
      };
      report(figures);
      ctx.diagnostic(JSON.stringify(figures));
      assert.deepEqual(
        faster.map(
          (s) =>
            `${s.what}: ${s.ms.map((m) => Math.round(m)).join(' → ')} ms, time per byte ×${round(s.ratio)} from 64 KiB to 1 MiB`,
        ),
        [],
      );
    });
  });
}
