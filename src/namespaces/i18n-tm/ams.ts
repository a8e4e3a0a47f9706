// The translation account service (AMS) features, answered locally: translators and
// managers are the site's users holding `translate` / `manage_translations`; registration,
// synchronisation and the engines configuration are stored in site options. Nothing is
// sent to any vendor service.
import crypto from 'node:crypto';
import type { AppServices } from '../../site/services.ts';
import { ROLE_CAPABILITIES, isRole } from '../../auth/roles.ts';
import { restError } from '../../rest/define.ts';
import { utcNow } from '../../site/time.ts';
import { loggerEntry, recordWrite } from '../../site/activity.ts';
import type { Caller, Viewer } from './jobs.ts';
import { i18nTmLogger } from './logger.ts';
import { MSG } from './messages.ts';
import { scalarText } from './model.ts';

export const AMS_OPTION = 'i18n_tm_ams';
export const ENGINES_OPTION = 'i18n_tm_engines';

export interface AmsUser {
  id: number;
  login: string;
  name: string;
  email: string;
  role: string;
  activated: boolean;
}

export interface AmsState {
  site_id: string;
  registered: boolean;
  manager_id: number | null;
  registered_at: string | null;
  translators_synced_at: string | null;
  managers_synced_at: string | null;
  /** Ids reported by the last translator synchronisation. */
  activated_translators: number[];
}

function rolesWith(capability: string): string[] {
  return Object.entries(ROLE_CAPABILITIES)
    .filter(([role, caps]) => isRole(role) && caps.has(capability))
    .map(([role]) => role);
}

/** Active users whose role holds the capability, by id. */
export async function usersWithCapability(app: AppServices, capability: string): Promise<AmsUser[]> {
  const roles = rolesWith(capability);
  if (!roles.length) return [];
  const rows = await app.db
    .selectFrom('users')
    .select(['id', 'login', 'display_name', 'email', 'role'])
    .where('role', 'in', roles)
    .where('status', '=', 'active')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    login: r.login,
    name: r.display_name,
    email: r.email,
    role: r.role,
    activated: true,
  }));
}

export const listTranslators = (app: AppServices) => usersWithCapability(app, 'translate');
export const listManagers = (app: AppServices) => usersWithCapability(app, 'manage_translations');

export function amsState(app: AppServices): AmsState {
  const stored = app.options.get(AMS_OPTION) as Partial<AmsState> | undefined;
  return {
    site_id: stored?.site_id ?? '',
    registered: stored?.registered ?? false,
    manager_id: stored?.manager_id ?? null,
    registered_at: stored?.registered_at ?? null,
    translators_synced_at: stored?.translators_synced_at ?? null,
    managers_synced_at: stored?.managers_synced_at ?? null,
    activated_translators: stored?.activated_translators ?? [],
  };
}

async function saveAms(app: AppServices, patch: Partial<AmsState>): Promise<AmsState> {
  const current = amsState(app);
  const next: AmsState = { ...current, ...patch, site_id: current.site_id || crypto.randomUUID() };
  await app.options.set(AMS_OPTION, next);
  return next;
}

/** POST ams/register_manager: the caller becomes the site's registered translation manager. */
export async function registerManager(
  caller: Caller,
): Promise<{ enabled: true; manager: AmsUser; translators: number; managers: number }> {
  const { app, lang } = caller;
  const managers = await listManagers(app);
  const manager = managers.find((m) => m.id === caller.user?.id);
  if (!manager) {
    throw restError({ lang }, 'i18n_tm_not_a_manager', MSG.notAManager, 403);
  }
  const translators = await listTranslators(app);
  await saveAms(app, { registered: true, manager_id: manager.id, registered_at: utcNow() });
  await recordWrite(
    app,
    loggerEntry(i18nTmLogger, 'manager_registered', {
      manager_id: manager.id,
      manager_name: manager.name,
      translators: translators.length,
      managers: managers.length,
    }),
    caller,
  );
  return { enabled: true, manager, translators: translators.length, managers: managers.length };
}

/** GET ams/synchronize/translators: records the translators as synchronised. */
export async function synchronizeTranslators(caller: Caller): Promise<{ result: { translators: AmsUser[] } }> {
  const translators = await listTranslators(caller.app);
  await saveAms(caller.app, { translators_synced_at: utcNow(), activated_translators: translators.map((t) => t.id) });
  await recordSynchronized(caller, 'translators_synchronized', 'translator_ids', translators);
  return { result: { translators } };
}

/** GET ams/synchronize/managers: records the managers as synchronised. */
export async function synchronizeManagers(caller: Caller): Promise<{ result: { managers: AmsUser[] } }> {
  const managers = await listManagers(caller.app);
  await saveAms(caller.app, { managers_synced_at: utcNow() });
  await recordSynchronized(caller, 'managers_synchronized', 'manager_ids', managers);
  return { result: { managers } };
}

/** The activity-log entry of a synchronisation: how many users, and their ids. */
function recordSynchronized(
  caller: Caller,
  messageKey: 'translators_synchronized' | 'managers_synchronized',
  idsKey: string,
  users: AmsUser[],
): Promise<void> {
  return recordWrite(
    caller.app,
    loggerEntry(i18nTmLogger, messageKey, { count: users.length, [idsKey]: users.map((u) => u.id).join(',') }),
    caller,
  );
}

export async function amsStatus(app: AppServices): Promise<Record<string, unknown>> {
  const state = amsState(app);
  const [translators, managers] = await Promise.all([listTranslators(app), listManagers(app)]);
  const manager = state.manager_id ? (managers.find((m) => m.id === state.manager_id) ?? null) : null;
  return {
    activated: state.registered,
    service: 'local',
    site_id: state.site_id || null,
    registered_at: state.registered_at,
    manager: manager ? { id: manager.id, name: manager.name, email: manager.email } : null,
    translators: translators.length,
    managers: managers.length,
    translators_synced_at: state.translators_synced_at,
    managers_synced_at: state.managers_synced_at,
    engines: engineConfig(app)
      .filter((e) => e.enabled)
      .map((e) => e.id),
    ate_enabled: true,
  };
}

export function amsConsole(app: AppServices, viewer: Viewer): Record<string, unknown> {
  const state = amsState(app);
  const site = app.config.siteUrl;
  return {
    mode: 'local',
    registered: state.registered,
    url: `${site}/cms-admin/admin.php?page=i18n-tm/menu/main.php&sm=dashboard`,
    jobs_url: `${site}/cms-admin/admin.php?page=i18n-tm/menu/translations-queue.php`,
    user_id: viewer.id,
  };
}

// ---------------------------------------------------------------- engines

export interface EngineCatalogueEntry {
  id: string;
  name: string;
  /** Language codes the engine translates between. */
  languages: string[];
}

export const ENGINE_CATALOGUE: readonly EngineCatalogueEntry[] = [
  { id: 'deepl', name: 'DeepL', languages: ['en', 'de', 'fr', 'es', 'it', 'nl', 'pl', 'pt'] },
  { id: 'google', name: 'Google Translate', languages: ['en', 'de', 'fr', 'es', 'it', 'nl', 'pl', 'pt'] },
  { id: 'microsoft', name: 'Microsoft Translator', languages: ['en', 'de', 'fr', 'es', 'it', 'nl', 'pl', 'pt'] },
];

export interface EngineSetting {
  id: string;
  name: string;
  enabled: boolean;
  /** 1 = tried first. */
  priority: number;
  languages: string[];
}

const DEFAULT_ENGINES: { id: string; enabled: boolean; priority: number }[] = [
  { id: 'deepl', enabled: true, priority: 1 },
  { id: 'google', enabled: true, priority: 2 },
  { id: 'microsoft', enabled: false, priority: 3 },
];

export function engineConfig(app: AppServices): EngineSetting[] {
  const stored =
    (app.options.get(ENGINES_OPTION) as { id: string; enabled: boolean; priority: number }[] | undefined) ??
    DEFAULT_ENGINES;
  const byId = new Map(stored.map((e) => [e.id, e]));
  return ENGINE_CATALOGUE.map((c, i) => {
    const s = byId.get(c.id);
    return {
      id: c.id,
      name: c.name,
      enabled: s?.enabled ?? false,
      priority: s?.priority ?? i + 1,
      languages: [...c.languages],
    };
  }).sort((a, b) => a.priority - b.priority || a.id.localeCompare(b.id));
}

export function getEngines(app: AppServices): { engines: EngineSetting[] } {
  return { engines: engineConfig(app) };
}

/**
 * POST ams/engines: `engines` is a list of `{id, enabled?, priority?}` (or a map id →
 * {enabled, priority} / boolean). Unknown engines, non-boolean flags and bad priorities are
 * 400 `i18n_tm_invalid_engines` with one message per problem; nothing is stored then.
 */
export async function updateEngines(
  caller: Caller,
  raw: unknown,
): Promise<{ engines: EngineSetting[]; changed: string[] }> {
  const { app, lang } = caller;
  const problems: Record<string, string> = {};
  let items: { id: unknown; enabled?: unknown; priority?: unknown }[] = [];
  if (Array.isArray(raw)) {
    items = raw.map((item, i) =>
      typeof item === 'object' && item !== null && !Array.isArray(item)
        ? (item as { id: unknown })
        : { id: `#${i}`, invalid: true },
    );
  } else if (typeof raw === 'object' && raw !== null) {
    items = Object.entries(raw as Record<string, unknown>).map(([id, v]) =>
      typeof v === 'boolean'
        ? { id, enabled: v }
        : typeof v === 'object' && v !== null
          ? { id, ...(v as object) }
          : { id, enabled: v },
    );
  } else {
    throw restError({ lang }, 'i18n_tm_invalid_engines', MSG.enginesNotAList, 400, {
      params: { engines: 'missing or not a list' },
    });
  }
  const known = new Set(ENGINE_CATALOGUE.map((e) => e.id));
  const current = new Map(engineConfig(app).map((e) => [e.id, { id: e.id, enabled: e.enabled, priority: e.priority }]));
  const seen = new Set<string>();
  for (const [i, item] of items.entries()) {
    if ((item as { invalid?: boolean }).invalid) {
      problems[`engines[${i}]`] = 'must be an object {id, enabled, priority}.';
      continue;
    }
    const id = typeof item.id === 'string' ? item.id : '';
    if (!known.has(id)) {
      problems[`engines[${i}].id`] =
        `unknown engine "${scalarText(item.id) ?? '(not a string)'}"; engines are ${[...known].join(', ')}.`;
      continue;
    }
    if (seen.has(id)) {
      problems[`engines[${i}].id`] = `engine "${id}" is listed twice.`;
      continue;
    }
    seen.add(id);
    const entry = current.get(id)!;
    if (item.enabled !== undefined) {
      if (typeof item.enabled === 'boolean') entry.enabled = item.enabled;
      else if (
        item.enabled === 1 ||
        item.enabled === 0 ||
        item.enabled === '1' ||
        item.enabled === '0' ||
        item.enabled === 'true' ||
        item.enabled === 'false'
      ) {
        entry.enabled = item.enabled === 1 || item.enabled === '1' || item.enabled === 'true';
      } else problems[`engines[${i}].enabled`] = 'must be a boolean.';
    }
    if (item.priority !== undefined) {
      const p =
        typeof item.priority === 'string' && /^\d+$/.test(item.priority) ? Number(item.priority) : item.priority;
      if (typeof p === 'number' && Number.isInteger(p) && p >= 1 && p <= 100) entry.priority = p;
      else problems[`engines[${i}].priority`] = 'must be an integer from 1 to 100.';
    }
  }
  if (!items.length) problems.engines = 'must name at least one engine.';
  if (Object.keys(problems).length) {
    throw restError({ lang }, 'i18n_tm_invalid_engines', MSG.enginesInvalid, 400, { params: problems });
  }
  const before = new Map(engineConfig(app).map((e) => [e.id, e]));
  const next = [...current.values()];
  const changed = next
    .filter((e) => before.get(e.id)!.enabled !== e.enabled || before.get(e.id)!.priority !== e.priority)
    .map((e) => e.id);
  await app.options.set(ENGINES_OPTION, next);
  const engines = engineConfig(app);
  await recordWrite(
    app,
    loggerEntry(i18nTmLogger, 'engines_updated', {
      enabled_engines:
        engines
          .filter((e) => e.enabled)
          .map((e) => e.id)
          .join(', ') || '-',
      changed_engines: changed.join(','),
    }),
    caller,
  );
  return { engines, changed };
}
