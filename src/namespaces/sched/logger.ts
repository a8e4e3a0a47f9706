// The activity-log logger of sched/v1: every successful write of this namespace is recorded.
import { defineLogger } from '../../site/activity.ts';

export const schedLogger = defineLogger({
  slug: 'SchedLogger',
  name: { en: 'Scheduling Logger', de: 'Terminplanungs-Protokoll' },
  via: { en: 'Using the scheduling module', de: 'Über das Terminplanungsmodul' },
  capability: 'manage_options',
  messages: {
    settings_updated: {
      en: 'Updated scheduling settings "{sections}"',
      de: 'Terminplanungs-Einstellungen „{sections}“ geändert',
    },
    section_reset: {
      en: 'Reset scheduling settings "{section}" to defaults',
      de: 'Terminplanungs-Einstellungen „{section}“ auf Standardwerte zurückgesetzt',
    },
    notice_dismissed: {
      en: 'Dismissed notice "{notice_id}" ({scope})',
      de: 'Hinweis „{notice_id}“ ausgeblendet ({scope})',
    },
    notice_restored: {
      en: 'Restored notice "{notice_id}" ({scope})',
      de: 'Hinweis „{notice_id}“ wieder eingeblendet ({scope})',
    },
    notice_pinned: { en: 'Pinned notice "{notice_id}"', de: 'Hinweis „{notice_id}“ angeheftet' },
    notice_unpinned: { en: 'Unpinned notice "{notice_id}"', de: 'Hinweis „{notice_id}“ gelöst' },
    ticket_created: {
      en: 'Created support ticket #{ticket_id} "{subject}"',
      de: 'Support-Ticket #{ticket_id} „{subject}“ angelegt',
    },
    export_created: { en: 'Exported scheduling data ({parts})', de: 'Terminplanungsdaten exportiert ({parts})' },
    import_applied: { en: 'Imported scheduling data ({parts})', de: 'Terminplanungsdaten importiert ({parts})' },
    debug_log_cleared: { en: 'Cleared the debug log "{log}"', de: 'Debug-Protokoll „{log}“ geleert' },
  },
  search: {
    label: { en: 'Scheduling', de: 'Terminplanung' },
    labelAll: { en: 'All scheduling activity', de: 'Alle Aktivitäten der Terminplanung' },
    options: [
      {
        label: { en: 'Scheduling settings', de: 'Terminplanungs-Einstellungen' },
        messageKeys: ['settings_updated', 'section_reset', 'import_applied'],
      },
      {
        label: { en: 'Scheduling notices', de: 'Terminplanungs-Hinweise' },
        messageKeys: ['notice_dismissed', 'notice_restored', 'notice_pinned', 'notice_unpinned'],
      },
      {
        label: { en: 'Scheduling support', de: 'Terminplanungs-Support' },
        messageKeys: ['ticket_created', 'export_created', 'debug_log_cleared'],
      },
    ],
  },
});
