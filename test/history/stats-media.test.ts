// GET /stats/media with details: every media event of the range, read a slice at a time and sent
// as it is read (stats/media.ts, rest/json-list.ts), on every database.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { userWithRole } from '../support/http.ts';
import { buildServer } from '../../src/server/http.ts';
import { mediaEventSlices, SLICE_EVENTS, statsMedia } from '../../src/namespaces/history/stats/media.ts';
import { prepareEvent } from '../../src/namespaces/history/model/event.ts';
import { insertEvents } from '../../src/namespaces/history/write/insert.ts';
import { statsRange } from '../../src/namespaces/history/stats/range.ts';
import { ListedBody, materialized } from '../../src/rest/json-list.ts';
import { statsParams, storedMediaEvents } from './fixture.ts';

// 2025-01-01 00:00:00 UTC … 2025-12-31 23:59:59 UTC.
const YEAR = { date_from: 1735689600, date_to: 1767225599 };
const URL = `/en/cms-json/history/v1/stats/media?date_from=${YEAR.date_from}&date_to=${YEAR.date_to}&include_details=1`;

for (const target of dbTargets()) {
  describe(`stats/media details, sent as they are read (${target.name})`, () => {
    let t: TestApp;
    let server: FastifyInstance;
    let authorization: string;
    before(async () => {
      t = await createTestApp(target);
      server = await buildServer(t.app);
      const admin = await userWithRole(t.app, 'administrator');
      authorization = admin.authorization;
      // Uploads on few dates, several on each (the slices must go on within a date), one
      // without a context, an edit, and events outside the range or of other kinds.
      for (let i = 0; i < 23; i++) {
        await t.app.activity.log(
          {
            logger: 'SimpleMediaLogger',
            messageKey: 'attachment_created',
            date: `2025-0${1 + (i % 3)}-1${i % 2} 08:00:00`,
            context: { attachment_title: `File ${i}`, attachment_filename: `f${i}.png`, note: 'ä "quoted"' },
          },
          { user: admin.user, ip: '10.0.0.1' },
        );
      }
      await t.app.activity.log(
        { logger: 'SimpleMediaLogger', messageKey: 'attachment_updated', date: '2025-05-01 10:00:00' },
        { user: admin.user, ip: '10.0.0.1' },
      );
      await t.app.activity.log(
        { logger: 'SimpleMediaLogger', messageKey: 'attachment_created', date: '2024-12-31 23:59:59' },
        { user: admin.user, ip: '10.0.0.1' },
      );
      await t.app.activity.log(
        {
          logger: 'SimplePostLogger',
          messageKey: 'post_created',
          date: '2025-02-10 08:00:00',
          context: { post_id: 1 },
        },
        { user: admin.user, ip: '10.0.0.1' },
      );
    });
    after(async () => {
      await server.close();
      await t.close();
    });

    /** The stored media events of a key in the year, newest first, as the details show them. */
    const stored = (key: string) => storedMediaEvents(t.app, key, '2025-01-01 00:00:00', '2025-12-31 23:59:59');

    test('read in slices of any size, the events are those of one statement, in order', async () => {
      const uploads = await stored('attachment_created');
      assert.equal(uploads.length, 23);
      const r = statsRange(t.app, statsParams(YEAR));
      for (const size of [1, 2, 3, 5, 23, 24, 100]) {
        const slices: unknown[][] = [];
        for await (const slice of mediaEventSlices(t.app, r, 'attachment_created', size)) {
          assert.ok(slice.length > 0 && slice.length <= size);
          slices.push(slice.map((text) => JSON.parse(text)));
        }
        assert.deepEqual(slices.flat(), uploads, `slices of ${size}`);
        assert.equal(slices.length, Math.ceil(23 / size), `slices of ${size}`);
      }
    });

    test('the handler hands the lists over unread; read, they are the stored events', async () => {
      const body = await statsMedia(t.app, statsParams({ ...YEAR, include_details: true }));
      assert.ok(body instanceof ListedBody);
      const read = (await materialized(body.value)) as { summary: unknown; details: Record<string, unknown[]> };
      assert.deepEqual(read.details, {
        uploads: await stored('attachment_created'),
        edits: await stored('attachment_updated'),
        deletions: [],
      });
      const summary = await statsMedia(t.app, statsParams(YEAR));
      assert.ok(!(summary instanceof ListedBody));
      assert.deepEqual(read.summary, (summary as { summary: unknown }).summary);
    });

    test('over HTTP the answer is streamed, with _envelope, _fields and _pretty too, and equals the stored events', async () => {
      const get = (url: string) => server.inject({ method: 'GET', url, headers: { authorization } });
      const res = await get(URL);
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /^application\/json/);
      assert.equal(res.headers['transfer-encoding'], 'chunked', 'sent as it is read');
      assert.equal(res.headers['content-length'], undefined);
      const body = res.json() as { summary: { uploads: number }; details: Record<string, unknown[]> };
      assert.deepEqual(body.details.uploads, await stored('attachment_created'));
      assert.deepEqual(body.details.edits, await stored('attachment_updated'));
      assert.deepEqual(body.details.deletions, []);
      assert.equal(body.summary.uploads, 23);

      const enveloped = await get(`${URL}&_envelope=1`);
      assert.deepEqual((enveloped.json() as { body: unknown }).body, body);
      const pretty = await get(`${URL}&_pretty=1`);
      assert.equal(pretty.body, JSON.stringify(body, null, 4));
      const fields = await get(`${URL}&_fields=details.uploads,summary.uploads`);
      assert.deepEqual(fields.json(), { summary: { uploads: 23 }, details: { uploads: body.details.uploads } });
      for (const answer of [enveloped, pretty, fields])
        assert.equal(answer.headers['transfer-encoding'], 'chunked', 'sent as it is read too');
      const head = await server.inject({ method: 'HEAD', url: URL, headers: { authorization } });
      assert.equal(head.statusCode, 200);
      assert.equal(head.body, '');
    });

    // Last: it adds uploads the tests above do not expect.
    test('over HTTP, more uploads than a statement reads: every one, in order, across the statements', async () => {
      // All on one second: the statements go on within a date, by id.
      const more = Array.from({ length: SLICE_EVENTS + 7 }, (_, i) =>
        prepareEvent(
          t.app.loggers,
          {
            logger: 'SimpleMediaLogger',
            messageKey: 'attachment_created',
            date: '2025-06-01 12:00:00',
            context: { attachment_title: `Bulk ${i}` },
          },
          { initiator: 'other', user: null, ip: '' },
        ),
      );
      await insertEvents(t.app.db, more);
      const res = await server.inject({ method: 'GET', url: URL, headers: { authorization } });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['transfer-encoding'], 'chunked');
      const body = res.json() as { summary: { uploads: number }; details: { uploads: unknown[] } };
      const uploads = await stored('attachment_created');
      assert.equal(uploads.length, 23 + SLICE_EVENTS + 7);
      assert.deepEqual(body.details.uploads, uploads);
      assert.equal(body.summary.uploads, uploads.length);
    });
  });
}
