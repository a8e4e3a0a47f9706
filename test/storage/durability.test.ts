// Acknowledged writes survive a crash: the real server runs as a child process, answers
// writes with 2xx, is killed with SIGKILL (no shutdown of any kind), and every write it
// acknowledged must be in the reopened database.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { pino } from 'pino';
import { dbTargets, createTestApp, type TestApp } from '../support/db.ts';
import { basicAuth } from '../support/http.ts';
import { BIN, NODE, ROOT, cliEnv } from '../cli/run.ts';
import { openApp } from '../../src/app.ts';
import { getCustomXml } from '../../src/namespaces/i18n/xml-config.ts';

interface Server {
  child: ChildProcess;
  url: string;
  adminPassword: string;
}

/** Starts `content-site serve` on a free port; resolves once it listens (after the first start). */
async function startServe(t: TestApp): Promise<Server> {
  const child = spawn(NODE, [BIN, 'serve'], {
    cwd: ROOT,
    env: cliEnv(t, { PORT: '0', HOST: '127.0.0.1', SITE_URL: 'http://127.0.0.1', LOG_LEVEL: 'warn' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${stdout}\n${stderr}`)), 30_000);
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${stdout}\n${stderr}`)));
    child.stdout!.on('data', (d) => {
      stdout += d;
      const url = /Listening on (http:\/\/\S+)\n/.exec(stdout)?.[1];
      const adminPassword = /Application password for admin \(shown only this once\): ([A-Za-z0-9 ]{29})\n/.exec(
        stdout,
      )?.[1];
      if (url && adminPassword) {
        clearTimeout(timer);
        resolve({ child, url, adminPassword });
      }
    });
  });
}

/** Write number i: a custom XML configuration whose size (27 + i bytes) identifies it in the activity log. */
const content = (i: number) => `<wpml-config>${' '.repeat(i)}</wpml-config>`;

for (const target of dbTargets()) {
  describe(`durability of acknowledged writes (${target.name})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(target);
    });
    after(() => t.close());

    test('kill -9 loses nothing that was acknowledged', async () => {
      const server = await startServe(t);
      const authorization = basicAuth('admin', server.adminPassword);
      const write = async (i: number) => {
        const res = await fetch(`${server.url}/en/cms-json/i18n/v1/custom-xml-config`, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/json' },
          body: JSON.stringify({ content: content(i) }),
        });
        assert.equal(res.status, 200, await res.text());
        await res.arrayBuffer().catch(() => {});
        return i;
      };

      const acknowledged: number[] = [];
      for (let i = 1; i <= 15; i++) acknowledged.push(await write(i));
      // More writes in flight when the process dies: those answered before the kill count too.
      const inFlight = Array.from({ length: 10 }, (_, k) =>
        write(16 + k).then(
          (i) => acknowledged.push(i),
          () => {},
        ),
      );
      await Promise.race(inFlight);
      server.child.kill('SIGKILL');
      await once(server.child, 'exit').catch(() => {});
      await Promise.all(inFlight);
      const lastSequential = 15;

      const reopened = await openApp(t.config, { pgSchema: t.pgSchema, logger: pino({ level: 'silent' }) });
      try {
        const stored = await reopened.db
          .selectFrom('history_events as e')
          .innerJoin('history_event_contexts as x', 'x.event_id', 'e.id')
          .select('x.context')
          .where('e.message_key', '=', 'custom_xml_config_updated')
          .execute();
        const writesLogged = new Set(
          stored.map((r) => Number((JSON.parse(r.context) as { bytes: string }).bytes) - content(0).length),
        );
        for (const i of acknowledged)
          assert.ok(
            writesLogged.has(i),
            `acknowledged write ${i} is missing (found ${[...writesLogged].sort((a, b) => a - b)})`,
          );
        const finalContent = await getCustomXml(reopened);
        const finalWrite = finalContent.length - content(0).length;
        assert.equal(finalContent, content(finalWrite));
        assert.ok(
          finalWrite >= lastSequential,
          `the stored configuration is write ${finalWrite}, older than the last acknowledged sequential write`,
        );
      } finally {
        await reopened.close();
      }
    });
  });
}
