// Messages of string translation in both languages. A message with values is a function
// returning its texts; read one as `MSG.key[lang]`.
import { l } from '../../rest/define.ts';
import { MSG, fill } from '../../rest/messages.ts';

export const ST_MSG = {
  mustBeOneOf: (name: string, allowed: number[]) =>
    l(`${name} must be one of ${allowed.join(', ')}.`, `${name} muss einer der Werte ${allowed.join(', ')} sein.`),
  visibleColumnsNotObject: l('visibleColumns must be an object.', 'visibleColumns muss ein Objekt sein.'),
  notOfType: (name: string, type: string) => l(`${name} is not of type ${type}.`, `${name} ist nicht vom Typ ${type}.`),
  tooLong: (name: string, max: number) =>
    l(`${name} must be at most ${max} characters long.`, `${name} darf höchstens ${max} Zeichen lang sein.`),
  notOneOf: (name: string, values: readonly string[]) =>
    l(`${name} is not one of ${values.join(', ')}.`, `${name} ist keiner der Werte ${values.join(', ')}.`),
  outOfRange: (name: string, min: number, max: number) =>
    l(
      `${name} must be between ${min} (inclusive) and ${max} (inclusive)`,
      `${name} muss zwischen ${min} (inklusive) und ${max} (inklusive) liegen`,
    ),
  componentTypeInvalid: l(
    'type must be 0 (unknown), 1 (plugin), 2 (theme) or 3 (core).',
    'type muss 0 (unbekannt), 1 (Plugin), 2 (Theme) oder 3 (Kern) sein.',
  ),
  statusesInvalid: l(
    'translationStatuses must be a list of status codes (integers such as 0, 1, 2, 3, 10).',
    'translationStatuses muss eine Liste von Statuscodes sein (ganze Zahlen wie 0, 1, 2, 3, 10).',
  ),
  sortingUnreadable: (columns: readonly string[]) =>
    l(
      `sorting must name a column (${columns.join(', ')}) and a direction (asc, desc).`,
      `sorting muss eine Spalte (${columns.join(', ')}) und eine Richtung (asc, desc) nennen.`,
    ),
  sortingOneColumn: l('sorting must hold exactly one column.', 'sorting muss genau eine Spalte enthalten.'),
  sortingColumn: (columns: readonly string[]) =>
    l(
      `sorting column must be one of ${columns.join(', ')}.`,
      `Die Spalte von sorting muss eine der Spalten ${columns.join(', ')} sein.`,
    ),
  sortingOrder: l('sorting order must be asc or desc.', 'Die Richtung von sorting muss asc oder desc sein.'),
  notAssigned: l(
    'You may only translate strings assigned to you, into the language of your assignment.',
    'Du darfst nur Strings übersetzen, die dir zugewiesen sind, und nur in die Sprache deiner Zuweisung.',
  ),
  notATarget: (id: number, language: string, targets: readonly string[], asked: string) =>
    l(
      `String ${id} is written in ${language}: it is translated into ${targets.join(', ')}, not ${asked}.`,
      `String ${id} ist auf ${language} verfasst: er wird nach ${targets.join(', ')} übersetzt, nicht nach ${asked}.`,
    ),
  noString: (id: number) => l(`There is no string with the ID ${id}.`, `Es gibt keinen String mit der ID ${id}.`),
  noStrings: (ids: readonly number[]) =>
    l(`There are no strings with the IDs ${ids.join(', ')}.`, `Es gibt keine Strings mit den IDs ${ids.join(', ')}.`),
  /** The REST core's message for a parameter required in this case only. */
  missingParam: (name: string) => l(fill(MSG.missingParams.en, name), fill(MSG.missingParams.de, name)),
  textNeeded: l(
    'A complete translation, or one that needs an update, needs a text.',
    'Eine fertige Übersetzung, oder eine, die aktualisiert werden muss, braucht einen Text.',
  ),
};
