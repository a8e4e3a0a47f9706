// cms/v2's `/<id>` requests load their item once: the permission checks (the matched
// endpoint's, and the route's others for `Allow`) and the handler share it.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { KyselyPlugin, OperationNode } from 'kysely';
import type { AppServices } from '../../src/site/services.ts';
import { seedDemo } from '../../src/pages/seed.ts';
import { getContent, getContentBySlug } from '../../src/pages/store.ts';
import { trashContent, updateContent } from '../../src/pages/service.ts';
import type { AuthUser } from '../../src/auth/types.ts';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { callRoute, userWithRole } from '../support/http.ts';

/** The id a statement reads one row of `posts` by (what getContent sends), else null. */
function loadedId(node: OperationNode): unknown {
  const n = node as unknown as {
    kind: string;
    from?: { froms: { table?: { identifier?: { name?: string } } }[] };
    where?: {
      where: {
        kind: string;
        leftOperand?: { column?: { column?: { name?: string } } };
        rightOperand?: { value?: unknown };
      };
    };
  };
  const isLoad =
    n.kind === 'SelectQueryNode' &&
    n.from?.froms[0]?.table?.identifier?.name === 'posts' &&
    n.where?.where.kind === 'BinaryOperationNode' &&
    n.where.where.leftOperand?.column?.column?.name === 'id';
  return isLoad ? n.where!.where.rightOperand?.value : null;
}

for (const target of dbTargets()) {
  describe(`cms/v2 item requests load the item once (${target.name})`, () => {
    let t: TestApp;
    let counting: AppServices;
    let loads: unknown[] = [];
    let editor: AuthUser;
    let aboutId: number;

    before(async () => {
      t = await createTestApp(target);
      await seedDemo(t.app);
      const counter: KyselyPlugin = {
        transformQuery: (args) => {
          const id = loadedId(args.node);
          if (id !== null) loads.push(id);
          return args.node;
        },
        transformResult: async (args) => args.result,
      };
      counting = Object.create(t.app, { db: { value: t.app.db.withPlugin(counter) } }) as AppServices;
      editor = (await userWithRole(t.app, 'editor')).user;
      aboutId = (await getContentBySlug(t.app, 'en', 'about'))!.id;
    });
    after(() => t.close());

    const counted = async (method: string, path: string, body?: object) => {
      loads = [];
      const res = await callRoute(counting, method, `/cms/v2${path}`, { user: editor, ...(body ? { body } : {}) });
      return { status: res.status, allow: res.headers.allow, loads };
    };

    test('GET of one item, in either context, loads it once; Allow still comes from every endpoint', async () => {
      const all = 'GET, POST, PUT, PATCH, DELETE';
      for (const query of ['', '?context=edit']) {
        const read = await counted('GET', `/pages/${aboutId}${query}`);
        assert.deepEqual([read.status, read.allow], [200, all]);
        assert.equal(read.loads.filter((id) => id === aboutId).length, 1, `GET ${query}: ${read.loads.join(',')}`);
      }
      const missing = await counted('GET', '/pages/999999');
      assert.deepEqual([missing.status, missing.loads], [404, [999999]]);
    });

    test('an update and a trashing load the item once, besides what the store reads itself', async () => {
      const id = (await callRoute(t.app, 'POST', '/cms/v2/posts', { user: editor, body: { title: 'Load once' } })).body
        .id as number;
      const origin = { user: editor, ip: '127.0.0.1' };
      loads = [];
      await updateContent(counting, id, { menuOrder: 2 }, origin);
      const storeUpdate = loads.length;
      const updated = await counted('POST', `/posts/${id}`, { menu_order: 3 });
      assert.equal(updated.status, 200);
      assert.equal(updated.loads.filter((x) => x === id).length, storeUpdate + 1, updated.loads.join(','));

      const other = (
        await callRoute(t.app, 'POST', '/cms/v2/posts', { user: editor, body: { title: 'Load once, too' } })
      ).body.id as number;
      loads = [];
      await trashContent(counting, (await getContent(t.app, other))!, origin);
      const storeTrash = loads.length;
      const trashed = await counted('DELETE', `/posts/${id}`);
      assert.equal(trashed.status, 200);
      assert.equal(trashed.loads.filter((x) => x === id).length, storeTrash + 1, trashed.loads.join(','));
    });
  });
}
