// The declarations of history/v1: every route of contract §4.6, literal routes first, and
// every parameter described in English and German.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { historyNamespace } from '../../src/namespaces/history/routes.ts';
import type { ArgSchema } from '../../src/rest/types.ts';

test('every contract route is declared with its methods', () => {
  const routes = Object.fromEntries(
    historyNamespace.routes.map((r) => [
      r.path,
      r.endpoints
        .flatMap((e) => e.methods)
        .sort()
        .join(','),
    ]),
  );
  const stats = [
    'summary',
    'users',
    'content',
    'media',
    'plugins',
    'core',
    'peak-days',
    'peak-times',
    'activity-overview',
    'notes',
  ];
  assert.deepEqual(routes, {
    '/email-report/preview/email': 'GET,POST',
    '/email-report/preview/html': 'GET',
    '/events': 'GET,POST',
    '/events/has-updates': 'GET',
    '/events/(?P<event_id>\\d+)': 'GET',
    '/events/(?P<event_id>\\d+)/stick': 'POST',
    '/events/(?P<event_id>\\d+)/unstick': 'POST',
    '/backfill-status': 'GET',
    '/search-options': 'GET',
    '/search-user': 'GET',
    ...Object.fromEntries(stats.map((s) => [`/stats/${s}`, 'GET'])),
    '/support-info': 'GET',
    '/support-info/health-check': 'GET',
    '/users/(?P<user_id>\\d+)/card': 'GET',
    '/initiators/(?P<initiator_type>[a-z_]+)/card': 'GET',
  });
  const paths = historyNamespace.routes.map((r) => r.path);
  assert.ok(paths.indexOf('/events/has-updates') < paths.indexOf('/events/(?P<event_id>\\d+)'));
});

test('every parameter has an English and a German description', () => {
  for (const r of historyNamespace.routes) {
    for (const e of r.endpoints) {
      for (const [name, arg] of Object.entries(e.args) as [string, ArgSchema][]) {
        const d = arg.description;
        assert.ok(d && typeof d === 'object' && d.en && d.de && d.en !== d.de, `${r.path} ${name}`);
      }
    }
  }
});

test('GET /events and has-updates declare the same filters; since_id required only on has-updates', () => {
  const args = (path: string) =>
    historyNamespace.routes.find((r) => r.path === path)!.endpoints.find((e) => e.methods.includes('GET'))!.args;
  const list = args('/events');
  const updates = args('/events/has-updates');
  assert.deepEqual(Object.keys(updates), Object.keys(list));
  assert.equal(list.since_id.required, undefined);
  assert.equal(updates.since_id.required, true);
  assert.equal(Object.keys(list).length, 41);
  assert.deepEqual(list.per_page, { ...list.per_page, type: 'integer', default: 10, minimum: 1, maximum: 100 });
  assert.deepEqual(list.surrounding_count, {
    ...list.surrounding_count,
    type: 'integer',
    default: 5,
    minimum: 1,
    maximum: 50,
  });
  assert.deepEqual(list.type.enum, ['overview', 'occasions']);
});
