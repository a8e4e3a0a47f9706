// Messages of i18n/v1 in both languages. A message with a value is a function returning its
// texts; read one as `MSG.key[lang]`.
import { l } from '../../rest/define.ts';
import type { Localized } from '../../rest/types.ts';

export const MSG = {
  xmlTooLarge: (bytes: number, max: number) =>
    l(
      `The XML configuration is ${bytes} bytes long; at most ${max} bytes (1 MiB) are accepted.`,
      `Die XML-Konfiguration ist ${bytes} Bytes groß; höchstens ${max} Bytes (1 MiB) sind erlaubt.`,
    ),
  xmlElements: l('elements', 'Elemente'),
  xmlAttributes: l('attributes', 'Attribute'),
  xmlTooComplex: (max: number, what: Localized) =>
    l(
      `The XML configuration has more than ${max} ${what.en}; no more are accepted.`,
      `Die XML-Konfiguration hat mehr als ${max} ${what.de}; mehr sind nicht erlaubt.`,
    ),
  contentNotString: l('content is not of type string.', 'content ist nicht vom Typ string.'),
  xmlMissingContent: l(
    'Send the XML configuration in the "content" field.',
    'Senden Sie die XML-Konfiguration im Feld „content“.',
  ),
  xmlDoctypeForbidden: l(
    'The XML configuration may not contain a DOCTYPE or entity declarations.',
    'Die XML-Konfiguration darf keine DOCTYPE- oder ENTITY-Deklarationen enthalten.',
  ),
  xmlInvalid: (problem: string, line: number, column: number) =>
    l(
      `The XML configuration is not valid: ${problem} (line ${line}, column ${column}).`,
      `Die XML-Konfiguration ist ungültig: ${problem} (Zeile ${line}, Spalte ${column}).`,
    ),
};
