// The cold scenarios of `npm run bench` (bench/cold.ts): the same seed sends the same requests,
// no request is sent twice, and every one is a request the activity log answers (2xx), not a
// 400 that would measure the argument check instead of the query.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { callRoute, userWithRole } from '../support/http.ts';
import { generateEvents } from '../../src/namespaces/history/bulk/generate.ts';
import { coldRequests, COLD_SCENARIOS, type ColdLog } from '../../bench/cold.ts';

const EVENTS = 2_000;
const PER_SCENARIO = 40;
const KEYS = [...COLD_SCENARIOS.map((s) => s.key), 'mixed-0-c1'];

for (const target of dbTargets()) {
  describe(`cold bench requests (${target.name})`, () => {
    let t: TestApp;
    let log: ColdLog;
    before(async () => {
      t = await createTestApp(target);
      const { authorization } = await userWithRole(t.app, 'administrator');
      const endMs = Date.now();
      await generateEvents(t.app, { count: EVENTS, days: 365, now: new Date(endMs) });
      log = { authorization, endMs, days: 365, events: EVENTS };
    });
    after(() => t.close());

    test('a seed draws the same requests, and none twice over the whole run', () => {
      const seen = new Set<string>();
      const lists = KEYS.map((key) => coldRequests(key, log, 28, PER_SCENARIO, seen));
      assert.deepEqual(
        KEYS.map((key) => coldRequests(key, log, 28, PER_SCENARIO).map((r) => r.path)),
        lists.map((l) => l.map((r) => r.path)),
      );
      const paths = lists.flat().map((r) => r.path);
      assert.equal(new Set(paths).size, paths.length);
      assert.ok(
        lists.every((l) => l.length === PER_SCENARIO),
        lists.map((l) => l.length).join(','),
      );
      assert.notDeepEqual(coldRequests('search1', log, 29, 5), coldRequests('search1', log, 28, 5));
    });

    test('every drawn request is answered with 2xx', async () => {
      for (const key of KEYS) {
        for (const req of coldRequests(key, log, 28, PER_SCENARIO)) {
          const res = await callRoute(t.app, 'GET', req.path, { authorization: log.authorization });
          assert.ok(res.status < 300, `${res.status} ${req.path}: ${JSON.stringify(res.body).slice(0, 300)}`);
        }
      }
    });
  });
}
