// Faults: the database going away (PostgreSQL cut off mid-run, SQLite locked), slow and idle
// clients, and shutdown with requests in flight. The server answers 503 in the contract's
// shape, recovers by itself, never crashes and never hangs.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import http from 'node:http';
import path from 'node:path';
import { spawn } from 'node:child_process';
import SqliteDatabase from 'better-sqlite3';
import { buildServer } from '../../src/server/http.ts';
import { createTestApp, PG_URL, type TestApp } from '../support/db.ts';
import { userWithRole } from '../support/http.ts';

/** A TCP proxy in front of PostgreSQL that the test can cut and restore. */
async function tcpProxy(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  let port = 0;
  const open = () =>
    new Promise<void>((resolve, reject) => {
      if (server) return resolve();
      server = net.createServer((client) => {
        const upstream = net.connect(target.port, target.host);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => s.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as net.AddressInfo).port;
        resolve();
      });
    });
  await open();
  return {
    get port() {
      return port;
    },
    async cut() {
      const closing = server;
      server = null;
      if (!closing) return;
      const closed = new Promise<void>((resolve) => closing.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
    },
    restore: open,
  };
}

async function postEvent(server: Awaited<ReturnType<typeof buildServer>>, authorization: string, message: string) {
  return server.inject({
    method: 'POST',
    url: '/en/cms-json/history/v1/events',
    headers: { authorization },
    payload: { message },
  });
}

describe('faults', () => {
  test('PostgreSQL unavailable mid-run: 503 with a clear code, no crash, recovery when it returns', {
    skip: !PG_URL && 'TEST_DATABASE_URL not set',
  }, async () => {
    const pgUrl = new URL(PG_URL!);
    const proxy = await tcpProxy({ host: pgUrl.hostname, port: Number(pgUrl.port || 5432) });
    const viaProxy = new URL(PG_URL!);
    viaProxy.port = String(proxy.port);
    viaProxy.hostname = '127.0.0.1';
    let t: TestApp | null = null;
    try {
      t = await createTestApp({ name: 'postgres' }, { DATABASE_URL: viaProxy.toString() });
      const server = await buildServer(t.app);
      const { authorization } = await userWithRole(t.app, 'administrator');
      assert.equal((await postEvent(server, authorization, 'before')).statusCode, 201);

      await proxy.cut();
      for (let i = 0; i < 3; i++) {
        const res = await postEvent(server, authorization, `during ${i}`);
        assert.equal(res.statusCode, 503, res.body);
        assert.equal(res.json().code, 'rest_database_unavailable');
        assert.equal(res.json().data.status, 503);
      }
      const read = await server.inject({
        method: 'GET',
        url: '/en/cms-json/history/v1/events',
        headers: { authorization },
      });
      assert.equal(read.statusCode, 503, read.body);

      await proxy.restore();
      let recovered = false;
      for (let i = 0; i < 50 && !recovered; i++) {
        recovered = (await postEvent(server, authorization, 'after')).statusCode === 201;
        if (!recovered) await new Promise((r) => setTimeout(r, 100));
      }
      assert.ok(recovered, 'the server recovers once PostgreSQL is back');
      await server.close();
    } finally {
      await proxy.restore().catch(() => {});
      await t?.close();
      await proxy.cut();
    }
  });

  test('SQLite locked by another process: 503 after the busy timeout, nothing corrupted, then recovery', async () => {
    const t = await createTestApp({ name: 'sqlite' });
    const server = await buildServer(t.app);
    try {
      const { authorization } = await userWithRole(t.app, 'administrator');
      assert.equal((await postEvent(server, authorization, 'before lock')).statusCode, 201);
      const file = t.databaseUrl.slice('sqlite:'.length);
      const locker = new SqliteDatabase(file);
      locker.exec('BEGIN EXCLUSIVE');
      try {
        const res = await postEvent(server, authorization, 'while locked');
        assert.equal(res.statusCode, 503, res.body);
        assert.equal(res.json().code, 'rest_database_unavailable');
      } finally {
        locker.exec('ROLLBACK');
      }
      assert.equal((await postEvent(server, authorization, 'after lock')).statusCode, 201);
      assert.equal(locker.pragma('integrity_check', { simple: true }), 'ok');
      locker.close();
    } finally {
      await server.close();
      await t.close();
    }
  });

  test('slow clients (slowloris) and idle connections are cut by the server limits', async () => {
    const t = await createTestApp(
      { name: 'sqlite' },
      { HTTP_HEADERS_TIMEOUT_MS: '800', HTTP_REQUEST_TIMEOUT_MS: '1500', HTTP_KEEPALIVE_TIMEOUT_MS: '500' },
    );
    const server = await buildServer(t.app);
    await server.listen({ port: 0, host: '127.0.0.1' });
    const port = (server.server.address() as net.AddressInfo).port;
    try {
      const closedAfter = (writeSlowly: boolean) =>
        new Promise<number>((resolve) => {
          const started = Date.now();
          const socket = net.connect(port, '127.0.0.1', () => {
            if (!writeSlowly) return; // idle: connect and say nothing
            socket.write('GET /en/cms-json/ HTTP/1.1\r\nHost: x\r\n');
            const drip = setInterval(() => socket.write('X-a: b\r\n'), 200);
            socket.on('close', () => clearInterval(drip));
          });
          socket.on('error', () => {});
          // Read what the server says (a 408): an unread response would hold back the 'end'
          // that follows it, and with it 'close', however early the server hung up.
          socket.resume();
          // Bounded: a server that never cuts the connection fails the test instead of hanging it.
          const giveUp = setTimeout(() => socket.destroy(), 10_000);
          socket.on('close', () => {
            clearTimeout(giveUp);
            resolve(Date.now() - started);
          });
        });
      const [slow, idle] = await Promise.all([closedAfter(true), closedAfter(false)]);
      assert.ok(slow < 5000, `slowloris connection closed after ${slow} ms`);
      assert.ok(idle < 5000, `idle connection closed after ${idle} ms`);
      // The server still serves others.
      const res = await fetch(`http://127.0.0.1:${port}/en/cms-json/`);
      assert.equal(res.status, 200);
    } finally {
      await server.close();
      await t.close();
    }
  });

  test('SIGTERM lets in-flight requests finish, then the process exits cleanly', async () => {
    const t = await createTestApp({ name: 'sqlite' });
    const { password, user } = await userWithRole(t.app, 'administrator');
    await t.app.close();
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const child = spawn(process.execPath, [path.resolve('bin/content-site.js'), 'serve'], {
      env: { ...process.env, DATABASE_URL: t.databaseUrl, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      for (let i = 0; i < 100; i++) {
        try {
          if ((await fetch(`http://127.0.0.1:${port}/en/cms-json/`)).ok) break;
        } catch {
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      const authorization = `Basic ${Buffer.from(`${user.login}:${password}`).toString('base64')}`;
      const body = JSON.stringify({
        requests: Array.from({ length: 25 }, (_, i) => ({
          path: '/history/v1/events',
          body: { message: `inflight ${i}` },
        })),
      });
      const inFlight = Array.from(
        { length: 20 },
        () =>
          new Promise<number | string>((resolve) => {
            const req = http.request(
              {
                host: '127.0.0.1',
                port,
                path: '/en/cms-json/batch/v1',
                method: 'POST',
                agent: false,
                headers: { authorization, 'content-type': 'application/json' },
              },
              (res) => {
                res.resume();
                res.on('end', () => resolve(res.statusCode ?? 0));
                res.on('aborted', () => resolve('truncated'));
                res.on('error', () => resolve('truncated'));
              },
            );
            req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
            req.end(body);
          }),
      );
      await new Promise((r) => setTimeout(r, 15));
      child.kill('SIGTERM');
      const results = await Promise.all(inFlight);
      // Accepted requests complete; connections still in the kernel's backlog when the listener
      // closes are refused or reset before any byte of a response — never a truncated answer.
      for (const r of results)
        assert.ok(r === 207 || r === 'ECONNREFUSED' || r === 'ECONNRESET', `in-flight request ended with ${r}`);
      assert.ok(results.filter((r) => r === 207).length > 0, 'requests in flight were finished');
      const code = await new Promise<number | null>((resolve) =>
        child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (c) => resolve(c)),
      );
      assert.equal(code, 0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await t.close().catch(() => {});
    }
  });
});
