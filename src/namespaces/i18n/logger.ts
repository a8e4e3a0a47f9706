// The activity-log logger of i18n/v1 (translation configuration).
import { defineLogger } from '../../site/activity.ts';

export const i18nLogger = defineLogger({
  slug: 'I18nConfigLogger',
  name: { en: 'Translation configuration', de: 'Übersetzungskonfiguration' },
  via: null,
  capability: 'manage_options',
  messages: {
    custom_xml_config_updated: {
      en: 'Updated the custom XML translation configuration ({bytes} bytes; {custom_types} post types, {custom_fields} custom fields, {admin_texts} admin texts)',
      de: 'Benutzerdefinierte XML-Übersetzungskonfiguration geändert ({bytes} Bytes; {custom_types} Inhaltstypen, {custom_fields} benutzerdefinierte Felder, {admin_texts} Admin-Texte)',
    },
    custom_xml_config_cleared: {
      en: 'Cleared the custom XML translation configuration',
      de: 'Benutzerdefinierte XML-Übersetzungskonfiguration geleert',
    },
  },
  search: {
    label: { en: 'Translation configuration', de: 'Übersetzungskonfiguration' },
    labelAll: { en: 'All translation configuration activity', de: 'Alle Aktivitäten der Übersetzungskonfiguration' },
    options: [
      {
        label: { en: 'Updated configuration', de: 'Geänderte Konfiguration' },
        messageKeys: ['custom_xml_config_updated'],
      },
      {
        label: { en: 'Cleared configuration', de: 'Geleerte Konfiguration' },
        messageKeys: ['custom_xml_config_cleared'],
      },
    ],
  },
});
