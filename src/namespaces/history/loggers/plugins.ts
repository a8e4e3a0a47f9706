import { defineLogger } from '../../../site/activity.ts';
import { option, t } from './define.ts';

const via = (name: string) => t(`Using plugin ${name}`, `Über das Plugin ${name}`);

export const acfLogger = defineLogger({
  slug: 'Plugin_ACF',
  name: t('Plugin: Advanced Custom Fields Logger', 'Plugin: Advanced-Custom-Fields-Protokoll'),
  via: via('ACF'),
  capability: 'manage_options',
  messages: {},
});

export const beaverBuilderLogger = defineLogger({
  slug: 'Plugin_BeaverBuilder',
  name: t('Plugin: Beaver Builder Logger', 'Plugin: Beaver-Builder-Protokoll'),
  via: via('Beaver Builder'),
  capability: 'manage_options',
  messages: {
    layout_saved: t('Layout "{layout_name}" updated', 'Layout „{layout_name}“ aktualisiert'),
    template_saved: t('Template "{layout_name}" updated', 'Vorlage „{layout_name}“ aktualisiert'),
    draft_saved: t('Draft "{layout_name}" updated', 'Entwurf „{layout_name}“ aktualisiert'),
    admin_saved: t('Beaver Builder settings saved', 'Beaver-Builder-Einstellungen gespeichert'),
  },
  search: {
    label: t('Beaver Builder', 'Beaver Builder'),
    labelAll: t('All Beaver Builder activity', 'Alle Beaver-Builder-Aktivitäten'),
    options: [
      option(t('Saved layouts', 'Gespeicherte Layouts'), 'layout_saved'),
      option(t('Saved templates', 'Gespeicherte Vorlagen'), 'template_saved'),
      option(t('Saved drafts', 'Gespeicherte Entwürfe'), 'draft_saved'),
      option(t('Saved settings', 'Gespeicherte Einstellungen'), 'admin_saved'),
    ],
  },
});

export const duplicatePostLogger = defineLogger({
  slug: 'Plugin_DuplicatePost',
  name: t('Plugin: Duplicate Posts Logger', 'Plugin: Beitrag-duplizieren-Protokoll'),
  via: via('Duplicate Post'),
  capability: 'manage_options',
  messages: {
    post_duplicated: t(
      'Cloned "{duplicated_post_title}" to a new post',
      '„{duplicated_post_title}“ in einen neuen Beitrag kopiert',
    ),
  },
  search: {
    label: t('Duplicate Post', 'Beitrag duplizieren'),
    options: [option(t('Cloned posts', 'Kopierte Beiträge'), 'post_duplicated')],
  },
});

export const enableMediaReplaceLogger = defineLogger({
  slug: 'PluginEnableMediaReplaceLogger',
  name: t('Plugin: Enable Media Replace Logger', 'Plugin: Medien-ersetzen-Protokoll'),
  via: via('Enable Media Replace'),
  capability: 'upload_files',
  messages: {
    replaced_file: t(
      'Replaced attachment "{prev_attachment_title}" with new attachment "{new_attachment_title}"',
      'Anhang „{prev_attachment_title}“ durch neuen Anhang „{new_attachment_title}“ ersetzt',
    ),
  },
  search: {
    label: t('Enable Media Replace', 'Medien ersetzen'),
    options: [option(t('Replaced attachments', 'Ersetzte Anhänge'), 'replaced_file')],
  },
});

export const jetpackLogger = defineLogger({
  slug: 'SH_Jetpack_Logger',
  name: t('Plugin: Jetpack Logger', 'Plugin: Jetpack-Protokoll'),
  via: via('Jetpack'),
  capability: 'manage_options',
  messages: {
    module_activated: t('Activated Jetpack module "{module_name}"', 'Jetpack-Modul „{module_name}“ aktiviert'),
    module_deactivated: t('Deactivated Jetpack module "{module_name}"', 'Jetpack-Modul „{module_name}“ deaktiviert'),
  },
  search: {
    label: t('Jetpack', 'Jetpack'),
    labelAll: t('All Jetpack activity', 'Alle Jetpack-Aktivitäten'),
    options: [
      option(t('Activated modules', 'Aktivierte Module'), 'module_activated'),
      option(t('Deactivated modules', 'Deaktivierte Module'), 'module_deactivated'),
    ],
  },
});

export const limitLoginAttemptsLogger = defineLogger({
  slug: 'Plugin_LimitLoginAttempts',
  name: t('Plugin: Limit Login Attempts Logger', 'Plugin: Anmeldeversuche-begrenzen-Protokoll'),
  via: via('Limit Login Attempts'),
  capability: 'manage_options',
  messages: {
    failed_login_whitelisted: t(
      'Failed login attempt from whitelisted IP',
      'Fehlgeschlagener Anmeldeversuch von freigegebener IP',
    ),
    failed_login: t(
      'Locked out after too many failed login attempts',
      'Nach zu vielen fehlgeschlagenen Anmeldeversuchen gesperrt',
    ),
    cleared_ip_log: t('Cleared IP log', 'IP-Protokoll geleert'),
    reseted_lockout_count: t('Reset lockout count', 'Sperrzähler zurückgesetzt'),
    cleared_current_lockouts: t('Cleared current lockouts', 'Aktuelle Sperren aufgehoben'),
    updated_options: t('Updated options', 'Optionen aktualisiert'),
  },
  search: {
    label: t('Limit Login Attempts', 'Anmeldeversuche begrenzen'),
    labelAll: t('All Limit Login Attempts activity', 'Alle Aktivitäten zum Begrenzen der Anmeldeversuche'),
    options: [
      option(t('Failed logins', 'Fehlgeschlagene Anmeldungen'), 'failed_login_whitelisted', 'failed_login'),
      option(
        t('Cleared lockouts', 'Aufgehobene Sperren'),
        'cleared_ip_log',
        'reseted_lockout_count',
        'cleared_current_lockouts',
      ),
      option(t('Settings changes', 'Einstellungsänderungen'), 'updated_options'),
    ],
  },
});

export const redirectionLogger = defineLogger({
  slug: 'Plugin_Redirection',
  name: t('Plugin: Redirection Logger', 'Plugin: Weiterleitungs-Protokoll'),
  via: t('In plugin Redirection', 'Im Plugin Redirection'),
  capability: 'manage_options',
  messages: {
    redirection_redirection_added: t(
      'Added a redirection for URL "{source_url}"',
      'Weiterleitung für URL „{source_url}“ hinzugefügt',
    ),
    redirection_redirection_edited: t(
      'Edited redirection for URL "{prev_source_url}"',
      'Weiterleitung für URL „{prev_source_url}“ bearbeitet',
    ),
    redirection_redirection_enabled: t(
      'Enabled redirection for {items_count} URL(s)',
      'Weiterleitung für {items_count} URL(s) aktiviert',
    ),
    redirection_redirection_disabled: t(
      'Disabled redirection for {items_count} URL(s)',
      'Weiterleitung für {items_count} URL(s) deaktiviert',
    ),
    redirection_redirection_deleted: t(
      'Deleted redirection for {items_count} URL(s)',
      'Weiterleitung für {items_count} URL(s) gelöscht',
    ),
    redirection_options_saved: t('Updated redirection options', 'Weiterleitungsoptionen aktualisiert'),
    redirection_options_removed_all: t(
      'Removed all redirection options and deactivated plugin',
      'Alle Weiterleitungsoptionen entfernt und Plugin deaktiviert',
    ),
    redirection_group_added: t(
      'Added redirection group "{group_name}"',
      'Weiterleitungsgruppe „{group_name}“ hinzugefügt',
    ),
    redirection_group_edited: t(
      'Edited redirection group "{prev_group_name}"',
      'Weiterleitungsgruppe „{prev_group_name}“ bearbeitet',
    ),
    redirection_group_enabled: t(
      'Enabled {items_count} redirection group(s)',
      '{items_count} Weiterleitungsgruppe(n) aktiviert',
    ),
    redirection_group_disabled: t(
      'Disabled {items_count} redirection group(s)',
      '{items_count} Weiterleitungsgruppe(n) deaktiviert',
    ),
    redirection_group_deleted: t(
      'Deleted {items_count} redirection group(s)',
      '{items_count} Weiterleitungsgruppe(n) gelöscht',
    ),
  },
  search: {
    label: t('Redirection', 'Weiterleitungen'),
    labelAll: t('All redirection activity', 'Alle Weiterleitungsaktivitäten'),
    options: [
      option(t('Added redirections', 'Hinzugefügte Weiterleitungen'), 'redirection_redirection_added'),
      option(
        t('Edited redirections', 'Bearbeitete Weiterleitungen'),
        'redirection_redirection_edited',
        'redirection_redirection_enabled',
        'redirection_redirection_disabled',
      ),
      option(t('Deleted redirections', 'Gelöschte Weiterleitungen'), 'redirection_redirection_deleted'),
      option(
        t('Redirection groups', 'Weiterleitungsgruppen'),
        'redirection_group_added',
        'redirection_group_edited',
        'redirection_group_enabled',
        'redirection_group_disabled',
        'redirection_group_deleted',
      ),
      option(
        t('Redirection options', 'Weiterleitungsoptionen'),
        'redirection_options_saved',
        'redirection_options_removed_all',
      ),
    ],
  },
});

export const userSwitchingLogger = defineLogger({
  slug: 'PluginUserSwitchingLogger',
  name: t('Plugin: User Switching Logger', 'Plugin: Benutzerwechsel-Protokoll'),
  via: via('User Switching'),
  capability: 'edit_users',
  messages: {
    switched_to_user: t(
      'Switched to user "{user_login_to}" from user "{user_login_from}"',
      'Von Benutzer „{user_login_from}“ zu Benutzer „{user_login_to}“ gewechselt',
    ),
    switched_back_user: t(
      'Switched back to user "{user_login_to}" from user "{user_login_from}"',
      'Von Benutzer „{user_login_from}“ zurück zu Benutzer „{user_login_to}“ gewechselt',
    ),
    switched_back_themself: t(
      'Switched back to user "{user_login_to}"',
      'Zurück zu Benutzer „{user_login_to}“ gewechselt',
    ),
    switched_off_user: t('Switched off user "{user_login}"', 'Benutzer „{user_login}“ abgemeldet'),
  },
  search: {
    label: t('User Switching', 'Benutzerwechsel'),
    labelAll: t('All user switching activity', 'Alle Benutzerwechsel'),
    options: [
      option(
        t('Switched users', 'Gewechselte Benutzer'),
        'switched_to_user',
        'switched_back_user',
        'switched_back_themself',
      ),
      option(t('Switched off users', 'Abgemeldete Benutzer'), 'switched_off_user'),
    ],
  },
});

export const cronControlLogger = defineLogger({
  slug: 'PluginWPCrontrolLogger',
  name: t('Plugin: Cron Control Logger', 'Plugin: Cron-Steuerungs-Protokoll'),
  via: via('Cron Control'),
  capability: 'manage_options',
  messages: {
    added_new_event: t('Added cron event "{event_hook}"', 'Cron-Ereignis „{event_hook}“ hinzugefügt'),
    ran_event: t('Manually ran cron event "{event_hook}"', 'Cron-Ereignis „{event_hook}“ manuell ausgeführt'),
    deleted_event: t('Deleted cron event "{event_hook}"', 'Cron-Ereignis „{event_hook}“ gelöscht'),
    deleted_all_with_hook: t('Deleted all "{event_hook}" cron events', 'Alle Cron-Ereignisse „{event_hook}“ gelöscht'),
    paused_hook: t('Paused the "{event_hook}" cron event hook', 'Cron-Hook „{event_hook}“ pausiert'),
    resumed_hook: t('Resumed the "{event_hook}" cron event hook', 'Cron-Hook „{event_hook}“ fortgesetzt'),
    edited_event: t('Edited cron event "{event_hook}"', 'Cron-Ereignis „{event_hook}“ bearbeitet'),
    added_new_schedule: t('Added cron schedule "{schedule_name}"', 'Cron-Zeitplan „{schedule_name}“ hinzugefügt'),
    deleted_schedule: t('Deleted cron schedule "{schedule_name}"', 'Cron-Zeitplan „{schedule_name}“ gelöscht'),
  },
  search: {
    label: t('Cron Control', 'Cron-Steuerung'),
    labelAll: t('All cron activity', 'Alle Cron-Aktivitäten'),
    options: [
      option(
        t('Cron events', 'Cron-Ereignisse'),
        'added_new_event',
        'ran_event',
        'deleted_event',
        'deleted_all_with_hook',
        'paused_hook',
        'resumed_hook',
        'edited_event',
      ),
      option(t('Cron schedules', 'Cron-Zeitpläne'), 'added_new_schedule', 'deleted_schedule'),
    ],
  },
});
