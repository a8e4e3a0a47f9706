// Notices of sched/v1 (reference plugins.md §2.5): a static catalogue with requirement rules,
// site-wide or per-user dismissals, site-wide pins.
import type { AppServices } from '../../site/services.ts';
import type { AuthUser } from '../../auth/types.ts';
import type { Lang, Localized } from '../../rest/types.ts';
import { utcNow } from '../../site/time.ts';
import { userCan } from './caps.ts';
import { readSectionValues } from './settings.ts';
import { INSTALLED_MODULES } from './settings-sections.ts';
import { getMeta, type Db } from './store.ts';

export type NoticeType =
  | 'upgrade_promo'
  | 'feature_promo'
  | 'feature_setup'
  | 'announcement'
  | 'celebration'
  | 'blog_post'
  | 'error_msg'
  | 'warning_msg';

/** 1 = basic (this server's edition), 2 = plus, 3 = pro, 4 = business. */
export const EDITION = 1;

export interface NoticeRequirements {
  editions?: number[];
  min_appointments?: number;
  min_days_active?: number;
  /** The module was first used after this UTC date (YYYY-MM-DD). */
  activated_after?: string;
  /** Third-party plugins that must be active (none are, on this server). */
  plugins?: string[];
  installed?: string[];
  not_installed?: string[];
  enabled?: string[];
  not_enabled?: string[];
  capabilities?: string[];
  /** Settings conditions: `section.field` is empty (""/[]/false/null). */
  empty_settings?: string[];
}

export interface NoticeDef {
  id: string;
  name: Localized;
  description: Localized;
  type: NoticeType[];
  active: boolean;
  /** 1 = most important … 40 = least (bands: 5 errors, 10 warnings, 15 celebrations, 20 announcements, 25 setup, 30 feature upgrade, 35 edition upgrade). */
  priority: string;
  requires: NoticeRequirements;
}

const n = (
  id: string,
  type: NoticeType[],
  priority: string,
  requires: NoticeRequirements,
  name: Localized,
  description: Localized,
  active = true,
): NoticeDef => ({ id, name, description, type, active, priority, requires });

export const NOTICES: NoticeDef[] = [
  n(
    'setup-notifications',
    ['feature_setup'],
    '25',
    {
      empty_settings: ['notifications.notifications'],
      enabled: ['notifications'],
      capabilities: ['ssa_manage_site_settings'],
    },
    { en: 'Set up your notifications', de: 'Benachrichtigungen einrichten' },
    {
      en: 'No notification templates exist yet: customers and staff get no email when an appointment is booked.',
      de: 'Es gibt noch keine Benachrichtigungsvorlagen: Kunden und Mitarbeiter erhalten bei einer Buchung keine E-Mail.',
    },
  ),
  n(
    'promo-plus',
    ['upgrade_promo'],
    '35',
    { editions: [1], min_days_active: 7 },
    { en: 'More scheduling features', de: 'Mehr Funktionen für die Terminplanung' },
    {
      en: 'Calendar sync, reminders and team booking are available in the Plus edition.',
      de: 'Kalender-Synchronisierung, Erinnerungen und Team-Buchungen gibt es in der Plus-Edition.',
    },
  ),
  n(
    'promo-pro',
    ['upgrade_promo'],
    '35',
    { editions: [2], min_days_active: 7 },
    { en: 'Take payments and send SMS', de: 'Zahlungen annehmen und SMS senden' },
    {
      en: 'The Pro edition adds payments, SMS reminders and web meetings.',
      de: 'Die Pro-Edition bietet Zahlungen, SMS-Erinnerungen und Online-Meetings.',
    },
  ),
  n(
    'promo-business',
    ['upgrade_promo'],
    '35',
    { editions: [3] },
    { en: 'Scale with the Business edition', de: 'Wachsen mit der Business-Edition' },
    { en: 'Resources and booking flows for larger teams.', de: 'Ressourcen und Buchungsabläufe für größere Teams.' },
    false,
  ),
  n(
    'promo-zoom-upgrade',
    ['feature_promo'],
    '30',
    { editions: [1, 2], min_appointments: 5 },
    { en: 'Meet online', de: 'Online treffen' },
    {
      en: 'Create web-meeting links for every appointment automatically.',
      de: 'Für jeden Termin automatisch einen Online-Meeting-Link erstellen.',
    },
  ),
  n(
    'promo-zoom-announce',
    ['announcement'],
    '20',
    { editions: [3, 4], installed: ['zoom'], not_enabled: ['zoom'] },
    { en: 'Web meetings are here', de: 'Online-Meetings sind da' },
    {
      en: 'Connect your meeting account to add links to appointments.',
      de: 'Verbinden Sie Ihr Meeting-Konto, um Terminen Links hinzuzufügen.',
    },
  ),
  n(
    'support-setup-sms',
    ['feature_setup'],
    '25',
    { editions: [3, 4], installed: ['sms'], not_enabled: ['sms'] },
    { en: 'Set up SMS notifications', de: 'SMS-Benachrichtigungen einrichten' },
    { en: 'Text reminders reduce no-shows.', de: 'SMS-Erinnerungen verringern verpasste Termine.' },
  ),
  n(
    'payments-upsell',
    ['upgrade_promo'],
    '30',
    { editions: [1], min_appointments: 10 },
    { en: 'Get paid when customers book', de: 'Bei der Buchung bezahlt werden' },
    {
      en: 'Collect deposits or full payments at booking time.',
      de: 'Anzahlungen oder den vollen Betrag bei der Buchung einziehen.',
    },
  ),
  n(
    'promo-google-calendar',
    ['feature_promo'],
    '30',
    { editions: [1], not_installed: ['google_calendar'], min_days_active: 3 },
    { en: 'Sync with your calendar', de: 'Mit Ihrem Kalender synchronisieren' },
    {
      en: 'Avoid double bookings by checking your calendar for conflicts.',
      de: 'Doppelbuchungen vermeiden, indem Ihr Kalender auf Konflikte geprüft wird.',
    },
  ),
  n(
    'gravity-forms-info',
    ['feature_setup'],
    '25',
    { plugins: ['gravityforms'] },
    { en: 'Use appointments in your forms', de: 'Termine in Ihren Formularen verwenden' },
    { en: 'Add an appointment field to your forms.', de: 'Fügen Sie Ihren Formularen ein Terminfeld hinzu.' },
  ),
  n(
    'gravity-forms-upsell',
    ['upgrade_promo'],
    '30',
    { plugins: ['gravityforms'], editions: [1, 2] },
    { en: 'Forms and appointments together', de: 'Formulare und Termine gemeinsam' },
    {
      en: 'Higher editions connect form entries to appointments.',
      de: 'Höhere Editionen verbinden Formulareinträge mit Terminen.',
    },
  ),
  n(
    'april-twenty-three-review-prompt',
    ['celebration'],
    '15',
    { min_appointments: 10, min_days_active: 30 },
    { en: 'Ten appointments booked!', de: 'Zehn Termine gebucht!' },
    {
      en: 'Tell others what you think of the scheduling module.',
      de: 'Erzählen Sie anderen, was Sie vom Terminplanungsmodul halten.',
    },
  ),
  n(
    'promo-booking-flows',
    ['feature_promo'],
    '30',
    { editions: [1, 2], not_installed: ['booking_flows'], activated_after: '2023-09-01' },
    { en: 'New: booking flows', de: 'Neu: Buchungsabläufe' },
    {
      en: 'Let customers pick a date first, or the first available time.',
      de: 'Kunden zuerst ein Datum oder die nächste freie Zeit wählen lassen.',
    },
  ),
  n(
    'unlock-booking-flows-promo',
    ['upgrade_promo'],
    '30',
    { editions: [3], not_enabled: ['booking_flows'] },
    { en: 'Unlock booking flows', de: 'Buchungsabläufe freischalten' },
    { en: 'Booking flows are part of the Business edition.', de: 'Buchungsabläufe sind Teil der Business-Edition.' },
  ),
];

export const NOTICE_BY_ID = new Map(NOTICES.map((x) => [x.id, x]));
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

/** GET notices/schema: JSON Schema of a notice and of the notice endpoints' payloads. */
export function noticesJsonSchema(): Record<string, unknown> {
  const localized = { type: 'string' };
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'sched/v1/notices',
    title: 'notice',
    type: 'object',
    required: ['id', 'name', 'description', 'type', 'active', 'priority', 'requires'],
    properties: {
      id: { type: 'string', pattern: '^[a-zA-Z0-9_-]+$', enum: NOTICES.map((x) => x.id) },
      name: localized,
      description: localized,
      type: {
        type: 'array',
        items: {
          type: 'string',
          enum: [
            'upgrade_promo',
            'feature_promo',
            'feature_setup',
            'announcement',
            'celebration',
            'blog_post',
            'error_msg',
            'warning_msg',
          ],
        },
      },
      active: { type: 'boolean' },
      priority: { type: 'string', pattern: '^\\d+$', description: '1 = most important … 40 = least' },
      requires: {
        type: 'object',
        additionalProperties: false,
        properties: {
          editions: { type: 'array', items: { type: 'integer', minimum: 1, maximum: 4 } },
          min_appointments: { type: 'integer', minimum: 0 },
          min_days_active: { type: 'integer', minimum: 0 },
          activated_after: { type: 'string', format: 'date' },
          plugins: { type: 'array', items: { type: 'string' } },
          installed: { type: 'array', items: { type: 'string' } },
          not_installed: { type: 'array', items: { type: 'string' } },
          enabled: { type: 'array', items: { type: 'string' } },
          not_enabled: { type: 'array', items: { type: 'string' } },
          capabilities: { type: 'array', items: { type: 'string' } },
          empty_settings: { type: 'array', items: { type: 'string' } },
        },
      },
    },
    $defs: {
      list: {
        type: 'object',
        properties: {
          notice_to_display: { type: 'string' },
          pinned_notices: { type: 'array', items: { type: 'string' } },
        },
      },
      state: {
        type: 'object',
        properties: {
          dismissed: { type: 'boolean' },
          dismissed_globally: { type: 'boolean' },
          dismissed_for_user: { type: 'boolean' },
          pinned: { type: 'boolean' },
          eligible: { type: 'boolean' },
        },
      },
      error_notice: {
        type: 'object',
        required: ['id', 'type', 'priority', 'message'],
        properties: {
          id: { type: 'string' },
          type: { enum: ['error', 'warning'] },
          priority: { type: 'integer' },
          message: { type: 'string' },
          link: { type: 'string' },
          link_message: { type: 'string' },
        },
      },
    },
  };
}
