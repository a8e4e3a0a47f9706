// support_status and support_ticket (reference plugins.md §2.8, §2.9): real checks of this
// server; tickets are stored locally and logged, never sent anywhere.
import crypto from 'node:crypto';
import fs from 'node:fs';
import type { AppServices } from '../../site/services.ts';
import type { AuthUser } from '../../auth/types.ts';
import type { Lang } from '../../rest/types.ts';
import { l } from '../../rest/define.ts';
import { utcNow } from '../../site/time.ts';
import { userCan } from './caps.ts';
import {
  checkSmtp,
  databaseVersion,
  diskInfo,
  diskLevel,
  formatBytes,
  siteTimezoneState,
  type CheckHooks,
} from './checks.ts';
import { INSTALLED_MODULES } from './settings-sections.ts';
import { getMeta } from './store.ts';
import { isEmail } from '../../rest/schema/formats.ts';

export type Status = 'good' | 'warning' | 'error';
export interface StatusItem {
  status: Status;
  value: string | boolean;
  notices: string[];
}

let packageVersion: string | null = null;
function serverVersion(): string {
  if (packageVersion === null) {
    try {
      packageVersion = String(
        JSON.parse(fs.readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')).version ?? 'unknown',
      );
    } catch {
      packageVersion = 'unknown';
    }
  }
  return packageVersion;
}

function esc(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' })[c] as string,
  );
}

/** A short PIN support staff can ask for to identify this site. */
export function supportPin(secret: string, siteUrl: string): string {
  return String(
    parseInt(crypto.createHmac('sha256', secret).update(`pin:${siteUrl}`).digest('hex').slice(0, 8), 16) % 1_000_000,
  ).padStart(6, '0');
}

export async function supportStatus(
  app: AppServices,
  user: AuthUser | null,
  lang: Lang,
  hooks: CheckHooks = {},
): Promise<Record<string, StatusItem>> {
  const t = (en: string, de: string) => esc(l(en, de)[lang]);
  const out: Record<string, StatusItem> = {};

  out.plugin_version = { status: 'good', value: serverVersion(), notices: [] };

  const nodeMajor = Number(process.versions.node.split('.')[0]);
  out.node_version =
    nodeMajor >= 24
      ? { status: 'good', value: process.versions.node, notices: [] }
      : {
          status: 'error',
          value: process.versions.node,
          notices: [t('Node.js 24 or newer is required.', 'Node.js 24 oder neuer ist erforderlich.')],
        };

  try {
    const db = await databaseVersion(app);
    out.sql_server = { status: 'good', value: `${db.engine} ${db.version}`, notices: [] };
    const utf8 = /^utf-?8$/i.test(db.encoding);
    out.utf8mb4_support = utf8
      ? { status: 'good', value: true, notices: [] }
      : {
          status: 'error',
          value: false,
          notices: [
            t(
              `The database encoding is ${db.encoding}, not UTF-8.`,
              `Die Datenbank-Kodierung ist ${db.encoding}, nicht UTF-8.`,
            ),
          ],
        };
  } catch (err) {
    out.sql_server = {
      status: 'error',
      value: app.dialect,
      notices: [
        t(
          `The database cannot be queried: ${(err as Error).message}`,
          `Die Datenbank kann nicht abgefragt werden: ${(err as Error).message}`,
        ),
      ],
    };
  }

  out.json_extension = { status: 'good', value: true, notices: [] };

  const site = app.config.siteUrl;
  let host = '';
  try {
    host = new URL(site).hostname;
  } catch {
    /* reported below */
  }
  const local =
    host === 'localhost' || host === '127.0.0.1' || host === '::1' || host === '[::1]' || host.endsWith('.localhost');
  out.https_status = site.startsWith('https://')
    ? { status: 'good', value: true, notices: [] }
    : local
      ? {
          status: 'warning',
          value: false,
          notices: [
            t(
              'The site address uses http://; that is fine for local development only.',
              'Die Website-Adresse verwendet http://; das ist nur für die lokale Entwicklung in Ordnung.',
            ),
          ],
        }
      : {
          status: 'error',
          value: false,
          notices: [
            t(
              'The site address does not use HTTPS: passwords and booking data travel unencrypted.',
              'Die Website-Adresse verwendet kein HTTPS: Passwörter und Buchungsdaten werden unverschlüsselt übertragen.',
            ),
          ],
        };

  const tz = siteTimezoneState(app);
  out.site_timezone = tz.valid
    ? {
        status: tz.stored ? 'good' : 'warning',
        value: tz.value,
        notices: tz.stored
          ? []
          : [
              t(
                'The site timezone is the default; set it to where the business is.',
                'Die Zeitzone der Website ist der Standardwert; stellen Sie den Ort des Unternehmens ein.',
              ),
            ],
      }
    : {
        status: 'error',
        value: tz.value,
        notices: [
          t(
            `"${tz.value}" is not a valid timezone; UTC is used.`,
            `„${tz.value}“ ist keine gültige Zeitzone; UTC wird verwendet.`,
          ),
        ],
      };

  try {
    const d = await diskInfo(app.config.dataDir, hooks);
    const level = diskLevel(d);
    out.disk_space = {
      status: level,
      value: `${formatBytes(d.freeBytes)} / ${formatBytes(d.totalBytes)}`,
      notices:
        level === 'good'
          ? []
          : [
              t(
                `Only ${formatBytes(d.freeBytes)} is free in the data folder.`,
                `Im Datenordner ist nur noch ${formatBytes(d.freeBytes)} frei.`,
              ),
            ],
    };
  } catch (err) {
    out.disk_space = {
      status: 'error',
      value: false,
      notices: [
        t(
          `The data folder cannot be read: ${(err as Error).message}`,
          `Der Datenordner ist nicht lesbar: ${(err as Error).message}`,
        ),
      ],
    };
  }

  if (app.config.smtpUrl) {
    const r = await checkSmtp(app.config.smtpUrl, hooks.smtpTimeoutMs ?? 3000);
    out.smtp = r.ok
      ? { status: 'good', value: `${r.host}:${r.port}`, notices: [] }
      : {
          status: 'error',
          value: `${r.host}:${r.port}`,
          notices: [
            t(`The mail server cannot be reached: ${r.message}`, `Der Mailserver ist nicht erreichbar: ${r.message}`),
          ],
        };
  } else {
    out.smtp = {
      status: 'warning',
      value: false,
      notices: [
        t(
          'No mail server is configured (SMTP_URL); emails are written to the outbox folder.',
          'Kein Mailserver eingestellt (SMTP_URL); E-Mails werden im Ordner „outbox“ abgelegt.',
        ),
      ],
    };
  }

  if (userCan(user, 'ssa_manage_site_settings')) {
    const meta = await getMeta(app);
    out.support_pin = { status: 'good', value: supportPin(meta.site_secret, site), notices: [] };
  }
  return out;
}

// ---- tickets ----------------------------------------------------------------------------

export interface TicketInput {
  name: string;
  email: string;
  subject: string;
  message: string;
  include_active_plugins: boolean;
  include_settings: boolean;
}

/** Validates a ticket; returns the ticket or a map of problems per field. */
export function validateTicket(raw: Record<string, unknown>): {
  ticket: TicketInput | null;
  problems: Record<string, string>;
} {
  const problems: Record<string, string> = {};
  const text = (k: string, max: number) => {
    const v = raw[k];
    if (typeof v !== 'string' || v.trim() === '') {
      problems[k] = `${k} is required`;
      return '';
    }
    if (v.length > max) problems[k] = `${k} must be at most ${max} characters long`;
    return v.trim();
  };
  const flag = (k: string) => {
    const v = raw[k];
    if (v === undefined || v === null || v === '' || v === false || v === 'false' || v === '0' || v === 0) return false;
    if (v === true || v === 'true' || v === '1' || v === 1) return true;
    problems[k] = `${k} must be a boolean`;
    return false;
  };
  const ticket: TicketInput = {
    name: text('name', 250),
    email: text('email', 254),
    subject: text('subject', 250),
    message: text('message', 20000),
    include_active_plugins: flag('include_active_plugins'),
    include_settings: flag('include_settings'),
  };
  if (!problems.email && !isEmail(ticket.email)) problems.email = 'email must be an email address';
  return { ticket: Object.keys(problems).length ? null : ticket, problems };
}

export async function createTicket(
  app: AppServices,
  user: AuthUser | null,
  ticket: TicketInput,
): Promise<{ status: 'success'; id: number }> {
  const meta = await getMeta(app);
  const payload: Record<string, unknown> = { ...ticket };
  if (ticket.include_active_plugins)
    payload.include_active_plugins = Object.keys(INSTALLED_MODULES)
      .filter((m) => INSTALLED_MODULES[m])
      .sort();
  if (ticket.include_settings)
    payload.include_settings = crypto
      .createHmac('sha256', meta.site_secret)
      .update(`debug:${app.config.siteUrl}`)
      .digest('hex')
      .slice(0, 32);
  const row = await app.db
    .insertInto('sched_tickets')
    .values({
      user_id: user?.id ?? null,
      name: ticket.name,
      email: ticket.email,
      subject: ticket.subject,
      message: ticket.message,
      payload: JSON.stringify(payload),
      created_at: utcNow(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  app.log.info(
    { ticket_id: row.id, subject: ticket.subject, user: user?.login ?? null },
    'sched support ticket stored locally',
  );
  return { status: 'success', id: row.id };
}
