// type=occasions: a group's hidden members, as many as asked (the reference sets no bound), read a
// slice at a time and sent as they are read (read/list.ts occasionEvents), on every database.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { userWithRole } from '../support/http.ts';
import { buildServer } from '../../src/server/http.ts';
import { listEvents, occasionEvents } from '../../src/namespaces/history/read/list.ts';
import type { AuthUser } from '../../src/auth/types.ts';
import { listParams } from './fixture.ts';

for (const target of dbTargets()) {
  describe(`occasions, read in slices (${target.name})`, () => {
    let t: TestApp;
    let server: FastifyInstance;
    let admin: { user: AuthUser; authorization: string };
    let group: { occasionsID: string; head: number; members: number[] };
    before(async () => {
      t = await createTestApp(target);
      server = await buildServer(t.app);
      admin = await userWithRole(t.app, 'administrator');
      // Eleven repeats of one failed login, several on the same second, and one other event.
      const ids: number[] = [];
      for (let i = 0; i < 11; i++) {
        ids.push(
          await t.app.activity.log(
            {
              logger: 'SimpleUserLogger',
              messageKey: 'user_login_failed',
              level: 'warning',
              date: `2025-04-0${1 + Math.floor(i / 3)} 10:00:00`,
              context: { login: 'mallory' },
            },
            { user: null, ip: '10.0.0.9', rest: true, initiator: 'web_user' },
          ),
        );
      }
      await t.app.activity.log(
        { logger: 'SimpleUserLogger', messageKey: 'user_logged_in', date: '2025-04-02 10:00:00' },
        { user: admin.user, ip: '10.0.0.1', rest: true },
      );
      const rows = await t.app.db
        .selectFrom('history_events')
        .select(['id', 'occasions_id'])
        .where('id', 'in', ids)
        .orderBy('date', 'desc')
        .orderBy('id', 'desc')
        .execute();
      assert.equal(new Set(rows.map((r) => r.occasions_id)).size, 1, 'one group');
      group = { occasionsID: rows[0]!.occasions_id, head: rows[0]!.id, members: rows.slice(1).map((r) => r.id) };
    });
    after(async () => {
      await server.close();
      await t.close();
    });

    const params = (count: number, max?: number) =>
      listParams({
        type: 'occasions',
        occasionsID: group.occasionsID,
        logRowID: group.head,
        occasionsCount: count,
        ...(max === undefined ? {} : { occasionsCountMaxReturn: max }),
      });

    test('slices of any size give the members newest first, as many as asked', async () => {
      const viewer = { user: admin.user, lang: 'en' as const };
      for (const [count, max] of [[10], [100], [4], [10, 3], [0], [-1]] as [number, number?][]) {
        const wanted = group.members.slice(0, Math.max(0, Math.min(count, max ?? count)));
        for (const size of [1, 2, 3, 4, 500]) {
          const items = (await occasionEvents(t.app, params(count, max), viewer, size).toArray()) as { id: number }[];
          assert.deepEqual(
            items.map((i) => Number(i.id)),
            wanted,
            `count ${count}, max ${max}, slices of ${size}`,
          );
        }
      }
      const listed = await listEvents(t.app, params(100), viewer);
      assert.deepEqual(
        listed.items.map((i) => Number(i.id)),
        group.members,
      );
    });

    test('over HTTP the members are streamed, and equal the answers of _envelope, _fields, _pretty and occasionsCountMaxReturn', async () => {
      const url = `/en/cms-json/history/v1/events?type=occasions&occasionsID=${group.occasionsID}&logRowID=${group.head}&occasionsCount=100`;
      const res = await server.inject({ method: 'GET', url, headers: { authorization: admin.authorization } });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['transfer-encoding'], 'chunked');
      const items = res.json() as { id: number; message: string }[];
      assert.deepEqual(
        items.map((i) => Number(i.id)),
        group.members,
      );
      assert.ok(items.every((i) => typeof i.message === 'string' && i.message.length > 0));
      const enveloped = await server.inject({
        method: 'GET',
        url: `${url}&_envelope=1`,
        headers: { authorization: admin.authorization },
      });
      assert.deepEqual((enveloped.json() as { body: unknown }).body, items);
      const fields = await server.inject({
        method: 'GET',
        url: `${url}&_fields=id,message`,
        headers: { authorization: admin.authorization },
      });
      assert.equal(fields.headers['transfer-encoding'], 'chunked');
      assert.deepEqual(
        fields.json(),
        items.map(({ id, message }) => ({ id, message })),
      );
      const capped = await server.inject({
        method: 'GET',
        url: `${url}&occasionsCountMaxReturn=3&_pretty=1`,
        headers: { authorization: admin.authorization },
      });
      assert.equal(capped.headers['transfer-encoding'], 'chunked');
      assert.equal(capped.body, JSON.stringify(items.slice(0, 3), null, 4));
      const none = await server.inject({
        method: 'GET',
        url: `/en/cms-json/history/v1/events?type=occasions&logRowID=${group.head}&occasionsCount=5`,
        headers: { authorization: admin.authorization },
      });
      assert.equal(none.statusCode, 200);
      assert.deepEqual(none.json(), []);
    });
  });
}
