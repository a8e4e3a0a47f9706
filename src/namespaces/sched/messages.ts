// Messages and labels of the appointment scheduler in both languages. A message with values is
// a function returning its texts; read one as `MSG.key[lang]`, or pass it to restError().
import { l } from '../../rest/define.ts';

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
};
