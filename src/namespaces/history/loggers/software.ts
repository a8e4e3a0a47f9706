// The loggers of the software the site runs: the CMS core, plugins, themes and widgets, and
// their updates, installs, file edits, integrity checks and translations. (Settings, roles,
// privacy, exports and site health: administration.ts.)
import { defineLogger } from '../../../site/activity.ts';
import { option, t } from './define.ts';

export const availableUpdatesLogger = defineLogger({
  slug: 'AvailableUpdatesLogger',
  name: t('Available Updates Logger', 'Protokoll verfügbarer Updates'),
  via: null,
  capability: 'manage_options',
  messages: {
    core_update_available: t('Found an update to the CMS', 'Update für das CMS gefunden'),
    plugin_update_available: t(
      'Found an update to plugin "{plugin_name}"',
      'Update für Plugin „{plugin_name}“ gefunden',
    ),
    theme_update_available: t('Found an update to theme "{theme_name}"', 'Update für Theme „{theme_name}“ gefunden'),
  },
  search: {
    label: t('CMS and plugin updates found', 'Gefundene Updates für CMS und Plugins'),
    labelAll: t('All found updates', 'Alle gefundenen Updates'),
    options: [
      option(t('CMS updates found', 'Gefundene CMS-Updates'), 'core_update_available'),
      option(t('Plugin updates found', 'Gefundene Plugin-Updates'), 'plugin_update_available'),
      option(t('Theme updates found', 'Gefundene Theme-Updates'), 'theme_update_available'),
    ],
  },
});

export const coreFilesLogger = defineLogger({
  slug: 'CoreFilesLogger',
  name: t('Core Files Logger', 'Kerndateien-Protokoll'),
  via: null,
  capability: 'manage_options',
  messages: {
    core_files_modified: t(
      'Detected modifications to {file_count} CMS core files',
      'Änderungen an {file_count} Kerndateien des CMS erkannt',
    ),
    core_files_restored: t(
      'Verified integrity restored for {file_count} CMS core files',
      'Integrität von {file_count} Kerndateien des CMS wiederhergestellt',
    ),
    core_files_check_failed: t(
      'Could not check CMS core files integrity: {error_message}',
      'Integrität der Kerndateien des CMS konnte nicht geprüft werden: {error_message}',
    ),
  },
  search: {
    label: t('CMS core files', 'Kerndateien des CMS'),
    labelAll: t('All core files activity', 'Alle Aktivitäten zu Kerndateien'),
    options: [
      option(t('Modified core files', 'Geänderte Kerndateien'), 'core_files_modified'),
      option(t('Restored core files', 'Wiederhergestellte Kerndateien'), 'core_files_restored'),
      option(t('Failed core files checks', 'Fehlgeschlagene Prüfungen der Kerndateien'), 'core_files_check_failed'),
    ],
  },
});

export const coreUpdatesLogger = defineLogger({
  slug: 'SimpleCoreUpdatesLogger',
  name: t('Core Updates Logger', 'Kern-Update-Protokoll'),
  via: null,
  capability: 'update_core',
  messages: {
    core_updated: t(
      'Updated the CMS to {new_version} from {prev_version}',
      'CMS von {prev_version} auf {new_version} aktualisiert',
    ),
    core_auto_updated: t(
      'The CMS auto-updated to {new_version} from {prev_version}',
      'CMS automatisch von {prev_version} auf {new_version} aktualisiert',
    ),
    core_update_failed: t('Failed to update the CMS', 'Aktualisierung des CMS fehlgeschlagen'),
    core_db_version_updated: t(
      'CMS database version updated to {new_version} from {prev_version}',
      'Datenbankversion des CMS von {prev_version} auf {new_version} aktualisiert',
    ),
    core_major_auto_updates_setting_enabled: t(
      'Enabled automatic updates for all new versions of the CMS',
      'Automatische Updates für alle neuen CMS-Versionen aktiviert',
    ),
    core_major_auto_updates_setting_disabled: t(
      'Switched to automatic updates for maintenance and security releases of the CMS only',
      'Automatische Updates nur noch für Wartungs- und Sicherheitsversionen des CMS',
    ),
  },
  search: {
    label: t('CMS Core', 'CMS-Kern'),
    options: [
      option(t('CMS core updates', 'Updates des CMS-Kerns'), 'core_updated', 'core_auto_updated', 'core_update_failed'),
    ],
  },
});

export const fileEditsLogger = defineLogger({
  slug: 'FileEditsLogger',
  name: t('File edits Logger', 'Dateibearbeitungs-Protokoll'),
  via: null,
  capability: 'manage_options',
  messages: {
    theme_file_edited: t(
      'Edited file "{file_name}" in theme "{theme_name}"',
      'Datei „{file_name}“ im Theme „{theme_name}“ bearbeitet',
    ),
    plugin_file_edited: t(
      'Edited file "{file_name}" in plugin "{plugin_name}"',
      'Datei „{file_name}“ im Plugin „{plugin_name}“ bearbeitet',
    ),
  },
  search: {
    label: t('File edits', 'Dateibearbeitungen'),
    labelAll: t('All file edits', 'Alle Dateibearbeitungen'),
    options: [
      option(t('Edited theme files', 'Bearbeitete Theme-Dateien'), 'theme_file_edited'),
      option(t('Edited plugin files', 'Bearbeitete Plugin-Dateien'), 'plugin_file_edited'),
    ],
  },
});

export const pluginLogger = defineLogger({
  slug: 'SimplePluginLogger',
  name: t('Plugin Logger', 'Plugin-Protokoll'),
  via: null,
  capability: 'activate_plugins',
  messages: {
    plugin_activated: t('Activated plugin "{plugin_name}"', 'Plugin „{plugin_name}“ aktiviert'),
    plugin_deactivated: t('Deactivated plugin "{plugin_name}"', 'Plugin „{plugin_name}“ deaktiviert'),
    plugin_installed: t('Installed plugin "{plugin_name}"', 'Plugin „{plugin_name}“ installiert'),
    plugin_installed_failed: t(
      'Failed to install plugin "{plugin_name}"',
      'Installation von Plugin „{plugin_name}“ fehlgeschlagen',
    ),
    plugin_updated: t(
      'Updated plugin "{plugin_name}" to version {plugin_version} from {plugin_prev_version}',
      'Plugin „{plugin_name}“ von Version {plugin_prev_version} auf {plugin_version} aktualisiert',
    ),
    plugin_update_failed: t(
      'Failed to update plugin "{plugin_name}"',
      'Aktualisierung von Plugin „{plugin_name}“ fehlgeschlagen',
    ),
    plugin_update_rolled_back: t(
      'Plugin "{plugin_name}" was rolled back to version {plugin_prev_version} after update to {plugin_version} failed',
      'Plugin „{plugin_name}“ wurde nach fehlgeschlagenem Update auf {plugin_version} auf Version {plugin_prev_version} zurückgesetzt',
    ),
    plugin_deleted: t('Deleted plugin "{plugin_name}"', 'Plugin „{plugin_name}“ gelöscht'),
    plugin_bulk_updated: t(
      'Updated plugin "{plugin_name}" to {plugin_version} from {plugin_prev_version}',
      'Plugin „{plugin_name}“ von {plugin_prev_version} auf {plugin_version} aktualisiert',
    ),
    plugin_bulk_updated_failed: t(
      'Failed to update plugin "{plugin_name}"',
      'Aktualisierung von Plugin „{plugin_name}“ fehlgeschlagen',
    ),
    plugin_disabled_because_error: t(
      'Deactivated plugin "{plugin_slug}" because of an error ("{deactivation_reason}").',
      'Plugin „{plugin_slug}“ wegen eines Fehlers deaktiviert („{deactivation_reason}“).',
    ),
    plugin_auto_updates_enabled: t(
      'Enabled auto-updates for plugin "{plugin_name}"',
      'Automatische Updates für Plugin „{plugin_name}“ aktiviert',
    ),
    plugin_auto_updates_disabled: t(
      'Disabled auto-updates for plugin "{plugin_name}"',
      'Automatische Updates für Plugin „{plugin_name}“ deaktiviert',
    ),
  },
  search: {
    label: t('Plugins', 'Plugins'),
    labelAll: t('All plugin activity', 'Alle Plugin-Aktivitäten'),
    options: [
      option(t('Activated plugins', 'Aktivierte Plugins'), 'plugin_activated'),
      option(t('Deactivated plugins', 'Deaktivierte Plugins'), 'plugin_deactivated', 'plugin_disabled_because_error'),
      option(t('Installed plugins', 'Installierte Plugins'), 'plugin_installed'),
      option(t('Failed plugin installs', 'Fehlgeschlagene Plugin-Installationen'), 'plugin_installed_failed'),
      option(t('Updated plugins', 'Aktualisierte Plugins'), 'plugin_updated', 'plugin_bulk_updated'),
      option(
        t('Failed plugin updates', 'Fehlgeschlagene Plugin-Updates'),
        'plugin_update_failed',
        'plugin_bulk_updated_failed',
      ),
      option(t('Deleted plugins', 'Gelöschte Plugins'), 'plugin_deleted'),
    ],
  },
});

export const themeLogger = defineLogger({
  slug: 'SimpleThemeLogger',
  name: t('Theme Logger', 'Theme-Protokoll'),
  via: null,
  capability: 'edit_theme_options',
  messages: {
    theme_switched: t(
      'Switched theme to "{theme_name}" from "{prev_theme_name}"',
      'Theme von „{prev_theme_name}“ zu „{theme_name}“ gewechselt',
    ),
    theme_installed: t(
      'Installed theme "{theme_name}" by {theme_author}',
      'Theme „{theme_name}“ von {theme_author} installiert',
    ),
    theme_deleted: t('Deleted theme "{theme_name}"', 'Theme „{theme_name}“ gelöscht'),
    theme_updated: t('Updated theme "{theme_name}"', 'Theme „{theme_name}“ aktualisiert'),
    theme_update_failed: t(
      'Failed to update theme "{theme_name}"',
      'Aktualisierung von Theme „{theme_name}“ fehlgeschlagen',
    ),
    appearance_customized: t(
      'Customized theme appearance "{setting_id}"',
      'Theme-Darstellung „{setting_id}“ angepasst',
    ),
    widget_removed: t(
      'Removed widget "{widget_id_base}" from sidebar "{sidebar_id}"',
      'Widget „{widget_id_base}“ aus Seitenleiste „{sidebar_id}“ entfernt',
    ),
    widget_added: t(
      'Added widget "{widget_id_base}" to sidebar "{sidebar_id}"',
      'Widget „{widget_id_base}“ zu Seitenleiste „{sidebar_id}“ hinzugefügt',
    ),
    widget_order_changed: t(
      'Changed widget order "{widget_id_base}" in sidebar "{sidebar_id}"',
      'Reihenfolge von Widget „{widget_id_base}“ in Seitenleiste „{sidebar_id}“ geändert',
    ),
    widget_edited: t(
      'Changed widget "{widget_id_base}" in sidebar "{sidebar_id}"',
      'Widget „{widget_id_base}“ in Seitenleiste „{sidebar_id}“ geändert',
    ),
    custom_background_changed: t(
      'Changed settings for the theme custom background',
      'Einstellungen für den Theme-Hintergrund geändert',
    ),
  },
  search: {
    label: t('Themes & Widgets', 'Themes & Widgets'),
    labelAll: t('All theme activity', 'Alle Theme-Aktivitäten'),
    options: [
      option(t('Updated themes', 'Aktualisierte Themes'), 'theme_updated'),
      option(t('Deleted themes', 'Gelöschte Themes'), 'theme_deleted'),
      option(t('Installed themes', 'Installierte Themes'), 'theme_installed'),
      option(t('Switched themes', 'Gewechselte Themes'), 'theme_switched'),
      option(t('Changed appearance of themes', 'Geänderte Theme-Darstellung'), 'appearance_customized'),
      option(t('Added widgets', 'Hinzugefügte Widgets'), 'widget_added'),
      option(t('Removed widgets', 'Entfernte Widgets'), 'widget_removed'),
      option(t('Changed widgets order', 'Geänderte Widget-Reihenfolge'), 'widget_order_changed'),
      option(t('Edited widgets', 'Bearbeitete Widgets'), 'widget_edited'),
      option(t('Background of themes changed', 'Geänderter Theme-Hintergrund'), 'custom_background_changed'),
    ],
  },
});

export const translationsLogger = defineLogger({
  slug: 'SH_Translations_Logger',
  name: t('Translation Logger', 'Übersetzungs-Protokoll'),
  via: null,
  capability: 'manage_options',
  messages: {
    translations_updated: t(
      'Updated translations for "{name}" ({language})',
      'Übersetzungen für „{name}“ ({language}) aktualisiert',
    ),
  },
  search: {
    label: t('Translations', 'Übersetzungen'),
    options: [option(t('Updated translations', 'Aktualisierte Übersetzungen'), 'translations_updated')],
  },
});
