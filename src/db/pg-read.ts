// PostgreSQL reads with a time limit: a pool of its own whose connections start with
// `statement_timeout` at the query timeout, so PostgreSQL cancels a read that runs longer
// (error 57014, answered as 503 `rest_query_timeout`). Writes, migrations and bulk loads use
// the main pool, which has no limit. A connection's limit follows what is left of a request's
// time (deadline.ts), lowered as it runs out and raised again after: one more round trip, only
// when the limit is off by more than a fortieth of the timeout (a `set` before every read had
// doubled the round trips of a request's reads).
import pg from 'pg';
import {
  CompiledQuery,
  PostgresDialect,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { QueryTimeoutError, queryBudget } from './deadline.ts';
import { withServerOption } from './pg-connection.ts';

/** The read pool's config: `config` (postgresConnection) with the time limit among the server options. */
export function readPoolConfig(config: pg.PoolConfig, timeoutMs: number): pg.PoolConfig {
  return withServerOption(config, `-c statement_timeout=${timeoutMs}`);
}

export class PgReadDialect extends PostgresDialect {
  readonly #timeoutMs: number;
  constructor(pool: pg.Pool, timeoutMs: number) {
    super({ pool });
    this.#timeoutMs = timeoutMs;
  }
  override createDriver(): Driver {
    return new DeadlineDriver(super.createDriver(), this.#timeoutMs);
  }
}

const INNER = Symbol('inner connection');

/**
 * How far a connection's limit may be from what is left of the request's time, as a share of
 * the query timeout (250 ms of 10 s): a read may end that much after the request's deadline, or
 * be cancelled that much before it.
 */
const LIMIT_SLACK = 1 / 40;

/** Each connection's current statement_timeout, where it differs from the pool's. */
const lowered = new WeakMap<DatabaseConnection, number>();

class DeadlineDriver implements Driver {
  readonly #inner: Driver;
  readonly #timeoutMs: number;
  constructor(inner: Driver, timeoutMs: number) {
    this.#inner = inner;
    this.#timeoutMs = timeoutMs;
  }
  init(): Promise<void> {
    return this.#inner.init();
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.#inner.acquireConnection();
    const timeoutMs = this.#timeoutMs;
    const withLimit = async (): Promise<void> => {
      const budget = queryBudget(timeoutMs);
      if (budget <= 0) throw new QueryTimeoutError(timeoutMs);
      const limit = Math.min(Math.ceil(budget), timeoutMs);
      if (Math.abs((lowered.get(connection) ?? timeoutMs) - limit) <= timeoutMs * LIMIT_SLACK) return;
      await connection.executeQuery(CompiledQuery.raw(`set statement_timeout = ${limit}`));
      if (limit === timeoutMs) lowered.delete(connection);
      else lowered.set(connection, limit);
    };
    return {
      async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
        await withLimit();
        return connection.executeQuery<R>(query);
      },
      async *streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
        await withLimit();
        yield* connection.streamQuery<R>(query, chunkSize);
      },
      // The wrapper is new on every acquisition; the driver knows the connection it lent.
      [INNER]: connection,
    } as DatabaseConnection;
  }
  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.#inner.beginTransaction(inner(connection), settings);
  }
  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#inner.commitTransaction(inner(connection));
  }
  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#inner.rollbackTransaction(inner(connection));
  }
  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.#inner.releaseConnection(inner(connection));
  }
  destroy(): Promise<void> {
    return this.#inner.destroy();
  }
}

function inner(connection: DatabaseConnection): DatabaseConnection {
  return (connection as unknown as { [INNER]: DatabaseConnection })[INNER];
}
