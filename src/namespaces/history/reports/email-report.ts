// The weekly email report (reference §5.6): the last 7 days including today, as an HTML
// email. The preview is returned as a document or sent to the caller: through SMTP_URL when
// configured, otherwise written as an .eml file into <dataDir>/outbox.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import type { AppServices } from '../../../site/services.ts';
import type { AuthUser } from '../../../auth/types.ts';
import type { Lang } from '../../../rest/types.ts';
import { restError } from '../../../rest/define.ts';
import { MSG } from '../messages.ts';
import { sql } from 'kysely';
import { escapeHtml, historyAdminUrl } from '../read/render.ts';
import { countsByMessage, type StatsRange } from '../stats/range.ts';
import { addDays, endOfDayUtc, startOfDayUtc, todayIn, utcToUnix, ymdText } from '../../../site/zone-time.ts';
import { countsPerLocalDay, dayNames, weekdayOf } from '../stats/times.ts';
import { countFor, FAILED_LOGIN_KEYS, LOGIN_KEYS, M, P, PL, U } from '../stats/summary.ts';

export interface EmailReport {
  site_name: string;
  site_url: string;
  site_url_domain: string;
  date_range: string;
  email_subject: string;
  total_events_this_week: number;
  most_active_days: { day_number: number; count: number }[];
  busiest_day_name: string;
  days: { date: string; day_name: string; count: number }[];
  date_from_timestamp: number;
  date_to_timestamp: number;
  most_active_users: { name: string; count: number }[];
  successful_logins: number;
  failed_logins: number;
  posts_created: number;
  posts_updated: number;
  plugin_activations: number;
  plugin_deactivations: number;
  users_created: number;
  users_updated: number;
  media_uploads: number;
  media_edits: number;
  comments_enabled: boolean;
  comments_added: number;
  comments_approved: number;
  comments_spam: number;
  theme_switches: number;
  theme_updates: number;
  wordpress_updates: number;
  notes_enabled: boolean;
  notes_added: number;
  notes_resolved: number;
  history_admin_url: string;
  settings_url: string;
}

const T = {
  en: {
    subject: (site: string) => `Weekly Activity Summary for ${site}`,
    preview: 'preview',
    header: 'Website Activity Summary',
    events: (n: number) => `${n} ${n === 1 ? 'event' : 'events'} last week`,
    busiest: (day: string) => `${day} was the busiest day`,
    none: 'No activity last week',
    noActivity: 'No activity',
    byDay: 'Event count by day',
    users: 'Users',
    logins: 'Successful logins',
    failed: 'Failed logins',
    created: 'Users created',
    profiles: 'Profile updates',
    posts: 'Posts and Pages',
    postsCreated: 'Posts created',
    updates: 'Updates',
    plugins: 'Plugins',
    activations: 'Activations',
    deactivations: 'Deactivations',
    media: 'Media',
    uploads: 'Uploads',
    edits: 'Edits',
    comments: 'Comments',
    newComments: 'New comments',
    approved: 'Approved',
    spam: 'Spam',
    themes: 'Themes',
    switches: 'Switches',
    cms: 'CMS',
    updatesDone: 'Updates completed',
    notes: 'Notes',
    notesAdded: 'Notes added',
    notesResolved: 'Notes resolved',
    activeUsers: 'Most active users',
    button: 'View Activity Log',
    unsubscribe: 'You receive this email because the weekly report is enabled. Change this in the',
    settings: 'settings',
  },
  de: {
    subject: (site: string) => `Wöchentliche Aktivitätsübersicht für ${site}`,
    preview: 'Vorschau',
    header: 'Aktivitätsübersicht der Website',
    events: (n: number) => `${n} ${n === 1 ? 'Ereignis' : 'Ereignisse'} letzte Woche`,
    busiest: (day: string) => `${day} war der aktivste Tag`,
    none: 'Keine Aktivität letzte Woche',
    noActivity: 'Keine Aktivität',
    byDay: 'Ereignisse pro Tag',
    users: 'Benutzer',
    logins: 'Erfolgreiche Anmeldungen',
    failed: 'Fehlgeschlagene Anmeldungen',
    created: 'Angelegte Benutzer',
    profiles: 'Profiländerungen',
    posts: 'Beiträge und Seiten',
    postsCreated: 'Erstellte Beiträge',
    updates: 'Aktualisierungen',
    plugins: 'Plugins',
    activations: 'Aktivierungen',
    deactivations: 'Deaktivierungen',
    media: 'Medien',
    uploads: 'Uploads',
    edits: 'Bearbeitungen',
    comments: 'Kommentare',
    newComments: 'Neue Kommentare',
    approved: 'Freigegeben',
    spam: 'Spam',
    themes: 'Themes',
    switches: 'Wechsel',
    cms: 'CMS',
    updatesDone: 'Abgeschlossene Updates',
    notes: 'Notizen',
    notesAdded: 'Neue Notizen',
    notesResolved: 'Erledigte Notizen',
    activeUsers: 'Aktivste Benutzer',
    button: 'Aktivitätsprotokoll ansehen',
    unsubscribe: 'Du erhältst diese E-Mail, weil der Wochenbericht aktiviert ist. Ändern kannst du das in den',
    settings: 'Einstellungen',
  },
};

/**
 * The period as the original writes it: the site's date format without the year, after the
 * weekday, and the year once at the end ("Thu November 19 – Wed November 25, 2026").
 */
export function reportPeriod(first: string, last: string, lang: Lang): string {
  const locale = lang === 'de' ? 'de-DE' : 'en-US';
  const part = (ymd: string, options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' }).format(new Date(`${ymd}T12:00:00Z`));
  const day = (ymd: string) =>
    lang === 'de'
      ? `${part(ymd, { weekday: 'short' })} ${part(ymd, { day: 'numeric' })}. ${part(ymd, { month: 'long' })}`
      : `${part(ymd, { weekday: 'short' })} ${part(ymd, { month: 'long' })} ${part(ymd, { day: 'numeric' })}`;
  return `${day(first)} – ${day(last)}, ${last.slice(0, 4)}`;
}

/**
 * The report data of the last 7 days (00:00 six days ago to 23:59:59 today, site time).
 * A preview's subject says so, as the original's does (its HTML title too).
 */
export async function buildEmailReport(
  app: AppServices,
  lang: Lang,
  { now = new Date(), preview = false }: { now?: Date; preview?: boolean } = {},
): Promise<EmailReport> {
  const zone = app.options.get('timezone_string');
  const today = todayIn(zone, now);
  const first = addDays(today, -6);
  const fromUtc = startOfDayUtc(zone, first);
  const toUtc = endOfDayUtc(zone, today);
  const range: StatsRange = { from: utcToUnix(fromUtc), to: utcToUnix(toUtc), fromUtc, toUtc };
  const c = await countsByMessage(app, range);
  let total = 0;
  for (const n of c.values()) total += n;
  const perDay = await countsPerLocalDay(app, range);
  const names = dayNames(lang);
  const days = Array.from({ length: 7 }, (_, i) => {
    const day = ymdText(addDays(first, i));
    return { date: day, day_name: names[weekdayOf(day)], count: perDay.get(day) ?? 0 };
  });
  const mostActiveDays = days
    .filter((d) => d.count > 0)
    .map((d) => ({ day_number: weekdayOf(d.date), count: d.count }));
  const busiest = days.reduce<(typeof days)[number] | null>(
    (best, d) => (d.count > 0 && (!best || d.count > best.count) ? d : best),
    null,
  );
  const users = await app.db
    .selectFrom('history_events as e')
    .leftJoin('users as u', 'u.id', 'e.user_id')
    .select(['e.user_id', 'u.display_name', sql<number>`count(*)`.as('n')])
    .where('e.date', '>=', fromUtc)
    .where('e.date', '<=', toUtc)
    .where('e.user_id', 'is not', null)
    .groupBy(['e.user_id', 'u.display_name'])
    .orderBy('n', 'desc')
    .orderBy('e.user_id', 'asc')
    .limit(3)
    .execute();
  const mostActiveUsers = users.map((u) => ({ name: u.display_name ?? `#${u.user_id}`, count: Number(u.n) }));
  while (mostActiveUsers.length < 3) mostActiveUsers.push({ name: '', count: 0 });
  const site = app.options.get('blogname');
  return {
    site_name: site,
    site_url: app.config.siteUrl,
    site_url_domain: new URL(app.config.siteUrl).host,
    date_range: reportPeriod(days[0].date, days[6].date, lang),
    email_subject: preview ? `${T[lang].subject(site)} (${T[lang].preview})` : T[lang].subject(site),
    total_events_this_week: total,
    most_active_days: mostActiveDays,
    busiest_day_name: busiest ? busiest.day_name : T[lang].noActivity,
    days,
    date_from_timestamp: range.from,
    date_to_timestamp: range.to,
    most_active_users: mostActiveUsers,
    successful_logins: countFor(c, U, LOGIN_KEYS),
    failed_logins: countFor(c, U, FAILED_LOGIN_KEYS),
    posts_created: countFor(c, P, ['post_created']),
    posts_updated: countFor(c, P, ['post_updated']),
    plugin_activations: countFor(c, PL, ['plugin_activated']),
    plugin_deactivations: countFor(c, PL, ['plugin_deactivated']),
    users_created: countFor(c, U, ['user_created']),
    users_updated: countFor(c, U, ['user_updated_profile']),
    media_uploads: countFor(c, M, ['attachment_created']),
    media_edits: countFor(c, M, ['attachment_updated']),
    comments_enabled: true,
    comments_added: countFor(c, 'SimpleCommentsLogger', ['anon_comment_added', 'user_comment_added']),
    comments_approved: countFor(c, 'SimpleCommentsLogger', ['comment_status_approve']),
    comments_spam: countFor(c, 'SimpleCommentsLogger', ['comment_status_spam']),
    theme_switches: countFor(c, 'SimpleThemeLogger', ['theme_switched']),
    theme_updates: countFor(c, 'SimpleThemeLogger', ['theme_updated']),
    wordpress_updates: countFor(c, 'SimpleCoreUpdatesLogger', ['core_updated', 'core_auto_updated']),
    notes_enabled: true,
    notes_added: countFor(c, 'NotesLogger', ['note_added', 'note_reply_added']),
    notes_resolved: countFor(c, 'NotesLogger', ['note_resolved']),
    history_admin_url: historyAdminUrl(app),
    settings_url: `${app.config.siteUrl}/cms-admin/admin.php?page=history_settings_page`,
  };
}

/** The report as a complete HTML document; every value is escaped. */
export function renderEmailReport(r: EmailReport, lang: Lang): string {
  const t = T[lang];
  const e = (v: unknown) => escapeHtml(String(v));
  const max = Math.max(1, ...r.days.map((d) => d.count));
  const section = (title: string, rows: [string, number][]) =>
    `<h2 style="font-size:16px;margin:24px 0 8px">${e(title)}</h2><table role="presentation" width="100%" cellpadding="4">` +
    rows.map(([label, n]) => `<tr><td>${e(label)}</td><td align="right"><strong>${e(n)}</strong></td></tr>`).join('') +
    '</table>';
  const bars = r.days
    .map(
      (d) =>
        `<td align="center" valign="bottom" style="font-size:12px"><div style="background:#2271b1;width:24px;height:${Math.round((d.count / max) * 60)}px;margin:0 auto"></div>` +
        `${e(d.day_name.slice(0, 3))}<br>${e(d.count)}</td>`,
    )
    .join('');
  const headline =
    r.total_events_this_week > 0 ? `${t.events(r.total_events_this_week)} • ${t.busiest(r.busiest_day_name)}` : t.none;
  const activeUsers = r.most_active_users.filter((u) => u.count > 0);
  return `<!DOCTYPE html>
<html lang="${lang}"><head><meta charset="UTF-8"><title>${e(r.email_subject)}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;color:#1d2327;background:#f0f0f1;margin:0;padding:24px">
<div style="max-width:600px;margin:0 auto;background:#fff;padding:24px">
<h1 style="font-size:22px;margin:0">${e(t.header)}</h1>
<p style="margin:4px 0 16px;color:#50575e"><a href="${e(r.site_url)}">${e(r.site_name)}</a> · ${e(r.date_range)}</p>
<p style="font-size:18px"><strong>${e(headline)}</strong></p>
<h2 style="font-size:16px;margin:24px 0 8px">${e(t.byDay)}</h2>
<table role="presentation" width="100%"><tr>${bars}</tr></table>
${section(t.users, [
  [t.logins, r.successful_logins],
  [t.failed, r.failed_logins],
  [t.created, r.users_created],
  [t.profiles, r.users_updated],
])}
${section(t.posts, [
  [t.postsCreated, r.posts_created],
  [t.updates, r.posts_updated],
])}
${section(t.plugins, [
  [t.activations, r.plugin_activations],
  [t.deactivations, r.plugin_deactivations],
])}
${section(t.media, [
  [t.uploads, r.media_uploads],
  [t.edits, r.media_edits],
])}
${
  r.comments_enabled
    ? section(t.comments, [
        [t.newComments, r.comments_added],
        [t.approved, r.comments_approved],
        [t.spam, r.comments_spam],
      ])
    : ''
}
${section(t.themes, [
  [t.switches, r.theme_switches],
  [t.updates, r.theme_updates],
])}
${section(t.cms, [[t.updatesDone, r.wordpress_updates]])}
${
  r.notes_enabled
    ? section(t.notes, [
        [t.notesAdded, r.notes_added],
        [t.notesResolved, r.notes_resolved],
      ])
    : ''
}
${
  activeUsers.length
    ? section(
        t.activeUsers,
        activeUsers.map((u) => [u.name, u.count]),
      )
    : ''
}
<p style="text-align:center;margin:32px 0"><a href="${e(r.history_admin_url)}" style="background:#2271b1;color:#fff;padding:12px 24px;text-decoration:none;border-radius:4px">${e(t.button)}</a></p>
<p style="font-size:12px;color:#787c82">${e(t.unsubscribe)} <a href="${e(r.settings_url)}">${e(t.settings)}</a>.</p>
</div></body></html>
`;
}

/** GET /email-report/preview/html. */
export async function emailReportHtml(app: AppServices, lang: Lang): Promise<string> {
  return renderEmailReport(await buildEmailReport(app, lang, { preview: true }), lang);
}

export interface SentPreview {
  success: true;
  message: string;
  /** Set when no SMTP server is configured and the message was written to the outbox. */
  outbox_file?: string;
}

/** Sends the preview to the caller's address (SMTP_URL), or writes it to <dataDir>/outbox. */
export async function sendEmailReportPreview(app: AppServices, user: AuthUser, lang: Lang): Promise<SentPreview> {
  const report = await buildEmailReport(app, lang, { preview: true });
  const message = {
    from: `"${report.site_name.replace(/["\\\r\n]/g, '')}" <no-reply@${report.site_url_domain.replace(/:\d+$/, '')}>`,
    to: user.email,
    subject: report.email_subject,
    html: renderEmailReport(report, lang),
  };
  // Loaded when a report is sent, not with the server: nodemailer (and Node's fetch, which it
  // loads) made every serving process about 3 MB larger at rest.
  const { default: nodemailer } = await import('nodemailer');
  try {
    if (app.config.smtpUrl) {
      await nodemailer.createTransport(app.config.smtpUrl).sendMail(message);
      return {
        success: true,
        message: MSG.testEmailSent(user.email)[lang],
      };
    }
    const info = await nodemailer.createTransport({ streamTransport: true, buffer: true }).sendMail(message);
    const dir = path.join(app.config.dataDir, 'outbox');
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 }); // DATA_DIR too when new: owner-only
    const file = path.join(
      dir,
      `${new Date().toISOString().replace(/[:.]/g, '-')}-${crypto.randomBytes(3).toString('hex')}.eml`,
    );
    fs.writeFileSync(file, info.message as Buffer);
    return {
      success: true,
      message: MSG.testEmailToOutbox(user.email, file)[lang],
      outbox_file: file,
    };
  } catch (err) {
    app.log.warn({ err }, 'email report preview could not be sent');
    throw restError({ lang }, 'email_send_failed', MSG.testEmailFailed, 502);
  }
}
