// Groups are counted in chunks of matching rows on SQLite (events.ts countMatching), so that a
// first total over a million rows does not hold every other request. Whatever the chunk size
// and the filter, the count must equal one made from all rows, and the event loop must run
// between chunks.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { sql, type SqlBool } from 'kysely';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { countMatching } from '../../src/namespaces/history/events.ts';

const date = (day: number, minute: number) => `2025-01-0${day} 10:0${minute}:00`;

for (const target of dbTargets()) {
  describe(`counting groups in chunks (${target.name})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(target);
    });
    after(() => t.close());

    async function freshLog(events: { day: number; minute: number; kind: number; warning: boolean }[]) {
      await t.app.db.deleteFrom('history_events').execute();
      await t.app.db.deleteFrom('history_counters').execute();
      // Arrival order is random: back-dated events and equal dates, so that (date, id) order differs from id order.
      for (const e of events) {
        await t.app.activity.log(
          { logger: 'SimpleOptionsLogger', messageKey: 'option_updated', level: e.warning ? 'warning' : 'info', date: date(e.day, e.minute), context: { option: `o${e.kind}`, option_page: 'p' } },
          { user: null, ip: '' },
        );
      }
      return t.app.db.selectFrom('history_events').select(['id', 'date', 'level', 'occasions_id']).execute();
    }

    test('groups counted in chunks equal groups made from all rows', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.record({ day: fc.integer({ min: 1, max: 5 }), minute: fc.integer({ min: 0, max: 2 }), kind: fc.integer({ min: 0, max: 2 }), warning: fc.boolean() }), { minLength: 0, maxLength: 50 }),
          fc.constantFrom(null, 'info', 'warning'),
          fc.option(fc.integer({ min: 1, max: 5 })),
          fc.integer({ min: 1, max: 7 }),
          async (events, level, notDay, chunkRows) => {
            const rows = await freshLog(events);
            // Levels keep or drop whole runs; a day cuts into them.
            const cond = sql<SqlBool>`${sql.ref('level')} like ${level ?? '%'} and ${sql.ref('date')} not like ${`2025-01-0${notDay ?? 0} %`}`;
            const matching = rows
              .filter((r) => (!level || r.level === level) && !r.date.startsWith(`2025-01-0${notDay} `))
              .sort((a, b) => (a.date === b.date ? b.id - a.id : a.date < b.date ? 1 : -1));
            const groups = matching.filter((r, i) => i === 0 || matching[i - 1].occasions_id !== r.occasions_id).length;
            assert.equal(await countMatching(t.app, cond, 'groups', chunkRows), groups, `in chunks of ${chunkRows}`);
            assert.equal(await countMatching(t.app, cond, 'groups'), groups, 'in one chunk');
            assert.equal(await countMatching(t.app, cond, 'rows'), matching.length);
          },
        ),
        { numRuns: target.name === 'postgres' ? 25 : 60 },
      );
    });

    test('the event loop runs between chunks', { skip: target.name !== 'sqlite' && 'PostgreSQL counts in one statement on its own connection' }, async () => {
      await freshLog(Array.from({ length: 200 }, (_, i) => ({ day: 1 + (i % 5), minute: i % 3, kind: i % 3, warning: false })));
      let turns = 0;
      let counting = true;
      const turn = () => {
        turns++;
        if (counting) setImmediate(turn);
      };
      setImmediate(turn);
      const n = await countMatching(t.app, sql<SqlBool>`1 = 1`, 'groups', 10);
      counting = false;
      assert.ok(n > 0);
      assert.ok(turns >= 15, `only ${turns} turns of the event loop during a count in 20 chunks`);
    });
  });
}
