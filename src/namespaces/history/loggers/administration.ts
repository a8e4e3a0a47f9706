// The loggers of the site's administration: settings, roles and capabilities, privacy requests,
// exports and site health. (The software itself — core, plugins, themes: software.ts.)
import { defineLogger } from '../../../site/activity.ts';
import { option, t } from './define.ts';

export const exportLogger = defineLogger({
  slug: 'SimpleExportLogger',
  name: t('Export Logger', 'Export-Protokoll'),
  via: null,
  capability: 'export',
  messages: { created_export: t('Created XML export', 'XML-Export erstellt') },
  search: {
    label: t('Export', 'Export'),
    options: [option(t('Created exports', 'Erstellte Exporte'), 'created_export')],
  },
});

export const optionsLogger = defineLogger({
  slug: 'SimpleOptionsLogger',
  name: t('Options Logger', 'Einstellungs-Protokoll'),
  via: null,
  capability: 'manage_options',
  messages: {
    option_updated: t(
      'Updated setting "{option}" on the "{option_page}" settings page',
      'Einstellung „{option}“ auf der Einstellungsseite „{option_page}“ aktualisiert',
    ),
  },
  search: {
    label: t('Options', 'Einstellungen'),
    options: [option(t('Changed options', 'Geänderte Einstellungen'), 'option_updated')],
  },
});

export const privacyLogger = defineLogger({
  slug: 'SH_Privacy_Logger',
  name: t('Privacy Logger', 'Datenschutz-Protokoll'),
  via: null,
  capability: 'manage_options',
  messages: {
    privacy_page_created: t(
      'Created a new privacy page "{new_post_title}"',
      'Neue Datenschutzseite „{new_post_title}“ erstellt',
    ),
    privacy_page_set: t(
      'Set privacy page to page "{new_post_title}"',
      'Datenschutzseite auf „{new_post_title}“ gesetzt',
    ),
    privacy_data_export_requested: t(
      'Requested a personal privacy data export for user "{user_email}"',
      'Export personenbezogener Daten für Benutzer „{user_email}“ angefordert',
    ),
    privacy_data_export_admin_downloaded: t(
      'Downloaded personal data export file for user "{user_email}"',
      'Exportdatei personenbezogener Daten für Benutzer „{user_email}“ heruntergeladen',
    ),
    privacy_data_export_emailed: t(
      'Sent email with personal data export download info for user "{user_email}"',
      'E-Mail mit Download-Informationen zum Datenexport an Benutzer „{user_email}“ gesendet',
    ),
    privacy_data_export_request_confirmed: t(
      'Confirmed personal data export request for "{user_email}"',
      'Anfrage zum Datenexport für „{user_email}“ bestätigt',
    ),
    privacy_data_export_completed: t(
      'Marked personal data export request as complete for "{request_email}"',
      'Anfrage zum Datenexport für „{request_email}“ als erledigt markiert',
    ),
    privacy_data_export_removed: t(
      'Removed data export request for "{user_email}"',
      'Anfrage zum Datenexport für „{user_email}“ entfernt',
    ),
    data_erasure_request_added: t(
      'Added personal data erasure request for "{user_email}"',
      'Anfrage zur Löschung personenbezogener Daten für „{user_email}“ hinzugefügt',
    ),
    data_erasure_request_confirmed: t(
      'Confirmed personal data erasure request for "{user_email}"',
      'Anfrage zur Datenlöschung für „{user_email}“ bestätigt',
    ),
    data_erasure_request_completed: t(
      'Marked personal data erasure request as complete for "{user_email}"',
      'Anfrage zur Datenlöschung für „{user_email}“ als erledigt markiert',
    ),
    data_erasure_request_removed: t(
      'Removed personal data removal request for "{user_email}"',
      'Anfrage zur Datenlöschung für „{user_email}“ entfernt',
    ),
    data_erasure_erasure_erased: t(
      'Erased personal data for "{user_email}"',
      'Personenbezogene Daten für „{user_email}“ gelöscht',
    ),
  },
  search: {
    label: t('Privacy', 'Datenschutz'),
    labelAll: t('All privacy activity', 'Alle Datenschutz-Aktivitäten'),
    options: [
      option(t('Privacy page changes', 'Änderungen der Datenschutzseite'), 'privacy_page_created', 'privacy_page_set'),
      option(
        t('Personal data exports', 'Exporte personenbezogener Daten'),
        'privacy_data_export_requested',
        'privacy_data_export_admin_downloaded',
        'privacy_data_export_emailed',
        'privacy_data_export_request_confirmed',
        'privacy_data_export_completed',
        'privacy_data_export_removed',
      ),
      option(
        t('Personal data erasures', 'Löschungen personenbezogener Daten'),
        'data_erasure_request_added',
        'data_erasure_request_confirmed',
        'data_erasure_request_completed',
        'data_erasure_request_removed',
        'data_erasure_erasure_erased',
      ),
    ],
  },
});

export const roleCapabilityLogger = defineLogger({
  slug: 'SimpleRoleCapabilityLogger',
  name: t('Role & Capability Logger', 'Rollen- und Rechte-Protokoll'),
  via: null,
  capability: 'manage_options',
  messages: {
    role_created: t(
      'Created role "{role_name}" ({role_slug}) with {cap_count} capabilities',
      'Rolle „{role_name}“ ({role_slug}) mit {cap_count} Rechten erstellt',
    ),
    role_deleted: t('Deleted role "{role_name}" ({role_slug})', 'Rolle „{role_name}“ ({role_slug}) gelöscht'),
    role_caps_added: t(
      'Added {cap_count} capabilities to role "{role_name}": {capabilities}',
      '{cap_count} Rechte zu Rolle „{role_name}“ hinzugefügt: {capabilities}',
    ),
    role_caps_removed: t(
      'Removed {cap_count} capabilities from role "{role_name}": {capabilities}',
      '{cap_count} Rechte von Rolle „{role_name}“ entfernt: {capabilities}',
    ),
    role_display_name_changed: t(
      'Changed display name for role "{role_slug}" from "{old_name}" to "{new_name}"',
      'Anzeigename der Rolle „{role_slug}“ von „{old_name}“ zu „{new_name}“ geändert',
    ),
  },
  search: {
    label: t('Roles & capabilities', 'Rollen und Rechte'),
    labelAll: t('All role activity', 'Alle Rollen-Aktivitäten'),
    options: [
      option(t('Created roles', 'Erstellte Rollen'), 'role_created'),
      option(t('Deleted roles', 'Gelöschte Rollen'), 'role_deleted'),
      option(t('Changed capabilities', 'Geänderte Rechte'), 'role_caps_added', 'role_caps_removed'),
      option(t('Renamed roles', 'Umbenannte Rollen'), 'role_display_name_changed'),
    ],
  },
});

export const siteHealthLogger = defineLogger({
  slug: 'SiteHealthLogger',
  name: t('Site Health Logger', 'Website-Zustand-Protokoll'),
  via: null,
  capability: 'manage_options',
  messages: {
    site_health_issue_detected: t(
      'Detected Site Health issue: {site_health_label}',
      'Problem im Website-Zustand erkannt: {site_health_label}',
    ),
    site_health_issue_resolved: t(
      'Resolved Site Health issue: {site_health_label}',
      'Problem im Website-Zustand behoben: {site_health_label}',
    ),
    site_health_issue_changed: t(
      'Changed Site Health issue severity: {site_health_label}',
      'Schweregrad eines Problems im Website-Zustand geändert: {site_health_label}',
    ),
  },
  search: {
    label: t('Site Health', 'Website-Zustand'),
    labelAll: t('All Site Health activity', 'Alle Aktivitäten zum Website-Zustand'),
    options: [
      option(t('Detected issues', 'Erkannte Probleme'), 'site_health_issue_detected'),
      option(t('Resolved issues', 'Behobene Probleme'), 'site_health_issue_resolved'),
      option(t('Changed issues', 'Geänderte Probleme'), 'site_health_issue_changed'),
    ],
  },
});
