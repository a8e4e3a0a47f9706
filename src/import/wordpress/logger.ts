// Activity-log logger of the importer: one event per finished run, with its report.
import { defineLogger } from '../../site/activity.ts';

export const importerLogger = defineLogger({
  slug: 'ImporterLogger',
  name: { en: 'Importer Logger', de: 'Import-Logger' },
  via: null,
  capability: 'import',
  messages: {
    import_finished: {
      en: 'Imported from WordPress site {source_url}: {import_summary}',
      de: 'Aus der WordPress-Website {source_url} importiert: {import_summary}',
    },
    import_failed: {
      en: 'Import from WordPress site {source_url} stopped: {import_error}',
      de: 'Import aus der WordPress-Website {source_url} abgebrochen: {import_error}',
    },
  },
  search: {
    label: { en: 'Imports', de: 'Importe' },
    labelAll: { en: 'All import activity', de: 'Alle Import-Aktivitäten' },
    options: [
      { label: { en: 'Finished imports', de: 'Abgeschlossene Importe' }, messageKeys: ['import_finished'] },
      { label: { en: 'Stopped imports', de: 'Abgebrochene Importe' }, messageKeys: ['import_failed'] },
    ],
  },
});
