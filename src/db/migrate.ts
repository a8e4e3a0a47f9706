import { Migrator, sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from './index.ts';
import { MIGRATIONS } from './migrations/index.ts';

export class DatabaseTooNewError extends Error {}

/** Applies pending migrations; refuses a database migrated by a newer version of the code. */
export async function migrateToLatest(db: Kysely<any>, dialect: DialectName): Promise<string[]> {
  const known = new Set(MIGRATIONS.map((m) => m.name));
  // On PostgreSQL, Kysely looks for its own tables in every schema unless told which one: a
  // database shared by several schemas (tests, several sites) would confuse it.
  const schema = dialect === 'postgres' ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema : undefined;
  const applied = await appliedMigrations(db, schema);
  const unknown = applied.filter((name) => !known.has(name));
  if (unknown.length) {
    throw new DatabaseTooNewError(
      `The database was migrated by a newer version of content-site (unknown migrations: ${unknown.join(', ')}). ` +
        'Upgrade the code before using this database.',
    );
  }
  const migrator = new Migrator({
    db,
    ...(schema ? { migrationTableSchema: schema } : {}),
    provider: {
      async getMigrations() {
        const out: Record<string, Migration> = {};
        for (const m of MIGRATIONS) out[m.name] = { up: (tx) => m.up(tx, dialect) };
        return out;
      },
    },
  });
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await migrator.migrateToLatest();
    if (!error) return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
    if (attempt < 5 && isOtherSchemaVanished(error, schema)) continue;
    throw error instanceof Error ? error : new Error(String(error));
  }
}

/**
 * Kysely's migrator looks at the tables of every schema before it starts; a schema that
 * another process drops meanwhile (test runs, benchmarks sharing the database) fails that
 * look with 3F000 "schema … does not exist", or 42P01 "relation "<schema>.<table>" does not
 * exist" when the drop lands between listing a table and reading its columns. Nothing was
 * migrated then: trying again is safe.
 */
export function isOtherSchemaVanished(error: unknown, schema: string | undefined): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  const text = String(message ?? '');
  if (code === '3F000') return !schema || !text.includes(`"${schema}"`);
  // Only a table of another schema, named with its schema.
  const table = code === '42P01' ? /relation "([^".]+)\.[^"]+" does not exist/.exec(text) : null;
  return table !== null && table[1] !== schema;
}

async function appliedMigrations(db: Kysely<any>, schema: string | undefined): Promise<string[]> {
  try {
    const rows = await (schema ? db.withSchema(schema) : db).selectFrom('kysely_migration').select('name').execute();
    return rows.map((r: { name: string }) => r.name);
  } catch {
    return []; // fresh database: the migration table does not exist yet
  }
}
