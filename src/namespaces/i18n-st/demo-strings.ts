// The demo strings and string packages as data (seed.ts registers them): strings of the site's
// theme, plugins and core in English and German, with translations in several states, some
// autoregistered and some written in German first, and three packages.
import { COMPONENT_TYPES, KIND_AUTOREGISTERED, STATUS, type RegisterStringInput } from './registry.ts';

interface DemoString extends RegisterStringInput {
  /** Translation into the other language, and its status (default 10 when a text is given). */
  de?: string;
  en?: string;
  status?: number;
  reviewStatus?: string;
  method?: string;
  editor?: string;
}

const { plugin, theme, core } = COMPONENT_TYPES;

export const DEMO_STRINGS: DemoString[] = [
  // Theme (content-site), seen on the frontend.
  {
    domain: 'content-site',
    name: 'header.login',
    value: 'Partner login',
    type: theme,
    de: 'Partner-Anmeldung',
    method: 'manual',
    editor: 'classic',
  },
  {
    domain: 'content-site',
    name: 'header.search',
    value: 'Search the portal',
    type: theme,
    de: 'Portal durchsuchen',
    method: 'manual',
    editor: 'classic',
  },
  {
    domain: 'content-site',
    name: 'footer.imprint',
    value: 'Imprint',
    type: theme,
    de: 'Impressum',
    method: 'manual',
    editor: 'classic',
    translationPriority: 'required',
  },
  {
    domain: 'content-site',
    name: 'footer.privacy',
    value: 'Privacy policy',
    type: theme,
    de: 'Datenschutzerklärung',
    method: 'manual',
    editor: 'classic',
    translationPriority: 'required',
  },
  {
    domain: 'content-site',
    name: 'footer.contact',
    value: 'Contact us',
    type: theme,
    de: 'Kontakt',
    method: 'automatic',
    editor: 'ate',
    reviewStatus: 'NEEDS_REVIEW',
  },
  {
    domain: 'content-site',
    name: 'news.read_more',
    value: 'Read more',
    type: theme,
    de: 'Weiterlesen',
    method: 'automatic',
    editor: 'ate',
    reviewStatus: 'ACCEPTED',
  },
  {
    domain: 'content-site',
    name: 'news.published_on',
    value: 'Published on %s',
    type: theme,
    de: 'Veröffentlicht am %s',
    method: 'manual',
    editor: 'classic',
  },
  {
    domain: 'content-site',
    name: 'downloads.title',
    value: 'Downloads for partners',
    type: theme,
    de: 'Downloads für Partner',
    status: STATUS.NEEDS_UPDATE,
  },
  {
    domain: 'content-site',
    name: 'downloads.empty',
    value: 'There are no downloads in this category yet.',
    type: theme,
  },
  {
    domain: 'content-site',
    name: 'pagination.next',
    value: 'Next page',
    type: theme,
    status: STATUS.WAITING_FOR_TRANSLATOR,
  },
  {
    domain: 'content-site',
    name: 'pagination.previous',
    value: 'Previous page',
    type: theme,
    status: STATUS.IN_PROGRESS,
    editor: 'ate',
    method: 'local-translator',
  },
  { domain: 'content-site', context: 'button', name: 'Open', value: 'Open', type: theme, de: 'Öffnen' },
  { domain: 'content-site', context: 'status', name: 'Open', value: 'Open', type: theme, de: 'Offen' },
  {
    domain: 'content-site',
    name: 'partner.level.gold',
    value: 'Gold partner',
    type: theme,
    translationPriority: 'not-needed',
  },
  // Scheduling plugin, frontend and backend.
  {
    domain: 'sched',
    name: 'booking.choose_time',
    value: 'Choose a time',
    type: plugin,
    de: 'Wählen Sie eine Uhrzeit',
    method: 'manual',
    editor: 'classic',
  },
  {
    domain: 'sched',
    name: 'booking.confirm',
    value: 'Confirm booking',
    type: plugin,
    de: 'Buchung bestätigen',
    method: 'manual',
    editor: 'classic',
  },
  {
    domain: 'sched',
    name: 'booking.cancelled',
    value: 'Your appointment has been cancelled.',
    type: plugin,
    de: 'Ihr Termin wurde storniert.',
  },
  { domain: 'sched', name: 'booking.no_slots', value: 'No appointments are available on this day.', type: plugin },
  {
    domain: 'sched',
    name: 'admin.settings_saved',
    value: 'Settings saved.',
    type: plugin,
    source: 1,
    de: 'Einstellungen gespeichert.',
  },
  {
    domain: 'sched',
    name: 'admin.timezone_warning',
    value: 'Your site timezone differs from the server timezone.',
    type: plugin,
    source: 1,
  },
  // Slider plugin.
  { domain: 'sliderx', name: 'slider.previous', value: 'Previous slide', type: plugin, de: 'Vorherige Folie' },
  { domain: 'sliderx', name: 'slider.next', value: 'Next slide', type: plugin, de: 'Nächste Folie' },
  // Core.
  { domain: 'default', name: 'Log in', value: 'Log in', type: core, de: 'Anmelden' },
  { domain: 'default', name: 'Log out', value: 'Log out', type: core, de: 'Abmelden' },
  { domain: 'default', name: 'Password', value: 'Password', type: core, de: 'Passwort' },
  {
    domain: 'default',
    name: 'Remember Me',
    value: 'Remember Me',
    type: core,
    status: STATUS.NEEDS_UPDATE,
    de: 'Angemeldet bleiben',
  },
  { domain: 'default', context: 'post', name: 'Draft', value: 'Draft', type: core, source: 1, de: 'Entwurf' },
  // Autoregistered at run time.
  {
    domain: 'content-site',
    name: 'cookie.banner',
    value: 'We use cookies to improve the portal.',
    type: theme,
    kind: KIND_AUTOREGISTERED,
    location: '/en/',
  },
  {
    domain: 'content-site',
    name: 'cookie.accept',
    value: 'Accept all',
    type: theme,
    kind: KIND_AUTOREGISTERED,
    location: '/en/',
    de: 'Alle akzeptieren',
  },
  {
    domain: 'sched',
    name: 'booking.reminder',
    value: 'We will remind you one day before.',
    type: plugin,
    kind: KIND_AUTOREGISTERED,
    location: '/en/book/',
  },
  // Written in German first.
  {
    domain: 'content-site',
    name: 'legal.notice_de',
    value: 'Angaben gemäß § 5 TMG',
    language: 'de',
    type: theme,
    en: 'Information according to § 5 TMG',
  },
  {
    domain: 'content-site',
    name: 'events.local_meetup',
    value: 'Partnertreffen in Berlin',
    language: 'de',
    type: theme,
  },
  {
    domain: 'sched',
    name: 'booking.hotline',
    value: 'Telefonische Beratung',
    language: 'de',
    type: plugin,
    en: 'Phone consultation',
    status: STATUS.NEEDS_UPDATE,
  },
];

export const DEMO_PACKAGES: {
  kind: string;
  name: string;
  title: string;
  translatorNote: string;
  strings: { name: string; value: string; de?: string }[];
  de: number;
}[] = [
  {
    kind: 'gravity_form',
    name: '1',
    title: 'Partner application form',
    translatorNote: 'Formal address (Sie) please.',
    strings: [
      { name: 'field.company', value: 'Company name', de: 'Firmenname' },
      { name: 'field.email', value: 'Business email address', de: 'Geschäftliche E-Mail-Adresse' },
      { name: 'button.submit', value: 'Send application' },
    ],
    de: STATUS.IN_PROGRESS,
  },
  {
    kind: 'widget',
    name: 'footer-text',
    title: 'Footer text widget',
    translatorNote: '',
    strings: [
      {
        name: 'text',
        value: 'Content Site is the portal for certified partners.',
        de: 'Content Site ist das Portal für zertifizierte Partner.',
      },
    ],
    de: STATUS.COMPLETE,
  },
  {
    kind: 'elementor',
    name: '42',
    title: 'Landing page: Become a partner',
    translatorNote: 'Keep the headline short.',
    strings: [
      { name: 'heading', value: 'Grow with us' },
      { name: 'intro', value: 'Join more than 300 partners across Europe.' },
    ],
    de: STATUS.NOT_TRANSLATED,
  },
];
