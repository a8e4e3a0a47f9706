// Migration 0011 moves every event's context rows into one row of history_event_contexts: nothing of an
// existing log may be lost on the way, on either database.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator, sql, type Migration } from 'kysely';
import { createPgSchema, dropPgSchema, openDatabase } from '../../src/db/index.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { MIGRATIONS } from '../../src/modules.ts';
import { dbTargets, PG_URL } from '../support/db.ts';
import { contextMap } from '../../src/namespaces/history/model/context.ts';

const BEFORE = MIGRATIONS.findIndex((m) => m.name === '0011_history_event_contexts');

for (const target of dbTargets()) {
  describe(`migration 0011: one context row per event (${target.name})`, () => {
    test('each key keeps its last value, keys stay in first-written order, an event without rows gets {}', async () => {
      const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'content-site-0011-'));
      const schema = `t_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
      if (target.name === 'postgres') await createPgSchema(PG_URL!, schema);
      const handle = openDatabase(target.name === 'postgres' ? PG_URL! : `sqlite:${path.join(tmp, 'site.db')}`, {
        pgSchema: schema,
        poolSize: 1,
      });
      const db = handle.db;
      try {
        // The database as the previous version left it.
        const migrator = new Migrator({
          db,
          ...(target.name === 'postgres' ? { migrationTableSchema: schema } : {}),
          provider: {
            async getMigrations() {
              const out: Record<string, Migration> = {};
              for (const m of MIGRATIONS.slice(0, BEFORE)) out[m.name] = { up: (tx) => m.up(tx, handle.dialect) };
              return out;
            },
          },
        });
        const { error } = await migrator.migrateToLatest();
        assert.ifError(error);
        const event = (
          id: number,
        ) => sql`insert into history_events (id, date, logger, level, message, message_key, occasions_id, initiator, search_text, meta_text)
          values (${id}, ${`2026-01-0${id} 10:00:00`}, 'SimpleLogger', 'info', 'm', null, ${`o${id}`}, 'other', 'm', '')`;
        const context = (id: number, seq: number, key: string, value: string | null) =>
          sql`insert into history_contexts (event_id, seq, key, value) values (${id}, ${seq}, ${key}, ${value})`;
        for (const statement of [
          event(1),
          event(2),
          event(3),
          context(1, 0, 'post_title', 'Quotes " and \\ and\nnewline, ümlaut 😀'),
          context(1, 1, '_user_id', '7'),
          context(1, 2, 'post_title', 'Second title wins'),
          context(1, 3, 'empty', null),
          context(1, 4, '__proto__', 'plain key'),
          context(1, 5, 'json', '{"a":1}'),
          context(2, 0, '_sticky', '{}'),
        ]) {
          await statement.execute(db);
        }

        assert.deepEqual(
          await migrateToLatest(db, handle.dialect, MIGRATIONS),
          MIGRATIONS.slice(BEFORE).map((m) => m.name),
        );

        const rows = await db
          .selectFrom('history_event_contexts')
          .select(['event_id', 'context'])
          .orderBy('event_id')
          .execute();
        assert.deepEqual(
          rows.map((r) => r.event_id),
          [1, 2, 3],
          'a row for every event',
        );
        const contexts = rows.map((r) => [...contextMap(r.context)]);
        assert.deepEqual(contexts, [
          [
            ['post_title', 'Second title wins'],
            ['_user_id', '7'],
            ['empty', null],
            ['__proto__', 'plain key'],
            ['json', '{"a":1}'],
          ],
          [['_sticky', '{}']],
          [],
        ]);
        const tables =
          handle.dialect === 'postgres'
            ? await sql<{
                name: string;
              }>`select table_name as name from information_schema.tables where table_schema = ${schema}`.execute(db)
            : await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db);
        assert.ok(!tables.rows.some((r) => r.name === 'history_contexts'), 'history_contexts is dropped');
      } finally {
        await handle.destroy();
        if (target.name === 'postgres') await dropPgSchema(PG_URL!, schema);
        fs.rmSync(tmp, { recursive: true, force: true });
      }
    });
  });
}
