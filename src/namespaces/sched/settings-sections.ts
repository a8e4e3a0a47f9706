// The sections of sched/v1's settings (reference plugins.md §2.3): their fields with schema
// versions, defaults, computed fields, per-field capabilities and write-only secrets.
import crypto from 'node:crypto';
import type { AppServices } from '../../site/services.ts';
import type { AuthUser } from '../../auth/types.ts';
import type { Lang } from '../../rest/types.ts';
import { phpToMoment } from './dates.ts';
import {
  CALENDAR_EVENT_SCHEMA,
  calendarDefault,
  normalizeCalendarEvent,
  normalizeNotifications,
  NOTIFICATION_SCHEMA,
} from './settings-templates.ts';
import type { FieldSchema } from './validate.ts';

export interface SettingsCtx {
  app: AppServices;
  user: AuthUser | null;
  lang: Lang;
}

export interface FieldDef {
  schema: FieldSchema;
  default: unknown | ((ctx: SettingsCtx) => unknown);
  /** SSA capability needed to see (and write) the field. */
  capability?: string;
  writeonlySecret?: boolean;
  /** Read-only fields are ignored on write (e.g. last_updated). */
  readOnly?: boolean;
  beforeSave?: (value: unknown) => unknown;
  /** beforeSave runs before the schema check, not after it: "UTC+2" is checked as the zone it names. */
  normalizeBeforeCheck?: boolean;
  /** Check of the whole value after the schema check (message when invalid). */
  check?: (value: unknown) => string | null;
}

interface ComputedDef {
  schema: FieldSchema;
  capability?: string;
  compute: (section: Record<string, unknown>, ctx: SettingsCtx, secret: string) => unknown;
}

export interface SectionDef {
  slug: string;
  version: string;
  title: string;
  fields: Record<string, FieldDef>;
  computed?: Record<string, ComputedDef>;
  /** Computed from code only; never stored (the `installed` registry). */
  readOnlySection?: boolean;
}

const bool = (d: boolean, description?: string): FieldDef => ({
  schema: { type: 'boolean', ...(description ? { description } : {}) },
  default: d,
});

/** Maps offsets such as "UTC+2" to a safe IANA name (Etc/GMT-2), as the reference's before-save hook. */
export function safeTimeZone(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const m = /^UTC([+-])(\d{1,2})(?::00)?$/.exec(value.trim());
  if (m) {
    const h = Number(m[2]);
    if (h === 0) return 'UTC';
    return `Etc/GMT${m[1] === '+' ? '-' : '+'}${h}`;
  }
  return value.trim();
}

// ---- the sections -------------------------------------------------------------------------------

export const INSTALLED_MODULES: Record<string, boolean> = {
  blackout_dates: true,
  support: true,
  advanced_scheduling: true,
  calendar_events: true,
  capacity: true,
  developer: true,
  google_calendar: false,
  license: true,
  mailchimp: false,
  notifications: true,
  offline_payments: false,
  payments: false,
  paypal: false,
  reminders: false,
  sms: false,
  staff: true,
  stripe: false,
  styles: true,
  tracking: false,
  translation: true,
  webhooks: false,
  webex: false,
  woocommerce: false,
  zoom: false,
  resources: false,
  booking_flows: false,
};

const DEVELOPER_FLAGS = [
  'enqueue_everywhere',
  'require_proof_token',
  'separate_appointment_type_availability',
  'beta_updates',
  'quick_connect_gcal_mode',
  'display_appointment_revisions',
  'capacity_availability',
  'cache_availability',
  'disable_availability_caching',
  'rate_limiting',
  'object_cache',
  'debug_mode',
  'ssa_debug_mode',
  'display_capacity_available',
  'remove_data_on_uninstall',
];

function siteTimeZone(ctx: SettingsCtx): string {
  return ctx.app.options.timeZone();
}
function siteOption<T>(ctx: SettingsCtx, name: string, fallback: T): T {
  const v = ctx.app.options.get(name);
  return v === undefined || v === null || v === '' ? fallback : (v as T);
}

export const SECTIONS: SectionDef[] = [
  {
    slug: 'global',
    version: '2024-02-09',
    title: 'Global settings',
    fields: {
      enabled: bool(true),
      wizard_completed: { schema: { type: ['string', 'boolean'], maxLength: 19 }, default: '' },
      timezone_string: {
        schema: { type: 'string', maxLength: 64, 'x-check': 'timezone' },
        default: siteTimeZone,
        beforeSave: safeTimeZone,
        normalizeBeforeCheck: true,
      },
      country_code: { schema: { type: 'string', pattern: '^([A-Z]{2})?$' }, default: '' },
      start_of_week: {
        schema: { type: 'integer', minimum: 0, maximum: 6 },
        default: (c: SettingsCtx) => Number(siteOption(c, 'start_of_week', 1)),
      },
      date_format: {
        schema: { type: 'string', minLength: 1, maxLength: 50, 'x-check': 'php-date-format' },
        default: (c: SettingsCtx) => siteOption(c, 'date_format', 'F j, Y'),
      },
      time_format: {
        schema: { type: 'string', minLength: 1, maxLength: 50, 'x-check': 'php-date-format' },
        default: (c: SettingsCtx) => siteOption(c, 'time_format', 'g:i a'),
      },
      admin_email: {
        schema: { type: 'string', format: 'email', maxLength: 254 },
        default: (c: SettingsCtx) => siteOption(c, 'admin_email', ''),
        capability: 'ssa_manage_site_settings',
      },
      admin_phone: {
        schema: { type: 'string', pattern: '^[0-9+()./ -]{0,30}$' },
        default: '',
        capability: 'ssa_manage_site_settings',
      },
      staff_name: {
        schema: { type: 'string', maxLength: 250 },
        default: (c: SettingsCtx) => c.user?.displayName ?? '',
      },
      company_name: {
        schema: { type: 'string', maxLength: 250 },
        default: (c: SettingsCtx) => String(c.app.options.get('blogname') ?? ''),
      },
      last_updated: { schema: { type: ['string', 'null'], readOnly: true }, default: null, readOnly: true },
      booking_post_id: { schema: { type: ['string', 'integer'], pattern: '^\\d*$' }, default: '' },
      edit_appointment_page_id: { schema: { type: 'integer', minimum: 0 }, default: 0 },
      should_display_new_booking_app_banner: { schema: { type: ['string', 'boolean'], maxLength: 20 }, default: '' },
    },
    computed: {
      date_format_moment: {
        schema: { type: 'string', readOnly: true },
        compute: (s) => phpToMoment(String(s.date_format ?? '')),
      },
      time_format_moment: {
        schema: { type: 'string', readOnly: true },
        compute: (s) => phpToMoment(String(s.time_format ?? '')),
      },
      public_read_access_token: {
        schema: { type: 'string', readOnly: true },
        capability: 'ssa_manage_others_appointments',
        compute: (_s, ctx, secret) =>
          crypto
            .createHmac('sha256', secret)
            .update(`public-read:${ctx.app.config.siteUrl}`)
            .digest('hex')
            .slice(0, 32),
      },
      locale: {
        schema: { type: 'string', readOnly: true },
        compute: (_s, ctx) => (ctx.lang === 'de' ? 'de_DE' : 'en_US'),
      },
    },
  },
  {
    slug: 'installed',
    version: '2023-06-19',
    title: 'Installed modules',
    readOnlySection: true,
    fields: Object.fromEntries(
      Object.entries(INSTALLED_MODULES).map(([k, v]) => [
        k,
        { schema: { type: 'boolean', readOnly: true }, default: v, readOnly: true },
      ]),
    ),
  },
  {
    slug: 'advanced_scheduling',
    version: '2018-09-04',
    title: 'Advanced scheduling',
    fields: { enabled: bool(false) },
  },
  {
    slug: 'blackout_dates',
    version: '2018-02-20',
    title: 'Blackout dates',
    fields: {
      enabled: bool(false),
      dates: {
        schema: { type: 'array', maxItems: 3660, items: { type: 'string', 'x-check': 'date' } },
        default: [],
        capability: 'ssa_manage_appointments',
      },
    },
  },
  {
    slug: 'calendar_events',
    version: '2021-09-23 17:50',
    title: 'Calendar events',
    fields: {
      enabled: bool(false),
      event_type_customer: {
        schema: CALENDAR_EVENT_SCHEMA,
        default: calendarDefault('customer', false),
        capability: 'ssa_manage_staff',
        beforeSave: normalizeCalendarEvent,
      },
      event_type_individual_shared: {
        schema: CALENDAR_EVENT_SCHEMA,
        default: calendarDefault('customer', false),
        capability: 'ssa_manage_staff',
        beforeSave: normalizeCalendarEvent,
      },
      event_type_group_shared: {
        schema: CALENDAR_EVENT_SCHEMA,
        default: calendarDefault('customer', true),
        capability: 'ssa_manage_staff',
        beforeSave: normalizeCalendarEvent,
      },
      event_type_individual_admin: {
        schema: CALENDAR_EVENT_SCHEMA,
        default: calendarDefault('admin', false),
        capability: 'ssa_manage_staff',
        beforeSave: normalizeCalendarEvent,
      },
      event_type_group_admin: {
        schema: CALENDAR_EVENT_SCHEMA,
        default: calendarDefault('admin', true),
        capability: 'ssa_manage_staff',
        beforeSave: normalizeCalendarEvent,
      },
    },
  },
  { slug: 'capacity', version: '2020-04-28', title: 'Capacity', fields: { enabled: bool(true) } },
  {
    slug: 'developer',
    version: '2026-07-17',
    title: 'Developer settings',
    fields: { enabled: bool(true), ...Object.fromEntries(DEVELOPER_FLAGS.map((f) => [f, bool(false)])) },
  },
  {
    slug: 'license',
    version: '2024-01-01',
    title: 'Licence',
    fields: {
      enabled: bool(false),
      // Stored locally, never sent anywhere; shown only as the write-only placeholder.
      license_key: {
        schema: { type: 'string', maxLength: 200, pattern: '^[A-Za-z0-9-]*$', writeOnly: true },
        default: '',
        capability: 'ssa_manage_site_settings',
        writeonlySecret: true,
      },
      license_status: { schema: { type: 'string', readOnly: true }, default: 'unchecked', readOnly: true },
    },
  },
  {
    slug: 'notifications',
    version: '2018-09-18 18:30',
    title: 'Notifications',
    fields: {
      enabled: bool(true),
      notifications: {
        schema: { type: 'array', maxItems: 200, items: NOTIFICATION_SCHEMA },
        default: [],
        capability: 'ssa_manage_staff',
        beforeSave: normalizeNotifications,
        check: (v) => {
          const ids = (v as Record<string, unknown>[]).map((n) => n.id).filter((id) => id !== undefined);
          const dup = ids.find((id, i) => ids.indexOf(id) !== i);
          return dup === undefined ? null : `notification id ${String(dup)} is used twice`;
        },
      },
    },
  },
  {
    slug: 'staff',
    version: '2019-12-26.2',
    title: 'Team members',
    fields: { enabled: { schema: { type: ['string', 'boolean'], maxLength: 10 }, default: '' } },
  },
  {
    slug: 'styles',
    version: '2018-10-23',
    title: 'Styles',
    fields: {
      enabled: bool(true),
      font: { schema: { type: 'string', 'x-check': 'font' }, default: 'Roboto' },
      accent_color: { schema: { type: 'string', 'x-check': 'color' }, default: 'rgba(139, 195, 74, 1)' },
      background: { schema: { type: 'string', 'x-check': 'color' }, default: 'rgba(255, 255, 255, 1)' },
      padding: { schema: { type: 'string', 'x-check': 'css-length' }, default: '1rem' },
      contrast: bool(false),
      css: { schema: { type: 'string', maxLength: 100000, 'x-check': 'css' }, default: '' },
    },
  },
  {
    slug: 'translation',
    version: '2019-10-15',
    title: 'Translation',
    fields: {
      enabled: bool(true),
      locales: {
        schema: { type: 'array', maxItems: 100, items: { type: 'string', 'x-check': 'locale' } },
        default: [],
      },
    },
  },
];

export const SECTION_BY_SLUG = new Map(SECTIONS.map((s) => [s.slug, s]));
