// Durability under load: the real server (child process) takes concurrent writes — single
// events and batches — and is killed with SIGKILL at a random moment while they are in
// flight; it is restarted on the same database, several rounds. After every kill each write
// the server acknowledged (2xx) must be in the database, and the database must pass its
// integrity check (SQLite) and the activity log's consistency checks (both databases).
// test/storage/durability.test.ts covers sequential writes of one kind; this is the loaded case.
// SOAK=1 (npm run soak) runs more rounds with more writers.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { dbTargets } from '../support/db.ts';
import { checkDatabase, killChild, report, request, seededDb, startChild, type ChildServer } from './child-server.ts';

const SOAK = process.env.SOAK === '1';
const ROUNDS = SOAK ? 10 : 3;
const WRITERS = SOAK ? 48 : 12;
/** Load runs this long (random, ms) after the first acknowledged write before the kill. */
const KILL_AFTER = SOAK ? [200, 4000] : [150, 1200];
const BATCH_EVERY = 7;
const BATCH_SIZE = 5;

for (const target of dbTargets()) {
  describe(`kill -9 under concurrent write load (${target.name})`, () => {
    test(`${ROUNDS} rounds of ${WRITERS} writers, SIGKILL at a random moment, restart: nothing acknowledged is lost, the database is sound`, async (ctx) => {
      const prefix = `dur-${target.name}-${process.pid}-`;
      const seeded = await seededDb(target);
      const acknowledged = new Set<string>();
      const unexpected: string[] = [];
      let attempted = 0;
      let failedAtKill = 0;
      let server: ChildServer | null = null;
      const killDelays: number[] = [];
      try {
        for (let round = 0; round < ROUNDS; round++) {
          server = await startChild(seeded.t);
          const events = `${server.url}/en/cms-json/history/v1/events`;
          const batch = `${server.url}/en/cms-json/batch/v1`;
          const headers = { authorization: seeded.authorization, 'content-type': 'application/json' };
          let killing = false;
          let firstAck!: () => void;
          const firstAcked = new Promise<void>((resolve) => (firstAck = resolve));
          const ack = (message: string) => {
            acknowledged.add(message);
            firstAck();
          };
          const writer = async (w: number) => {
            for (let n = 0; !killing; n++) {
              const id = `${prefix}${round}-${w}-${n}`;
              if (n % BATCH_EVERY === BATCH_EVERY - 1) {
                const messages = Array.from({ length: BATCH_SIZE }, (_, k) => `${id}-b${k}`);
                attempted += messages.length;
                const res = await request(batch, {
                  method: 'POST',
                  headers,
                  body: JSON.stringify({
                    requests: messages.map((message) => ({ path: '/history/v1/events', body: { message } })),
                  }),
                });
                if ('error' in res) {
                  if (killing) failedAtKill += messages.length;
                  else unexpected.push(`batch ${id}: ${res.error}`);
                  return;
                }
                if (res.status !== 207) {
                  unexpected.push(`batch ${id}: ${res.status} ${res.body.slice(0, 200)}`);
                  continue;
                }
                const items = (JSON.parse(res.body) as { responses: { status: number }[] }).responses;
                items.forEach((item, k) => {
                  if (item.status >= 200 && item.status < 300) ack(messages[k]!);
                  else unexpected.push(`batch item ${messages[k]}: ${item.status}`);
                });
              } else {
                attempted++;
                const res = await request(events, { method: 'POST', headers, body: JSON.stringify({ message: id }) });
                if ('error' in res) {
                  if (killing) failedAtKill++;
                  else unexpected.push(`${id}: ${res.error}`);
                  return;
                }
                if (res.status === 201) ack(id);
                else unexpected.push(`${id}: ${res.status} ${res.body.slice(0, 200)}`);
              }
            }
          };
          const running = Array.from({ length: WRITERS }, (_, w) => writer(w));
          // Bounded: a server that acknowledges nothing fails the test instead of hanging it.
          let noAck: NodeJS.Timeout | undefined;
          const acked = await Promise.race([
            firstAcked.then(() => true),
            new Promise<false>((r) => (noAck = setTimeout(() => r(false), 30_000))),
          ]);
          clearTimeout(noAck);
          if (!acked) {
            killing = true;
            await killChild(server);
            await Promise.all(running);
            assert.fail(
              `round ${round}: no write acknowledged within 30 s; errors: ${unexpected.slice(0, 5).join('; ')}\n${server.output().slice(-3000)}`,
            );
          }
          const delay = KILL_AFTER[0]! + Math.floor(Math.random() * (KILL_AFTER[1]! - KILL_AFTER[0]!));
          killDelays.push(delay);
          await new Promise((r) => setTimeout(r, delay));
          // Acknowledgements that arrive from here on still count: the process dies after them.
          killing = true;
          await killChild(server);
          await Promise.all(running);
          server = null;

          const check = await checkDatabase(seeded.t, prefix);
          assert.deepEqual(check.problems, [], `round ${round}: the database is not sound after the kill`);
          const lost = [...acknowledged].filter((m) => !check.messages.has(m));
          assert.deepEqual(
            lost,
            [],
            `round ${round}: acknowledged writes missing after kill -9 (${lost.length} of ${acknowledged.size})`,
          );
        }
        assert.deepEqual(unexpected, [], 'errors before the kill');
        // The last restart serves again, and sees everything.
        server = await startChild(seeded.t);
        const res = await request(`${server.url}/en/cms-json/history/v1/events?per_page=1&ungrouped=true`, {
          headers: { authorization: seeded.authorization },
        });
        assert.ok(!('error' in res) && res.status === 200, JSON.stringify(res).slice(0, 300));
        const final = await checkDatabase(seeded.t, prefix);
        assert.deepEqual(final.problems, []);
        const summary = {
          suite: 'kill-under-load',
          db: target.name,
          rounds: ROUNDS,
          writers: WRITERS,
          kills: ROUNDS,
          killDelaysMs: killDelays,
          writesAttempted: attempted,
          acknowledged: acknowledged.size,
          failedInFlightAtKill: failedAtKill,
          stored: final.messages.size,
          lost: 0,
          events: final.events,
        };
        ctx.diagnostic(JSON.stringify(summary));
        report(summary);
      } finally {
        if (server) await killChild(server);
        await seeded.t.close();
      }
    });
  });
}
