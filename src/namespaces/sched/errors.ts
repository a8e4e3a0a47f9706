// GET notices-errors: operational error/warning banners this server can detect. Every call
// re-runs the checks, so a notice disappears as soon as its cause is resolved.
import fs from 'node:fs';
import type { AppServices } from '../../site/services.ts';
import type { Lang } from '../../rest/types.ts';
import { checkSmtp, diskInfo, diskLevel, formatBytes, siteTimezoneState, type CheckHooks } from './checks.ts';
import { readSectionValues } from './settings.ts';
import { isValidTimeZone } from '../../site/time.ts';
import { MSG } from './messages.ts';

export interface ErrorNotice {
  id: string;
  type: 'error' | 'warning';
  priority: number;
  message: string;
  link?: string;
  link_message?: string;
}

export async function errorNotices(app: AppServices, lang: Lang, hooks: CheckHooks = {}): Promise<ErrorNotice[]> {
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
        message: MSG.smtpUnreachable(r.host, r.port, r.message)[lang],
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
        message: MSG.diskSpaceLow(formatBytes(d.freeBytes))[lang],
      });
    }
  } catch (err) {
    out.push({
      id: 'data_dir_unavailable',
      type: 'error',
      priority: 5,
      message: MSG.dataDirUnreadable((err as Error).message)[lang],
    });
  }

  // Data folder writable.
  try {
    await fs.promises.access(app.config.dataDir, fs.constants.W_OK);
  } catch {
    out.push({ id: 'data_dir_not_writable', type: 'error', priority: 5, message: MSG.dataDirNotWritable[lang] });
  }

  // Site timezone.
  const tz = siteTimezoneState(app);
  if (!tz.valid) {
    out.push({
      id: 'site_timezone_invalid',
      type: 'warning',
      priority: 10,
      message: (tz.value ? MSG.siteTimezoneInvalid(tz.value) : MSG.siteTimezoneMissing)[lang],
    });
  }
  const global = await readSectionValues(app, 'global');
  if (
    typeof global.timezone_string === 'string' &&
    global.timezone_string &&
    !isValidTimeZone(global.timezone_string)
  ) {
    out.push({
      id: 'schedule_timezone_invalid',
      type: 'error',
      priority: 5,
      message: MSG.scheduleTimezoneInvalid(global.timezone_string)[lang],
      link: settingsUrl,
      link_message: MSG.viewSettings[lang],
    });
  }

  // Debug logging left on.
  const dev = await readSectionValues(app, 'developer');
  if (dev.debug_mode === true || dev.ssa_debug_mode === true) {
    out.push({
      id: 'debug_logging_on',
      type: 'warning',
      priority: 10,
      message: MSG.debugLoggingOn[lang],
    });
  }
  return out.sort((a, b) => a.priority - b.priority);
}
