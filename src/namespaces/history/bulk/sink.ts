// Where a bulk write of events goes (generation, import): one implementation per way of
// bulk writing (sqlite-sink.ts, postgres-sink.ts), chosen by generate.ts.
import type { DialectName } from '../../../db/index.ts';
import type { PreparedEvent } from '../model/event.ts';
import type { RunRow } from '../model/runs.ts';
import { STATS_COUNT_TABLES } from '../write/stats-counts.ts';

/** The tables a bulk write of events fills (PostgreSQL's triggers fill the context values' too), for vacuumAfterBulkLoad. */
export const bulkWrittenTables = (dialect: DialectName): string[] => [
  'history_events',
  'history_event_contexts',
  ...(dialect === 'postgres' ? ['history_context_values'] : []),
  ...STATS_COUNT_TABLES,
];

/** An index as the database defines it: dropped and re-created by a deferred-index load. */
export interface IndexDefinition {
  name: string;
  /** The statement that drops it. */
  drop: string;
  /** The statement that creates it again. */
  sql: string;
}

/** Where a generation writes: one implementation per way of bulk writing. */
export interface EventSink {
  /** Whether indexes can be deferred (they can wherever the load runs in one transaction). */
  readonly canDefer: boolean;
  begin(): Promise<void>;
  commit(): Promise<void>;
  rollback(): Promise<void>;
  count(): Promise<number>;
  newest(): Promise<RunRow | undefined>;
  /** Sets run_head = 0 on a row. */
  demote(id: number): Promise<void>;
  addToCounter(name: string, delta: number): Promise<void>;
  /** The indexes a deferred-index load drops and builds again afterwards. */
  secondaryIndexes(): Promise<IndexDefinition[]>;
  dropIndex(index: IndexDefinition): Promise<void>;
  /** Before creating the indexes again. */
  beforeCreateIndexes(): Promise<void>;
  createIndex(index: IndexDefinition): Promise<void>;
  /**
   * Indexes the events written so far where indexes are kept behind the writes (SQLite's search
   * indexes, index/fts.ts): in the transaction under way.
   */
  indexNewEvents(): Promise<void>;
  /** Inserts the events (new ids, ascending in batch order, unless given); returns the last id. */
  insert(batch: PreparedEvent[], ids?: readonly number[]): Promise<number>;
  close(): Promise<void>;
}
