import { Migrator, sql, type Kysely, type Migration, type MigrationResultSet } from 'kysely';
import type { DialectName } from './index.ts';
import type { SiteMigration } from './migration.ts';

export class DatabaseTooNewError extends Error {}

/**
 * Applies pending migrations of the site's set (src/modules.ts: the kernel's and every
 * module's); refuses a database migrated by a newer version of the code.
 */
export async function migrateToLatest(
  db: Kysely<any>,
  dialect: DialectName,
  migrations: readonly SiteMigration[],
): Promise<string[]> {
  const known = new Set(migrations.map((m) => m.name));
  // On PostgreSQL, Kysely looks for its own tables in every schema unless told which one: a
  // database shared by several schemas (tests, several sites) would confuse it.
  const schema =
    dialect === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined;
  const applied = await appliedMigrations(db, schema);
  const unknown = applied.filter((name) => !known.has(name));
  if (unknown.length) {
    throw new DatabaseTooNewError(
      `The database was migrated by a newer version of content-site (unknown migrations: ${unknown.join(', ')}). ` +
        'Upgrade the code before using this database.',
    );
  }
  // Nothing pending, as on every start but the first after an upgrade: Kysely's migrator would
  // still read the tables and columns of every schema first (0.3 s a process on a PostgreSQL
  // that holds many schemas). A migration another process applies meanwhile is in the list.
  if (applied.length === known.size) return [];
  const migrator = new Migrator({
    db,
    ...(schema ? { migrationTableSchema: schema } : {}),
    provider: {
      async getMigrations() {
        const out: Record<string, Migration> = {};
        for (const m of migrations) out[m.name] = { up: (tx) => m.up(tx, dialect) };
        return out;
      },
    },
  });
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await migrator.migrateToLatest();
    if (!error) return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
    if (attempt < MIGRATE_ATTEMPTS && failedBeforeMigrating({ error, results })) continue;
    throw error instanceof Error ? error : new Error(String(error));
  }
}

const MIGRATE_ATTEMPTS = 5;

/**
 * Whether Kysely's migrator failed before it ran any migration (no results), so that trying
 * again is safe. Before it starts it reads the tables and columns of every schema of the
 * database; on a PostgreSQL shared with other schemas (tests, benchmarks, several sites), a
 * schema another process drops meanwhile fails that read with whatever it was looking at:
 * 3F000 (schema), 42P01 (relation) or 42703 (column) of the other schema.
 */
export function failedBeforeMigrating(result: MigrationResultSet): boolean {
  return result.error !== undefined && result.results === undefined;
}

async function appliedMigrations(db: Kysely<any>, schema: string | undefined): Promise<string[]> {
  try {
    const rows = await (schema ? db.withSchema(schema) : db).selectFrom('kysely_migration').select('name').execute();
    return rows.map((r: { name: string }) => r.name);
  } catch {
    return []; // fresh database: the migration table does not exist yet
  }
}
