// Bulk writing into SQLite for the generator: its own connection to the database file with
// statements prepared once per batch size, which is several times cheaper per row than
// building and preparing each multi-row INSERT through the query builder.
import SqliteDatabase from 'better-sqlite3';
import type { PreparedEvent } from './store.ts';

const EVENT_COLUMNS = [
  'date', 'logger', 'level', 'message', 'message_key', 'occasions_id', 'initiator', 'user_id', 'remote_addr',
  'sticky', 'backfilled', 'run_head', 'run_size', 'search_text', 'meta_text',
] as const;
const EVENT_ROWS = 500;
const CONTEXT_ROWS = 2000;

export class SqliteBulkWriter {
  private readonly db: SqliteDatabase.Database;
  private readonly statements = new Map<string, SqliteDatabase.Statement>();

  constructor(file: string) {
    this.db = new SqliteDatabase(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.pragma('cache_size = -131072');
  }

  private statement(kind: 'events' | 'contexts', rows: number): SqliteDatabase.Statement {
    const key = `${kind}:${rows}`;
    let stmt = this.statements.get(key);
    if (!stmt) {
      const sqlText =
        kind === 'events'
          ? `insert into history_events (${EVENT_COLUMNS.join(', ')}) values ${Array(rows).fill(`(${EVENT_COLUMNS.map(() => '?').join(', ')})`).join(', ')} returning id`
          : `insert into history_contexts (event_id, seq, key, value) values ${Array(rows).fill('(?, ?, ?, ?)').join(', ')}`;
      stmt = this.db.prepare(sqlText);
      this.statements.set(key, stmt);
    }
    return stmt;
  }

  /** Runs `fn` in one immediate transaction of this connection. */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  /** Inserts events and their context rows (inside `transaction`); returns the ids. */
  insert(events: PreparedEvent[]): number[] {
    const ids: number[] = [];
    for (let i = 0; i < events.length; i += EVENT_ROWS) {
      const chunk = events.slice(i, i + EVENT_ROWS);
      const values: unknown[] = [];
      for (const e of chunk) for (const column of EVENT_COLUMNS) values.push((e.row as Record<string, unknown>)[column] ?? (column === 'sticky' || column === 'backfilled' ? 0 : column === 'run_head' || column === 'run_size' ? 1 : null));
      const rows = this.statement('events', chunk.length).all(...values) as { id: number }[];
      ids.push(...rows.map((r) => Number(r.id)));
    }
    const contextValues: unknown[] = [];
    events.forEach((e, n) => e.context.forEach(([key, value], seq) => contextValues.push(ids[n], seq, key, value)));
    for (let i = 0; i < contextValues.length; i += CONTEXT_ROWS * 4) {
      const chunk = contextValues.slice(i, i + CONTEXT_ROWS * 4);
      this.statement('contexts', chunk.length / 4).run(...chunk);
    }
    return ids;
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
