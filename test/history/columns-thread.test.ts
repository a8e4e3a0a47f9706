// The log's columns read by a thread of their own (columns/build-thread.ts, build-worker.ts):
// the same columns as the serving thread makes of the same rows, on SQLite and PostgreSQL.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { generateEvents } from '../../src/namespaces/history/bulk/generate.ts';
import { readInThread, threadSource, type BuildOrder } from '../../src/namespaces/history/columns/build-thread.ts';
import { ColumnsUnfit, LogColumns, ROW_COLUMNS } from '../../src/namespaces/history/columns/store.ts';
import { newestEventId } from '../../src/namespaces/history/model/counters.ts';
import type { AppServices } from '../../src/site/services.ts';

/** Logs an event at `date`; its id. */
const logAt = (app: AppServices, date: string) =>
  app.activity.log(
    { logger: 'SimpleOptionsLogger', messageKey: 'option_updated', date, context: { option: 'o', option_page: 'p' } },
    { user: null, ip: '' },
  );

for (const target of dbTargets()) {
  describe(`the log's columns read by a thread of their own (${target.name})`, () => {
    let t: TestApp;
    let order: BuildOrder;
    before(async () => {
      t = await createTestApp(target);
      await generateEvents(t.app, { count: 3_000, days: 30, seed: 11 });
      // Values the thread's reading must carry as they are: COPY's separators and escapes,
      // multi-byte characters, an address other than IPv4, no key, no user.
      const odd = [
        {
          logger: 'Lögger\tmit Tab',
          key: 'key\\with\nbreak',
          addr: '2001:db8:85a3::',
          user: null,
          text: 'tab\there\nbreak \\N ä',
        },
        { logger: 'SimpleUserLogger', key: null, addr: null, user: 7, text: '\\' },
        { logger: 'SimplePostLogger', key: '\\N', addr: '10.0.0.x', user: 2_000_000_000, text: 'Groß\r\n' },
      ];
      for (const [i, o] of odd.entries()) {
        const id = await logAt(t.app, `2026-01-0${i + 1} 12:00:00`);
        await t.app.db
          .updateTable('history_events')
          .set({
            logger: o.logger,
            message_key: o.key,
            remote_addr: o.addr,
            user_id: o.user,
            occasions_id: `occ\t${i}`,
            search_text: o.text,
          })
          .where('id', '=', id)
          .execute();
      }
      const maxId = await newestEventId(t.app.db);
      order = { source: threadSource(t.app.dbHandle)!, maxId, total: 3_003, maxRows: 1_000_000 };
    });
    after(() => t.close());

    /** The columns the serving thread makes of the rows up to `maxId`, read in the log's order. */
    const columnsHere = async (maxId: number) => {
      const rows = await t.app.db
        .selectFrom('history_events')
        .select(ROW_COLUMNS)
        .where('id', '<=', maxId)
        .orderBy('date')
        .orderBy('id')
        .execute();
      const cols = new LogColumns();
      cols.append(rows);
      return cols;
    };

    const assertSameColumns = (actual: LogColumns, expected: LogColumns) => {
      assert.equal(actual.length, expected.length);
      for (const name of [
        'ids',
        'dates',
        'occasions',
        'levels',
        'keys',
        'initiators',
        'users',
        'addrs',
        'texts',
      ] as const)
        assert.deepEqual(actual[name].subarray(0, actual.length), expected[name].subarray(0, expected.length), name);
      assert.deepEqual(actual.searchTexts.values, expected.searchTexts.values, 'searchTexts');
      for (const name of ['occasionCodes', 'levelCodes', 'initiatorCodes', 'addrCodes'] as const)
        assert.deepEqual(actual[name].values, expected[name].values, name);
      assert.deepEqual(actual.keyParts, expected.keyParts);
    };

    test('the same columns as the rows make here, odd values included', async () => {
      const read = await readInThread(order, () => {}).columns;
      assertSameColumns(read, await columnsHere(order.maxId));
      assert.ok(read.keyParts.some((p) => p.logger === 'Lögger\tmit Tab' && p.key === 'key\\with\nbreak'));
      assert.ok(read.keyParts.some((p) => p.logger === 'SimplePostLogger' && p.key === '\\N'));
      assert.ok(read.occasionCodes.values.includes('occ\t0'));
      for (const text of ['tab\there\nbreak \\N ä', '\\', 'Groß\r\n'])
        assert.ok(read.searchTexts.values?.includes(text));
    });

    test('only the rows up to the id it is given', async () => {
      const maxId = order.maxId - 1_000;
      assertSameColumns(await readInThread({ ...order, maxId }, () => {}).columns, await columnsHere(maxId));
    });

    test('columns read there take appended rows as if read here (their values keep their codes)', async () => {
      const read = await readInThread(order, () => {}).columns;
      const here = await columnsHere(order.maxId);
      const pairs = read.keyParts.length;
      const [row] = await t.app.db.selectFrom('history_events').select(ROW_COLUMNS).limit(1).execute();
      const seen = { logger: 'Lögger\tmit Tab', message_key: 'key\\with\nbreak', occasions_id: 'occ\t0' };
      const appended = [
        { ...row!, ...seen, id: order.maxId + 1, date: '2030-01-01 00:00:00', remote_addr: '2001:db8:85a3::' },
        { ...row!, id: order.maxId + 2, date: '2030-01-02 00:00:00', logger: 'New', occasions_id: 'new' },
      ];
      read.append(appended);
      here.append(appended);
      assertSameColumns(read, here);
      assert.equal(read.keyParts.length, pairs + 1, 'only the new pair has a new code');
    });

    test('more rows than it may hold: unfit, not failed (and no row more appended later)', async () => {
      await assert.rejects(readInThread({ ...order, maxRows: 1_000 }, () => {}).columns, ColumnsUnfit);
      const read = await readInThread({ ...order, maxRows: order.total }, () => {}).columns;
      const [row] = await t.app.db.selectFrom('history_events').select(ROW_COLUMNS).limit(1).execute();
      assert.throws(() => read.append([{ ...row!, id: order.maxId + 1, date: '2030-01-01 00:00:00' }]), ColumnsUnfit);
      assert.equal(read.length, order.total);
    });

    test('a date the columns cannot compare: unfit', async () => {
      const id = await logAt(t.app, '2026-01-05 12:00:00');
      await t.app.db.updateTable('history_events').set({ date: '2026-01-05T12:00:00' }).where('id', '=', id).execute();
      try {
        await assert.rejects(readInThread({ ...order, maxId: id }, () => {}).columns, ColumnsUnfit);
      } finally {
        await t.app.db.deleteFrom('history_events').where('id', '=', id).execute();
      }
    });

    test('a database it cannot read: failed, with the reason', async () => {
      const source: BuildOrder['source'] =
        'sqliteFile' in order.source
          ? { sqliteFile: `${order.source.sqliteFile}.missing` }
          : { pg: { ...order.source.pg, options: '-c search_path=no_such_schema' } };
      const failed = await readInThread({ ...order, source }, () => {}).columns.then(
        () => null,
        (err: unknown) => err,
      );
      assert.ok(failed instanceof Error && !(failed instanceof ColumnsUnfit), String(failed));
      assert.match(failed.message, /does not exist|unable to open|no such|SQLITE_CANTOPEN/i);
    });

    test('stopped: its answer never comes', async () => {
      const thread = readInThread(order, () => {});
      await thread.stop();
      await assert.rejects(thread.columns, /ended/);
    });
  });
}
