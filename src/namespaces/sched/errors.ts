// GET notices-errors: operational error/warning banners this server can detect. Every call
// re-runs the checks, so a notice disappears as soon as its cause is resolved.
import fs from 'node:fs';
import type { AppServices } from '../../site/services.ts';
import type { Lang } from '../../rest/types.ts';
import { checkSmtp, diskInfo, diskLevel, formatBytes, siteTimezoneState, type CheckHooks } from './checks.ts';
import { readSectionValues } from './settings.ts';
import { isValidTimeZone } from '../../site/time.ts';

export interface ErrorNotice {
  id: string;
  type: 'error' | 'warning';
  priority: number;
  message: string;
  link?: string;
  link_message?: string;
}

export async function errorNotices(app: AppServices, lang: Lang, hooks: CheckHooks = {}): Promise<ErrorNotice[]> {
  const de = lang === 'de';
  const out: ErrorNotice[] = [];
  const settingsUrl = `${app.config.siteUrl}/${lang}/cms-json/sched/v1/settings/global`;

  // SMTP configured but unreachable.
  if (app.config.smtpUrl) {
    const r = await checkSmtp(app.config.smtpUrl, hooks.smtpTimeoutMs ?? 3000);
    if (!r.ok) {
      out.push({
        id: 'smtp_unreachable',
        type: 'error',
        priority: 5,
        message: de
          ? `Der Mailserver ${r.host}:${r.port} ist nicht erreichbar (${r.message}). Benachrichtigungs-E-Mails können nicht versendet werden.`
          : `The mail server ${r.host}:${r.port} cannot be reached (${r.message}). Notification emails cannot be sent.`,
      });
    }
  }

  // Disk space of the data folder.
  try {
    const d = await diskInfo(app.config.dataDir, hooks);
    const level = diskLevel(d);
    if (level !== 'good') {
      out.push({
        id: 'disk_space_low',
        type: level === 'error' ? 'error' : 'warning',
        priority: level === 'error' ? 5 : 10,
        message: de
          ? `Im Datenordner ist nur noch ${formatBytes(d.freeBytes)} frei. Die Datenbank und die Protokolle brauchen Platz.`
          : `Only ${formatBytes(d.freeBytes)} is free in the data folder. The database and the logs need room to grow.`,
      });
    }
  } catch (err) {
    out.push({
      id: 'data_dir_unavailable',
      type: 'error',
      priority: 5,
      message: de ? `Der Datenordner ist nicht lesbar: ${(err as Error).message}` : `The data folder cannot be read: ${(err as Error).message}`,
    });
  }

  // Data folder writable.
  try {
    await fs.promises.access(app.config.dataDir, fs.constants.W_OK);
  } catch {
    out.push({ id: 'data_dir_not_writable', type: 'error', priority: 5, message: de ? 'Der Datenordner ist nicht beschreibbar.' : 'The data folder is not writable.' });
  }

  // Site timezone.
  const tz = siteTimezoneState(app);
  if (!tz.valid) {
    out.push({
      id: 'site_timezone_invalid',
      type: 'warning',
      priority: 10,
      message: tz.value
        ? de
          ? `Die Zeitzone der Website „${tz.value}“ ist keine gültige IANA-Zeitzone; Termine werden in UTC angezeigt.`
          : `The site timezone "${tz.value}" is not a valid IANA timezone; appointments are shown in UTC.`
        : de
          ? 'Für die Website ist keine Zeitzone eingestellt; Termine werden in UTC angezeigt.'
          : 'No site timezone is set; appointments are shown in UTC.',
    });
  }
  const global = await readSectionValues(app, 'global');
  if (typeof global.timezone_string === 'string' && global.timezone_string && !isValidTimeZone(global.timezone_string)) {
    out.push({
      id: 'schedule_timezone_invalid',
      type: 'error',
      priority: 5,
      message: de ? `Die Zeitzone der Terminplanung „${global.timezone_string}“ ist ungültig.` : `The scheduling timezone "${global.timezone_string}" is invalid.`,
      link: settingsUrl,
      link_message: de ? 'Einstellungen ansehen' : 'View settings',
    });
  }

  // Debug logging left on.
  const dev = await readSectionValues(app, 'developer');
  if (dev.debug_mode === true || dev.ssa_debug_mode === true) {
    out.push({
      id: 'debug_logging_on',
      type: 'warning',
      priority: 10,
      message: de ? 'Die Debug-Protokollierung ist eingeschaltet. Schalten Sie sie nach der Fehlersuche wieder aus.' : 'Debug logging is on. Turn it off again when you have finished troubleshooting.',
    });
  }
  return out.sort((a, b) => a.priority - b.priority);
}
