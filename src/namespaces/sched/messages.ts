// Messages and labels of the appointment scheduler in both languages. A message with values is
// a function returning its texts; read one as `MSG.key[lang]`, or pass it to restError().
import { l } from '../../rest/define.ts';
import type { Localized } from '../../rest/types.ts';
import type { TemplateLimit } from './twig-errors.ts';

export const MSG = {
  debugLogCleared: l('The debug log has been cleared.', 'Das Debug-Protokoll wurde geleert.'),
  debugLogMissing: l('No debug log was found.', 'Es wurde kein Debug-Protokoll gefunden.'),
  importDone: l('Data successfully imported!', 'Die Daten wurden erfolgreich importiert!'),
  bookAppointment: l('Book an appointment', 'Termin buchen'),
  // error notices (GET notices-errors)
  smtpUnreachable: (host: string, port: number | string, message: string) =>
    l(
      `The mail server ${host}:${port} cannot be reached (${message}). Notification emails cannot be sent.`,
      `Der Mailserver ${host}:${port} ist nicht erreichbar (${message}). Benachrichtigungs-E-Mails können nicht versendet werden.`,
    ),
  diskSpaceLow: (free: string) =>
    l(
      `Only ${free} is free in the data folder. The database and the logs need room to grow.`,
      `Im Datenordner ist nur noch ${free} frei. Die Datenbank und die Protokolle brauchen Platz.`,
    ),
  dataDirUnreadable: (message: string) =>
    l(`The data folder cannot be read: ${message}`, `Der Datenordner ist nicht lesbar: ${message}`),
  dataDirNotWritable: l('The data folder is not writable.', 'Der Datenordner ist nicht beschreibbar.'),
  siteTimezoneInvalid: (zone: string) =>
    l(
      `The site timezone "${zone}" is not a valid IANA timezone; appointments are shown in UTC.`,
      `Die Zeitzone der Website „${zone}“ ist keine gültige IANA-Zeitzone; Termine werden in UTC angezeigt.`,
    ),
  siteTimezoneMissing: l(
    'No site timezone is set; appointments are shown in UTC.',
    'Für die Website ist keine Zeitzone eingestellt; Termine werden in UTC angezeigt.',
  ),
  scheduleTimezoneInvalid: (zone: string) =>
    l(`The scheduling timezone "${zone}" is invalid.`, `Die Zeitzone der Terminplanung „${zone}“ ist ungültig.`),
  viewSettings: l('View settings', 'Einstellungen ansehen'),
  debugLoggingOn: l(
    'Debug logging is on. Turn it off again when you have finished troubleshooting.',
    'Die Debug-Protokollierung ist eingeschaltet. Schalten Sie sie nach der Fehlersuche wieder aus.',
  ),
  unknownSections: (names: string[]) =>
    l(`Unknown settings section(s): ${names.join(', ')}`, `Unbekannte Einstellungsbereiche: ${names.join(', ')}`),
  settingsNotTrashable: l(
    'Settings cannot be trashed. Set "force" to true to reset the section to its defaults.',
    'Einstellungen können nicht in den Papierkorb. Setzen Sie „force“ auf true, um den Bereich auf die Standardwerte zurückzusetzen.',
  ),
  logFileMissing: l('The log file does not exist.', 'Die Protokolldatei existiert nicht.'),
  importRefused: l(
    'The import was refused; nothing was changed.',
    'Der Import wurde abgelehnt; nichts wurde geändert.',
  ),
  /** A template past one of a render's limits, with the limit's own detail. */
  templateLimit: (limit: TemplateLimit, detail: string) =>
    l(`${TEMPLATE_LIMIT_TEXT[limit].en} ${detail}`, `${TEMPLATE_LIMIT_TEXT[limit].de} ${detail}`),
};

/** What each of a render's limits means (twig-errors.ts TemplateLimit). */
const TEMPLATE_LIMIT_TEXT: Record<TemplateLimit, Localized> = {
  work: l(
    'The template needs more work than a render may do.',
    'Die Vorlage braucht mehr Rechenschritte, als eine Darstellung darf.',
  ),
  size: l(
    'The template produces more text than a render may.',
    'Die Vorlage erzeugt mehr Text, als eine Darstellung darf.',
  ),
  time: l('The template takes longer than a render may.', 'Die Vorlage braucht länger, als eine Darstellung darf.'),
  memory: l(
    'The template needs more memory than a render may use.',
    'Die Vorlage braucht mehr Speicher, als eine Darstellung darf.',
  ),
};
