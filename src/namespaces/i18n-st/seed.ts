// Demo content of the string registry (strings of the site's theme, plugins and core in
// English and German, with translations in several states, and string packages), and a
// fast bulk generator for the benchmark.
import crypto from 'node:crypto';
import type { Insertable } from 'kysely';
import type { AppServices } from '../../site/services.ts';
import type { I18nStStringsTable } from '../../db/schema.ts';
import { analyzeAfterBulkLoad } from '../../db/index.ts';
import { utcNow } from '../../site/time.ts';
import { targetLanguages } from './languages.ts';
import { registerPackage, refreshPackageWordCount, savePackageTranslation } from './packages.ts';
import {
  COMPONENT_TYPES,
  KIND_AUTOREGISTERED,
  KIND_DEFAULT,
  STATUS,
  countWords,
  registerString,
  rollUpStatus,
  saveStringTranslation,
  sortKeyOf,
  stringKeyHash,
  type RegisterStringInput,
} from './registry.ts';

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

const DEMO_STRINGS: DemoString[] = [
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

const DEMO_PACKAGES: {
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

/** Seeds the demo strings and packages. Idempotent. */
export async function seedDemo(app: Pick<AppServices, 'db'>): Promise<{ strings: number; packages: number }> {
  let strings = 0;
  for (const d of DEMO_STRINGS) {
    const { de, en, status, reviewStatus, method, editor, ...input } = d;
    const { id } = await registerString(app, { kind: KIND_DEFAULT, ...input });
    strings++;
    const target = (input.language ?? 'en') === 'en' ? 'de' : 'en';
    const text = target === 'de' ? de : en;
    if (text !== undefined || status !== undefined) {
      await saveStringTranslation(app, id, target, {
        value: text ?? null,
        status: status ?? STATUS.COMPLETE,
        reviewStatus: reviewStatus ?? null,
        method: method ?? (text ? 'manual' : null),
        editor: editor ?? (text ? 'classic' : null),
      });
    }
  }
  for (const p of DEMO_PACKAGES) {
    const packageId = await registerPackage(app, {
      kind: p.kind,
      name: p.name,
      title: p.title,
      translatorNote: p.translatorNote,
      viewLink: '',
      editLink: '',
    });
    for (const s of p.strings) {
      const { id } = await registerString(app, {
        domain: `${p.kind}-${p.name}`,
        name: s.name,
        value: s.value,
        type: COMPONENT_TYPES.plugin,
        packageId,
      });
      strings++;
      if (s.de) await saveStringTranslation(app, id, 'de', { value: s.de, method: 'manual', editor: 'classic' });
    }
    await refreshPackageWordCount(app, packageId);
    await savePackageTranslation(app, packageId, 'de', {
      status: p.de,
      method: p.de ? 'local-translator' : null,
      editor: p.de ? 'ate' : null,
    });
  }
  return { strings, packages: DEMO_PACKAGES.length };
}

const WORDS = (
  'partner portal booking appointment download contract invoice meeting training webinar product service support contact ' +
  'account password profile settings language region country city street company team manager document report release'
).split(' ');
const PRIORITY_CYCLE = ['optional', 'optional', 'optional', 'required', 'not-needed'];
const STATUS_CYCLE = [0, 0, 0, 0, 0, 10, 10, 10, 1, 3];

/**
 * Inserts `count` synthetic strings (with one translation row each) in large batches, for the
 * benchmark. Returns the number inserted. Domains: `bench-0` … `bench-49`.
 */
export async function generateStrings(
  app: Pick<AppServices, 'db'> & Partial<Pick<AppServices, 'dialect'>>,
  count: number,
  opts: { chunk?: number } = {},
): Promise<number> {
  const chunk = opts.chunk ?? 500;
  const run = crypto.randomBytes(4).toString('hex');
  const now = utcNow();
  let done = 0;
  while (done < count) {
    const n = Math.min(chunk, count - done);
    const rows: Insertable<I18nStStringsTable>[] = [];
    const statusByHash = new Map<string, { target: string; status: number; value: string }>();
    for (let k = 0; k < n; k++) {
      const i = done + k;
      const words = 2 + (i % 7);
      const parts: string[] = [];
      for (let w = 0; w < words; w++) parts.push(WORDS[(i * 7 + w * 13 + (i >> 3)) % WORDS.length]!);
      const value = `${parts.join(' ')} ${i}`;
      const language = i % 10 === 9 ? 'de' : 'en';
      const domain = `bench-${i % 50}`;
      const name = `bench.${run}.${i}`;
      const hash = stringKeyHash(domain, '', name);
      const status = STATUS_CYCLE[Math.floor(i / 50) % STATUS_CYCLE.length]!;
      const target = targetLanguages(language)[0]!;
      statusByHash.set(hash, { target, status, value: `[${target}] ${value}` });
      rows.push({
        key_hash: hash,
        language,
        domain,
        context: '',
        name,
        value,
        sort_key: sortKeyOf(value),
        kind: Math.floor(i / 7) % 5 === 0 ? KIND_AUTOREGISTERED : KIND_DEFAULT,
        type: i % 4,
        source: i % 3 === 0 ? 1 : 0,
        sources: '[]',
        translation_priority: PRIORITY_CYCLE[i % PRIORITY_CYCLE.length]!,
        status: rollUpStatus([status]),
        word_count: countWords(value),
        package_id: null,
        created_at: now,
        updated_at: now,
      });
    }
    await app.db.transaction().execute(async (tx) => {
      const ids = await tx.insertInto('i18n_st_strings').values(rows).returning(['id', 'key_hash']).execute();
      const translations = ids.map(({ id, key_hash }) => {
        const t = statusByHash.get(key_hash)!;
        return {
          string_id: id,
          language: t.target,
          value: t.status === STATUS.COMPLETE || t.status === STATUS.NEEDS_UPDATE ? t.value : null,
          status: t.status,
          updated_at: now,
        };
      });
      for (let i = 0; i < translations.length; i += 1000) {
        await tx
          .insertInto('i18n_st_translations')
          .values(translations.slice(i, i + 1000))
          .execute();
      }
    });
    done += n;
  }
  if (done >= 1000) await analyzeAfterBulkLoad(app.db, app.dialect, ['i18n_st_strings', 'i18n_st_translations']);
  return done;
}
