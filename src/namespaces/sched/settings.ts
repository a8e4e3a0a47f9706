// Settings of sched/v1 (reference plugins.md §2.3): sections with schema versions, defaults,
// computed fields, per-field capabilities and write-only secrets, stored in `sched_settings`.
import crypto from 'node:crypto';
import type { AppServices } from '../../site/services.ts';
import type { AuthUser } from '../../auth/types.ts';
import type { Lang } from '../../rest/types.ts';
import { utcNow } from '../../site/time.ts';
import { ownValue } from '../../util.ts';
import { userCan } from './caps.ts';
import { deleteSection, getMeta, loadSectionForUpdate, loadSections, saveMeta, saveSection } from './store.ts';
import { checkFieldValue, collectChecked, publishSchema, type FieldSchema } from './validate.ts';
import { normalizeTemplate } from './twig.ts';
import { TemplateLimitError } from './twig-errors.ts';
import { validateInBox } from './template-box.ts';

export const REDACTED = 'redacted-writeonly-secret';

export interface SettingsCtx {
  app: AppServices;
  user: AuthUser | null;
  lang: Lang;
}

interface FieldDef {
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

const bool = (d: boolean, description?: string): FieldDef => ({ schema: { type: 'boolean', ...(description ? { description } : {}) }, default: d });

// ---- Twig template objects ------------------------------------------------------------------

const TRIGGERS = ['appointment_booked', 'appointment_pending', 'appointment_canceled', 'appointment_rescheduled', 'appointment_start_date', 'appointment_abandoned', 'appointment_customer_information_edited'] as const;

export const NOTIFICATION_SCHEMA: FieldSchema = {
  type: 'object',
  required: ['title', 'type', 'trigger', 'sent_to', 'message'],
  additionalProperties: false,
  properties: {
    id: { type: 'integer', minimum: 1 },
    schema: { type: 'string', maxLength: 20 },
    title: { type: 'string', minLength: 1, maxLength: 200 },
    type: { type: 'string', enum: ['email', 'sms'] },
    trigger: { type: 'string', enum: TRIGGERS },
    when: { type: 'string', enum: ['after', 'before'] },
    duration: { type: 'integer', minimum: 0, maximum: 525600 },
    sent_to: { type: 'array', maxItems: 50, items: { type: 'string', maxLength: 254, 'x-check': 'recipient' } },
    cc: { type: 'array', maxItems: 50, items: { type: 'string', maxLength: 254, 'x-check': 'recipient' } },
    bcc: { type: 'array', maxItems: 50, items: { type: 'string', maxLength: 254, 'x-check': 'recipient' } },
    subject: { type: 'string', maxLength: 1000, 'x-check': 'twig-template' },
    message: { type: 'string', maxLength: 200000, 'x-check': 'twig-template' },
    appointment_types: { type: 'array', items: { type: 'integer', minimum: 1 } },
    active: { type: 'boolean' },
    last_modified: { type: ['string', 'null'], maxLength: 19 },
  },
};

const CALENDAR_EVENT_SCHEMA: FieldSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    title: { type: 'string', maxLength: 1000, 'x-check': 'twig-template' },
    details: { type: 'string', maxLength: 100000, 'x-check': 'twig-template' },
    location: { type: 'string', maxLength: 1000, 'x-check': 'twig-template' },
  },
};

function calendarDefault(who: 'customer' | 'admin', group: boolean): Record<string, string> {
  return who === 'customer'
    ? { title: '{{ Appointment.AppointmentType.title }}', details: '{{ instructions }}', location: '{{ location }}' }
    : {
        title: group ? '{{ Appointment.AppointmentType.title }} ({{ attendees_list }})' : '{{ Appointment.AppointmentType.title }} ({{ Appointment.customer_information.Name }})',
        details: '{{ Appointment.customer_information_summary }}',
        location: '{{ location }}',
      };
}

/** Cleans `{{ }}` spacing and stray tags of templates before they are saved. */
function normalizeNotifications(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  // New notifications get a unix-timestamp-like id, unique within the list.
  const used = new Set(value.map((n) => (n && typeof n === 'object' ? (n as Record<string, unknown>).id : undefined)).filter((id) => typeof id === 'number'));
  let nextId = Math.floor(Date.now() / 1000);
  return value.map((n) => {
    if (!n || typeof n !== 'object') return n;
    const out = { ...(n as Record<string, unknown>) };
    if (typeof out.id !== 'number') {
      while (used.has(nextId)) nextId++;
      out.id = nextId;
      used.add(nextId);
    }
    if (typeof out.subject === 'string') out.subject = normalizeTemplate(out.subject);
    if (typeof out.message === 'string') out.message = normalizeTemplate(out.message);
    out.schema ??= '2019-04-02';
    out.when ??= 'after';
    out.duration ??= 0;
    out.appointment_types ??= [];
    out.active ??= true;
    out.last_modified = utcNow();
    return out;
  });
}

function normalizeCalendarEvent(value: unknown): unknown {
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, typeof v === 'string' ? normalizeTemplate(v) : v]));
}

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

// ---- PHP date formats → Moment.js tokens ------------------------------------------------------

const PHP_TO_MOMENT: Record<string, string> = {
  d: 'DD', D: 'ddd', j: 'D', l: 'dddd', N: 'E', S: 'o', w: 'e', z: 'DDD', W: 'W', F: 'MMMM', m: 'MM', M: 'MMM', n: 'M', t: '', L: '',
  o: 'GGGG', Y: 'YYYY', y: 'YY', a: 'a', A: 'A', B: '', g: 'h', G: 'H', h: 'hh', H: 'HH', i: 'mm', s: 'ss', u: 'SSSSSS', v: 'SSS',
  e: 'zz', I: '', O: 'ZZ', P: 'Z', p: 'Z', T: 'z', Z: '', c: 'YYYY-MM-DD[T]HH:mm:ssZ', r: 'ddd, DD MMM YYYY HH:mm:ss ZZ', U: 'X',
};

export function phpToMoment(format: string): string {
  let out = '';
  for (let i = 0; i < format.length; i++) {
    const ch = format[i];
    if (ch === '\\') {
      i++;
      if (i < format.length) out += `[${format[i]}]`;
      continue;
    }
    if (ch === 'j' && format[i + 1] === 'S') {
      out += 'Do';
      i++;
      continue;
    }
    if (Object.hasOwn(PHP_TO_MOMENT, ch)) out += PHP_TO_MOMENT[ch];
    else if (/[A-Za-z]/.test(ch)) out += `[${ch}]`;
    else out += ch;
  }
  return out;
}

// ---- the sections -------------------------------------------------------------------------------

export const INSTALLED_MODULES: Record<string, boolean> = {
  blackout_dates: true, support: true, advanced_scheduling: true, calendar_events: true, capacity: true, developer: true,
  google_calendar: false, license: true, mailchimp: false, notifications: true, offline_payments: false, payments: false,
  paypal: false, reminders: false, sms: false, staff: true, stripe: false, styles: true, tracking: false, translation: true,
  webhooks: false, webex: false, woocommerce: false, zoom: false, resources: false, booking_flows: false,
};

const DEVELOPER_FLAGS = [
  'enqueue_everywhere', 'require_proof_token', 'separate_appointment_type_availability', 'beta_updates', 'quick_connect_gcal_mode',
  'display_appointment_revisions', 'capacity_availability', 'cache_availability', 'disable_availability_caching', 'rate_limiting',
  'object_cache', 'debug_mode', 'ssa_debug_mode', 'display_capacity_available', 'remove_data_on_uninstall',
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
      timezone_string: { schema: { type: 'string', maxLength: 64, 'x-check': 'timezone' }, default: siteTimeZone, beforeSave: safeTimeZone, normalizeBeforeCheck: true },
      country_code: { schema: { type: 'string', pattern: '^([A-Z]{2})?$' }, default: '' },
      start_of_week: { schema: { type: 'integer', minimum: 0, maximum: 6 }, default: (c: SettingsCtx) => Number(siteOption(c, 'start_of_week', 1)) },
      date_format: { schema: { type: 'string', minLength: 1, maxLength: 50, 'x-check': 'php-date-format' }, default: (c: SettingsCtx) => siteOption(c, 'date_format', 'F j, Y') },
      time_format: { schema: { type: 'string', minLength: 1, maxLength: 50, 'x-check': 'php-date-format' }, default: (c: SettingsCtx) => siteOption(c, 'time_format', 'g:i a') },
      admin_email: { schema: { type: 'string', format: 'email', maxLength: 254 }, default: (c: SettingsCtx) => siteOption(c, 'admin_email', ''), capability: 'ssa_manage_site_settings' },
      admin_phone: { schema: { type: 'string', pattern: '^[0-9+()./ -]{0,30}$' }, default: '', capability: 'ssa_manage_site_settings' },
      staff_name: { schema: { type: 'string', maxLength: 250 }, default: (c: SettingsCtx) => c.user?.displayName ?? '' },
      company_name: { schema: { type: 'string', maxLength: 250 }, default: (c: SettingsCtx) => String(c.app.options.get('blogname') ?? '') },
      last_updated: { schema: { type: ['string', 'null'], readOnly: true }, default: null, readOnly: true },
      booking_post_id: { schema: { type: ['string', 'integer'], pattern: '^\\d*$' }, default: '' },
      edit_appointment_page_id: { schema: { type: 'integer', minimum: 0 }, default: 0 },
      should_display_new_booking_app_banner: { schema: { type: ['string', 'boolean'], maxLength: 20 }, default: '' },
    },
    computed: {
      date_format_moment: { schema: { type: 'string', readOnly: true }, compute: (s) => phpToMoment(String(s.date_format ?? '')) },
      time_format_moment: { schema: { type: 'string', readOnly: true }, compute: (s) => phpToMoment(String(s.time_format ?? '')) },
      public_read_access_token: {
        schema: { type: 'string', readOnly: true },
        capability: 'ssa_manage_others_appointments',
        compute: (_s, ctx, secret) => crypto.createHmac('sha256', secret).update(`public-read:${ctx.app.config.siteUrl}`).digest('hex').slice(0, 32),
      },
      locale: { schema: { type: 'string', readOnly: true }, compute: (_s, ctx) => (ctx.lang === 'de' ? 'de_DE' : 'en_US') },
    },
  },
  {
    slug: 'installed',
    version: '2023-06-19',
    title: 'Installed modules',
    readOnlySection: true,
    fields: Object.fromEntries(Object.entries(INSTALLED_MODULES).map(([k, v]) => [k, { schema: { type: 'boolean', readOnly: true }, default: v, readOnly: true }])),
  },
  { slug: 'advanced_scheduling', version: '2018-09-04', title: 'Advanced scheduling', fields: { enabled: bool(false) } },
  {
    slug: 'blackout_dates',
    version: '2018-02-20',
    title: 'Blackout dates',
    fields: {
      enabled: bool(false),
      dates: { schema: { type: 'array', maxItems: 3660, items: { type: 'string', 'x-check': 'date' } }, default: [], capability: 'ssa_manage_appointments' },
    },
  },
  {
    slug: 'calendar_events',
    version: '2021-09-23 17:50',
    title: 'Calendar events',
    fields: {
      enabled: bool(false),
      event_type_customer: { schema: CALENDAR_EVENT_SCHEMA, default: calendarDefault('customer', false), capability: 'ssa_manage_staff', beforeSave: normalizeCalendarEvent },
      event_type_individual_shared: { schema: CALENDAR_EVENT_SCHEMA, default: calendarDefault('customer', false), capability: 'ssa_manage_staff', beforeSave: normalizeCalendarEvent },
      event_type_group_shared: { schema: CALENDAR_EVENT_SCHEMA, default: calendarDefault('customer', true), capability: 'ssa_manage_staff', beforeSave: normalizeCalendarEvent },
      event_type_individual_admin: { schema: CALENDAR_EVENT_SCHEMA, default: calendarDefault('admin', false), capability: 'ssa_manage_staff', beforeSave: normalizeCalendarEvent },
      event_type_group_admin: { schema: CALENDAR_EVENT_SCHEMA, default: calendarDefault('admin', true), capability: 'ssa_manage_staff', beforeSave: normalizeCalendarEvent },
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
      license_key: { schema: { type: 'string', maxLength: 200, pattern: '^[A-Za-z0-9-]*$', writeOnly: true }, default: '', capability: 'ssa_manage_site_settings', writeonlySecret: true },
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
  { slug: 'staff', version: '2019-12-26.2', title: 'Team members', fields: { enabled: { schema: { type: ['string', 'boolean'], maxLength: 10 }, default: '' } } },
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
    fields: { enabled: bool(true), locales: { schema: { type: 'array', maxItems: 100, items: { type: 'string', 'x-check': 'locale' } }, default: [] } },
  },
];

export const SECTION_BY_SLUG = new Map(SECTIONS.map((s) => [s.slug, s]));

/** Names that may appear in a written section without being fields (the output's extras). */
function ignorableKeys(def: SectionDef): Set<string> {
  return new Set(['schema_version', 'last_updated', ...Object.keys(def.computed ?? {})]);
}

function defaultOf(f: FieldDef, ctx: SettingsCtx): unknown {
  const d = typeof f.default === 'function' ? (f.default as (c: SettingsCtx) => unknown)(ctx) : f.default;
  return structuredClone(d);
}

/** Stored fields merged over defaults (rule 1), unredacted, without computed fields. */
function rawSection(def: SectionDef, stored: Record<string, unknown> | undefined, ctx: SettingsCtx): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, f] of Object.entries(def.fields)) {
    out[name] = !def.readOnlySection && stored && Object.hasOwn(stored, name) && !f.readOnly ? stored[name] : defaultOf(f, ctx);
  }
  return out;
}

interface ReadOptions {
  /** Remove fields the user may not see (default true). */
  filter?: boolean;
  /** Replace secrets with the placeholder (default true). */
  redact?: boolean;
}

function presentSection(def: SectionDef, stored: { fields: Record<string, unknown>; updatedAt: string } | undefined, ctx: SettingsCtx, secret: string, opts: ReadOptions = {}): Record<string, unknown> {
  const filter = opts.filter !== false;
  const redact = opts.redact !== false;
  const raw = rawSection(def, stored?.fields, ctx);
  const out: Record<string, unknown> = {};
  for (const [name, f] of Object.entries(def.fields)) {
    if (filter && f.capability && !userCan(ctx.user, f.capability)) continue;
    let v = raw[name];
    if (f.writeonlySecret && redact && typeof v === 'string' && v !== '') v = REDACTED;
    out[name] = v;
  }
  if (def.slug === 'global' && !out.timezone_string) out.timezone_string = 'UTC';
  for (const [name, c] of Object.entries(def.computed ?? {})) {
    if (filter && c.capability && !userCan(ctx.user, c.capability)) continue;
    out[name] = c.compute(raw, ctx, secret);
  }
  out.schema_version = def.version;
  out.last_updated = stored ? stored.updatedAt : (out.last_updated ?? null);
  return out;
}

/** GET settings: every section, filtered for the caller. */
export async function getAllSettings(ctx: SettingsCtx, opts: ReadOptions = {}): Promise<Record<string, unknown>> {
  const [stored, meta] = await Promise.all([loadSections(ctx.app.db), getMeta(ctx.app)]);
  const out: Record<string, unknown> = {};
  for (const def of SECTIONS) out[def.slug] = presentSection(def, stored.get(def.slug), ctx, meta.site_secret, opts);
  out.last_updated = meta.last_updated;
  return out;
}

/** GET settings/<id>: one section, or null when there is no such section. */
export async function getSection(ctx: SettingsCtx, slug: string): Promise<Record<string, unknown> | null> {
  const def = SECTION_BY_SLUG.get(slug.toLowerCase());
  if (!def) return null;
  const [stored, meta] = await Promise.all([loadSections(ctx.app.db), getMeta(ctx.app)]);
  return presentSection(def, stored.get(def.slug), ctx, meta.site_secret);
}

/** Raw stored+default values of a section (server-side use: debug flags, templates). */
export async function readSectionValues(app: AppServices, slug: string): Promise<Record<string, unknown>> {
  const def = SECTION_BY_SLUG.get(slug);
  if (!def) throw new Error(`unknown section ${slug}`);
  const stored = await loadSections(app.db);
  return rawSection(def, stored.get(slug)?.fields, { app, user: null, lang: 'en' });
}

export class SettingsValidationError extends Error {
  problems: Record<string, string[]>;
  constructor(problems: Record<string, string[]>) {
    super(Object.entries(problems).map(([k, v]) => `${k}: ${v.join('; ')}`).join(' | '));
    this.problems = problems;
  }
}

/**
 * Checks the templates among the written fields in the template box, one after another (outside
 * any transaction: a write may carry hundreds). Problems go to `problems[<section>.<field>]`; a
 * template beyond the box's limits throws its TemplateLimitError, naming the field.
 */
async function checkTemplates(def: SectionDef, input: Record<string, unknown>, problems: Record<string, string[]>): Promise<void> {
  for (const [name, value] of Object.entries(input)) {
    const f = Object.hasOwn(def.fields, name) ? def.fields[name] : undefined;
    if (!f) continue;
    for (const { path, source } of collectChecked(f.schema, value, name, 'twig-template')) {
      try {
        const r = await validateInBox(source);
        if (!r.success) (problems[`${def.slug}.${name}`] ??= []).push(`${path}: ${r.error ?? 'invalid template'}`);
      } catch (err) {
        if (err instanceof TemplateLimitError) err.param = `${def.slug}.${path}`;
        throw err;
      }
    }
  }
}

/**
 * Validates fields for a section. `replace` = the section object replaces the stored one
 * (POST settings, import); otherwise fields merge into it. Returns the fields to store.
 * Problems are collected into `problems[<section>.<field>]`.
 */
export function prepareSectionWrite(
  def: SectionDef,
  input: Record<string, unknown>,
  current: Record<string, unknown>,
  ctx: SettingsCtx,
  replace: boolean,
  problems: Record<string, string[]>,
): Record<string, unknown> {
  const next: Record<string, unknown> = replace ? rawSection(def, undefined, ctx) : { ...current };
  const ignorable = ignorableKeys(def);
  for (const [name, value] of Object.entries(input)) {
    const key = `${def.slug}.${name}`;
    // A field of the section's own: {"constructor":1} found Object's constructor (a 500).
    const f = ownValue(def.fields, name);
    if (!f) {
      if (!ignorable.has(name)) (problems[key] ??= []).push(`unknown field "${name}" of section "${def.slug}"`);
      continue;
    }
    if (f.readOnly) continue;
    if (f.capability && !userCan(ctx.user, f.capability)) {
      (problems[key] ??= []).push(`you may not change "${name}"`);
      continue;
    }
    if (f.writeonlySecret && value === REDACTED) {
      next[name] = current[name];
      continue;
    }
    const errors: string[] = [];
    let v = f.beforeSave && f.normalizeBeforeCheck ? f.beforeSave(value) : value;
    v = checkFieldValue(f.schema, v, name, errors);
    if (!errors.length && f.check) {
      const msg = f.check(v);
      if (msg) errors.push(`${name}: ${msg}`);
    }
    if (errors.length) {
      (problems[key] ??= []).push(...errors);
      continue;
    }
    if (f.beforeSave && !f.normalizeBeforeCheck) v = f.beforeSave(v);
    next[name] = v;
  }
  // Readonly fields are never stored.
  for (const [name, f] of Object.entries(def.fields)) if (f.readOnly) delete next[name];
  return next;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

/**
 * POST/PUT/PATCH settings/<id>: field-level merge into one section. Returns null when the
 * section does not exist; throws SettingsValidationError on invalid input.
 */
export async function updateSection(ctx: SettingsCtx, slug: string, input: Record<string, unknown>): Promise<Record<string, unknown> | null> {
  const def = SECTION_BY_SLUG.get(slug.toLowerCase());
  if (!def) return null;
  if (def.readOnlySection) throw new SettingsValidationError({ [def.slug]: ['this section is read-only: it lists the modules of this server'] });
  const meta = await getMeta(ctx.app);
  const templateProblems: Record<string, string[]> = {};
  await checkTemplates(def, input, templateProblems);
  const now = utcNow();
  // Read-modify-write in one transaction; on PostgreSQL the row is locked, so concurrent
  // field updates of the same section never lose each other's changes.
  const next = await ctx.app.db.transaction().execute(async (tx) => {
    const stored = await loadSectionForUpdate(tx, def.slug, ctx.app.dialect === 'postgres');
    const current = rawSection(def, stored, ctx);
    const problems: Record<string, string[]> = Object.assign(Object.create(null), templateProblems); // keyed by the caller's section names
    const fields = prepareSectionWrite(def, input, current, ctx, false, problems);
    if (Object.keys(problems).length) throw new SettingsValidationError(problems);
    await saveSection(tx, def.slug, fields, now);
    return fields;
  });
  return presentSection(def, { fields: next, updatedAt: now }, ctx, meta.site_secret);
}

/** Validates a whole settings object (POST settings, import). Returns the sections to store. */
export async function prepareSettingsWrite(ctx: SettingsCtx, input: Record<string, unknown>, stored: Map<string, { fields: Record<string, unknown> }>, problems: Record<string, string[]>): Promise<Map<string, Record<string, unknown>>> {
  const out = new Map<string, Record<string, unknown>>();
  for (const [slug, value] of Object.entries(input)) {
    if (slug === 'last_updated') continue;
    const def = SECTION_BY_SLUG.get(slug);
    if (!def) {
      (problems[slug] ??= []).push(`unknown settings section "${slug}"`);
      continue;
    }
    if (!isPlainObject(value)) {
      (problems[slug] ??= []).push(`section "${slug}" must be an object`);
      continue;
    }
    if (def.readOnlySection) continue; // exported with the settings; this server's modules are fixed
    await checkTemplates(def, value, problems);
    const current = rawSection(def, stored.get(slug)?.fields, ctx);
    out.set(slug, prepareSectionWrite(def, value, current, ctx, true, problems));
  }
  return out;
}

/** POST settings: section-level replace of the given sections; returns the complete settings. */
export async function updateSettings(ctx: SettingsCtx, input: Record<string, unknown>): Promise<{ settings: Record<string, unknown>; sections: string[] }> {
  const meta = await getMeta(ctx.app);
  const stored = await loadSections(ctx.app.db);
  const problems: Record<string, string[]> = Object.create(null); // keyed by the caller's section names
  const writes = await prepareSettingsWrite(ctx, input, stored, problems);
  if (Object.keys(problems).length) throw new SettingsValidationError(problems);
  const now = utcNow();
  await ctx.app.db.transaction().execute(async (tx) => {
    for (const [slug, fields] of writes) await saveSection(tx, slug, fields, now);
    await saveMeta(tx, { ...meta, last_updated: now }, now);
  });
  return { settings: await getAllSettings(ctx), sections: [...writes.keys()] };
}

/** DELETE settings/<id>: back to defaults; returns the section (null when unknown). */
export async function resetSection(ctx: SettingsCtx, slug: string): Promise<Record<string, unknown> | null> {
  const def = SECTION_BY_SLUG.get(slug.toLowerCase());
  if (!def) return null;
  await deleteSection(ctx.app.db, def.slug);
  const meta = await getMeta(ctx.app);
  return presentSection(def, undefined, ctx, meta.site_secret);
}

/** GET settings/schema: a JSON Schema (draft 2020-12) of every section. */
export function settingsJsonSchema(): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const def of SECTIONS) {
    const props: Record<string, unknown> = {};
    for (const [name, f] of Object.entries(def.fields)) {
      const s = publishSchema(f.schema);
      const d = typeof f.default === 'function' ? undefined : f.default;
      props[name] = {
        ...s,
        ...(d !== undefined ? { default: d } : {}),
        ...(f.readOnly ? { readOnly: true } : {}),
        ...(f.writeonlySecret ? { writeOnly: true, 'x-redacted-as': REDACTED } : {}),
        ...(f.capability ? { 'x-required-capability': f.capability } : {}),
      };
    }
    for (const [name, c] of Object.entries(def.computed ?? {})) {
      props[name] = { ...publishSchema(c.schema), readOnly: true, 'x-computed': true, ...(c.capability ? { 'x-required-capability': c.capability } : {}) };
    }
    props.schema_version = { type: 'string', const: def.version, readOnly: true };
    props.last_updated = { type: ['string', 'null'], readOnly: true, description: 'UTC YYYY-MM-DD HH:MM:SS of the last save' };
    properties[def.slug] = {
      type: 'object',
      title: def.title,
      'x-schema-version': def.version,
      ...(def.readOnlySection ? { readOnly: true } : {}),
      properties: props,
      additionalProperties: false,
    };
  }
  properties.last_updated = { type: ['string', 'null'], readOnly: true };
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'sched/v1/settings',
    title: 'sched settings',
    type: 'object',
    properties,
    additionalProperties: false,
  };
}
