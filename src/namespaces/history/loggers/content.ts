import { defineLogger } from '../../../site/activity.ts';
import { option, t, type Text } from './define.ts';

export const postLogger = defineLogger({
  slug: 'SimplePostLogger',
  name: t('Post Logger', 'Beitrags-Protokoll'),
  via: null,
  capability: 'edit_pages',
  messages: {
    post_created: t('Created {post_type} "{post_title}"', '{post_type} „{post_title}“ erstellt'),
    post_updated: t('Updated {post_type} "{post_title}"', '{post_type} „{post_title}“ aktualisiert'),
    post_restored: t(
      'Restored {post_type} "{post_title}" from trash',
      '{post_type} „{post_title}“ aus dem Papierkorb wiederhergestellt',
    ),
    post_deleted: t('Deleted {post_type} "{post_title}"', '{post_type} „{post_title}“ gelöscht'),
    post_trashed: t(
      'Moved {post_type} "{post_title}" to the trash',
      '{post_type} „{post_title}“ in den Papierkorb verschoben',
    ),
    page_set_as_homepage: t(
      'Set {post_type} "{post_title}" as the homepage',
      '{post_type} „{post_title}“ als Startseite festgelegt',
    ),
    page_removed_as_homepage: t(
      'Removed {post_type} "{post_title}" as the homepage',
      '{post_type} „{post_title}“ als Startseite entfernt',
    ),
    page_set_as_posts_page: t(
      'Set {post_type} "{post_title}" as the posts page',
      '{post_type} „{post_title}“ als Beitragsseite festgelegt',
    ),
    page_removed_as_posts_page: t(
      'Removed {post_type} "{post_title}" as the posts page',
      '{post_type} „{post_title}“ als Beitragsseite entfernt',
    ),
  },
  search: {
    label: t('Posts & Pages', 'Beiträge & Seiten'),
    labelAll: t('All posts & pages activity', 'Alle Aktivitäten zu Beiträgen und Seiten'),
    options: [
      option(t('Posts created', 'Erstellte Beiträge'), 'post_created'),
      option(t('Posts updated', 'Aktualisierte Beiträge'), 'post_updated'),
      option(t('Posts trashed', 'Beiträge im Papierkorb'), 'post_trashed'),
      option(t('Posts deleted', 'Gelöschte Beiträge'), 'post_deleted'),
      option(t('Posts restored', 'Wiederhergestellte Beiträge'), 'post_restored'),
      option(t('Homepage changes', 'Änderungen der Startseite'), 'page_set_as_homepage', 'page_removed_as_homepage'),
      option(
        t('Posts page changes', 'Änderungen der Beitragsseite'),
        'page_set_as_posts_page',
        'page_removed_as_posts_page',
      ),
    ],
  },
});

export const mediaLogger = defineLogger({
  slug: 'SimpleMediaLogger',
  name: t('Media/Attachments Logger', 'Medien-Protokoll'),
  via: null,
  capability: 'edit_pages',
  messages: {
    attachment_created: t('Created {post_type} "{attachment_title}"', '{post_type} „{attachment_title}“ erstellt'),
    attachment_updated: t('Edited attachment "{attachment_title}"', 'Anhang „{attachment_title}“ bearbeitet'),
    attachment_image_edited: t('Edited image "{attachment_title}"', 'Bild „{attachment_title}“ bearbeitet'),
    attachment_deleted: t(
      'Deleted {post_type} "{attachment_title}" ("{attachment_filename}")',
      '{post_type} „{attachment_title}“ („{attachment_filename}“) gelöscht',
    ),
  },
  search: {
    label: t('Media', 'Medien'),
    labelAll: t('All media activity', 'Alle Medienaktivitäten'),
    options: [
      option(t('Added media', 'Hinzugefügte Medien'), 'attachment_created'),
      option(t('Updated media', 'Bearbeitete Medien'), 'attachment_updated', 'attachment_image_edited'),
      option(t('Deleted media', 'Gelöschte Medien'), 'attachment_deleted'),
    ],
  },
});

/** The message keys of one kind of comment (`comment`, `trackback`, `pingback`). */
type CommentKey<What extends string> =
  | `${'anon' | 'user'}_${What}_added`
  | `${What}_${'status_approve' | 'status_hold' | 'status_spam' | 'status_trash' | 'untrashed' | 'deleted' | 'edited'}`;

// Computed keys lose their names in the type, hence the assertion that they are the CommentKeys.
const comment = <What extends string>(what: What, was: string) =>
  ({
    [`anon_${what}_added`]: t(
      `Added a ${what} to {comment_post_type} "{comment_post_title}"`,
      `${was} zu {comment_post_type} „{comment_post_title}“ hinzugefügt`,
    ),
    [`user_${what}_added`]: t(
      `Added a ${what} to {comment_post_type} "{comment_post_title}"`,
      `${was} zu {comment_post_type} „{comment_post_title}“ hinzugefügt`,
    ),
    [`${what}_status_approve`]: t(
      `Approved a ${what} to "{comment_post_title}" by {comment_author} ({comment_author_email})`,
      `${was} zu „{comment_post_title}“ von {comment_author} ({comment_author_email}) freigegeben`,
    ),
    [`${what}_status_hold`]: t(
      `Unapproved a ${what} to "{comment_post_title}" by {comment_author} ({comment_author_email})`,
      `Freigabe für ${was} zu „{comment_post_title}“ von {comment_author} ({comment_author_email}) zurückgenommen`,
    ),
    [`${what}_status_spam`]: t(
      `Marked a ${what} to post "{comment_post_title}" as spam`,
      `${was} zu „{comment_post_title}“ als Spam markiert`,
    ),
    [`${what}_status_trash`]: t(
      `Trashed a ${what} to "{comment_post_title}" by {comment_author} ({comment_author_email})`,
      `${was} zu „{comment_post_title}“ von {comment_author} ({comment_author_email}) in den Papierkorb verschoben`,
    ),
    [`${what}_untrashed`]: t(
      `Restored a ${what} to "{comment_post_title}" by {comment_author} ({comment_author_email}) from the trash`,
      `${was} zu „{comment_post_title}“ von {comment_author} ({comment_author_email}) aus dem Papierkorb wiederhergestellt`,
    ),
    [`${what}_deleted`]: t(
      `Deleted a ${what} to "{comment_post_title}" by {comment_author} ({comment_author_email})`,
      `${was} zu „{comment_post_title}“ von {comment_author} ({comment_author_email}) gelöscht`,
    ),
    [`${what}_edited`]: t(
      `Edited a ${what} to "{comment_post_title}" by {comment_author} ({comment_author_email})`,
      `${was} zu „{comment_post_title}“ von {comment_author} ({comment_author_email}) bearbeitet`,
    ),
  }) as Record<CommentKey<What>, Text>;

export const commentsLogger = defineLogger({
  slug: 'SimpleCommentsLogger',
  name: t('Comments Logger', 'Kommentar-Protokoll'),
  via: null,
  capability: 'moderate_comments',
  messages: {
    ...comment('comment', 'Kommentar'),
    ...comment('trackback', 'Trackback'),
    ...comment('pingback', 'Pingback'),
    // The reference's source string has a doubled quote here; kept so stored templates match.
    pingback_status_approve: t(
      'Approved a pingback to "{comment_post_title}" by "{comment_author}"" ({comment_author_email})',
      'Pingback zu „{comment_post_title}“ von „{comment_author}“ ({comment_author_email}) freigegeben',
    ),
    pingback_status_hold: t(
      'Unapproved a pingback to "{comment_post_title}" by "{comment_author}" ({comment_author_email})',
      'Freigabe für Pingback zu „{comment_post_title}“ von „{comment_author}“ ({comment_author_email}) zurückgenommen',
    ),
  },
  search: {
    label: t('Comments', 'Kommentare'),
    labelAll: t('All comments activity', 'Alle Kommentaraktivitäten'),
    options: [
      option(
        t('Added comments', 'Neue Kommentare'),
        'anon_comment_added',
        'user_comment_added',
        'anon_trackback_added',
        'user_trackback_added',
        'anon_pingback_added',
        'user_pingback_added',
      ),
      option(t('Edited comments', 'Bearbeitete Kommentare'), 'comment_edited', 'trackback_edited', 'pingback_edited'),
      option(
        t('Approved comments', 'Freigegebene Kommentare'),
        'comment_status_approve',
        'trackback_status_approve',
        'pingback_status_approve',
      ),
      option(
        t('Held comments', 'Zurückgehaltene Kommentare'),
        'comment_status_hold',
        'trackback_status_hold',
        'pingback_status_hold',
      ),
      option(
        t('Comments status changed to spam', 'Als Spam markierte Kommentare'),
        'comment_status_spam',
        'trackback_status_spam',
        'pingback_status_spam',
      ),
      option(
        t('Trashed comments', 'Kommentare im Papierkorb'),
        'comment_status_trash',
        'trackback_status_trash',
        'pingback_status_trash',
      ),
      option(
        t('Untrashed comments', 'Aus dem Papierkorb geholte Kommentare'),
        'comment_untrashed',
        'trackback_untrashed',
        'pingback_untrashed',
      ),
      option(t('Deleted comments', 'Gelöschte Kommentare'), 'comment_deleted', 'trackback_deleted', 'pingback_deleted'),
    ],
  },
});

export const categoriesLogger = defineLogger({
  slug: 'SimpleCategoriesLogger',
  name: t('Categories Logger', 'Kategorien-Protokoll'),
  via: null,
  capability: 'manage_options',
  messages: {
    created_term: t(
      'Added term "{term_name}" in taxonomy "{term_taxonomy}"',
      'Begriff „{term_name}“ in Taxonomie „{term_taxonomy}“ hinzugefügt',
    ),
    deleted_term: t(
      'Deleted term "{term_name}" from taxonomy "{term_taxonomy}"',
      'Begriff „{term_name}“ aus Taxonomie „{term_taxonomy}“ gelöscht',
    ),
    edited_term: t(
      'Edited term "{to_term_name}" in taxonomy "{to_term_taxonomy}"',
      'Begriff „{to_term_name}“ in Taxonomie „{to_term_taxonomy}“ bearbeitet',
    ),
  },
  search: {
    label: t('Categories', 'Kategorien'),
    labelAll: t('All category activity', 'Alle Kategorie-Aktivitäten'),
    options: [
      option(t('Term created', 'Begriff erstellt'), 'created_term'),
      option(t('Term deleted', 'Begriff gelöscht'), 'deleted_term'),
      option(t('Term edited', 'Begriff bearbeitet'), 'edited_term'),
    ],
  },
});

export const menuLogger = defineLogger({
  slug: 'SimpleMenuLogger',
  name: t('Menu Logger', 'Menü-Protokoll'),
  via: null,
  capability: 'edit_theme_options',
  messages: {
    created_menu: t('Created menu "{menu_name}"', 'Menü „{menu_name}“ erstellt'),
    edited_menu: t('Edited menu "{menu_name}"', 'Menü „{menu_name}“ bearbeitet'),
    deleted_menu: t('Deleted menu "{menu_name}"', 'Menü „{menu_name}“ gelöscht'),
    edited_menu_item: t('Edited a menu item', 'Einen Menüeintrag bearbeitet'),
    edited_menu_locations: t('Updated menu locations', 'Menüpositionen aktualisiert'),
  },
  search: {
    label: t('Menus', 'Menüs'),
    labelAll: t('All menu activity', 'Alle Menüaktivitäten'),
    options: [
      option(t('Created menus', 'Erstellte Menüs'), 'created_menu'),
      option(t('Edited menus', 'Bearbeitete Menüs'), 'edited_menu', 'edited_menu_item', 'edited_menu_locations'),
      option(t('Deleted menus', 'Gelöschte Menüs'), 'deleted_menu'),
    ],
  },
});

export const notesLogger = defineLogger({
  slug: 'NotesLogger',
  name: t('Notes Logger', 'Notizen-Protokoll'),
  via: null,
  capability: 'edit_posts',
  messages: {
    note_added: t('Added a note to {post_type} "{post_title}"', 'Notiz zu {post_type} „{post_title}“ hinzugefügt'),
    note_reply_added: t(
      'Replied to a note in {post_type} "{post_title}"',
      'Auf eine Notiz in {post_type} „{post_title}“ geantwortet',
    ),
    note_edited: t('Edited a note in {post_type} "{post_title}"', 'Notiz in {post_type} „{post_title}“ bearbeitet'),
    note_deleted: t('Deleted a note from {post_type} "{post_title}"', 'Notiz aus {post_type} „{post_title}“ gelöscht'),
    note_resolved: t(
      'Marked a note as resolved in {post_type} "{post_title}"',
      'Notiz in {post_type} „{post_title}“ als erledigt markiert',
    ),
    note_reopened: t(
      'Reopened a resolved note in {post_type} "{post_title}"',
      'Erledigte Notiz in {post_type} „{post_title}“ wieder geöffnet',
    ),
  },
  search: {
    label: t('Notes', 'Notizen'),
    options: [
      option(t('Added notes', 'Neue Notizen'), 'note_added'),
      option(t('Replied to notes', 'Antworten auf Notizen'), 'note_reply_added'),
      option(t('Edited notes', 'Bearbeitete Notizen'), 'note_edited'),
      option(t('Deleted notes', 'Gelöschte Notizen'), 'note_deleted'),
      option(t('Resolved notes', 'Erledigte Notizen'), 'note_resolved'),
      option(t('Reopened notes', 'Wieder geöffnete Notizen'), 'note_reopened'),
    ],
  },
});
