import { defineLogger } from '../../../site/activity.ts';
import { option, t } from './define.ts';

/** Events posted through POST /history/v1/events. */
export const customEntryLogger = defineLogger({
  slug: 'CustomEntryLogger',
  name: t('Custom Entry Logger', 'Protokoll für eigene Einträge'),
  via: null,
  capability: 'edit_pages',
  messages: {
    custom_entry_added: t('Added a custom entry: {message}', 'Eigener Eintrag hinzugefügt: {message}'),
  },
  search: {
    label: t('Custom entries', 'Eigene Einträge'),
    options: [option(t('Custom entry added', 'Eigener Eintrag hinzugefügt'), 'custom_entry_added')],
  },
});

/** Free-text messages without message keys. */
export const simpleLogger = defineLogger({
  slug: 'SimpleLogger',
  name: t('SimpleLogger', 'SimpleLogger'),
  via: null,
  capability: 'edit_pages',
  messages: {},
});
