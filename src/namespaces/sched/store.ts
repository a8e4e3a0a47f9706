// Storage of sched/v1: settings sections (one JSON row each) and module metadata.
import crypto from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { AppServices } from '../../site/services.ts';
import type { Database } from '../../db/schema.ts';
import { utcNow } from '../../site/time.ts';

export type Db = Kysely<Database> | Transaction<Database>;

export interface StoredSection {
  fields: Record<string, unknown>;
  updatedAt: string;
}

export async function loadSections(db: Db): Promise<Map<string, StoredSection>> {
  const rows = await db.selectFrom('sched_settings').select(['section', 'value', 'updated_at']).execute();
  const out = new Map<string, StoredSection>();
  for (const r of rows) {
    let fields: Record<string, unknown> = {};
    try {
      const parsed = JSON.parse(r.value);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) fields = parsed;
    } catch {
      // A corrupt row reads as never saved (defaults), rather than failing every request.
    }
    out.set(r.section, { fields, updatedAt: r.updated_at });
  }
  return out;
}

/** One section's stored fields inside a transaction, row-locked on PostgreSQL. */
export async function loadSectionForUpdate(
  tx: Db,
  section: string,
  lock: boolean,
): Promise<Record<string, unknown> | undefined> {
  if (lock) {
    // A row must exist to be locked: a placeholder (rolled back with the transaction, or
    // overwritten by the save) makes concurrent first writes of a section queue up too.
    await tx
      .insertInto('sched_settings')
      .values({ section, value: '{}', updated_at: utcNow() })
      .onConflict((oc) => oc.column('section').doNothing())
      .execute();
  }
  let q = tx.selectFrom('sched_settings').select('value').where('section', '=', section);
  if (lock) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  if (!row) return undefined;
  try {
    const parsed = JSON.parse(row.value);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

export async function saveSection(
  db: Db,
  section: string,
  fields: Record<string, unknown>,
  now = utcNow(),
): Promise<void> {
  const json = JSON.stringify(fields);
  await db
    .insertInto('sched_settings')
    .values({ section, value: json, updated_at: now })
    .onConflict((oc) => oc.column('section').doUpdateSet({ value: json, updated_at: now }))
    .execute();
}

export async function deleteSection(db: Db, section: string): Promise<void> {
  await db.deleteFrom('sched_settings').where('section', '=', section).execute();
}

const META = '__meta';

export interface SchedMeta {
  /** Random secret of this site (public read token, support PIN). */
  site_secret: string;
  /** When the module was first used (UTC), for "days since activation" notice rules. */
  activated_at: string;
  /** Top-level last_updated of POST settings. */
  last_updated: string | null;
}

/** Module metadata, created on first use. */
export async function getMeta(app: AppServices): Promise<SchedMeta> {
  const row = await app.db.selectFrom('sched_settings').select('value').where('section', '=', META).executeTakeFirst();
  if (row) {
    try {
      return JSON.parse(row.value) as SchedMeta;
    } catch {
      /* recreate below */
    }
  }
  const meta: SchedMeta = {
    site_secret: crypto.randomBytes(24).toString('hex'),
    activated_at: utcNow(),
    last_updated: null,
  };
  await app.db
    .insertInto('sched_settings')
    .values({ section: META, value: JSON.stringify(meta), updated_at: utcNow() })
    .onConflict((oc) => oc.column('section').doNothing())
    .execute();
  const again = await app.db
    .selectFrom('sched_settings')
    .select('value')
    .where('section', '=', META)
    .executeTakeFirstOrThrow();
  return JSON.parse(again.value) as SchedMeta;
}

/** Saves module metadata (call getMeta before a transaction, never inside one). */
export async function saveMeta(db: Db, meta: SchedMeta, now = utcNow()): Promise<void> {
  await db
    .updateTable('sched_settings')
    .set({ value: JSON.stringify(meta), updated_at: now })
    .where('section', '=', META)
    .execute();
}

export const META_SECTION = META;
