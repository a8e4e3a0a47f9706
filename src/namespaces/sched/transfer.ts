// support/export and support/import (reference plugins.md §2.10), for what this server stores:
// the settings and the site-wide notice state. Appointment tables are exported empty (this
// server stores no appointments) and an import must carry them empty.
import type { AppServices } from '../../site/services.ts';
import type { AuthUser } from '../../auth/types.ts';
import type { Lang } from '../../rest/types.ts';
import { utcNow } from '../../site/time.ts';
import { NOTICE_BY_ID } from './notice-catalogue.ts';
import { exportNoticeState, replaceNoticeState } from './notices.ts';
import { getAllSettings, prepareSettingsWrite } from './settings.ts';
import { SECTION_BY_SLUG } from './settings-sections.ts';
import { getMeta, loadSections, saveMeta, saveSection } from './store.ts';

const APPOINTMENT_TYPE_TABLES = [
  'resource_groups',
  'resources',
  'resource_group_resources',
  'staff',
  'appointment_types',
  'staff_appointment_types',
  'resource_group_appointment_types',
  'appointment_type_labels',
];
const APPOINTMENT_TABLES = ['appointments', 'appointment_meta', 'staff_appointments', 'resource_appointments'];
const META_KEYS = ['export_version', 'exported_at', 'site_url'];

export interface ExportFlags {
  settings: boolean;
  notices: boolean;
  appointment_types: boolean;
  appointments: boolean;
  backup: boolean;
}

const isTrue = (v: unknown) => v === true || v === 'true' || v === '1' || v === 1;

/** Flags are strings compared with "true"; with none given, settings and notices are exported. */
export function parseExportFlags(raw: Record<string, unknown>): ExportFlags {
  const f = {
    settings: isTrue(raw.settings),
    notices: isTrue(raw.notices),
    appointment_types: isTrue(raw.appointment_types),
    appointments: isTrue(raw.appointments),
    backup: !(raw.backup === false || raw.backup === 'false' || raw.backup === '0' || raw.backup === 0),
  };
  if (!f.settings && !f.notices && !f.appointment_types && !f.appointments) {
    f.settings = true;
    f.notices = true;
  }
  return f;
}

function cleanNotificationsForExport(settings: Record<string, unknown>): void {
  const section = settings.notifications as Record<string, unknown> | undefined;
  if (!section || !Array.isArray(section.notifications)) return;
  section.notifications = section.notifications.map((n: Record<string, unknown>) => ({
    ...n,
    ...(typeof n.subject === 'string' ? { subject: n.subject.replace(/<[^>]*>/g, '') } : {}),
    ...(typeof n.message === 'string' ? { message: n.message.replace(/&quot;/g, '"') } : {}),
  }));
}

export async function buildExport(
  app: AppServices,
  user: AuthUser | null,
  lang: Lang,
  flags: ExportFlags,
): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = { export_version: 1, exported_at: utcNow(), site_url: app.config.siteUrl };
  if (flags.settings) {
    // Unfiltered (administrators only), but write-only secrets stay redacted.
    const settings = await getAllSettings({ app, user, lang }, { filter: false });
    cleanNotificationsForExport(settings);
    out.settings = settings;
  }
  if (flags.notices) out.notices = await exportNoticeState(app);
  if (flags.appointment_types) for (const t of APPOINTMENT_TYPE_TABLES) out[t] = [];
  if (flags.appointments || flags.appointment_types) for (const t of APPOINTMENT_TABLES) out[t] = [];
  return out;
}

/** Keeps the export as an internal backup (unless backup=false). Returns the backup id. */
export async function storeBackup(app: AppServices, content: Record<string, unknown>): Promise<number> {
  const row = await app.db
    .insertInto('sched_backups')
    .values({ content: JSON.stringify(content), created_at: utcNow() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export class ImportError extends Error {
  problems: string[];
  constructor(problems: string[]) {
    super(problems.join('; '));
    this.problems = problems;
  }
}

/**
 * Validates the whole import first; throws ImportError listing every problem (nothing is
 * written). Then applies it in one transaction. Returns the parts imported.
 */
export async function applyImport(
  app: AppServices,
  user: AuthUser | null,
  lang: Lang,
  content: unknown,
): Promise<string[]> {
  if (typeof content !== 'string' || content.trim() === '')
    throw new ImportError(['content is required: the JSON text of an export']);
  let data: unknown;
  try {
    data = JSON.parse(content);
  } catch (err) {
    throw new ImportError([`Invalid data format: ${(err as Error).message}`]);
  }
  if (!data || typeof data !== 'object' || Array.isArray(data))
    throw new ImportError(['Invalid data format: the export must be a JSON object']);
  const obj = data as Record<string, unknown>;
  const problems: string[] = [];
  const known = new Set(['settings', 'notices', ...META_KEYS, ...APPOINTMENT_TYPE_TABLES, ...APPOINTMENT_TABLES]);
  for (const key of Object.keys(obj)) if (!known.has(key)) problems.push(`unknown key "${key}"`);
  for (const key of [...APPOINTMENT_TYPE_TABLES, ...APPOINTMENT_TABLES]) {
    if (!(key in obj)) continue;
    if (!Array.isArray(obj[key])) problems.push(`${key} must be an array`);
    else if ((obj[key] as unknown[]).length)
      problems.push(`${key}: this server stores no appointment data, so ${key} must be empty`);
  }
  if ('export_version' in obj && obj.export_version !== 1) problems.push('export_version must be 1');

  const meta = await getMeta(app);
  const stored = await loadSections(app.db);
  let sections = new Map<string, Record<string, unknown>>();
  if ('settings' in obj) {
    const s = obj.settings;
    if (!s || typeof s !== 'object' || Array.isArray(s)) problems.push('settings must be an object keyed by section');
    else {
      const sp: Record<string, string[]> = Object.create(null); // keyed by the caller's section names
      sections = await prepareSettingsWrite({ app, user, lang }, s as Record<string, unknown>, stored, sp);
      for (const [k, msgs] of Object.entries(sp)) for (const m of msgs) problems.push(`settings.${k}: ${m}`);
    }
  }
  let notices: { dismissed: string[]; pinned: string[] } | null = null;
  if ('notices' in obj) {
    const nv = obj.notices as Record<string, unknown> | null;
    if (!nv || typeof nv !== 'object' || Array.isArray(nv))
      problems.push('notices must be an object with "dismissed" and "pinned"');
    else {
      const list = (k: 'dismissed' | 'pinned') => {
        const v = nv[k] ?? [];
        if (!Array.isArray(v)) {
          problems.push(`notices.${k} must be an array of notice ids`);
          return [];
        }
        v.forEach((id, i) => {
          if (typeof id !== 'string' || !NOTICE_BY_ID.has(id))
            problems.push(`notices.${k}[${i}]: unknown notice ${JSON.stringify(id)}`);
        });
        return v.filter((id): id is string => typeof id === 'string');
      };
      for (const k of Object.keys(nv))
        if (k !== 'dismissed' && k !== 'pinned') problems.push(`notices.${k} is not a known property`);
      notices = { dismissed: list('dismissed'), pinned: list('pinned') };
    }
  }
  if (problems.length) throw new ImportError(problems);

  const now = utcNow();
  await app.db.transaction().execute(async (tx) => {
    for (const [slug, fields] of sections) await saveSection(tx, slug, fields, now);
    if (sections.size) await saveMeta(tx, { ...meta, last_updated: now }, now);
    if (notices) await replaceNoticeState(tx, notices);
  });
  const parts: string[] = [];
  if (sections.size) parts.push(`settings (${[...sections.keys()].filter((s) => SECTION_BY_SLUG.has(s)).join(', ')})`);
  if (notices) parts.push('notices');
  return parts;
}
