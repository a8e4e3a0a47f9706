// Messages and labels of the activity log in both languages. A message with a value is a
// function returning its texts; read one as `MSG.key[lang]`, or pass it to restError().
import { l } from '../../rest/define.ts';

export const MSG = {
  surroundingForbidden: l(
    'You do not have permission to view surrounding events. This feature requires administrator privileges.',
    'Du darfst keine umgebenden Ereignisse ansehen. Diese Funktion erfordert Administratorrechte.',
  ),
  invalidDate: l(
    'Invalid date format. Please use Y-m-d H:i:s format (e.g., 2024-01-15 14:30:00).',
    'Ungültiges Datumsformat. Bitte das Format Y-m-d H:i:s verwenden (z. B. 2024-01-15 14:30:00).',
  ),
  searchQueryMissing: l('Please provide a search query.', 'Bitte einen Suchbegriff angeben.'),
  eventNotSticky: l('The event is not sticky.', 'Das Ereignis ist nicht angeheftet.'),
  eventNotFound: l('The specified event was not found.', 'Das angegebene Ereignis wurde nicht gefunden.'),
  eventInvalidId: l('Invalid event ID.', 'Ungültige Ereignis-ID.'),
  eventForbidden: l('Sorry, you are not allowed to view this event.', 'Du darfst dieses Ereignis nicht ansehen.'),
  entryNotes: l('Entry notes', 'Notizen zum Eintrag'),
  userNotFound: l('User not found.', 'Benutzer nicht gefunden.'),
  viewUserProfile: l('View user profile', 'Benutzerprofil ansehen'),
  testEmailSent: (email: string) =>
    l(`Test email sent successfully to ${email}.`, `Test-E-Mail erfolgreich an ${email} gesendet.`),
  testEmailToOutbox: (email: string, file: string) =>
    l(
      `No mail server is configured (SMTP_URL): the test email to ${email} was written to ${file}.`,
      `Kein Mailserver konfiguriert (SMTP_URL): Die Test-E-Mail an ${email} wurde in ${file} abgelegt.`,
    ),
  testEmailFailed: l('Failed to send test email.', 'Die Test-E-Mail konnte nicht gesendet werden.'),
  moreOfType: (missed: number, type: string) => l(`${missed} more ${type}`, `${missed} weitere ${type}`),
  ago: (n: number, unit: string, einheit: string) => l(`${n} ${unit} ago`, `vor ${n} ${einheit}`),
};
