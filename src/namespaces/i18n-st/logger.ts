// The activity-log logger of i18n/st/v1 (string translation).
import type { LoggerDef } from '../../site/activity.ts';

export const I18N_ST_LOGGER_SLUG = 'I18nStringsLogger';

export const i18nStLogger: LoggerDef = {
  slug: I18N_ST_LOGGER_SLUG,
  name: { en: 'String translation', de: 'String-Übersetzung' },
  via: null,
  capability: 'manage_translations',
  messages: {
    string_settings_updated: {
      en: 'Updated string translation settings ({settings})',
      de: 'Einstellungen der String-Übersetzung geändert ({settings})',
    },
    strings_queue_processed: {
      en: 'Registered {registered} new and updated {updated} autoregistered strings from the queue ({quarantined} quarantined, {remaining_pages} pages remaining)',
      de: '{registered} neue automatisch erfasste Strings aus der Warteschlange registriert und {updated} aktualisiert ({quarantined} in Quarantäne, {remaining_pages} Seiten verbleibend)',
    },
  },
  search: {
    label: { en: 'String translation', de: 'String-Übersetzung' },
    labelAll: { en: 'All string translation activity', de: 'Alle Aktivitäten der String-Übersetzung' },
    options: [
      { label: { en: 'String translation settings', de: 'Einstellungen der String-Übersetzung' }, messageKeys: ['string_settings_updated'] },
      { label: { en: 'Registered strings', de: 'Registrierte Strings' }, messageKeys: ['strings_queue_processed'] },
    ],
  },
};
