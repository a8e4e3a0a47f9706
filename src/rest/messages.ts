// Messages of the REST core in both languages.
import { l } from './define.ts';

export const MSG = {
  noRoute: l(
    'No route was found matching the URL and request method.',
    'Es wurde keine Route gefunden, die der URL und der Anfragemethode entspricht.',
  ),
  invalidJson: l('Invalid JSON body passed.', 'Ungültiger JSON-Inhalt übergeben.'),
  missingParams: l('Missing parameter(s): %s', 'Fehlende(r) Parameter: %s'),
  invalidParams: l('Invalid parameter(s): %s', 'Ungültige(r) Parameter: %s'),
  invalidParameter: l('Invalid parameter.', 'Ungültiger Parameter.'),
  forbidden: l('Sorry, you are not allowed to do that.', 'Du bist leider nicht berechtigt, dies zu tun.'),
  internal: l(
    'There has been a critical error on this website.',
    'Auf dieser Website ist ein kritischer Fehler aufgetreten.',
  ),
  invalidNamespace: l('The specified namespace could not be found.', 'Der angegebene Namensraum wurde nicht gefunden.'),
  batchNotAllowed: l(
    'The requested route does not support batch requests.',
    'Die angeforderte Route unterstützt keine Batch-Anfragen.',
  ),
  parsePathFailed: l('Could not parse the path.', 'Der Pfad konnte nicht verarbeitet werden.'),
  tooLarge: l(
    'The request body is larger than the allowed 1 MiB.',
    'Der Inhalt der Anfrage ist größer als die erlaubten 1 MiB.',
  ),
  unsupportedMediaType: l(
    'Unsupported content type. Send application/json or application/x-www-form-urlencoded.',
    'Nicht unterstützter Inhaltstyp. Sende application/json oder application/x-www-form-urlencoded.',
  ),
  routeTypeInvalid: l(
    'The REST route parameter must be a string.',
    'Der Parameter rest_route muss eine Zeichenkette sein.',
  ),
  badRequest: l('The request could not be understood.', 'Die Anfrage konnte nicht verstanden werden.'),
  queryTimeout: l(
    'The request took too long and was cancelled. Narrow it down (a shorter period, fewer or other words) or try again shortly.',
    'Die Anfrage hat zu lange gedauert und wurde abgebrochen. Schränke sie ein (ein kürzerer Zeitraum, weniger oder andere Wörter) oder versuche es gleich noch einmal.',
  ),
  unavailable: l(
    'The database is not available right now. Please try again shortly.',
    'Die Datenbank ist gerade nicht erreichbar. Bitte versuche es gleich noch einmal.',
  ),
};

export function fill(template: string, value: string): string {
  return template.replace('%s', value);
}
