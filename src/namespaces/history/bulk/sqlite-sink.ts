// Bulk writing into SQLite for the generator: its own connection to the database file with
// statements prepared once per row count, which is several times cheaper per row than
// building and preparing each multi-row INSERT through the query builder. Event ids are
// given explicitly (the ids AUTOINCREMENT would give, read inside the write transaction), so
// the contexts need no RETURNING.
import SqliteDatabase from 'better-sqlite3';
import { quoteIdentifier } from '../../../db/index.ts';
import type { PreparedEvent } from '../model/event.ts';
import type { EventSink, IndexDefinition } from './sink.ts';
import { NEWEST_ROW_SQL, type RunRow } from '../model/runs.ts';
import { CONTEXT_COLUMNS, EVENT_COLUMNS, sqliteMultiInsert } from '../write/insert.ts';
import { forEachCount, SQLITE_ADD_COUNTS, statsCounts } from '../write/stats-counts.ts';
import { allNewEventsStatements } from '../index/fts.ts';

const EVENT_ROWS = 500;

export class SqliteBulkWriter {
  private readonly db: SqliteDatabase.Database;
  private readonly statements = new Map<string, SqliteDatabase.Statement>();
  /** SQLITE_ADD_COUNTS, prepared. */
  private addCounts: SqliteDatabase.Statement[] | null = null;

  constructor(file: string, cacheMb = 128) {
    this.db = new SqliteDatabase(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.pragma(`cache_size = ${-Math.round(cacheMb * 1024)}`);
  }

  private statement(kind: 'events' | 'contexts', rows: number): SqliteDatabase.Statement {
    const key = `${kind}:${rows}`;
    let stmt = this.statements.get(key);
    if (!stmt) {
      stmt = this.db.prepare(
        kind === 'events'
          ? sqliteMultiInsert('history_events', ['id', ...EVENT_COLUMNS], rows)
          : sqliteMultiInsert('history_event_contexts', CONTEXT_COLUMNS, rows),
      );
      this.statements.set(key, stmt);
    }
    return stmt;
  }

  /** Runs `fn` in one immediate transaction of this connection. */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  /** Starts a long write transaction (for loads spanning several batches; `commit`/`rollback` end it). */
  begin(): void {
    this.db.exec('begin immediate');
  }

  commit(): void {
    this.db.exec('commit');
  }

  rollback(): void {
    if (this.db.inTransaction) this.db.exec('rollback');
  }

  /** The id the next inserted event gets (as AUTOINCREMENT would assign it); inside a transaction. */
  nextId(): number {
    const row = this.db
      .prepare(
        "select max(coalesce((select seq from sqlite_sequence where name = 'history_events'), 0), coalesce((select max(id) from history_events), 0)) + 1 as id",
      )
      .get() as { id: number };
    return Number(row.id);
  }

  /** The secondary indexes of history_events as they are defined in the database. */
  secondaryIndexes(): IndexDefinition[] {
    const rows = this.db
      .prepare(
        "select name, sql from sqlite_master where type = 'index' and tbl_name = 'history_events' and sql is not null order by name",
      )
      .all() as { name: string; sql: string }[];
    return rows.map((r) => ({ name: r.name, drop: `drop index ${quoteIdentifier(r.name)}`, sql: r.sql }));
  }

  /** The search indexes take the new events (index/fts.ts), in one statement each (inside a transaction). */
  indexNewEvents(): void {
    for (const statement of allNewEventsStatements()) this.db.exec(statement);
  }

  dropIndex(index: IndexDefinition): void {
    this.db.exec(index.drop);
  }

  createIndex(index: IndexDefinition): void {
    this.db.exec(index.sql);
  }

  /**
   * Inserts events with ids firstId, firstId + 1, … (or the given ids, for imports that keep
   * their source's) and their contexts, and counts them (inside a transaction; `or rollback`
   * spares the statement journals, see write/insert.ts).
   */
  insert(events: PreparedEvent[], firstId: number | readonly number[]): void {
    const idOf = typeof firstId === 'number' ? (n: number) => firstId + n : (n: number) => firstId[n]!;
    for (let i = 0; i < events.length; i += EVENT_ROWS) {
      const end = Math.min(events.length, i + EVENT_ROWS);
      const values: unknown[] = [];
      for (let n = i; n < end; n++) {
        const r = events[n].row;
        // The id, then EVENT_COLUMNS in order, unrolled (the generator's hottest loop).
        values.push(
          idOf(n),
          r.date,
          r.logger,
          r.level,
          r.message,
          r.message_key ?? null,
          r.occasions_id,
          r.initiator,
          r.user_id ?? null,
          r.remote_addr ?? null,
          r.sticky ?? 0,
          r.backfilled ?? 0,
          r.run_head ?? 1,
          r.run_size ?? 1,
          r.search_text,
          r.meta_text,
        );
      }
      this.statement('events', end - i).run(values);
      const contexts: unknown[] = [];
      for (let n = i; n < end; n++) contexts.push(idOf(n), events[n].context);
      this.statement('contexts', end - i).run(contexts);
    }
    this.addCounts ??= SQLITE_ADD_COUNTS.map((text) => this.db.prepare(text));
    forEachCount(statsCounts(events), (table, values) => this.addCounts![table]!.run(values));
  }

  /** `select …` helper for the few reads the generator needs on this connection. */
  get<T>(sqlText: string, ...params: unknown[]): T | undefined {
    return this.db.prepare(sqlText).get(...params) as T | undefined;
  }

  run(sqlText: string, ...params: unknown[]): void {
    this.db.prepare(sqlText).run(...params);
  }

  close(): void {
    this.db.close();
  }
}

/** The generator's sink on a SQLite file (synchronous writes on a connection of its own). */
export class SqliteSink implements EventSink {
  readonly canDefer = true;
  private readonly writer: SqliteBulkWriter;

  constructor(file: string, cacheMb?: number) {
    this.writer = new SqliteBulkWriter(file, cacheMb);
  }

  async begin(): Promise<void> {
    this.writer.begin();
  }

  async commit(): Promise<void> {
    this.writer.commit();
  }

  async rollback(): Promise<void> {
    this.writer.rollback();
  }

  async count(): Promise<number> {
    return Number(this.writer.get<{ n: number }>('select count(*) as n from history_events')!.n);
  }

  async newest(): Promise<RunRow | undefined> {
    return this.writer.get<RunRow>(NEWEST_ROW_SQL);
  }

  async demote(id: number): Promise<void> {
    this.writer.run('update history_events set run_head = 0 where id = ?', id);
  }

  async addToCounter(name: string, delta: number): Promise<void> {
    this.writer.run(
      'insert into history_counters (name, value) values (?, ?) on conflict (name) do update set value = history_counters.value + excluded.value',
      name,
      delta,
    );
  }

  async secondaryIndexes(): Promise<IndexDefinition[]> {
    return this.writer.secondaryIndexes();
  }

  async dropIndex(index: IndexDefinition): Promise<void> {
    this.writer.dropIndex(index);
  }

  async beforeCreateIndexes(): Promise<void> {}

  async indexNewEvents(): Promise<void> {
    this.writer.indexNewEvents();
  }

  async createIndex(index: IndexDefinition): Promise<void> {
    this.writer.createIndex(index);
  }

  async insert(batch: PreparedEvent[], ids?: readonly number[]): Promise<number> {
    if (ids) {
      this.writer.insert(batch, ids);
      return ids[ids.length - 1]!;
    }
    const first = this.writer.nextId();
    this.writer.insert(batch, first);
    return first + batch.length - 1;
  }

  async close(): Promise<void> {
    this.writer.close();
  }
}
