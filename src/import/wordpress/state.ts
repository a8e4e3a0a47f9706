// What earlier runs brought over, kept in our database (migration 0017): which source item
// became which of ours with the fingerprint it had (so an unchanged item is not written again
// and a changed one updates ours), and per kind a high-water mark. Every kind writes its
// mappings in the same transaction as the items, so a run killed at any point leaves no item
// without its mapping: the next run goes on where it stopped.
import type { Kysely, Transaction } from 'kysely';
import crypto from 'node:crypto';
import type { Database } from '../../db/schema.ts';
import { utcNow } from '../../site/time.ts';

type Db = Kysely<Database> | Transaction<Database>;

export interface Mapping {
  targetId: string;
  checksum: string;
}

/** A short stable fingerprint of source data. */
export function fingerprint(value: unknown): string {
  return crypto.hash('sha1', JSON.stringify(value), 'base64url');
}

export class RunState {
  readonly source: string;
  private readonly db: Kysely<Database>;

  constructor(db: Kysely<Database>, source: string) {
    this.db = db;
    this.source = source;
  }

  /** Every mapping of a kind (kinds with few items: users, content, strings…). */
  async mappings(kind: string): Promise<Map<string, Mapping>> {
    const rows = await this.db
      .selectFrom('import_map')
      .select(['source_id', 'target_id', 'checksum'])
      .where('source', '=', this.source)
      .where('kind', '=', kind)
      .execute();
    return new Map(rows.map((r) => [r.source_id, { targetId: r.target_id, checksum: r.checksum }]));
  }

  async mapping(kind: string, sourceId: string | number): Promise<Mapping | undefined> {
    const row = await this.db
      .selectFrom('import_map')
      .select(['target_id', 'checksum'])
      .where('source', '=', this.source)
      .where('kind', '=', kind)
      .where('source_id', '=', String(sourceId))
      .executeTakeFirst();
    return row && { targetId: row.target_id, checksum: row.checksum };
  }

  /** Records (or updates) a mapping, inside the transaction that wrote the item. */
  async map(
    tx: Db,
    kind: string,
    sourceId: string | number,
    targetId: string | number,
    checksum: string,
  ): Promise<void> {
    const values = { source: this.source, kind, source_id: String(sourceId), target_id: String(targetId), checksum };
    await tx
      .insertInto('import_map')
      .values(values)
      .onConflict((oc) =>
        oc.columns(['source', 'kind', 'source_id']).doUpdateSet({ target_id: values.target_id, checksum }),
      )
      .execute();
  }

  async unmap(tx: Db, kind: string, sourceId: string): Promise<void> {
    await tx
      .deleteFrom('import_map')
      .where('source', '=', this.source)
      .where('kind', '=', kind)
      .where('source_id', '=', sourceId)
      .execute();
  }

  async mark(kind: string, db: Db = this.db): Promise<number> {
    const row = await db
      .selectFrom('import_marks')
      .select('mark')
      .where('source', '=', this.source)
      .where('kind', '=', kind)
      .executeTakeFirst();
    return row ? Number(row.mark) : 0;
  }

  async setMark(tx: Db, kind: string, mark: number): Promise<void> {
    await tx
      .insertInto('import_marks')
      .values({ source: this.source, kind, mark })
      .onConflict((oc) => oc.columns(['source', 'kind']).doUpdateSet({ mark }))
      .execute();
  }

  /** Starts the record of a run; returns its id. */
  async beginRun(): Promise<number> {
    const row = await this.db
      .insertInto('import_runs')
      .values({ source: this.source, started_at: utcNow(), finished_at: null, status: 'running', report: '{}' })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async endRun(id: number, status: 'done' | 'failed', report: unknown): Promise<void> {
    await this.db
      .updateTable('import_runs')
      .set({ status, finished_at: utcNow(), report: JSON.stringify(report) })
      .where('id', '=', id)
      .execute();
  }
}
