// Server processes on one database know of each other (a row each in server_processes, refreshed
// while they run) and warn when they advertise different addresses (SITE_URL not set) or share
// an SQLite file.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { pino, type Logger } from 'pino';
import { loadConfig } from '../../src/config.ts';
import { startServer } from '../../src/server/start.ts';
import { peerWarnings, watchPeers } from '../../src/server/peers.ts';
import { formatUtc } from '../../src/site/time.ts';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { capture } from './support.ts';

function capturingLogger(): { log: Logger; warnings(): string[] } {
  const out = capture();
  return {
    log: pino({ level: 'warn' }, out.stream),
    warnings: () =>
      out
        .lines()
        .map((l) => JSON.parse(l) as { level: number; msg: string })
        .filter((r) => r.level === 40)
        .map((r) => r.msg),
  };
}

for (const target of dbTargets()) {
  describe(`server processes on one database (${target.name})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(target);
    });
    after(() => t.close());

    test('a second process without SITE_URL: both are told, once', async () => {
      const first = capturingLogger();
      const second = capturingLogger();
      // As processes started without SITE_URL (its default then is http://localhost:<PORT>).
      const config = { ...t.app.config, siteUrlConfigured: false };
      const a = await watchPeers({ ...t.app, config, log: first.log }, 'http://127.0.0.1:18320');
      const b = await watchPeers({ ...t.app, config, log: second.log }, 'http://127.0.0.1:18321');
      try {
        await a.check();
        await a.check(); // the same peer is not reported twice
        for (const warnings of [first.warnings(), second.warnings()]) {
          const addresses = warnings.filter((w) => w.includes('SITE_URL'));
          assert.equal(addresses.length, 1, warnings.join('\n'));
          assert.match(
            addresses[0]!,
            /^2 server processes share this database and advertise the address http:\/\/localhost:8080 without SITE_URL set: set SITE_URL/,
          );
          assert.equal(
            warnings.some((w) => w.includes('SQLite')),
            target.name === 'sqlite',
            warnings.join('\n'),
          );
        }
        if (target.name === 'sqlite')
          assert.match(
            second.warnings().find((w) => w.includes('SQLite'))!,
            /^another server process uses the same SQLite file .*site\.db \(pid \d+ on .*, listening on http:\/\/127\.0\.0\.1:18320\): SQLite serves one server process/,
          );
      } finally {
        await b.stop();
        await a.stop();
      }
      assert.deepEqual(
        await t.app.db.selectFrom('server_processes').select('id').execute(),
        [],
        'stopping removes the rows',
      );
    });

    test('a process that stopped refreshing its row is gone, and no warning is given', async () => {
      const stale = formatUtc(new Date(Date.now() - 10 * 60_000));
      await t.app.db
        .insertInto('server_processes')
        .values({
          id: 'crashed',
          host: 'h',
          pid: 1,
          address: 'http://127.0.0.1:1',
          site_url: 'http://localhost:1',
          site_url_configured: 0,
          started_at: stale,
          seen_at: stale,
        })
        .execute();
      const logger = capturingLogger();
      const watch = await watchPeers({ ...t.app, log: logger.log }, 'http://127.0.0.1:18322');
      await watch.stop();
      assert.deepEqual(logger.warnings(), []);
      assert.deepEqual(await t.app.db.selectFrom('server_processes').select('id').execute(), []);
    });
  });
}

describe('which situations are warned about', () => {
  const row = (id: string, siteUrl: string, configured: boolean) => ({
    id,
    host: 'h',
    pid: 1,
    address: 'http://127.0.0.1:1',
    site_url: siteUrl,
    site_url_configured: configured ? 1 : 0,
    started_at: '',
    seen_at: '',
  });
  const postgres = { dialect: 'postgres', dbHandle: { location: 'postgres://db/site' } } as Parameters<
    typeof peerWarnings
  >[0];
  test('PostgreSQL, SITE_URL set alike everywhere: nothing', () => {
    assert.deepEqual(
      peerWarnings(postgres, 'a', [
        row('a', 'https://portal.example.com', true),
        row('b', 'https://portal.example.com', true),
      ]),
      [],
    );
  });
  test('alone: nothing', () => {
    assert.deepEqual(peerWarnings(postgres, 'a', [row('a', 'http://localhost:1', false)]), []);
  });
  test('different addresses are named', () => {
    const [warning] = peerWarnings(postgres, 'a', [
      row('a', 'http://localhost:18320', false),
      row('b', 'http://localhost:18321', false),
    ]);
    assert.match(warning!, /advertise different addresses \(http:\/\/localhost:18320, http:\/\/localhost:18321\)/);
  });
});

test('serve registers its process and removes it when it stops', async () => {
  const t = await createTestApp({ name: 'sqlite' });
  try {
    const config = loadConfig({ DATABASE_URL: t.databaseUrl, DATA_DIR: t.config.dataDir, PORT: '0' });
    const logger = capturingLogger();
    const running = await startServer(config, { logger: logger.log });
    const rows = await t.app.db.selectFrom('server_processes').selectAll().execute();
    assert.deepEqual(
      rows.map((r) => [r.pid, r.address, r.site_url_configured]),
      [[process.pid, running.address, 0]],
    );
    await running.stop();
    assert.deepEqual(await t.app.db.selectFrom('server_processes').select('id').execute(), []);
  } finally {
    await t.close();
  }
});
