// Run-time captures of strings into the queue, as the autoregistration settings allow; the
// queue worker (queue.ts) moves them into the registry.
import type { AppServices } from '../../site/services.ts';
import { utcNow } from '../../site/time.ts';
import { DEFAULT_LANGUAGE } from './languages.ts';
import { MAX_VALUE, SOURCE_BACKEND, SOURCE_FRONTEND, stringKeyHash, type StringKey } from './registry.ts';
import { getStringSettings } from './settings.ts';

export interface CaptureInput extends StringKey {
  value: string;
  language?: string;
  type?: number;
  /** 0 frontend, 1 backend. */
  source?: number;
  /** Where the string was seen. */
  page?: string;
}

const recentlyQueued = new WeakMap<object, Set<string>>();

/** Forgets the capture de-duplication memory (after the queue was processed). */
export function forgetQueuedCaptures(app: Pick<AppServices, 'db'>): void {
  recentlyQueued.get(app.db)?.clear();
}

export interface CaptureViewer {
  /** The visitor can manage the site (autoregister mode 0 only captures for them). */
  isAdmin: boolean;
}

/**
 * Captures a string seen at run time into the queue, when autoregistration allows it
 * (mode 0: only pages viewed by admins; 1: all visitors; 2: disabled; backend strings only
 * with "register backend strings"). Returns whether it was queued.
 */
export async function queueAutoregisteredString(
  app: Pick<AppServices, 'db'>,
  input: CaptureInput,
  viewer: CaptureViewer,
): Promise<boolean> {
  const settings = await getStringSettings(app, { cached: true });
  if (settings.autoregisterType === 2) return false;
  if (settings.autoregisterType === 0 && !viewer.isAdmin) return false;
  const source = input.source ?? SOURCE_FRONTEND;
  if (source === SOURCE_BACKEND && !settings.shouldRegisterBackendStrings) return false;
  if (typeof input.value !== 'string' || input.value.length > MAX_VALUE || !input.domain) return false;
  // The same string seen again on the same page is queued once (per process, until processed).
  const seenKey = stringKeyHash(
    `${input.domain}\u0000${input.page ?? ''}`,
    String(input.context ?? ''),
    `${input.name}\u0000${input.value}`,
  );
  let seen = recentlyQueued.get(app.db);
  if (!seen) recentlyQueued.set(app.db, (seen = new Set()));
  if (seen.has(seenKey)) return true;
  if (seen.size >= 10_000) seen.clear();
  seen.add(seenKey);
  await app.db
    .insertInto('i18n_st_queue')
    .values({
      language: String(input.language ?? DEFAULT_LANGUAGE).slice(0, 10),
      domain: String(input.domain ?? ''),
      context: String(input.context ?? ''),
      name: String(input.name ?? ''),
      value: input.value,
      type: Number.isInteger(input.type) ? input.type! : 0,
      source,
      page: String(input.page ?? '').slice(0, 255),
      quarantined: 0,
      created_at: utcNow(),
    })
    .execute();
  return true;
}
