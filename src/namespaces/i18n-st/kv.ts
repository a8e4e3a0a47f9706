// A small key/value store for the translation namespaces (custom XML configuration, string
// settings, the queue lock). Values are text; callers JSON-encode structured values.
import type { Kysely } from 'kysely';
import type { AppServices } from '../../site/services.ts';
import type { Database } from '../../db/schema.ts';
import { utcNow } from '../../site/time.ts';

export async function kvGet(
  app: Pick<AppServices, 'db'>,
  name: string,
  db: Kysely<Database> = app.db,
): Promise<string | null> {
  const row = await db.selectFrom('i18n_kv').select('value').where('name', '=', name).executeTakeFirst();
  return row ? row.value : null;
}

export async function kvSet(
  app: Pick<AppServices, 'db'>,
  name: string,
  value: string,
  db: Kysely<Database> = app.db,
): Promise<void> {
  const now = utcNow();
  await db
    .insertInto('i18n_kv')
    .values({ name, value, updated_at: now })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value, updated_at: now }))
    .execute();
}

export async function kvGetJson<T>(
  app: Pick<AppServices, 'db'>,
  name: string,
  fallback: T,
  db: Kysely<Database> = app.db,
): Promise<T> {
  const raw = await kvGet(app, name, db);
  if (raw === null) return fallback;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return fallback;
  }
}
