// String settings (GET/POST strings/settings): autoregistration mode, backend strings,
// JS string detection, the cache-plugin notice, visible columns. Persisted in i18n_kv.
import type { AppServices } from '../../site/services.ts';
import type { Lang } from '../../rest/types.ts';
import { RestError } from '../../rest/types.ts';
import { MSG, fill } from '../../rest/messages.ts';
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

export interface StringSettingsUpdate {
  autoregisterType?: unknown;
  shouldRegisterBackendStrings?: unknown;
  setNoticeThatCachePluginCanBlockAutoregisterAsDismissed?: unknown;
  setDetectStringsInJS?: unknown;
  visibleColumns?: unknown;
}

function intIn(value: unknown, name: string, allowed: number[], lang: Lang = 'en'): number {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || !allowed.includes(n)) {
    throw new RestError('rest_invalid_param', fill(MSG.invalidParams[lang], name), 400, {
      params: { [name]: ST_MSG.mustBeOneOf(name, allowed)[lang] },
    });
  }
  return n;
}

/** Message for an invalid settings value, or true (the args' validate callbacks). */
export function checkSettingValue(name: string, value: unknown, lang: Lang = 'en'): true | string {
  const allowed = name === 'autoregisterType' ? [0, 1, 2] : [0, 1];
  try {
    intIn(value, name, allowed, lang);
    return true;
  } catch (err) {
    return ((err as RestError).data.params as Record<string, string>)[name]!;
  }
}

/**
 * POST strings/settings. Only the fields supplied change (a missing field keeps its stored
 * value). Returns the names of the settings that changed.
 */
export async function updateStringSettings(
  app: Pick<AppServices, 'db'>,
  update: StringSettingsUpdate,
  lang: Lang = 'en',
): Promise<string[]> {
  const current = await getStringSettings(app);
  const next: StoredStringSettings = { ...current, visibleColumns: { ...current.visibleColumns } };
  if (update.autoregisterType !== undefined && update.autoregisterType !== null) {
    next.autoregisterType = intIn(update.autoregisterType, 'autoregisterType', [0, 1, 2], lang);
  }
  if (update.shouldRegisterBackendStrings !== undefined && update.shouldRegisterBackendStrings !== null) {
    next.shouldRegisterBackendStrings = intIn(
      update.shouldRegisterBackendStrings,
      'shouldRegisterBackendStrings',
      [0, 1],
      lang,
    );
  }
  if (
    update.setNoticeThatCachePluginCanBlockAutoregisterAsDismissed !== undefined &&
    update.setNoticeThatCachePluginCanBlockAutoregisterAsDismissed !== null
  ) {
    const v = intIn(
      update.setNoticeThatCachePluginCanBlockAutoregisterAsDismissed,
      'setNoticeThatCachePluginCanBlockAutoregisterAsDismissed',
      [0, 1],
      lang,
    );
    if (v === 1) next.cachePluginNoticeDismissed = 1;
  }
  if (update.setDetectStringsInJS !== undefined && update.setDetectStringsInJS !== null) {
    next.detectStringsInJS = intIn(update.setDetectStringsInJS, 'setDetectStringsInJS', [0, 1], lang);
  }
  if (update.visibleColumns !== undefined && update.visibleColumns !== null) {
    const cols = update.visibleColumns;
    if (typeof cols !== 'object' || Array.isArray(cols)) {
      throw new RestError('rest_invalid_param', fill(MSG.invalidParams[lang], 'visibleColumns'), 400, {
        params: { visibleColumns: ST_MSG.visibleColumnsNotObject[lang] },
      });
    }
    for (const [k, v] of Object.entries(cols as Record<string, unknown>)) {
      if (!(VISIBLE_COLUMNS as readonly string[]).includes(k)) continue;
      next.visibleColumns[k as keyof VisibleColumns] = v === true || v === 1 || v === '1' || v === 'true';
    }
  }
  const changed = (Object.keys(next) as (keyof StoredStringSettings)[]).filter(
    (k) => JSON.stringify(next[k]) !== JSON.stringify(current[k]),
  );
  if (changed.length) {
    await kvSet(app, KEY, JSON.stringify(next));
    cache.set(app.db, { at: Date.now(), value: next });
  }
  return changed;
}
