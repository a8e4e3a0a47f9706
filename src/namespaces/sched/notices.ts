// Notices of sched/v1 (reference plugins.md §2.5): which notice of the catalogue
// (notice-catalogue.ts) a user sees, by its requirement rules, site-wide or per-user dismissals
// and site-wide pins; and that state's storage.
import type { AppServices } from '../../site/services.ts';
import type { AuthUser } from '../../auth/types.ts';
import type { Lang } from '../../rest/types.ts';
import { utcNow } from '../../site/time.ts';
import { userCan } from './caps.ts';
import { EDITION, NOTICE_BY_ID, NOTICES, type NoticeDef } from './notice-catalogue.ts';
import { readSectionValues } from './settings.ts';
import { INSTALLED_MODULES } from './settings-sections.ts';
import { getMeta, type Db } from './store.ts';

const PINNED_PRIORITY = 22;

export interface NoticeContext {
  app: AppServices;
  user: AuthUser | null;
  lang: Lang;
}

interface NoticeState {
  globalDismissed: Set<string>;
  userDismissed: Set<string>;
  pinned: string[];
}

async function loadState(app: AppServices, userId: number | null): Promise<NoticeState> {
  const rows = await app.db
    .selectFrom('sched_notice_state')
    .select(['notice_id', 'user_id', 'kind'])
    .orderBy('id')
    .execute();
  const st: NoticeState = { globalDismissed: new Set(), userDismissed: new Set(), pinned: [] };
  for (const r of rows) {
    if (r.kind === 'pinned') st.pinned.push(r.notice_id);
    else if (r.kind === 'dismissed' && r.user_id === 0) st.globalDismissed.add(r.notice_id);
    else if (r.kind === 'dismissed' && userId !== null && r.user_id === userId) st.userDismissed.add(r.notice_id);
  }
  return st;
}

function isEmpty(v: unknown): boolean {
  return v === '' || v === null || v === undefined || v === false || (Array.isArray(v) && v.length === 0);
}

/** Evaluates a notice's requirements for this site and user. */
async function meetsRequirements(
  ctx: NoticeContext,
  def: NoticeDef,
  env: {
    daysActive: number;
    activatedAt: string;
    enabled: Record<string, boolean>;
    settings: (s: string) => Promise<Record<string, unknown>>;
  },
): Promise<boolean> {
  const r = def.requires;
  if (r.editions && !r.editions.includes(EDITION)) return false;
  if (r.min_appointments !== undefined && r.min_appointments > 0) return false; // this server stores no appointments
  if (r.min_days_active !== undefined && env.daysActive < r.min_days_active) return false;
  if (r.activated_after && env.activatedAt.slice(0, 10) < r.activated_after) return false;
  if (r.plugins && r.plugins.length) return false; // no third-party plugins on this server
  if (r.installed?.some((m) => !INSTALLED_MODULES[m])) return false;
  if (r.not_installed?.some((m) => INSTALLED_MODULES[m])) return false;
  if (r.enabled?.some((m) => !env.enabled[m])) return false;
  if (r.not_enabled?.some((m) => env.enabled[m])) return false;
  if (r.capabilities?.some((c) => !userCan(ctx.user, c))) return false;
  for (const path of r.empty_settings ?? []) {
    const [section, field] = path.split('.');
    if (!isEmpty((await env.settings(section))[field])) return false;
  }
  return true;
}

async function environment(app: AppServices) {
  const meta = await getMeta(app);
  const activated = Date.parse(meta.activated_at.replace(' ', 'T') + 'Z');
  const cache = new Map<string, Record<string, unknown>>();
  const settings = async (s: string) => {
    if (!cache.has(s)) cache.set(s, await readSectionValues(app, s).catch(() => ({})));
    return cache.get(s)!;
  };
  const enabled: Record<string, boolean> = {};
  for (const m of Object.keys(INSTALLED_MODULES)) {
    if (!INSTALLED_MODULES[m]) {
      enabled[m] = false;
      continue;
    }
    const values = await settings(m);
    enabled[m] = values.enabled === true || values.enabled === 'true' || values.enabled === '1';
  }
  return { daysActive: (Date.now() - activated) / 86_400_000, activatedAt: meta.activated_at, enabled, settings };
}

/** GET notices: the one notice to show (lowest priority number) and the pinned ids. */
export async function listNotices(
  ctx: NoticeContext,
): Promise<{ notice_to_display: string; pinned_notices: string[] }> {
  const state = await loadState(ctx.app, ctx.user?.id ?? null);
  const env = await environment(ctx.app);
  let best: { id: string; priority: number } | null = null;
  for (const def of NOTICES) {
    if (!def.active || state.globalDismissed.has(def.id) || state.userDismissed.has(def.id)) continue;
    if (!(await meetsRequirements(ctx, def, env))) continue;
    const priority = state.pinned.includes(def.id)
      ? Math.min(PINNED_PRIORITY, Number(def.priority))
      : Number(def.priority);
    if (!best || priority < best.priority) best = { id: def.id, priority };
  }
  return { notice_to_display: best?.id ?? '', pinned_notices: state.pinned };
}

export function presentNotice(def: NoticeDef, lang: Lang): Record<string, unknown> {
  return {
    id: def.id,
    name: def.name[lang],
    description: def.description[lang],
    type: def.type,
    active: def.active,
    priority: def.priority,
    requires: def.requires,
  };
}

/** GET notices/<id>: the notice and its state for the caller; null when unknown. */
export async function getNotice(ctx: NoticeContext, id: string): Promise<Record<string, unknown> | null> {
  const def = NOTICE_BY_ID.get(id);
  if (!def) return null;
  const state = await loadState(ctx.app, ctx.user?.id ?? null);
  const env = await environment(ctx.app);
  const eligible = def.active && (await meetsRequirements(ctx, def, env));
  return {
    noticeName: id,
    notice: presentNotice(def, ctx.lang),
    state: {
      dismissed: state.globalDismissed.has(id) || state.userDismissed.has(id),
      dismissed_globally: state.globalDismissed.has(id),
      dismissed_for_user: state.userDismissed.has(id),
      pinned: state.pinned.includes(id),
      eligible,
    },
  };
}

async function addState(db: Db, noticeId: string, userId: number, kind: 'dismissed' | 'pinned'): Promise<boolean> {
  const res = await db
    .insertInto('sched_notice_state')
    .values({ notice_id: noticeId, user_id: userId, kind, created_at: utcNow() })
    .onConflict((oc) => oc.columns(['notice_id', 'user_id', 'kind']).doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
}

async function removeState(db: Db, noticeId: string, userId: number, kind: 'dismissed' | 'pinned'): Promise<boolean> {
  const res = await db
    .deleteFrom('sched_notice_state')
    .where('notice_id', '=', noticeId)
    .where('user_id', '=', userId)
    .where('kind', '=', kind)
    .executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/** Dismisses a notice: site-wide when `global`, else for the user only. Returns whether state changed. */
export async function dismissNotice(app: AppServices, id: string, global: boolean, user: AuthUser): Promise<boolean> {
  return addState(app.db, id, global ? 0 : user.id, 'dismissed');
}

export async function restoreNotice(app: AppServices, id: string, global: boolean, user: AuthUser): Promise<boolean> {
  return removeState(app.db, id, global ? 0 : user.id, 'dismissed');
}

export async function pinNotice(app: AppServices, id: string): Promise<boolean> {
  return addState(app.db, id, 0, 'pinned');
}

export async function unpinNotice(app: AppServices, id: string): Promise<boolean> {
  return removeState(app.db, id, 0, 'pinned');
}

/** The site-wide notice state, as exported. */
export async function exportNoticeState(app: AppServices): Promise<{ dismissed: string[]; pinned: string[] }> {
  const rows = await app.db
    .selectFrom('sched_notice_state')
    .select(['notice_id', 'kind'])
    .where('user_id', '=', 0)
    .orderBy('id')
    .execute();
  return {
    dismissed: rows.filter((r) => r.kind === 'dismissed').map((r) => r.notice_id),
    pinned: rows.filter((r) => r.kind === 'pinned').map((r) => r.notice_id),
  };
}

/** Replaces the site-wide notice state (import); per-user dismissals stay. */
export async function replaceNoticeState(db: Db, state: { dismissed: string[]; pinned: string[] }): Promise<void> {
  await db.deleteFrom('sched_notice_state').where('user_id', '=', 0).execute();
  for (const id of new Set(state.dismissed)) await addState(db, id, 0, 'dismissed');
  for (const id of new Set(state.pinned)) await addState(db, id, 0, 'pinned');
}
