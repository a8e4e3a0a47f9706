// Draining the run-time capture queue (POST strings/processstringsqueue): one bounded batch
// per call under a 60-second lock, moving captured strings into the registry as
// autoregistered strings (kind 1). Entries that cannot be registered are quarantined.
import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { AppServices } from '../../site/services.ts';
import { formatUtc, utcNow } from '../../site/time.ts';
import { forgetQueuedCaptures } from './capture.ts';
import {
  KIND_AUTOREGISTERED,
  normaliseRegistration,
  registerStringsInTx,
  type RegisterStringInput,
} from './registry.ts';
import { AUTOREGISTER_DISABLED, getStringSettings } from './settings.ts';
import { recordStringWrite, type Caller } from './translate.ts';

export const QUEUE_BATCH = 200;
export const LOCK_SECONDS = 60;
const LOCK_KEY = 'st_queue_lock';

export interface QueueReport {
  wasProcessed: boolean;
  hasPending: boolean;
  shouldContinue: boolean;
  workerBusy?: boolean;
  retryFreshRequest?: boolean;
  quarantinedStrings?: number;
  pagesProcessed?: number;
  pagesRemaining?: number;
  /** Our additions: what this call did. */
  processedStrings?: number;
  registeredStrings?: number;
  updatedStrings?: number;
}

async function acquireLock(app: Pick<AppServices, 'db'>): Promise<string | null> {
  const token = crypto.randomUUID();
  const now = new Date();
  await app.db
    .insertInto('i18n_kv')
    .values({ name: LOCK_KEY, value: '', updated_at: '1970-01-01 00:00:00' })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const cutoff = formatUtc(new Date(now.getTime() - LOCK_SECONDS * 1000));
  const res = await app.db
    .updateTable('i18n_kv')
    .set({ value: token, updated_at: formatUtc(now) })
    .where('name', '=', LOCK_KEY)
    .where((eb) => eb.or([eb('value', '=', ''), eb('updated_at', '<', cutoff)]))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1 ? token : null;
}

async function releaseLock(app: Pick<AppServices, 'db'>, token: string): Promise<void> {
  await app.db
    .updateTable('i18n_kv')
    .set({ value: '', updated_at: utcNow() })
    .where('name', '=', LOCK_KEY)
    .where('value', '=', token)
    .execute();
}

async function pendingStats(app: Pick<AppServices, 'db'>): Promise<{ count: number; pages: number }> {
  const row = await app.db
    .selectFrom('i18n_st_queue')
    .select([sql<number>`count(*)`.as('n'), sql<number>`count(distinct page)`.as('pages')])
    .where('quarantined', '=', 0)
    .executeTakeFirstOrThrow();
  return { count: Number(row.n), pages: Number(row.pages) };
}

/**
 * POST strings/processstringsqueue: drains a batch of the queue (drainStringsQueue) and records
 * in the activity log what it registered, when it processed anything.
 */
export async function processStringsQueue(caller: Caller): Promise<QueueReport> {
  const report = await drainStringsQueue(caller.app);
  if (report.wasProcessed)
    await recordStringWrite(caller, 'strings_queue_processed', {
      processed: report.processedStrings ?? 0,
      registered: report.registeredStrings ?? 0,
      updated: report.updatedStrings ?? 0,
      quarantined: report.quarantinedStrings ?? 0,
      remaining_pages: report.pagesRemaining ?? 0,
    });
  return report;
}

/** Number of captured strings waiting in the queue. */
export async function pendingQueueCount(app: Pick<AppServices, 'db'>): Promise<number> {
  return (await pendingStats(app)).count;
}

/**
 * Registers a batch of the captured strings (under a lock, so that one process drains at a
 * time) and reports what it did and what is left.
 */
export async function drainStringsQueue(app: Pick<AppServices, 'db'>, batch = QUEUE_BATCH): Promise<QueueReport> {
  const settings = await getStringSettings(app);
  if (settings.autoregisterType === AUTOREGISTER_DISABLED)
    return { wasProcessed: false, hasPending: false, shouldContinue: false };
  const token = await acquireLock(app);
  if (!token) return { wasProcessed: false, hasPending: true, shouldContinue: true, workerBusy: true };
  try {
    const rows = await app.db
      .selectFrom('i18n_st_queue')
      .selectAll()
      .where('quarantined', '=', 0)
      .orderBy('id')
      .limit(batch)
      .execute();
    const good: { id: number; input: RegisterStringInput }[] = [];
    const quarantined: number[] = [];
    for (const r of rows) {
      const input: RegisterStringInput = {
        domain: r.domain,
        context: r.context,
        name: r.name || crypto.createHash('md5').update(r.value).digest('hex'),
        value: r.value,
        language: r.language,
        kind: KIND_AUTOREGISTERED,
        type: r.type,
        source: r.source,
        location: r.page || null,
      };
      try {
        if (!r.value.trim()) throw new Error('empty');
        normaliseRegistration(input);
        good.push({ id: r.id, input });
      } catch {
        quarantined.push(r.id);
      }
    }
    let registered = 0;
    let updated = 0;
    await app.db.transaction().execute(async (tx) => {
      const results = await registerStringsInTx(
        tx,
        good.map((g) => g.input),
      );
      for (const res of results) {
        if (res.created) registered++;
        else if (res.changed) updated++;
      }
      const done = good.map((g) => g.id);
      for (let i = 0; i < done.length; i += 500) {
        await tx
          .deleteFrom('i18n_st_queue')
          .where('id', 'in', done.slice(i, i + 500))
          .execute();
      }
      if (quarantined.length)
        await tx.updateTable('i18n_st_queue').set({ quarantined: 1 }).where('id', 'in', quarantined).execute();
    });
    forgetQueuedCaptures(app);
    const remaining = await pendingStats(app);
    const pagesProcessed = new Set(rows.map((r) => r.page)).size;
    const hasPending = remaining.count > 0;
    return {
      wasProcessed: rows.length > 0,
      hasPending,
      shouldContinue: hasPending,
      retryFreshRequest: hasPending,
      quarantinedStrings: quarantined.length,
      pagesProcessed,
      pagesRemaining: remaining.pages,
      processedStrings: rows.length,
      registeredStrings: registered,
      updatedStrings: updated,
    };
  } finally {
    await releaseLock(app, token);
  }
}
