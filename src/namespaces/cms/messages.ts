// Messages of cms/v2 in both languages (the reference's wp/v2 texts in English). A message
// with a value is a function returning its texts; read one as `MSG.key[lang]`, or pass it to
// restError().
import { l } from '../../rest/define.ts';

export const MSG = {
  invalidId: l('Invalid post ID.', 'Ungültige Beitrags-ID.'),
  statusForbidden: l('Status is forbidden.', 'Der Status ist nicht erlaubt.'),
  cannotEditInType: l(
    'Sorry, you are not allowed to edit posts in this post type.',
    'Du bist leider nicht berechtigt, Einträge dieses Inhaltstyps zu bearbeiten.',
  ),
  cannotCreateAsUser: l(
    'Sorry, you are not allowed to create posts as this user.',
    'Du bist leider nicht berechtigt, Beiträge als dieser Benutzer zu erstellen.',
  ),
  cannotUpdateAsUser: l(
    'Sorry, you are not allowed to update posts as this user.',
    'Du bist leider nicht berechtigt, Beiträge als dieser Benutzer zu aktualisieren.',
  ),
  cannotPublish: l(
    'Sorry, you are not allowed to publish posts in this post type.',
    'Du bist leider nicht berechtigt, in diesem Inhaltstyp Beiträge zu veröffentlichen.',
  ),
  cannotEdit: l(
    'Sorry, you are not allowed to edit this post.',
    'Du bist leider nicht berechtigt, diesen Beitrag zu bearbeiten.',
  ),
  cannotDelete: l(
    'Sorry, you are not allowed to delete this post.',
    'Du bist leider nicht berechtigt, diesen Beitrag zu löschen.',
  ),
  noSearchTerm: l(
    'You need to define a search term to order by relevance.',
    'Für die Sortierung nach Relevanz muss ein Suchbegriff angegeben werden.',
  ),
  orderbyIncludeMissing: l(
    'You need to define an include parameter to order by include.',
    'Für die Sortierung nach include muss der Parameter include angegeben werden.',
  ),
  pageTooLarge: l(
    'The page number requested is larger than the number of pages available.',
    'Die angeforderte Seitenzahl ist größer als die Anzahl der verfügbaren Seiten.',
  ),
  noFreeSlug: l('No free slug could be found.', 'Es wurde kein freier Slug gefunden.'),
  ownTranslation: l(
    'translations: an item cannot be its own translation; name the item in the other language.',
    'translations: Ein Eintrag kann nicht seine eigene Übersetzung sein; nenne den Eintrag in der anderen Sprache.',
  ),
  langFixed: l(
    'lang: the language of an item cannot change; create its translation instead.',
    'lang: Die Sprache eines Eintrags kann sich nicht ändern; lege stattdessen die Übersetzung an.',
  ),
  translationsOnCreate: l(
    'translations: links are made when a translation is created (give `translations` then).',
    'translations: Verknüpfungen entstehen beim Anlegen einer Übersetzung (dort `translations` angeben).',
  ),
  alreadyTrashed: l('The post has already been trashed.', 'Der Beitrag wurde bereits in den Papierkorb verschoben.'),
};
