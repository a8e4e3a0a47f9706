// GET /events pages and totals come from caches that are brought up to date by counting only
// appended rows (events.ts cachedTotal) and from walking the matching rows newest first
// (walkGroups). Whatever happens to the log between two requests — appends that match or not,
// back-dated events, stick/unstick — every answer must equal one computed from all rows.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { sql, type SqlBool } from 'kysely';
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { fixtureUser, listParams } from './fixture.ts';
import { referenceOverview } from './occasions-model.ts';
import { listEvents } from '../../src/namespaces/history/read/list.ts';
import { cachedTotal, jsonMaps, keptTotal, logState } from '../../src/namespaces/history/read/caches.ts';
import { filterCondition } from '../../src/namespaces/history/read/conditions.ts';
import { countMatching } from '../../src/namespaces/history/read/paging.ts';
import { filterFromParams } from './support.ts';
import type { AuthUser } from '../../src/auth/types.ts';
import { stickEvent, unstickEvent } from '../../src/namespaces/history/write/sticky.ts';

interface Row {
  id: number;
  date: string;
  occasions_id: string;
  logger: string;
  level: string;
  search_text: string;
}

const FILTERS: {
  name: string;
  params: Record<string, unknown>;
  match: (r: Row) => boolean;
  grouped: boolean;
  cut?: boolean;
}[] = [
  { name: 'max_id_first_page above every id', params: { max_id_first_page: 1e9 }, match: () => true, grouped: true },
  {
    name: 'max_id_first_page above every id + loglevels',
    params: { max_id_first_page: 1e9, loglevels: ['info'] },
    match: (r) => r.level === 'info',
    grouped: true,
  },
  { name: 'no filter', params: {}, match: () => true, grouped: true },
  { name: 'loglevels', params: { loglevels: ['warning'] }, match: (r) => r.level === 'warning', grouped: true },
  {
    name: 'loggers',
    params: { loggers: ['SimpleOptionsLogger'] },
    match: (r) => r.logger === 'SimpleOptionsLogger',
    grouped: true,
  },
  { name: 'search (flat)', params: { search: 'o1' }, match: (r) => r.search_text.includes('o1'), grouped: false },
  // The option's name is the only value holding it (PostgreSQL: gathered once per state of the log, metadata-events.ts).
  {
    name: 'metadata_search (flat)',
    params: { metadata_search: 'o1' },
    match: (r) => r.search_text.includes('o1'),
    grouped: false,
  },
  {
    name: 'ungrouped loglevels',
    params: { loglevels: ['info'], ungrouped: true },
    match: (r) => r.level === 'info',
    grouped: false,
  },
  { name: 'max_id_first_page', params: {}, match: () => true, grouped: true, cut: true },
  {
    name: 'max_id_first_page + loglevels',
    params: { loglevels: ['info'] },
    match: (r) => r.level === 'info',
    grouped: true,
    cut: true,
  },
];

/** The expected page: [shown id, group size] per item, and the total (the original's rule, occasions-model.ts). */
function expected(
  rows: Row[],
  match: (r: Row) => boolean,
  grouped: boolean,
  page: number,
  perPage: number,
): { items: [number, number][]; total: number } {
  const matching = rows.filter(match);
  // Ungrouped: every row a group of its own.
  return referenceOverview(
    grouped ? matching : matching.map((r) => ({ ...r, occasions_id: String(r.id) })),
    page,
    perPage,
  );
}

type Op =
  | { kind: 'append'; option: number; warning: boolean }
  | { kind: 'backdate'; option: number }
  | { kind: 'stick' }
  | { kind: 'unstick' };

for (const target of dbTargets()) {
  describe(`events list caches (${target.name})`, () => {
    let t: TestApp;
    let admin: AuthUser;
    let minute = 0;
    before(async () => {
      t = await createTestApp(target);
      admin = await fixtureUser(t.app, 'cacheadmin', 'administrator');
    });
    after(() => t.close());

    const log = (option: number, warning: boolean, date: string) =>
      t.app.activity.log(
        warning
          ? {
              logger: 'CustomEntryLogger',
              messageKey: 'custom_entry_added',
              level: 'warning',
              date,
              context: { message: `o${option}` },
            }
          : {
              logger: 'SimpleOptionsLogger',
              messageKey: 'option_updated',
              level: 'info',
              date,
              context: { option: `o${option}`, option_page: 'p' },
            },
        { user: null, ip: '' },
      );
    const nextDate = () => {
      minute++;
      return `2025-03-${String(1 + Math.floor(minute / 1440)).padStart(2, '0')} ${String(Math.floor((minute % 1440) / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}:00`;
    };

    async function checkAll(maxIdCut: number) {
      const rows = (await t.app.db
        .selectFrom('history_events')
        .select(['id', 'date', 'occasions_id', 'logger', 'level', 'search_text'])
        .execute()) as Row[];
      for (const f of FILTERS) {
        for (const [page, perPage] of [
          [1, 3],
          [2, 3],
          [1, 50],
        ]) {
          const params = { ...f.params, page, per_page: perPage, ...(f.cut ? { max_id_first_page: maxIdCut } : {}) };
          const match = f.cut ? (r: Row) => r.id <= maxIdCut && f.match(r) : f.match;
          const want = expected(rows, match, f.grouped, page, perPage);
          const got = await listEvents(t.app, listParams(params), { user: admin, lang: 'en' });
          assert.deepEqual(
            got.items.map((i) => [Number(i.id), i.subsequent_occasions_count]),
            want.items,
            `${f.name} page ${page}/${perPage}`,
          );
          assert.equal(got.headers['X-WP-Total'], String(want.total), `${f.name} total`);
        }
      }
    }

    test('identical requests that miss together share one computation', async () => {
      for (let i = 0; i < 20; i++) await log(i % 3, i % 4 === 0, nextDate());
      const db = t.app.readDb as unknown as { selectFrom: (...args: unknown[]) => unknown };
      const original = db.selectFrom;
      let queries = 0;
      db.selectFrom = function (this: unknown, ...args: unknown[]) {
        queries++;
        return original.apply(this, args);
      };
      const viewer = { user: admin, lang: 'en' as const };
      const run = async (n: number, loggers: string[]) => {
        queries = 0;
        const answers = await Promise.all(
          Array.from({ length: n }, () => listEvents(t.app, listParams({ loggers, per_page: 5 }), viewer)),
        );
        for (const a of answers) assert.deepEqual(a, answers[0]);
        return queries;
      };
      try {
        const miss = await run(1, ['SimpleOptionsLogger']);
        const hit = await run(1, ['SimpleOptionsLogger']);
        assert.ok(hit < miss, `a hit (${hit} queries) is cheaper than a miss (${miss})`);
        const together = await run(8, ['CustomEntryLogger']);
        assert.ok(
          together <= miss + 7 * hit + 2,
          `8 concurrent misses took ${together} queries (one miss ${miss}, one hit ${hit})`,
        );
      } finally {
        db.selectFrom = original;
      }
    });

    // Holding a query's result holds SQLite's only connection (and the log's writes with it): on
    // PostgreSQL only, where the logic under test is the same.
    const onPostgres = { skip: target.name !== 'postgres' && 'holds a query on its connection' };
    test(
      'a request arriving while the same filter is counted afresh waits for that count and adds its appends',
      onPostgres,
      async () => {
        for (let i = 0; i < 30; i++) await log(i % 3, i % 4 === 0, nextDate());
        // Holds back the result of every fresh count of groups (the window query).
        const db = t.app.readDb;
        const held: (() => void)[] = [];
        const counts = new Set<unknown>();
        const gate: KyselyPlugin = {
          transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
            const { sql } = db.getExecutor().compileQuery(node, queryId);
            if (sql.includes(' lag(')) counts.add(queryId);
            return node;
          },
          async transformResult({ result, queryId }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
            if (counts.has(queryId)) await new Promise<void>((resolve) => held.push(resolve));
            return result;
          },
        };
        const until = async (condition: () => boolean, ms: number) => {
          for (const start = Date.now(); !condition() && Date.now() - start < ms; )
            await new Promise((r) => setTimeout(r, 2));
        };
        const viewer = { user: admin, lang: 'en' as const };
        // A context value: a filter the log's columns do not count, so its total is counted afresh.
        const params = {
          loglevels: ['info'],
          context_filters: { option_page: 'p' },
          exclude_search: 'zz-no-such-word',
          per_page: 5,
        };
        t.app.readDb = db.withPlugin(gate);
        try {
          const first = listEvents(t.app, listParams(params), viewer);
          await until(() => held.length === 1, 5000);
          assert.equal(held.length, 1, 'the first request counts afresh');
          await log(0, false, nextDate()); // the log grows: the next request's page is computed anew
          const second = listEvents(t.app, listParams(params), viewer);
          await until(() => held.length > 1, 300);
          assert.equal(held.length, 1, 'the second request did not start a count of its own');
          held.splice(0).forEach((release) => release());
          const [a, b] = await Promise.all([first, second]);
          assert.equal(
            Number(b.headers['X-WP-Total']),
            Number(a.headers['X-WP-Total']) + 1,
            'the appended info event is a group of its own',
          );
        } finally {
          t.app.readDb = db;
          held.splice(0).forEach((release) => release());
        }
        const fresh = await listEvents(t.app, listParams({ ...params, exclude_search: 'zz-other-word' }), viewer);
        const again = await listEvents(t.app, listParams(params), viewer);
        assert.equal(
          again.headers['X-WP-Total'],
          fresh.headers['X-WP-Total'],
          'the shared total equals one counted afresh',
        );
      },
    );

    test("a grouped total a page of the log's columns counted is kept, and the rows' count brings it up to date after appends", async () => {
      for (let i = 0; i < 12; i++) await log(i % 3, false, nextDate());
      const params = { loglevels: ['info'] };
      const filter = filterFromParams(t.app, params);
      const key = JSON.stringify(filter, jsonMaps);
      const cond = filterCondition(filter)!;
      const before = await logState(t.app);
      const listed = await listEvents(t.app, listParams({ ...params, per_page: 2 }), { user: admin, lang: 'en' });
      assert.equal(keptTotal(t.app, before, key, 'groups'), Number(listed.headers['X-WP-Total']), 'kept');
      // One more event of the newest info event's option: it goes on that group.
      const newest = await t.app.db
        .selectFrom('history_event_contexts')
        .select('context')
        .where('event_id', '=', Number(listed.items[0]!.id))
        .executeTakeFirstOrThrow();
      await log(Number(JSON.parse(newest.context).option.slice(1)), false, nextDate());
      const after = await logState(t.app);
      const upTo = (state: typeof after) => sql<SqlBool>`${cond} and id <= ${state.maxId}`;
      assert.equal(
        await cachedTotal(t.app, after, key, upTo(after), 'groups'),
        await countMatching(t.app, upTo(after), 'groups'),
      );
      assert.equal(await countMatching(t.app, upTo(after), 'groups'), Number(listed.headers['X-WP-Total']));
    });

    test('answers after appends, back-dated events and stick/unstick equal a fresh computation', async () => {
      for (let i = 0; i < 12; i++) await log(i % 2, i % 5 === 0, nextDate());
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.oneof(
              fc.record({
                kind: fc.constant('append' as const),
                option: fc.integer({ min: 0, max: 2 }),
                warning: fc.boolean(),
              }),
              fc.record({ kind: fc.constant('backdate' as const), option: fc.integer({ min: 0, max: 2 }) }),
              fc.record({ kind: fc.constant('stick' as const) }),
              fc.record({ kind: fc.constant('unstick' as const) }),
            ),
            { minLength: 1, maxLength: 6 },
          ),
          async (ops: Op[]) => {
            const before = (
              await t.app.db
                .selectFrom('history_events')
                .select((eb) => eb.fn.max('id').as('m'))
                .executeTakeFirstOrThrow()
            ).m;
            await checkAll(Number(before) - 2); // fills the caches
            for (const op of ops) {
              if (op.kind === 'append') await log(op.option, op.warning, nextDate());
              else if (op.kind === 'backdate') await log(op.option, false, '2025-02-01 00:00:00');
              else {
                const row = await t.app.db
                  .selectFrom('history_events')
                  .select(['id', 'sticky'])
                  .orderBy('id', 'desc')
                  .executeTakeFirstOrThrow();
                if (op.kind === 'stick') await stickEvent(t.app, row.id, { user: admin, lang: 'en' });
                else if (row.sticky) await unstickEvent(t.app, row.id, { user: admin, lang: 'en' });
              }
              await checkAll(Number(before) - 2);
            }
          },
        ),
        { numRuns: target.name === 'postgres' ? 8 : 15, seed: 4242 },
      );
    });
  });
}
