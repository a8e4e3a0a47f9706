// The catalogue of sched/v1's notices (reference plugins.md §2.5): what each notice says, its
// priority and the requirements that make it eligible. Static data, apart from the rules that
// read it (notices.ts) and its published schema (notice-schema.ts).
import type { Localized } from '../../rest/types.ts';

export type NoticeType =
  | 'upgrade_promo'
  | 'feature_promo'
  | 'feature_setup'
  | 'announcement'
  | 'celebration'
  | 'blog_post'
  | 'error_msg'
  | 'warning_msg';

/** 1 = basic (this server's edition), 2 = plus, 3 = pro, 4 = business. */
export const EDITION = 1;

export interface NoticeRequirements {
  editions?: number[];
  min_appointments?: number;
  min_days_active?: number;
  /** The module was first used after this UTC date (YYYY-MM-DD). */
  activated_after?: string;
  /** Third-party plugins that must be active (none are, on this server). */
  plugins?: string[];
  installed?: string[];
  not_installed?: string[];
  enabled?: string[];
  not_enabled?: string[];
  capabilities?: string[];
  /** Settings conditions: `section.field` is empty (""/[]/false/null). */
  empty_settings?: string[];
}

export interface NoticeDef {
  id: string;
  name: Localized;
  description: Localized;
  type: NoticeType[];
  active: boolean;
  /** 1 = most important … 40 = least (bands: 5 errors, 10 warnings, 15 celebrations, 20 announcements, 25 setup, 30 feature upgrade, 35 edition upgrade). */
  priority: string;
  requires: NoticeRequirements;
}

const n = (
  id: string,
  type: NoticeType[],
  priority: string,
  requires: NoticeRequirements,
  name: Localized,
  description: Localized,
  active = true,
): NoticeDef => ({ id, name, description, type, active, priority, requires });

export const NOTICES: NoticeDef[] = [
  n(
    'setup-notifications',
    ['feature_setup'],
    '25',
    {
      empty_settings: ['notifications.notifications'],
      enabled: ['notifications'],
      capabilities: ['ssa_manage_site_settings'],
    },
    { en: 'Set up your notifications', de: 'Benachrichtigungen einrichten' },
    {
      en: 'No notification templates exist yet: customers and staff get no email when an appointment is booked.',
      de: 'Es gibt noch keine Benachrichtigungsvorlagen: Kunden und Mitarbeiter erhalten bei einer Buchung keine E-Mail.',
    },
  ),
  n(
    'promo-plus',
    ['upgrade_promo'],
    '35',
    { editions: [1], min_days_active: 7 },
    { en: 'More scheduling features', de: 'Mehr Funktionen für die Terminplanung' },
    {
      en: 'Calendar sync, reminders and team booking are available in the Plus edition.',
      de: 'Kalender-Synchronisierung, Erinnerungen und Team-Buchungen gibt es in der Plus-Edition.',
    },
  ),
  n(
    'promo-pro',
    ['upgrade_promo'],
    '35',
    { editions: [2], min_days_active: 7 },
    { en: 'Take payments and send SMS', de: 'Zahlungen annehmen und SMS senden' },
    {
      en: 'The Pro edition adds payments, SMS reminders and web meetings.',
      de: 'Die Pro-Edition bietet Zahlungen, SMS-Erinnerungen und Online-Meetings.',
    },
  ),
  n(
    'promo-business',
    ['upgrade_promo'],
    '35',
    { editions: [3] },
    { en: 'Scale with the Business edition', de: 'Wachsen mit der Business-Edition' },
    { en: 'Resources and booking flows for larger teams.', de: 'Ressourcen und Buchungsabläufe für größere Teams.' },
    false,
  ),
  n(
    'promo-zoom-upgrade',
    ['feature_promo'],
    '30',
    { editions: [1, 2], min_appointments: 5 },
    { en: 'Meet online', de: 'Online treffen' },
    {
      en: 'Create web-meeting links for every appointment automatically.',
      de: 'Für jeden Termin automatisch einen Online-Meeting-Link erstellen.',
    },
  ),
  n(
    'promo-zoom-announce',
    ['announcement'],
    '20',
    { editions: [3, 4], installed: ['zoom'], not_enabled: ['zoom'] },
    { en: 'Web meetings are here', de: 'Online-Meetings sind da' },
    {
      en: 'Connect your meeting account to add links to appointments.',
      de: 'Verbinden Sie Ihr Meeting-Konto, um Terminen Links hinzuzufügen.',
    },
  ),
  n(
    'support-setup-sms',
    ['feature_setup'],
    '25',
    { editions: [3, 4], installed: ['sms'], not_enabled: ['sms'] },
    { en: 'Set up SMS notifications', de: 'SMS-Benachrichtigungen einrichten' },
    { en: 'Text reminders reduce no-shows.', de: 'SMS-Erinnerungen verringern verpasste Termine.' },
  ),
  n(
    'payments-upsell',
    ['upgrade_promo'],
    '30',
    { editions: [1], min_appointments: 10 },
    { en: 'Get paid when customers book', de: 'Bei der Buchung bezahlt werden' },
    {
      en: 'Collect deposits or full payments at booking time.',
      de: 'Anzahlungen oder den vollen Betrag bei der Buchung einziehen.',
    },
  ),
  n(
    'promo-google-calendar',
    ['feature_promo'],
    '30',
    { editions: [1], not_installed: ['google_calendar'], min_days_active: 3 },
    { en: 'Sync with your calendar', de: 'Mit Ihrem Kalender synchronisieren' },
    {
      en: 'Avoid double bookings by checking your calendar for conflicts.',
      de: 'Doppelbuchungen vermeiden, indem Ihr Kalender auf Konflikte geprüft wird.',
    },
  ),
  n(
    'gravity-forms-info',
    ['feature_setup'],
    '25',
    { plugins: ['gravityforms'] },
    { en: 'Use appointments in your forms', de: 'Termine in Ihren Formularen verwenden' },
    { en: 'Add an appointment field to your forms.', de: 'Fügen Sie Ihren Formularen ein Terminfeld hinzu.' },
  ),
  n(
    'gravity-forms-upsell',
    ['upgrade_promo'],
    '30',
    { plugins: ['gravityforms'], editions: [1, 2] },
    { en: 'Forms and appointments together', de: 'Formulare und Termine gemeinsam' },
    {
      en: 'Higher editions connect form entries to appointments.',
      de: 'Höhere Editionen verbinden Formulareinträge mit Terminen.',
    },
  ),
  n(
    'april-twenty-three-review-prompt',
    ['celebration'],
    '15',
    { min_appointments: 10, min_days_active: 30 },
    { en: 'Ten appointments booked!', de: 'Zehn Termine gebucht!' },
    {
      en: 'Tell others what you think of the scheduling module.',
      de: 'Erzählen Sie anderen, was Sie vom Terminplanungsmodul halten.',
    },
  ),
  n(
    'promo-booking-flows',
    ['feature_promo'],
    '30',
    { editions: [1, 2], not_installed: ['booking_flows'], activated_after: '2023-09-01' },
    { en: 'New: booking flows', de: 'Neu: Buchungsabläufe' },
    {
      en: 'Let customers pick a date first, or the first available time.',
      de: 'Kunden zuerst ein Datum oder die nächste freie Zeit wählen lassen.',
    },
  ),
  n(
    'unlock-booking-flows-promo',
    ['upgrade_promo'],
    '30',
    { editions: [3], not_enabled: ['booking_flows'] },
    { en: 'Unlock booking flows', de: 'Buchungsabläufe freischalten' },
    { en: 'Booking flows are part of the Business edition.', de: 'Buchungsabläufe sind Teil der Business-Edition.' },
  ),
];

export const NOTICE_BY_ID = new Map(NOTICES.map((x) => [x.id, x]));
