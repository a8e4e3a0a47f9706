// The activity-log logger of i18n/st/v1 (string translation).
import { defineLogger } from '../../site/activity.ts';

export const i18nStLogger = defineLogger({
  slug: 'I18nStringsLogger',
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
    string_translated: {
      en: 'Translated the string "{string_value}" ({domain}) into {language}: "{translation}"',
      de: 'String „{string_value}“ ({domain}) nach {language} übersetzt: „{translation}“',
    },
    string_translation_needs_update: {
      en: 'Saved the translation of the string "{string_value}" ({domain}) into {language} as needing an update: "{translation}"',
      de: 'Übersetzung des Strings „{string_value}“ ({domain}) nach {language} als aktualisierungsbedürftig gespeichert: „{translation}“',
    },
    string_translation_unfinished: {
      en: 'Saved the translation of the string "{string_value}" ({domain}) into {language} as not translated',
      de: 'Übersetzung des Strings „{string_value}“ ({domain}) nach {language} als nicht übersetzt gespeichert',
    },
    string_translations_completed: {
      en: 'Marked {count} string translation(s) as complete (strings {string_ids}, language: {language})',
      de: '{count} String-Übersetzung(en) als fertig markiert (Strings {string_ids}, Sprache: {language})',
    },
    string_translations_need_update: {
      en: 'Marked {count} string translation(s) as needing an update (strings {string_ids}, language: {language})',
      de: '{count} String-Übersetzung(en) als aktualisierungsbedürftig markiert (Strings {string_ids}, Sprache: {language})',
    },
    string_translations_unfinished: {
      en: 'Marked {count} string translation(s) as not translated (strings {string_ids}, language: {language})',
      de: '{count} String-Übersetzung(en) als nicht übersetzt markiert (Strings {string_ids}, Sprache: {language})',
    },
    string_translations_deleted: {
      en: 'Deleted {count} string translation(s) (strings {string_ids}, language: {language})',
      de: '{count} String-Übersetzung(en) gelöscht (Strings {string_ids}, Sprache: {language})',
    },
  },
  search: {
    label: { en: 'String translation', de: 'String-Übersetzung' },
    labelAll: { en: 'All string translation activity', de: 'Alle Aktivitäten der String-Übersetzung' },
    options: [
      {
        label: { en: 'String translation settings', de: 'Einstellungen der String-Übersetzung' },
        messageKeys: ['string_settings_updated'],
      },
      { label: { en: 'Registered strings', de: 'Registrierte Strings' }, messageKeys: ['strings_queue_processed'] },
      {
        label: { en: 'Translated strings', de: 'Übersetzte Strings' },
        messageKeys: ['string_translated', 'string_translation_needs_update', 'string_translation_unfinished'],
      },
      {
        label: { en: 'Bulk changes of string translations', de: 'Sammeländerungen an String-Übersetzungen' },
        messageKeys: [
          'string_translations_completed',
          'string_translations_need_update',
          'string_translations_unfinished',
          'string_translations_deleted',
        ],
      },
    ],
  },
});
