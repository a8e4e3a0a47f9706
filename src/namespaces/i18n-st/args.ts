// i18n/st/v1's argument sets (routes.ts declares the routes with them): each argument's
// description in English and German, type and bounds, and the checks beyond the schema
// (filters.ts, settings.ts). Kept apart from the routes so the declarations stay readable;
// BULK_ARGS and TRANSLATION_ARGS keep their literal types (`as const`): their handlers' params are typed from them.
import { l } from '../../rest/define.ts';
import type { Args } from '../../rest/types.ts';
import { checkers } from './filters.ts';
import { ACTIVE_LANGUAGES } from './languages.ts';
import { checkSettingValue, checkVisibleColumns } from './settings.ts';
import { BULK_ACTIONS, EDITABLE_STATUSES, MAX_BULK_IDS, MAX_TRANSLATION } from './translate.ts';

/** A setting of POST strings/settings: an integer of its allowed values, 0 when omitted (as in the reference). */
const settingArg = (name: string, en: string, de: string) =>
  ({
    description: l(en, de),
    type: 'integer',
    default: 0,
    validate: (value: unknown, req: { lang: 'en' | 'de' }) => checkSettingValue(name, value, req.lang),
  }) as const;

const SETTINGS_ARGS = {
  autoregisterType: settingArg(
    'autoregisterType',
    'Which visits register strings automatically: 0 pages viewed by administrators, 1 pages viewed by all users, 2 disabled.',
    'Welche Aufrufe Strings automatisch registrieren: 0 von Administratoren besuchte Seiten, 1 von allen besuchte Seiten, 2 deaktiviert.',
  ),
  shouldRegisterBackendStrings: settingArg(
    'shouldRegisterBackendStrings',
    'Whether strings seen in the administration area are registered too (0 or 1).',
    'Ob auch im Verwaltungsbereich gesehene Strings registriert werden (0 oder 1).',
  ),
  setNoticeThatCachePluginCanBlockAutoregisterAsDismissed: settingArg(
    'setNoticeThatCachePluginCanBlockAutoregisterAsDismissed',
    'Send 1 to dismiss the notice that a page cache can block automatic string registration.',
    'Mit 1 wird der Hinweis ausgeblendet, dass ein Seiten-Cache die automatische String-Registrierung verhindern kann.',
  ),
  setDetectStringsInJS: settingArg(
    'setDetectStringsInJS',
    'Whether strings in JavaScript files are detected (0 or 1).',
    'Ob Strings in JavaScript-Dateien erkannt werden (0 oder 1).',
  ),
} as const satisfies Args;

/** The string filters of contract §4.7, in the reference's order. */
export const STRING_FILTER_ARGS: Args = {
  kind: {
    description: l(
      'String kind: 0 registered (default), 1 autoregistered.',
      'Art des Strings: 0 registriert (Standard), 1 automatisch erfasst.',
    ),
    type: 'integer',
    default: null,
    validate: checkers.kind,
  },
  type: {
    description: l(
      'Component type: 0 unknown, 1 plugin, 2 theme, 3 core.',
      'Komponententyp: 0 unbekannt, 1 Plugin, 2 Theme, 3 Kern.',
    ),
    type: 'string',
    validate: checkers.type,
  },
  source: {
    description: l(
      'Where the string was seen: 0 frontend, 1 backend.',
      'Wo der String gesehen wurde: 0 Frontend, 1 Backend.',
    ),
    type: 'integer',
    default: null,
    validate: checkers.source,
  },
  domain: {
    description: l(
      'Text domain (string group) to limit the result to.',
      'Textdomäne (String-Gruppe), auf die das Ergebnis beschränkt wird.',
    ),
    type: 'string',
    default: null,
  },
  translationPriority: {
    description: l(
      'Translation priority slug, e.g. optional, required, not-needed.',
      'Übersetzungspriorität (Slug), z. B. optional, required, not-needed.',
    ),
    type: 'string',
    default: null,
  },
  title: {
    description: l('Text to search for in the source text of the strings.', 'Suchtext im Ausgangstext der Strings.'),
    type: 'string',
  },
  sourceLanguageCode: {
    description: l(
      'Source language code of the strings (en, de).',
      'Sprachcode der Ausgangssprache der Strings (en, de).',
    ),
    type: 'string',
    validate: checkers.sourceLanguageCode,
  },
  targetLanguageCode: {
    description: l(
      'Target language code: translation statuses are read for this language (en, de).',
      'Sprachcode der Zielsprache: Übersetzungsstatus werden für diese Sprache gelesen (en, de).',
    ),
    type: 'string',
    validate: checkers.targetLanguageCode,
  },
  translationStatuses: {
    description: l(
      'Translation status codes to match (0 not translated, 1 waiting, 2 in progress, 3 needs update, 10 complete, …).',
      'Zu suchende Übersetzungsstatus (0 nicht übersetzt, 1 wartend, 2 in Arbeit, 3 Aktualisierung nötig, 10 fertig, …).',
    ),
    default: [],
    validate: checkers.translationStatuses,
  },
  limit: {
    description: l('Maximum number of items to return.', 'Höchstzahl der zurückgegebenen Einträge.'),
    type: 'integer',
    default: 10,
    validate: checkers.limit,
  },
  offset: {
    description: l('Number of items to skip.', 'Anzahl der zu überspringenden Einträge.'),
    type: 'integer',
    default: 0,
    validate: checkers.offset,
  },
  sorting: {
    description: l(
      'Order of the result: {by: title|id, order: asc|desc}; autoregistered strings come first.',
      'Sortierung des Ergebnisses: {by: title|id, order: asc|desc}; automatisch erfasste Strings stehen vorn.',
    ),
    default: null,
    validate: checkers.stringSorting,
  },
};

export const PACKAGE_ARGS: Args = {
  type: {
    description: l(
      'Package kind, e.g. gravity_form, widget, elementor.',
      'Paketart, z. B. gravity_form, widget, elementor.',
    ),
    type: 'string',
  },
  title: {
    description: l('Text to search for in the package titles.', 'Suchtext in den Paketnamen.'),
    type: 'string',
  },
  sourceLanguageCode: STRING_FILTER_ARGS.sourceLanguageCode!,
  targetLanguageCode: STRING_FILTER_ARGS.targetLanguageCode!,
  translationStatuses: STRING_FILTER_ARGS.translationStatuses!,
  limit: STRING_FILTER_ARGS.limit!,
  offset: STRING_FILTER_ARGS.offset!,
  sorting: {
    description: l(
      'Order of the result: {by: title|id, order: asc|desc}.',
      'Sortierung des Ergebnisses: {by: title|id, order: asc|desc}.',
    ),
    default: null,
    validate: checkers.packageSorting,
  },
};

/** GET strings/translations: the string filters, and two of its own. */
export const TRANSLATABLE_ARGS = {
  ...STRING_FILTER_ARGS,
  context: {
    description: l(
      'gettext context of the strings, exactly; empty for strings without one.',
      'gettext-Kontext der Strings, genau; leer für Strings ohne Kontext.',
    ),
    type: 'string',
    validate: checkers.context,
  },
  package: {
    description: l(
      'Id of the string package the strings belong to.',
      'ID des String-Pakets, zu dem die Strings gehören.',
    ),
    type: 'integer',
    validate: checkers.package,
  },
} satisfies Args;

const languageArg = (en: string, de: string) => ({
  description: l(en, de),
  type: 'string' as const,
  enum: ACTIVE_LANGUAGES,
});
const statusArg = (en: string, de: string) => ({
  description: l(en, de),
  type: 'integer' as const,
  enum: EDITABLE_STATUSES,
});

const FILTER_KEYS = [
  'kind',
  'type',
  'source',
  'domain',
  'translationPriority',
  'title',
  'sourceLanguageCode',
  'targetLanguageCode',
  'translationStatuses',
];
/** /strings/filters reads the current filters as sent (parseStringFilters checks them); the contract lists none. */
export const CURRENT_FILTER_ARGS: Args = Object.fromEntries(
  FILTER_KEYS.map((name) => [name, { description: STRING_FILTER_ARGS[name]!.description, internal: true }]),
);
/** The console sends its column choice too; the contract does not list it. */
export const SETTINGS_POST_ARGS = {
  ...SETTINGS_ARGS,
  visibleColumns: {
    description: l(
      'The columns the string list shows ({column: true|false}).',
      'Die Spalten, die die Stringliste zeigt ({Spalte: true|false}).',
    ),
    internal: true,
    validate: (value: unknown, req: { lang: 'en' | 'de' }) => checkVisibleColumns(value, req.lang),
    sanitize: (value: unknown) => value as Record<string, unknown>,
  },
} as const satisfies Args;

/** POST strings/translations/bulk. */
export const BULK_ARGS = {
  ids: {
    description: l('Ids of the strings.', 'IDs der Strings.'),
    type: 'array',
    items: { type: 'integer', minimum: 1 },
    minItems: 1,
    maxItems: MAX_BULK_IDS,
    required: true,
  },
  action: {
    description: l(
      'set_status: give the translations `status`; delete: remove their texts (status 0).',
      'set_status: den Übersetzungen `status` geben; delete: ihre Texte entfernen (Status 0).',
    ),
    type: 'string',
    enum: BULK_ACTIONS,
    required: true,
  },
  status: statusArg(
    'For set_status: 0 not translated, 3 needs update, 10 complete (translations without a text keep theirs).',
    'Für set_status: 0 nicht übersetzt, 3 Aktualisierung nötig, 10 fertig (Übersetzungen ohne Text behalten ihren).',
  ),
  language: languageArg(
    'Only the translations into this language (default: every target language).',
    'Nur die Übersetzungen in diese Sprache (Standard: jede Zielsprache).',
  ),
} as const satisfies Args;

/** POST strings/<id>/translations. */
export const TRANSLATION_ARGS = {
  language: { ...languageArg('Language of the translation.', 'Sprache der Übersetzung.'), required: true },
  value: {
    description: l('The translated text; empty for none.', 'Der übersetzte Text; leer für keinen.'),
    type: 'string',
    maxLength: MAX_TRANSLATION,
  },
  status: {
    ...statusArg(
      '0 not translated, 3 needs update, 10 complete.',
      '0 nicht übersetzt, 3 Aktualisierung nötig, 10 fertig.',
    ),
    default: 10,
  },
} as const satisfies Args;
