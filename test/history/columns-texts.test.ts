// The search texts of the log's columns (columns/texts.ts): the events whose text holds the
// words must be exactly those the SQL condition names, on each database's case rules, and
// lists served from them must stay exact as events are appended.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { SearchTexts, textsHolding } from '../../src/namespaces/history/columns/texts.ts';
import { columnsAt } from '../../src/namespaces/history/columns/sync.ts';
import { searchByTexts } from '../../src/namespaces/history/columns/total.ts';
import { logState } from '../../src/namespaces/history/read/caches.ts';
import { filterCondition } from '../../src/namespaces/history/read/conditions.ts';
import { userWithRole } from '../support/http.ts';
import { assertListedAsWalked, filterFromParams } from './support.ts';
import type { AuthUser } from '../../src/auth/types.ts';
import type { AppServices } from '../../src/site/services.ts';

test('search texts: a code per distinct text, kept across threads, and none once more are logged than kept', () => {
  const texts = new SearchTexts(undefined, { texts: 3, chars: 100 });
  assert.deepEqual(
    ['a', 'b', 'a', 'c', 'b'].map((t) => texts.code(t)),
    [0, 1, 0, 2, 1],
  );
  const copy = new SearchTexts(texts.parts(), { texts: 3, chars: 100 });
  assert.deepEqual(copy.values, ['a', 'b', 'c']);
  assert.equal(copy.code('c'), 2, 'a text read by another thread keeps its code');
  assert.equal(copy.code('d'), 0, 'a fourth text');
  assert.equal(copy.values, null, 'the codes say nothing any more');
  assert.equal(copy.code('a'), 0);
  const long = new SearchTexts(undefined, { texts: 10, chars: 5 });
  long.code('abc');
  long.code('de');
  assert.deepEqual(long.values, ['abc', 'de']);
  long.code('f');
  assert.equal(long.values, null, 'more characters than kept');
});

let logged = 0;
/** Logs an event (an occasion of its own) and gives it `text` as its search text; its id. */
async function logText(app: AppServices, text: string, date: string): Promise<number> {
  const option = `o${logged++}`;
  const id = await app.activity.log(
    { logger: 'SimpleOptionsLogger', messageKey: 'option_updated', date, context: { option, option_page: 'p' } },
    { user: null, ip: '' },
  );
  await app.db.updateTable('history_events').set({ search_text: text }).where('id', '=', id).execute();
  return id;
}

// Letters whose case the databases fold differently, LIKE's own characters and a line break.
const CHARS = ['a', 'A', 'b', 'ä', 'Ä', 'ß', 'İ', 'i', '%', '_', '\\', '\n', ' '];
const textArb = fc.array(fc.constantFrom(...CHARS), { minLength: 0, maxLength: 8 }).map((cs) => cs.join(''));
const wordArb = fc.array(fc.constantFrom(...CHARS), { minLength: 1, maxLength: 3 }).map((cs) => cs.join(''));

for (const target of dbTargets()) {
  describe(`search texts of the log's columns (${target.name})`, () => {
    let t: TestApp;
    let admin: AuthUser;
    before(async () => {
      t = await createTestApp(target);
      admin = (await userWithRole(t.app, 'administrator')).user;
    });
    after(() => t.close());

    /** Page `page` × `perPage` of the list over HTTP is the walked rows' (grouped but for a search); its total. */
    const listedAsWalked = (query: Record<string, string>, page: number, perPage: number) =>
      assertListedAsWalked(t.app, admin, query, filterFromParams(t.app, query), {
        grouped: !query.search,
        page,
        perPage,
      });

    const emptyLog = async () => {
      await t.app.db.deleteFrom('history_events').execute();
      await t.app.db.deleteFrom('history_counters').execute();
    };

    test('the events holding every word are those the SQL condition names, with its case rules', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(textArb, { minLength: 1, maxLength: 12 }),
          fc.array(wordArb, { minLength: 1, maxLength: 3 }),
          async (texts, words) => {
            await emptyLog();
            const ids: number[] = [];
            for (const [i, text] of texts.entries())
              ids.push(await logText(t.app, text, `2025-01-01 10:00:${String(i).padStart(2, '0')}`));
            const state = await logState(t.app);
            const view = (await columnsAt(t.app, state))!;
            const held = textsHolding(view.cols.searchTexts, words, t.app.dialect)!;
            const cond = filterCondition({
              scope: { all: true },
              search: { words, templateMatches: new Map() },
              dialect: t.app.dialect,
            })!;
            const named = await t.app.db.selectFrom('history_events').select('id').where(cond).execute();
            const expected = new Set(named.map((r) => r.id));
            for (let i = 0; i < view.length; i++)
              assert.equal(
                held.byText[view.cols.texts[i]!] === 1,
                expected.has(view.cols.ids[i]!),
                `${JSON.stringify(words)} in ${JSON.stringify(texts)}`,
              );
            assert.equal(view.length, ids.length);
          },
        ),
        { numRuns: target.name === 'postgres' ? 40 : 150 },
      );
    });

    test('search and exclude_search through the texts over HTTP, as the rows walked say, while events with new texts are appended', async () => {
      await emptyLog();
      for (let i = 0; i < 40; i++)
        await logText(
          t.app,
          `option ${i % 3 ? 'alpha' : 'beta'} ${i % 5}`,
          `2025-01-01 10:${String(i).padStart(2, '0')}:00`,
        );
      const check = async (query: Record<string, string>) => {
        // The columns are read: later lists take the texts.
        await columnsAt(t.app, await logState(t.app));
        assert.ok(
          searchByTexts(t.app, filterFromParams(t.app, query)),
          `${JSON.stringify(query)} is served by the texts`,
        );
        return listedAsWalked(query, 2, 7);
      };
      const queries: Record<string, string>[] = [
        { search: 'alpha' },
        { search: 'beta 2' },
        { exclude_search: 'alpha' },
        { search: 'gamma' },
      ];
      // Occasions of their own: a second page of rows and of groups.
      for (const q of queries) {
        const total = await check(q);
        if (q.search !== 'gamma' && q.search !== 'beta 2') assert.ok(total > 7, `${JSON.stringify(q)}: ${total}`);
      }
      // Appended: texts the columns have not seen, and one they have.
      for (let i = 0; i < 10; i++)
        await logText(
          t.app,
          i % 2 ? 'option gamma 2' : 'option beta 2',
          `2025-01-02 10:${String(i).padStart(2, '0')}:00`,
        );
      for (const q of queries) await check(q);
      assert.equal(await check({ search: 'gamma' }), 5, 'the appended events with a new text');
    });

    test('columns that keep no texts (too many distinct ones): searches take the indexes, as exact', async () => {
      await emptyLog();
      for (let i = 0; i < 30; i++)
        await logText(
          t.app,
          `option ${i % 2 ? 'alpha' : 'beta'} ${i}`,
          `2025-01-01 10:${String(i).padStart(2, '0')}:00`,
        );
      const view = (await columnsAt(t.app, await logState(t.app)))!;
      // As when the log outgrows the texts kept: the codes say nothing any more.
      view.cols.searchTexts.values = null;
      const queries: Record<string, string>[] = [
        { search: 'alpha' },
        { exclude_search: 'alpha' },
        { search: 'beta 1' },
      ];
      for (const query of queries) {
        assert.equal(searchByTexts(t.app, filterFromParams(t.app, query)), false);
        await listedAsWalked(query, 2, 4);
      }
    });
  });
}
