// Load: N writers post events (and some batches) while N readers page the activity log with
// max_id_first_page, against the real server in a child process. No 5xx, no socket errors,
// every acknowledged write readable, event ids unique, paging stable (a reading pass is
// exactly the log's rows up to its first page's newest id, in order, without repeats or
// gaps), and the server's memory stays bounded. Short in `npm test` (20 + 20 for ~5 s);
// SOAK=1 (npm run soak) runs 100 + 100 for 60 s. Figures, not timings, are asserted.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { openDatabase } from '../../src/db/index.ts';
import { dbTargets } from '../support/db.ts';
import {
  checkDatabase,
  killChild,
  report,
  request,
  rssKiB,
  seededDb,
  startChild,
  type ChildServer,
} from './child-server.ts';

const SOAK = process.env.SOAK === '1';
const WRITERS = Number(process.env.LOAD_WRITERS ?? (SOAK ? 100 : 20));
const READERS = Number(process.env.LOAD_READERS ?? (SOAK ? 100 : 20));
const DURATION_MS = Number(process.env.LOAD_SECONDS ?? (SOAK ? 60 : 5)) * 1000;
const PER_PAGE = 20;
const PAGES_PER_PASS = 4;
const BATCH_EVERY = 10;
const BATCH_SIZE = 5;
/**
 * Memory: the RSS at the end may exceed the RSS after warm-up by this factor plus this many
 * MiB. Generous for the short run (a young heap still grows); tighter over a minute.
 */
const RSS_FACTOR = SOAK ? 1.5 : 2;
const RSS_SLACK_MIB = SOAK ? 96 : 128;

interface Pass {
  reader: number;
  maxId: number;
  ids: number[];
  grouped: boolean;
}

for (const target of dbTargets()) {
  describe(`load: concurrent writers and paging readers (${target.name})`, () => {
    test(`${WRITERS} writers + ${READERS} readers for ${DURATION_MS / 1000} s: no errors, nothing lost, stable paging, bounded memory`, async (ctx) => {
      const prefix = `load-${target.name}-${process.pid}-`;
      const seeded = await seededDb(target);
      let server: ChildServer | null = null;
      try {
        server = await startChild(seeded.t);
        const base = `${server.url}/en/cms-json`;
        const auth = { authorization: seeded.authorization };
        const json = { ...auth, 'content-type': 'application/json' };
        const acknowledged = new Set<string>();
        const errors: string[] = [];
        const statuses = new Map<number, number>();
        const passes: Pass[] = [];
        let requests = 0;
        let stop = false;
        const count = (status: number) => {
          requests++;
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        };

        const writer = async (w: number) => {
          for (let n = 0; !stop; n++) {
            const id = `${prefix}${w}-${n}`;
            if (n % BATCH_EVERY === BATCH_EVERY - 1) {
              const messages = Array.from({ length: BATCH_SIZE }, (_, k) => `${id}-b${k}`);
              const res = await request(`${base}/batch/v1`, {
                method: 'POST',
                headers: json,
                body: JSON.stringify({
                  requests: messages.map((message) => ({ path: '/history/v1/events', body: { message } })),
                }),
              });
              if ('error' in res) {
                errors.push(`batch ${id}: ${res.error}`);
                continue;
              }
              count(res.status);
              if (res.status !== 207) {
                errors.push(`batch ${id}: ${res.status} ${res.body.slice(0, 200)}`);
                continue;
              }
              (JSON.parse(res.body) as { responses: { status: number }[] }).responses.forEach((item, k) => {
                if (item.status === 201) acknowledged.add(messages[k]!);
                else errors.push(`batch item ${messages[k]}: ${item.status}`);
              });
            } else {
              const res = await request(`${base}/history/v1/events`, {
                method: 'POST',
                headers: json,
                body: JSON.stringify({ message: id }),
              });
              if ('error' in res) {
                errors.push(`${id}: ${res.error}`);
                continue;
              }
              count(res.status);
              if (res.status === 201) acknowledged.add(id);
              else errors.push(`${id}: ${res.status} ${res.body.slice(0, 200)}`);
            }
          }
        };

        // Even readers page the plain list (checked row by row afterwards); odd ones the
        // grouped overview (checked for repeats only: groups change while writers write).
        const reader = async (r: number) => {
          const grouped = r % 2 === 1;
          const list = `${base}/history/v1/events?per_page=${PER_PAGE}&_fields=id${grouped ? '' : '&ungrouped=true'}`;
          while (!stop) {
            const pass: Pass = { reader: r, maxId: 0, ids: [], grouped };
            for (let page = 1; page <= PAGES_PER_PASS && !stop; page++) {
              const url = page === 1 ? list : `${list}&page=${page}&max_id_first_page=${pass.maxId}`;
              const res = await request(url, { headers: auth });
              if ('error' in res) {
                errors.push(`GET ${url}: ${res.error}`);
                break;
              }
              count(res.status);
              if (res.status !== 200) {
                errors.push(`GET ${url}: ${res.status} ${res.body.slice(0, 200)}`);
                break;
              }
              const rows = JSON.parse(res.body) as { id: number }[];
              if (page === 1) pass.maxId = Number(res.headers.get('x-history-maxid'));
              pass.ids.push(...rows.map((row) => row.id));
              if (rows.length < PER_PAGE) break;
            }
            if (pass.maxId) passes.push(pass);
          }
        };

        const rss: number[] = [];
        const sampler = setInterval(() => {
          const kib = rssKiB(server!.pid);
          if (kib !== null) rss.push(kib);
        }, 250);
        const started = Date.now();
        const running = [
          ...Array.from({ length: WRITERS }, (_, w) => writer(w)),
          ...Array.from({ length: READERS }, (_, r) => reader(r)),
        ];
        await new Promise((r) => setTimeout(r, DURATION_MS));
        stop = true;
        await Promise.all(running);
        clearInterval(sampler);
        const elapsed = Date.now() - started;

        assert.deepEqual(errors.slice(0, 20), [], `${errors.length} errors (5xx, 4xx or socket errors) under load`);

        // Nothing lost, the database sound.
        const check = await checkDatabase(seeded.t, prefix);
        assert.deepEqual(check.problems, []);
        const lost = [...acknowledged].filter((m) => !check.messages.has(m));
        assert.deepEqual(lost.slice(0, 20), [], `${lost.length} acknowledged writes are missing`);
        // Nothing else was logged but the writes and one login (the password's first use,
        // though many requests verified it at once).
        assert.equal(check.events, acknowledged.size + 1, 'events besides the acknowledged writes and one login');

        // Paging stable: every plain pass is exactly the log's rows up to its first page's
        // newest id, newest first, no repeats, no gaps. Grouped passes: no repeats.
        const handle = openDatabase(seeded.t.databaseUrl, { pgSchema: seeded.t.pgSchema, poolSize: 1 });
        let order: number[];
        try {
          order = (
            await sql<{ id: number }>`select id from history_events order by date desc, id desc`.execute(handle.db)
          ).rows.map((row) => Number(row.id));
        } finally {
          await handle.destroy();
        }
        const plain = passes.filter((p) => !p.grouped);
        const grouped = passes.filter((p) => p.grouped);
        assert.ok(plain.length > 0 && grouped.length > 0, 'readers completed passes');
        for (const pass of plain) {
          const expected = order.filter((id) => id <= pass.maxId).slice(0, pass.ids.length);
          assert.deepEqual(
            pass.ids,
            expected,
            `reader ${pass.reader}: pass below id ${pass.maxId} is not the log's rows in order`,
          );
        }
        for (const pass of grouped)
          assert.equal(
            new Set(pass.ids).size,
            pass.ids.length,
            `reader ${pass.reader}: an overview pass repeats an event`,
          );

        // Memory bounded: the end is compared with the state after warm-up (first quarter).
        assert.ok(rss.length >= 8, 'RSS samples were taken');
        const warm = rss[Math.floor(rss.length / 4)]!;
        const end = Math.max(...rss.slice(-4));
        const limit = warm * RSS_FACTOR + RSS_SLACK_MIB * 1024;
        assert.ok(
          end <= limit,
          `server RSS grew from ${warm} KiB after warm-up to ${end} KiB (limit ${Math.round(limit)} KiB)`,
        );

        const summary = {
          suite: 'load',
          db: target.name,
          writers: WRITERS,
          readers: READERS,
          seconds: Math.round(elapsed / 1000),
          requests,
          statuses: Object.fromEntries(statuses),
          errors: errors.length,
          acknowledged: acknowledged.size,
          lost: lost.length,
          readingPasses: passes.length,
          rowsRead: passes.reduce((n, p) => n + p.ids.length, 0),
          events: check.events,
          rssKiB: { start: rss[0], warm, end, max: Math.max(...rss) },
        };
        ctx.diagnostic(JSON.stringify(summary));
        report(summary);
      } finally {
        if (server) await killChild(server, 'SIGTERM');
        await seeded.t.close();
      }
    });
  });
}
