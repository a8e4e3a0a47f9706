// String settings (GET/POST strings/settings): autoregistration mode, backend strings,
// JS string detection, the cache-plugin notice, visible columns. Persisted in i18n_kv.
import type { AppServices } from '../../site/services.ts';
import type { Lang } from '../../rest/types.ts';
import { recordStringWrite, type Caller } from './translate.ts';
import { kvGetJson, kvSet } from './kv.ts';
import { ST_MSG } from './messages.ts';
import { ACTIVE_LANGUAGES, languageName } from './languages.ts';

export const AUTOREGISTER_ONLY_ADMINS = 0;
export const AUTOREGISTER_ALL_USERS = 1;
export const AUTOREGISTER_DISABLED = 2;

export const VISIBLE_COLUMNS = ['title', 'name', 'domain', 'source', 'type'] as const;
export type VisibleColumns = Record<(typeof VISIBLE_COLUMNS)[number], boolean>;

export interface StoredStringSettings {
  autoregisterType: number;
  shouldRegisterBackendStrings: number;
  detectStringsInJS: number;
  cachePluginNoticeDismissed: number;
  visibleColumns: VisibleColumns;
}

export const DEFAULT_STRING_SETTINGS: StoredStringSettings = {
  autoregisterType: AUTOREGISTER_DISABLED,
  shouldRegisterBackendStrings: 0,
  detectStringsInJS: 0,
  cachePluginNoticeDismissed: 0,
  visibleColumns: { title: true, name: true, domain: true, source: true, type: false },
};

const KEY = 'st_settings';
/** Run-time captures read the settings often; other processes' changes show within this time. */
const CACHE_MS = 2000;
const cache = new WeakMap<object, { at: number; value: StoredStringSettings }>();

export async function getStringSettings(
  app: Pick<AppServices, 'db'>,
  opts: { cached?: boolean } = {},
): Promise<StoredStringSettings> {
  const hit = cache.get(app.db);
  if (opts.cached && hit && Date.now() - hit.at < CACHE_MS) return hit.value;
  const stored = await kvGetJson<Partial<StoredStringSettings>>(app, KEY, {});
  const value: StoredStringSettings = {
    ...DEFAULT_STRING_SETTINGS,
    ...stored,
    visibleColumns: { ...DEFAULT_STRING_SETTINGS.visibleColumns, ...(stored.visibleColumns ?? {}) },
  };
  cache.set(app.db, { at: Date.now(), value });
  return value;
}

/** GET strings/settings: the reference's shape, plus `detectStringsInJS`. */
export async function describeStringSettings(
  app: Pick<AppServices, 'db' | 'config'>,
  lang: Lang,
): Promise<Record<string, unknown>> {
  const s = await getStringSettings(app);
  return {
    autoregisterType: s.autoregisterType,
    shouldRegisterBackendStrings: s.shouldRegisterBackendStrings ? 1 : 0,
    autoregisterAllowedLanguages: ACTIVE_LANGUAGES.filter((code) => code !== 'en').map((code) => ({
      name: languageName(code, lang),
      url: `${app.config.siteUrl}/${code}`,
    })),
    // No page-cache plugin runs in front of this site, so there is nothing to warn about.
    activeCachePluginName: '',
    visibleColumns: s.visibleColumns,
    shouldShowNoticeThatCachePluginCanBlockAutoregister: false,
    detectStringsInJS: s.detectStringsInJS ? 1 : 0,
  };
}

/** POST strings/settings's validated arguments (args.ts SETTINGS_POST_ARGS): an omitted setting is its default 0. */
export interface StringSettingsUpdate {
  autoregisterType: number;
  shouldRegisterBackendStrings: number;
  setNoticeThatCachePluginCanBlockAutoregisterAsDismissed: number;
  setDetectStringsInJS: number;
  /** Columns shown or not; other keys are ignored. Not sent: the columns stay. */
  visibleColumns?: Record<string, unknown>;
}

/** The values a setting may take. */
function allowedValues(name: string): number[] {
  return name === 'autoregisterType' ? [0, 1, 2] : [0, 1];
}

/** Message for an invalid settings value, or true (the args' validate callbacks). */
export function checkSettingValue(name: string, value: unknown, lang: Lang = 'en'): true | string {
  const allowed = allowedValues(name);
  return allowed.includes(value as number) ? true : ST_MSG.mustBeOneOf(name, allowed)[lang];
}

/** Message for a visibleColumns value that is not an object, or true (its validate callback). */
export function checkVisibleColumns(value: unknown, lang: Lang = 'en'): true | string {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? true
    : ST_MSG.visibleColumnsNotObject[lang];
}

/**
 * POST strings/settings: stores the settings and records the change in the activity log.
 * Returns the names of the settings that changed.
 */
export async function updateStringSettings(caller: Caller, update: StringSettingsUpdate): Promise<string[]> {
  const { app } = caller;
  const current = await getStringSettings(app);
  const next: StoredStringSettings = {
    ...current,
    autoregisterType: update.autoregisterType,
    shouldRegisterBackendStrings: update.shouldRegisterBackendStrings,
    detectStringsInJS: update.setDetectStringsInJS,
    visibleColumns: { ...current.visibleColumns },
  };
  if (update.setNoticeThatCachePluginCanBlockAutoregisterAsDismissed === 1) next.cachePluginNoticeDismissed = 1;
  for (const [k, v] of Object.entries(update.visibleColumns ?? {})) {
    if (!(VISIBLE_COLUMNS as readonly string[]).includes(k)) continue;
    next.visibleColumns[k as keyof VisibleColumns] = v === true || v === 1 || v === '1' || v === 'true';
  }
  const changed = (Object.keys(next) as (keyof StoredStringSettings)[]).filter(
    (k) => JSON.stringify(next[k]) !== JSON.stringify(current[k]),
  );
  if (changed.length) {
    await kvSet(app, KEY, JSON.stringify(next));
    cache.set(app.db, { at: Date.now(), value: next });
  }
  await recordStringWrite(caller, 'string_settings_updated', {
    settings: changed.length ? changed.join(', ') : 'none',
  });
  return changed;
}
