// Bulk writing for the generator through Kysely: the generic sink (any dialect, multi-row
// INSERTs of the query builder) and the PostgreSQL one, which sends the rows with COPY … FROM
// STDIN (no per-statement planning, multi-row heap inserts on the server). Event ids are
// taken from the sequence beforehand, so the contexts need no RETURNING order.
import pg from 'pg';
import { Kysely, PostgresDialect, sql, type ControlledTransaction } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { quoteIdentifier, type DialectName } from '../../../db/index.ts';
import type { EventSink, IndexDefinition } from './sink.ts';
import type { PreparedEvent } from '../model/event.ts';
import { lockRuns } from '../write/runs.ts';
import { newestRow, type RunRow } from '../model/runs.ts';
import { CONTEXT_COLUMNS, EVENT_COLUMNS, insertEvents } from '../write/insert.ts';
import { addStatsCounts, statsCounts } from '../write/stats-counts.ts';
import { addToCounter } from '../model/counters.ts';
import { allNewEventsStatements } from '../index/fts.ts';

/** Query-builder sink: one transaction at a time on a connection of the pool. */
export class KyselySink implements EventSink {
  readonly canDefer: boolean = false;
  protected tx: ControlledTransaction<Database> | null = null;
  protected readonly db: Kysely<Database>;
  protected readonly dialect: DialectName;

  constructor(db: Kysely<Database>, dialect: DialectName) {
    this.db = db;
    this.dialect = dialect;
  }

  protected get trx(): ControlledTransaction<Database> {
    if (!this.tx) throw new Error('no transaction');
    return this.tx;
  }

  async begin(): Promise<void> {
    this.tx = await this.db.startTransaction().execute();
    await lockRuns(this.tx, this.dialect);
  }

  async commit(): Promise<void> {
    const tx = this.trx;
    this.tx = null;
    await tx.commit().execute();
  }

  async rollback(): Promise<void> {
    const tx = this.tx;
    this.tx = null;
    if (tx && !tx.isCommitted && !tx.isRolledBack) await tx.rollback().execute();
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('history_events')
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async newest(): Promise<RunRow | undefined> {
    return newestRow(this.trx);
  }

  async demote(id: number): Promise<void> {
    await this.trx.updateTable('history_events').set({ run_head: 0 }).where('id', '=', id).execute();
  }

  async addToCounter(name: string, delta: number): Promise<void> {
    await addToCounter(this.trx, name, delta);
  }

  async secondaryIndexes(): Promise<IndexDefinition[]> {
    return [];
  }

  async dropIndex(_index: IndexDefinition): Promise<void> {
    throw new Error('indexes cannot be deferred here');
  }

  async beforeCreateIndexes(): Promise<void> {}

  async createIndex(_index: IndexDefinition): Promise<void> {
    throw new Error('indexes cannot be deferred here');
  }

  async indexNewEvents(): Promise<void> {
    if (this.dialect !== 'sqlite') return;
    for (const statement of allNewEventsStatements()) await sql.raw(statement).execute(this.trx);
  }

  async insert(batch: PreparedEvent[], ids?: readonly number[]): Promise<number> {
    if (ids) throw new Error('the query-builder sink assigns ids itself');
    const inserted = await insertEvents(this.trx, batch);
    return inserted[inserted.length - 1];
  }

  async close(): Promise<void> {
    await this.rollback();
  }
}

/**
 * COPY … FROM STDIN through node-postgres' extension point for custom queries (what
 * pg-copy-streams does): the rows go as text in the COPY format, the fastest way into a table.
 */
class CopyIn {
  readonly text: string;
  private readonly data: Buffer;
  readonly done: Promise<void>;
  private resolve!: () => void;
  private reject!: (err: Error) => void;
  private failed = false;

  constructor(text: string, data: string) {
    this.text = text;
    this.data = Buffer.from(data, 'utf8');
    this.done = new Promise<void>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  submit(connection: CopyConnection): void {
    connection.query(this.text);
  }

  handleCopyInResponse(connection: CopyConnection): void {
    const CHUNK = 1 << 20;
    for (let i = 0; i < this.data.length; i += CHUNK) connection.sendCopyFromChunk(this.data.subarray(i, i + CHUNK));
    connection.endCopyFrom();
  }

  handleError(err: Error): void {
    this.failed = true;
    this.reject(err);
  }

  handleReadyForQuery(): void {
    if (!this.failed) this.resolve();
  }

  handleCommandComplete(): void {}
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyData(): void {}
}

interface CopyConnection {
  query(text: string): void;
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
}

/** A value in COPY text format (`\N` for null; backslash, tab, newline and CR escaped). */
function copyText(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'number') return String(value);
  return COPY_SPECIAL.test(value) ? value.replace(COPY_ESCAPE, (ch) => COPY_ESCAPES[ch]) : value;
}
const COPY_SPECIAL = /[\\\t\n\r]/;
const COPY_ESCAPE = /[\\\t\n\r]/g;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/**
 * PostgreSQL: a client of its own (Kysely runs on it for the small statements) and COPY for
 * the rows; ids come from the table's sequence beforehand.
 */
export class PostgresSink extends KyselySink {
  override readonly canDefer = true;
  private readonly client: pg.PoolClient;
  private sequence: string | null = null;

  private constructor(db: Kysely<Database>, client: pg.PoolClient) {
    super(db, 'postgres');
    this.client = client;
  }

  static async open(pool: pg.Pool): Promise<PostgresSink> {
    const client = await pool.connect();
    // Kysely on this one client: every statement of the sink shares its transaction.
    const single = { query: client.query.bind(client), release() {} };
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({
        pool: { connect: async () => single, end: async () => {} } as unknown as pg.Pool,
      }),
    });
    return new PostgresSink(db, client);
  }

  override async count(): Promise<number> {
    const { rows } = await this.client.query<{ n: string }>('select count(*) as n from history_events');
    return Number(rows[0].n);
  }

  override async secondaryIndexes(): Promise<IndexDefinition[]> {
    // Every index of history_events, history_event_contexts and the contexts' values (which its
    // triggers fill, index/context-values.ts) but the primary keys.
    const { rows } = await sql<{ schema: string; name: string; sql: string }>`
      select n.nspname as schema, c.relname as name, pg_get_indexdef(i.indexrelid) as sql
      from pg_index i
      join pg_class c on c.oid = i.indexrelid
      join pg_namespace n on n.oid = c.relnamespace
      where i.indrelid in ('history_events'::regclass, 'history_event_contexts'::regclass,
          to_regclass('history_context_values'))
        and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)
      order by c.relname`.execute(this.trx);
    return rows.map((r) => ({
      name: r.name,
      drop: `drop index ${quoteIdentifier(r.schema)}.${quoteIdentifier(r.name)}`,
      sql: r.sql,
    }));
  }

  override async dropIndex(index: IndexDefinition): Promise<void> {
    await sql.raw(index.drop).execute(this.trx);
  }

  override async beforeCreateIndexes(): Promise<void> {
    await sql`set local maintenance_work_mem = '256MB'`.execute(this.trx);
  }

  override async createIndex(index: IndexDefinition): Promise<void> {
    await sql.raw(index.sql).execute(this.trx);
  }

  private copy(text: string, data: string): Promise<void> {
    const query = new CopyIn(text, data);
    this.client.query(query as unknown as pg.QueryConfig);
    return query.done;
  }

  /** Inserts the events with new ids from the sequence, or with the given ids (imports keep their source's). */
  override async insert(batch: PreparedEvent[], given?: readonly number[]): Promise<number> {
    const trx = this.trx;
    let ids = given;
    if (!ids) {
      this.sequence ??= (
        await sql<{ seq: string }>`select pg_get_serial_sequence('history_events', 'id') as seq`.execute(trx)
      ).rows[0].seq;
      const { rows } = await sql<{
        id: number;
      }>`select nextval(${this.sequence}::regclass) as id from generate_series(1, ${batch.length})`.execute(trx);
      ids = rows.map((r) => Number(r.id)).sort((a, b) => a - b);
    }
    let events = '';
    let contexts = '';
    for (let n = 0; n < batch.length; n++) {
      const r = batch[n].row;
      // The id, then EVENT_COLUMNS in order, unrolled (the generator's hottest loop).
      events +=
        ids[n] +
        '\t' +
        copyText(r.date) +
        '\t' +
        copyText(r.logger) +
        '\t' +
        copyText(r.level) +
        '\t' +
        copyText(r.message) +
        '\t' +
        copyText(r.message_key) +
        '\t' +
        copyText(r.occasions_id) +
        '\t' +
        copyText(r.initiator) +
        '\t' +
        copyText(r.user_id) +
        '\t' +
        copyText(r.remote_addr) +
        '\t' +
        (r.sticky ?? 0) +
        '\t' +
        (r.backfilled ?? 0) +
        '\t' +
        (r.run_head ?? 1) +
        '\t' +
        (r.run_size ?? 1) +
        '\t' +
        copyText(r.search_text) +
        '\t' +
        copyText(r.meta_text) +
        '\n';
      contexts += ids[n] + '\t' + copyText(batch[n].context) + '\n';
    }
    await this.copy(`copy history_events (id, ${EVENT_COLUMNS.join(', ')}) from stdin`, events);
    await this.copy(`copy history_event_contexts (${CONTEXT_COLUMNS.join(', ')}) from stdin`, contexts);
    await addStatsCounts(trx, statsCounts(batch));
    return ids[ids.length - 1];
  }

  override async close(): Promise<void> {
    try {
      await super.close();
    } finally {
      this.client.release();
    }
  }
}
