// The console log: readable lines at a terminal, JSON otherwise; the access log (ACCESS_LOG=on):
// one record per request with method, path (secrets redacted), status, time, bytes.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/server/http.ts';
import { readableLine, readableStream, wantsReadable } from '../../src/server/console-log.ts';
import { redactedPath } from '../../src/server/access-log.ts';
import { createTestApp, type TestApp } from '../support/db.ts';
import { capture, listenOnLoopback } from './support.ts';

describe('console log lines', () => {
  test('a record is one readable line: time, level, message, fields; an error adds its stack below', () => {
    const time = Date.UTC(2026, 10, 25, 9, 30, 15);
    const line = readableLine(
      JSON.stringify({
        level: 30,
        time,
        pid: 1,
        hostname: 'h',
        msg: 'content-site listening',
        address: 'http://127.0.0.1:8080',
        note: 'two words',
      }),
    );
    assert.equal(
      line,
      `${new Date(time).toTimeString().slice(0, 8)} INFO  content-site listening address=http://127.0.0.1:8080 note="two words"\n`,
    );
    const failed = readableLine(
      JSON.stringify({
        level: 50,
        time,
        msg: 'request failed',
        err: { type: 'Error', message: 'boom', stack: 'Error: boom\n    at x (y.ts:1:1)' },
      }),
    );
    assert.match(failed, /^\d\d:\d\d:\d\d ERROR request failed\n {4}Error: boom\n {8}at x \(y\.ts:1:1\)\n$/);
    assert.equal(readableLine('not json'), 'not json');
  });

  test('readable at a terminal, JSON otherwise; LOG_FORMAT decides when set', () => {
    assert.equal(wantsReadable('auto', { isTTY: true }), true);
    assert.equal(wantsReadable('auto', {}), false);
    assert.equal(wantsReadable('json', { isTTY: true }), false);
    assert.equal(wantsReadable('pretty', {}), true);
  });

  test('pino through the readable stream writes no JSON', async () => {
    const out = capture();
    const log = pino({ level: 'info' }, readableStream(out.stream));
    log.info({ port: 8080 }, 'hello');
    log.warn('careful');
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(
      out.lines().map((l) => l.replace(/^\d\d:\d\d:\d\d /, '')),
      ['INFO  hello port=8080', 'WARN  careful'],
    );
  });
});

describe('access log', () => {
  test('query values that may be secrets are redacted, others kept', () => {
    assert.equal(redactedPath('/en/cms-json/history/v1/events'), '/en/cms-json/history/v1/events');
    assert.equal(
      redactedPath(
        '/en/cms-json/x?_wpnonce=abc123&per_page=5&app_password=hunter2&license_key=K&access_token=T&author=3&PWD=p',
      ),
      '/en/cms-json/x?_wpnonce=[redacted]&per_page=5&app_password=[redacted]&license_key=[redacted]&access_token=[redacted]&author=3&PWD=[redacted]',
    );
    assert.equal(redactedPath('/?password%5B%5D=a&q=b'), '/?password%5B%5D=[redacted]&q=b');
  });

  for (const accessLog of ['on', 'off']) {
    describe(`ACCESS_LOG=${accessLog}`, () => {
      let t: TestApp;
      let server: FastifyInstance;
      let base: string;
      const out = capture();
      before(async () => {
        t = await createTestApp({ name: 'sqlite' }, { ACCESS_LOG: accessLog });
        t.app.log = pino({ level: 'info' }, out.stream);
        server = await buildServer(t.app);
        base = await listenOnLoopback(server);
      });
      after(async () => {
        await server.close();
        await t.close();
      });

      test(accessLog === 'on' ? 'one record per request, secrets redacted' : 'no request records', async () => {
        const index = await fetch(`${base}/en/cms-json/`);
        const indexBytes = (await index.arrayBuffer()).byteLength;
        await (
          await fetch(`${base}/en/cms-json/history/v1/events?_wpnonce=n0nce&per_page=5`, {
            headers: { authorization: 'Basic bm9ib2R5OnNlY3JldA==' },
          })
        ).text();
        await (await fetch(`${base}/de/nope/`)).text();
        await (await fetch(`${base}/healthz`, { method: 'POST' })).text();
        await new Promise((r) => setTimeout(r, 50));
        const records = out
          .lines()
          .map((l) => JSON.parse(l) as Record<string, unknown>)
          .filter((r) => r.msg === 'request');
        if (accessLog === 'off') return assert.deepEqual(records, []);
        assert.deepEqual(
          records.map((r) => [r.method, r.path, r.status]),
          [
            ['GET', '/en/cms-json/', 200],
            ['GET', '/en/cms-json/history/v1/events?_wpnonce=[redacted]&per_page=5', 401],
            ['GET', '/de/nope/', 404],
            ['POST', '/healthz', 404],
          ],
        );
        for (const r of records) {
          assert.equal(typeof r.ms, 'number');
          assert.ok((r.ms as number) >= 0);
          assert.equal(r.ip, '127.0.0.1');
        }
        assert.ok((records[0]!.bytes as number) > indexBytes, 'bytes sent, headers included');
        assert.ok(!out.lines().some((l) => l.includes('n0nce') || l.includes('bm9ib2R5')), 'no secret in the log');
      });
    });
  }
});
