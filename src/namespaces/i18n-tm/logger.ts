// The activity-log logger of translation management (i18n/tm/v1).
import { defineLogger } from '../../site/activity.ts';

export const i18nTmLogger = defineLogger({
  slug: 'I18nTmLogger',
  name: { en: 'Translation management', de: 'Übersetzungsverwaltung' },
  via: null,
  capability: 'manage_translations',
  messages: {
    job_assigned: {
      en: 'Assigned translation job {job_id} ("{job_title}", {source_language} → {target_language}) to {translator_name}',
      de: 'Übersetzungsauftrag {job_id} („{job_title}“, {source_language} → {target_language}) an {translator_name} zugewiesen',
    },
    ate_jobs_created: {
      en: 'Created {count} job(s) in the translation editor for translation job(s) {job_ids}',
      de: '{count} Auftrag/Aufträge im Übersetzungseditor für Übersetzungsauftrag/-aufträge {job_ids} angelegt',
    },
    ate_job_stored: {
      en: 'Linked translation job {job_id} to translation editor job {ate_job_id}',
      de: 'Übersetzungsauftrag {job_id} mit dem Übersetzungseditor-Auftrag {ate_job_id} verknüpft',
    },
    manager_registered: {
      en: 'Registered {manager_name} as translation manager of the site',
      de: '{manager_name} als Übersetzungsmanager der Website registriert',
    },
    translators_synchronized: {
      en: 'Synchronized {count} translator(s)',
      de: '{count} Übersetzer synchronisiert',
    },
    managers_synchronized: {
      en: 'Synchronized {count} translation manager(s)',
      de: '{count} Übersetzungsmanager synchronisiert',
    },
    jobs_sent: {
      en: 'Sent {count} translation job(s) into {target_language}: {job_ids}',
      de: '{count} Übersetzungsauftrag/-aufträge nach {target_language} gesendet: {job_ids}',
    },
    job_translation_saved: {
      en: 'Saved the translation of job {job_id} ("{job_title}", {source_language} → {target_language})',
      de: 'Übersetzung des Auftrags {job_id} („{job_title}“, {source_language} → {target_language}) gespeichert',
    },
    job_completed: {
      en: 'Completed translation job {job_id} ("{job_title}", {source_language} → {target_language}) via {via}',
      de: 'Übersetzungsauftrag {job_id} („{job_title}“, {source_language} → {target_language}) über {via} abgeschlossen',
    },
    engines_updated: {
      en: 'Updated the machine-translation engines (enabled: {enabled_engines})',
      de: 'Maschinelle Übersetzungsdienste aktualisiert (aktiviert: {enabled_engines})',
    },
  },
  search: {
    label: { en: 'Translation management', de: 'Übersetzungsverwaltung' },
    labelAll: { en: 'All translation management activity', de: 'Alle Aktivitäten der Übersetzungsverwaltung' },
    options: [
      {
        label: { en: 'Translation jobs', de: 'Übersetzungsaufträge' },
        messageKeys: [
          'job_assigned',
          'jobs_sent',
          'job_translation_saved',
          'job_completed',
          'ate_jobs_created',
          'ate_job_stored',
        ],
      },
      {
        label: { en: 'Translation service settings', de: 'Einstellungen des Übersetzungsdienstes' },
        messageKeys: ['manager_registered', 'translators_synchronized', 'managers_synchronized', 'engines_updated'],
      },
    ],
  },
});
