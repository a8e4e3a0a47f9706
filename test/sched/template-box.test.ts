// Issue 25, items 2 and 8, over HTTP: templates are checked and rendered in the template box
// (worker threads with a heap cap and a kill timer) and the sandbox resolves allow-listed names
// only. Runaways get an answer in the contract's error shape and the server carries on.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { userWithRole } from '../support/http.ts';
import { buildServer } from '../../src/server/http.ts';
import { BOX, renderInBox, validateInBox } from '../../src/namespaces/sched/template-box.ts';
import { TemplateLimitError } from '../../src/namespaces/sched/twig-errors.ts';
import {
  killChild,
  request,
  seededDb,
  startChild,
  type ChildServer,
  type SeededDb,
} from '../reliability/child-server.ts';

const P = '/cms-json/sched/v1';
/** Text of a function's source as JavaScript prints it. */
const FUNCTION_SOURCE = /\[native code\]|function\s*[\w$]*\s*\(|=>/;
/** The reproductions of issue 25 item 8: test names reached Object.prototype. */
const PROTOTYPE_TESTS = [
  '{% set t = 1 is valueOf %}{{ t.iterable }}',
  "{{ '__proto__' is __lookupGetter__ }}",
  "{{ 'abc'|replace({'a': (1 is valueOf).defined}) }}",
];
/** More work than a render may do: a filter reading 256 KiB, 1000 times (the budget runs out long before the time does). */
const TOO_MUCH_WORK =
  "{% set s = 'x' %}{% for i in range(1, 18) %}{% set s = s ~ s %}{% endfor %}{% for i in range(1, 1000) %}{% set t = s|length %}{% endfor %}";

describe('templates that ran the server out of heap (child server)', () => {
  let db: SeededDb;
  let server: ChildServer;
  before(async () => {
    db = await seededDb({ name: 'sqlite' });
    server = await startChild(db.t);
  });
  after(async () => {
    await killChild(server);
    await db.t.close();
  });

  const post = (path: string, body: Record<string, unknown>) =>
    request(`${server.url}/en${P}${path}`, {
      method: 'POST',
      headers: { authorization: db.authorization, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  test("split('', 0) and number_format(536000000) are refused; the server answers an unrelated request afterwards", async () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['/templates/validate', { message: "{{ 'ab'|split('', 0) }}" }, /chunk size/],
      ['/notifications/preview', { template: "{{ 'ab'|split('', 0) }}" }, /chunk size/],
      [
        '/templates/validate',
        { message: '{{ 1|number_format(536000000) }}' },
        /decimals must be a whole number from -20 to 20/,
      ],
    ];
    for (const [path, body, re] of cases) {
      const res = await post(path, body);
      assert.ok(
        'status' in res,
        `${path}: no answer (${'error' in res ? res.error : ''}); the server printed:\n${server.output().slice(-2000)}`,
      );
      assert.equal(res.status, 200, res.body);
      assert.match(res.body, re);
      const unrelated = await request(`${server.url}/en${P}/user/check`, {});
      assert.ok('status' in unrelated && unrelated.status === 200, `the server did not answer after ${path}`);
    }
    assert.equal(server.child.exitCode, null, 'the server is still running');
  });
});

describe('the template box', () => {
  test('a job that outlasts the kill timer costs its worker, which is replaced', async () => {
    const killMs = BOX.killMs;
    BOX.killMs = 1;
    try {
      await assert.rejects(
        validateInBox(TOO_MUCH_WORK),
        (e: unknown) => e instanceof TemplateLimitError && e.limit === 'time',
      );
    } finally {
      BOX.killMs = killMs;
    }
    assert.deepEqual(await validateInBox('Hi {{ x }}'), { success: true });
  });

  test('a job that outgrows the heap cap costs its worker, which is replaced', async () => {
    // 96 texts of 1 MiB each: more than the worker's heap (BOX.heapMb) can hold. V8 may spend
    // the kill timer collecting garbage at the cap before it gives up: either limit stops it.
    const context = { texts: Array.from({ length: 96 }, (_, i) => String(i).padEnd(1024 * 1024, 'x')) };
    await assert.rejects(
      renderInBox('{{ texts|length }}', context, 'en'),
      (e: unknown) => e instanceof TemplateLimitError && (e.limit === 'memory' || e.limit === 'time'),
    );
    assert.equal(await renderInBox('{{ texts|length }}', { texts: ['a', 'b'] }, 'en'), '2');
  });

  test('jobs beyond the pool wait their turn and all get their answer', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => renderInBox('{{ n * 2 }}', { n: i }, 'en')));
    assert.deepEqual(
      results,
      Array.from({ length: 20 }, (_, i) => String(i * 2)),
    );
  });
});

for (const target of dbTargets()) {
  describe(`template checks over HTTP (${target.name})`, () => {
    let t: TestApp;
    let server: FastifyInstance;
    let admin: string;
    before(async () => {
      t = await createTestApp(target);
      server = await buildServer(t.app);
      admin = (await userWithRole(t.app, 'administrator')).authorization;
    });
    after(async () => {
      await server.close();
      await t.close();
    });

    const call = (method: 'POST' | 'PUT', path: string, body: Record<string, unknown>, lang = 'en') =>
      server.inject({ method, url: `/${lang}${P}${path}`, headers: { authorization: admin }, payload: body });
    const answersUnrelated = async () =>
      assert.equal((await server.inject({ method: 'GET', url: `/en${P}/user/check` })).statusCode, 200);
    const notification = (message: string) => ({
      title: 'Booked',
      type: 'email',
      trigger: 'appointment_booked',
      sent_to: ['{{ customer_email }}'],
      subject: 'Hi',
      message,
    });

    test('test names resolve from the allow-list only: no function source, no call (item 8)', async () => {
      for (const tpl of PROTOTYPE_TESTS) {
        const v = await call('POST', '/templates/validate', { message: tpl });
        assert.equal(v.statusCode, 200);
        assert.equal(v.json().success, false, tpl);
        assert.match(v.json().error, /Test "(valueOf|__lookupGetter__)" is not allowed/);
        const p = await call('POST', '/notifications/preview', { template: tpl });
        assert.equal(p.statusCode, 200);
        assert.doesNotMatch(p.json().data.preview, FUNCTION_SOURCE, tpl);
        assert.match(p.json().data.preview, /is not allowed/);
      }
    });

    test('a 256K-character trim mask is refused at once, also in a loop (item 2)', async () => {
      const mask = "{% set m = 'x' %}{% for i in range(1, 18) %}{% set m = m ~ m %}{% endfor %}";
      const v = await call('POST', '/templates/validate', {
        message: `${mask}{% for i in range(1, 1000) %}{{ m|trim(m) }}{% endfor %}`,
      });
      assert.equal(v.statusCode, 200);
      assert.equal(v.json().success, false);
      assert.match(v.json().error, /A trim mask is limited to 256 characters/);
      // Written out, such a mask makes a tag too long to compile.
      const literal = await call('POST', '/templates/validate', {
        message: `{{ 'x'|trim('${'x'.repeat(256 * 1024)}') }}`,
      });
      assert.equal(literal.statusCode, 422);
      assert.equal(literal.json().data.limit, 'work');
      await answersUnrelated();
    });

    test('a template beyond the limits: 422 sched_template_limit in both languages; the server carries on', async () => {
      for (const [lang, message] of [
        ['en', /needs more work than a render may do/],
        ['de', /braucht mehr Rechenschritte/],
      ] as const) {
        const v = await call('POST', '/templates/validate', { message: TOO_MUCH_WORK }, lang);
        assert.equal(v.statusCode, 422, v.body);
        const body = v.json();
        assert.equal(body.code, 'sched_template_limit');
        assert.match(body.message, message);
        assert.equal(body.data.status, 422);
        assert.equal(body.data.limit, 'work');
      }
      const p = await call('POST', '/notifications/preview', { template: TOO_MUCH_WORK });
      assert.equal(p.statusCode, 422);
      assert.equal(p.json().code, 'sched_template_limit');
      await answersUnrelated();
    });

    test('settings writes check their templates in the box', async () => {
      const bad = await call('PUT', '/settings/notifications', {
        notifications: [notification('ok'), notification(PROTOTYPE_TESTS[0])],
      });
      assert.equal(bad.statusCode, 400, bad.body);
      assert.equal(bad.json().code, 'rest_invalid_param');
      assert.match(
        bad.json().data.params['notifications.notifications'],
        /notifications\[1\]\.message: Error: Test "valueOf" is not allowed/,
      );
      const heavy = await call('POST', '/settings', {
        notifications: { notifications: [notification(TOO_MUCH_WORK)] },
      });
      assert.equal(heavy.statusCode, 422, heavy.body);
      assert.equal(heavy.json().code, 'sched_template_limit');
      assert.deepEqual(Object.keys(heavy.json().data.params), ['notifications.notifications[0].message']);
      const calendar = await call('PUT', '/settings/calendar_events', {
        event_type_customer: { title: "{{ 'ab'|split('', 0) }}" },
      });
      assert.equal(calendar.statusCode, 400, calendar.body);
      assert.match(
        calendar.json().data.params['calendar_events.event_type_customer'],
        /event_type_customer\.title: Error: split: with an empty delimiter/,
      );
      const good = await call('PUT', '/settings/notifications', {
        notifications: [notification('Hello {{ customer_name }}')],
      });
      assert.equal(good.statusCode, 200, good.body);
    });

    test('support/import checks the templates it carries in the box', async () => {
      const content = (message: string) =>
        JSON.stringify({ settings: { notifications: { notifications: [notification(message)] } } });
      const bad = await call('POST', '/support/import', { content: content(PROTOTYPE_TESTS[1]) });
      assert.equal(bad.statusCode, 400, bad.body);
      assert.equal(bad.json().code, 'sched_import_invalid');
      assert.match(bad.json().data.problems.join('\n'), /Test "__lookupGetter__" is not allowed/);
      const heavy = await call('POST', '/support/import', { content: content(TOO_MUCH_WORK) });
      assert.equal(heavy.statusCode, 422, heavy.body);
      assert.equal(heavy.json().code, 'sched_template_limit');
      await answersUnrelated();
    });
  });
}
