// The operations behind the sched/v1 routes: each takes the app (and caller) and returns the
// response body, so handlers stay one line and tests can call these directly.
import type { AppServices } from '../../site/services.ts';
import type { AuthUser } from '../../auth/types.ts';
import { restError } from '../../rest/define.ts';
import { invalidParamsError } from '../../rest/param-errors.ts';
import { RestError, RestResponse, type Lang, type RestRequest } from '../../rest/types.ts';
import { setOwn } from '../../util.ts';
import { envelope, sendEnvelope } from './envelope.ts';
import { schedLogger } from './logger.ts';
import { MSG } from './messages.ts';
import {
  getAllSettings,
  getSection,
  resetSection,
  SettingsValidationError,
  updateSection,
  updateSettings,
} from './settings.ts';
import { SECTION_BY_SLUG } from './settings-sections.ts';
import { dismissNotice, getNotice, listNotices, pinNotice, restoreNotice, unpinNotice } from './notices.ts';
import { NOTICE_BY_ID } from './notice-catalogue.ts';
import { errorNotices } from './errors.ts';
import { TemplateLimitError } from './twig-errors.ts';
import { validateInBox } from './template-box.ts';
import { renderPreview } from './preview.ts';
import { createTicket, supportStatus, validateTicket } from './support.ts';
import { clearDebugLog, logExists, readDebugLog, readWholeLog, schedDebug, type LogKind } from './debuglog.ts';
import { applyImport, buildExport, ImportError, parseExportFlags, storeBackup } from './transfer.ts';
import { fetchGuides, parseGuideQuery } from './guides.ts';
import { embedScript } from './embed.ts';
import type { CheckHooks } from './checks.ts';
import { loggerEntry, recordWrite } from '../../site/activity.ts';

/** What the operations need to know about the caller. */
export interface Caller {
  app: AppServices;
  user: AuthUser | null;
  lang: Lang;
  ip: string;
}

/** Hooks for tests (simulated disk, SMTP timeout). */
export const hooks: CheckHooks = {};

/** Names the route or the framework gives meaning to, never a field of a section or ticket. */
const RESERVED = new Set(['setting_id', 'notice_id', 'context', 'force']);

/** The body fields of a write (an open body: `undeclaredParams`), without the route's own names. */
export function bodyFields(req: RestRequest): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(req.undeclared)) if (!RESERVED.has(k)) setOwn(out, k, v);
  return out;
}

export function truthy(v: unknown): boolean | null {
  if (v === true || v === 1 || v === '1' || v === 'true' || v === 'yes' || v === 'on') return true;
  if (v === false || v === 0 || v === '0' || v === 'false' || v === 'no' || v === 'off' || v === '') return false;
  return null;
}

/** Records a committed write in the activity log (recordWrite: a failed log write is not the caller's error). */
function log(
  c: Caller,
  messageKey: keyof typeof schedLogger.messages,
  context: Record<string, unknown>,
): Promise<void> {
  return recordWrite(c.app, loggerEntry(schedLogger, messageKey, context), { user: c.user, ip: c.ip, rest: true });
}

/** A template beyond the template box's limits becomes 422 `sched_template_limit`; other errors pass unchanged. */
function templateLimitError(c: Caller, err: unknown): unknown {
  if (!(err instanceof TemplateLimitError)) return err;
  return restError(c, 'sched_template_limit', MSG.templateLimit(err.limit, err.message), 422, {
    limit: err.limit,
    line: err.line,
    ...(err.param ? { params: { [err.param]: err.message } } : {}),
  });
}

function invalidParams(c: Caller, problems: Record<string, string[] | string>): RestError {
  return invalidParamsError(
    c,
    Object.fromEntries(Object.entries(problems).map(([k, v]) => [k, Array.isArray(v) ? v.join('; ') : v])),
  );
}

const sectionMissing = () => sendEnvelope(envelope([], 404, 'section-missing'));
const noticeMissing = () => sendEnvelope(envelope([], 404, 'notice-missing'));

// ---- settings --------------------------------------------------------------------------------

export async function getSettingsOp(c: Caller): Promise<unknown> {
  return envelope(await getAllSettings(c));
}

export async function postSettingsOp(c: Caller, input: Record<string, unknown>): Promise<unknown> {
  const unknown = Object.keys(input).filter((k) => !SECTION_BY_SLUG.has(k) && k !== 'last_updated');
  if (unknown.length) {
    throw restError(c, 'sched_unknown_settings', MSG.unknownSections(unknown), 400, {
      params: Object.fromEntries(unknown.map((k) => [k, `unknown settings section "${k}"`])),
    });
  }
  if (!Object.keys(input).some((k) => k !== 'last_updated')) return envelope(await getAllSettings(c));
  try {
    const { settings, sections } = await updateSettings(c, input);
    if (sections.length) {
      await log(c, 'settings_updated', { sections: sections.join(', ') });
      await schedDebug(c.app, 'settings updated', { sections, user: c.user?.login });
    }
    return envelope(settings);
  } catch (err) {
    if (err instanceof SettingsValidationError) throw invalidParams(c, err.problems);
    throw templateLimitError(c, err);
  }
}

export async function getSettingOp(c: Caller, id: string): Promise<unknown> {
  const section = await getSection(c, id);
  return section ? envelope(section) : sectionMissing();
}

export async function updateSettingOp(c: Caller, id: string, input: Record<string, unknown>): Promise<unknown> {
  if (Object.keys(input).length === 0) return getSettingOp(c, id); // nothing to change: no write, no log entry
  try {
    const section = await updateSection(c, id, input);
    if (!section) return sectionMissing();
    await log(c, 'settings_updated', { sections: id.toLowerCase(), fields: Object.keys(input).join(', ') });
    await schedDebug(c.app, 'settings section updated', { section: id, fields: Object.keys(input) });
    return envelope(section);
  } catch (err) {
    if (err instanceof SettingsValidationError) throw invalidParams(c, err.problems);
    throw templateLimitError(c, err);
  }
}

export async function deleteSettingOp(c: Caller, id: string, force: unknown): Promise<unknown> {
  if (!SECTION_BY_SLUG.has(id.toLowerCase())) return sectionMissing();
  if (truthy(force) !== true) {
    throw restError(c, 'rest_trash_not_supported', MSG.settingsNotTrashable, 400);
  }
  if (SECTION_BY_SLUG.get(id.toLowerCase())!.readOnlySection)
    throw invalidParams(c, { [id]: 'this section is read-only' });
  const section = await resetSection(c, id);
  await log(c, 'section_reset', { section: id.toLowerCase() });
  return envelope(section);
}

// ---- notices ---------------------------------------------------------------------------------

export async function listNoticesOp(c: Caller): Promise<unknown> {
  return envelope(await listNotices(c));
}

export async function getNoticeOp(c: Caller, id: string): Promise<unknown> {
  const n = await getNotice(c, id);
  return n ? envelope(n) : noticeMissing();
}

function parseGlobal(c: Caller, v: unknown): boolean {
  const g = truthy(v);
  if (g === null)
    throw invalidParams(c, { global: 'global must be a boolean (true: for the whole site, false: for you only)' });
  return g;
}

export async function dismissNoticeOp(c: Caller, id: string, global: unknown): Promise<unknown> {
  const g = parseGlobal(c, global);
  if (!NOTICE_BY_ID.has(id)) return noticeMissing();
  const changed = await dismissNotice(c.app, id, g, c.user!);
  if (changed) await log(c, 'notice_dismissed', { notice_id: id, scope: g ? 'site-wide' : 'user', global: g });
  return envelope({ noticeName: id, global: g, dismissed: true });
}

export async function restoreNoticeOp(c: Caller, id: string, global: unknown): Promise<unknown> {
  const g = parseGlobal(c, global);
  if (!NOTICE_BY_ID.has(id)) return noticeMissing();
  const changed = await restoreNotice(c.app, id, g, c.user!);
  if (changed) await log(c, 'notice_restored', { notice_id: id, scope: g ? 'site-wide' : 'user', global: g });
  return envelope({ noticeName: id, global: g, dismissed: false });
}

export async function pinNoticeOp(c: Caller, id: string, pin: boolean): Promise<unknown> {
  if (!NOTICE_BY_ID.has(id)) return noticeMissing();
  const changed = pin ? await pinNotice(c.app, id) : await unpinNotice(c.app, id);
  if (changed) await log(c, pin ? 'notice_pinned' : 'notice_unpinned', { notice_id: id });
  return envelope({ pinned_notice: id, pinned: pin });
}

export async function noticesErrorsOp(c: Caller): Promise<unknown> {
  return envelope({ error_notices: await errorNotices(c.app, c.lang, hooks) });
}

// ---- templates -------------------------------------------------------------------------------

export async function validateTemplateOp(c: Caller, message: unknown): Promise<unknown> {
  if (typeof message !== 'string') return { success: false, error: 'Error: message must be a string' };
  try {
    return await validateInBox(message);
  } catch (err) {
    throw templateLimitError(c, err);
  }
}

export async function previewOp(
  c: Caller,
  template: unknown,
  raw: { appointment_id?: unknown; appointment_type_id?: unknown },
): Promise<unknown> {
  if (typeof template !== 'string') throw invalidParams(c, { template: 'template must be a string' });
  if (raw.appointment_id !== undefined && raw.appointment_id !== null && raw.appointment_id !== '') {
    // This server stores no appointments: every appointment id is unknown.
    return sendEnvelope(envelope([], 404, 'Appointment ID Not Found'));
  }
  let typeId: number | undefined;
  if (raw.appointment_type_id !== undefined && raw.appointment_type_id !== null && raw.appointment_type_id !== '') {
    const id = raw.appointment_type_id;
    const n = typeof id === 'string' || typeof id === 'number' ? Number(id) : NaN; // a map from a form has no number
    if (!Number.isInteger(n) || n < 1)
      throw invalidParams(c, { appointment_type_id: 'appointment_type_id must be a positive integer' });
    typeId = n;
  }
  const r = await renderPreview(c.app, c.lang, template, { appointmentTypeId: typeId }).catch((err) => {
    throw templateLimitError(c, err);
  });
  if (r.error) await schedDebug(c.app, 'template preview error', { error: r.error });
  return envelope({ preview: r.preview });
}

// ---- support ---------------------------------------------------------------------------------

export async function supportStatusOp(c: Caller): Promise<unknown> {
  return envelope({ site_status: await supportStatus(c.app, c.user, c.lang, hooks) });
}

export async function supportTicketOp(c: Caller, input: Record<string, unknown>): Promise<unknown> {
  const { ticket, problems } = validateTicket(input);
  if (!ticket) throw invalidParams(c, problems);
  const res = await createTicket(c.app, c.user, ticket);
  await log(c, 'ticket_created', { ticket_id: res.id, subject: ticket.subject });
  return res;
}

export async function readDebugOp(c: Caller, kind: LogKind, download: unknown): Promise<unknown> {
  if (truthy(download) === true) {
    const content = await readWholeLog(c.app, kind);
    if (!content) throw restError(c, 'sched_log_not_found', MSG.logFileMissing, 404);
    const name = kind === 'wp' ? 'server.log' : 'sched-debug.log';
    return RestResponse.raw(content, 'text/plain; charset=UTF-8', 200, {
      'Content-Disposition': `attachment; filename="${name}"`,
      'Cache-Control': 'no-store',
    });
  }
  return readDebugLog(c.app, kind);
}

export async function clearDebugOp(c: Caller, kind: LogKind): Promise<unknown> {
  const cleared = await clearDebugLog(c.app, kind);
  if (cleared) {
    await log(c, 'debug_log_cleared', { log: kind });
    return MSG.debugLogCleared[c.lang];
  }
  return MSG.debugLogMissing[c.lang];
}

export async function debugLogsOp(c: Caller, url: (kind: LogKind) => string): Promise<unknown> {
  return {
    wp: (await logExists(c.app, 'wp')) ? url('wp') : null,
    ssa: (await logExists(c.app, 'ssa')) ? url('ssa') : null,
  };
}

export async function exportOp(c: Caller, raw: Record<string, unknown>): Promise<unknown> {
  const flags = parseExportFlags(raw);
  const data = await buildExport(c.app, c.user, c.lang, flags);
  if (flags.backup) {
    const id = await storeBackup(c.app, data);
    const parts = [
      flags.settings && 'settings',
      flags.notices && 'notices',
      flags.appointment_types && 'appointment_types',
      flags.appointments && 'appointments',
    ]
      .filter(Boolean)
      .join(', ');
    await log(c, 'export_created', { parts, backup_id: id });
  }
  return data;
}

export async function importOp(c: Caller, content: unknown): Promise<unknown> {
  try {
    const parts = await applyImport(c.app, c.user, c.lang, content);
    await log(c, 'import_applied', { parts: parts.join(', ') || 'nothing' });
    await schedDebug(c.app, 'import applied', { parts });
    return MSG.importDone[c.lang];
  } catch (err) {
    if (err instanceof ImportError) {
      throw restError(c, 'sched_import_invalid', MSG.importRefused, 400, { problems: err.problems });
    }
    throw templateLimitError(c, err);
  }
}

export function fetchGuidesOp(c: Caller, raw: Record<string, unknown>): unknown {
  const { query, problems } = parseGuideQuery(raw);
  if (Object.keys(problems).length) throw invalidParams(c, problems);
  return fetchGuides(c.lang, query, c.app.config.siteUrl);
}

export function userCheckOp(c: Caller): unknown {
  return envelope({ is_user_logged_in: !!c.user });
}

export function embedOp(c: Caller, raw: Record<string, unknown>): RestResponse {
  return RestResponse.raw(
    embedScript(c.app.config.siteUrl, c.lang, raw, c.user),
    'application/javascript; charset=UTF-8',
    200,
    { 'Access-Control-Allow-Origin': '*' },
  );
}
