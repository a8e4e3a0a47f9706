// Activity-log logger of the site content (pages and posts).
import { defineLogger } from '../site/activity.ts';

export const contentLogger = defineLogger({
  slug: 'ContentLogger',
  name: { en: 'Content Logger', de: 'Inhalts-Logger' },
  via: null,
  capability: 'edit_pages',
  messages: {
    content_created: {
      en: 'Created {content_type} "{content_title}" ({content_lang})',
      de: '{content_type} „{content_title}“ ({content_lang}) erstellt',
    },
    content_updated: {
      en: 'Updated {content_type} "{content_title}" ({content_lang})',
      de: '{content_type} „{content_title}“ ({content_lang}) aktualisiert',
    },
    content_trashed: {
      en: 'Moved {content_type} "{content_title}" ({content_lang}) to the trash',
      de: '{content_type} „{content_title}“ ({content_lang}) in den Papierkorb gelegt',
    },
    content_deleted: {
      en: 'Deleted {content_type} "{content_title}" ({content_lang})',
      de: '{content_type} „{content_title}“ ({content_lang}) gelöscht',
    },
    front_page_set: { en: 'Set the front page to "{content_title}"', de: 'Startseite auf „{content_title}“ gesetzt' },
  },
  search: {
    label: { en: 'Pages and posts', de: 'Seiten und Beiträge' },
    labelAll: { en: 'All page and post activity', de: 'Alle Aktivitäten zu Seiten und Beiträgen' },
    options: [
      {
        label: { en: 'Pages and posts created', de: 'Erstellte Seiten und Beiträge' },
        messageKeys: ['content_created'],
      },
      {
        label: { en: 'Pages and posts updated', de: 'Aktualisierte Seiten und Beiträge' },
        messageKeys: ['content_updated'],
      },
      {
        label: {
          en: 'Pages and posts trashed or deleted',
          de: 'In den Papierkorb gelegte oder gelöschte Seiten und Beiträge',
        },
        messageKeys: ['content_trashed', 'content_deleted'],
      },
      { label: { en: 'Front page changes', de: 'Änderungen der Startseite' }, messageKeys: ['front_page_set'] },
    ],
  },
});
