// One migration set for both dialects. Each module contributes migrations through
// src/db/migrations/index.ts; `up` receives the dialect for the few column types that differ.
import type { Kysely, ColumnDefinitionBuilder, CreateTableBuilder } from 'kysely';
import type { DialectName } from './index.ts';

export interface SiteMigration {
  /** Sortable unique name, e.g. "0001_core". */
  name: string;
  up(db: Kysely<any>, dialect: DialectName): Promise<void>;
}

/** Adds an auto-incrementing integer primary key `id` that works on both dialects. */
export function withIdColumn<T extends string>(
  table: CreateTableBuilder<T, any>,
  dialect: DialectName,
  column = 'id',
): CreateTableBuilder<T, any> {
  return dialect === 'postgres'
    ? table.addColumn(column, 'serial', (c: ColumnDefinitionBuilder) => c.primaryKey())
    : table.addColumn(column, 'integer', (c: ColumnDefinitionBuilder) => c.primaryKey().autoIncrement());
}
