// Demo content: home, about, partners, contact (en + de, linked as translations) and a news
// post; sets the front page and the posts page. Safe to run again (existing slugs are kept).
import type { AppServices } from '../site/services.ts';
import { CLI_ORIGIN, loggerEntry, type ActivityOrigin } from '../site/activity.ts';
import type { Lang } from '../rest/types.ts';
import { getContentBySlug } from './store.ts';
import type { ContentInput, ContentItem } from './content-item.ts';
import { createContent } from './service.ts';
import { contentLogger } from './logger.ts';
import { registerPageLabels } from './labels.ts';

type Pair = { en: Omit<ContentInput, 'lang' | 'type'>; de: Omit<ContentInput, 'lang' | 'type'>; type: 'page' | 'post' };

const DEMO: Pair[] = [
  {
    type: 'page',
    en: {
      slug: 'home',
      title: 'Welcome to our partner portal',
      menuOrder: 0,
      excerpt: 'Everything our partners need, in one place.',
      content:
        'Everything our partners need, in one place.\n\nBrowse our partner programme, read the latest news and get in touch with our team.',
    },
    de: {
      slug: 'startseite',
      title: 'Willkommen im Partnerportal',
      menuOrder: 0,
      excerpt: 'Alles, was unsere Partner brauchen, an einem Ort.',
      content:
        'Alles, was unsere Partner brauchen, an einem Ort.\n\nEntdecken Sie unser Partnerprogramm, lesen Sie die neuesten Nachrichten und nehmen Sie Kontakt mit unserem Team auf.',
    },
  },
  {
    type: 'page',
    en: {
      slug: 'about',
      title: 'About us',
      menuOrder: 1,
      excerpt: 'Who we are and what we do.',
      content: 'We build software for partners across Europe.\n\nOur team works from Berlin and Vienna.',
      thumbnail: { url: 'https://images.example.org/team.jpg', width: 1200, height: 800 },
    },
    de: {
      slug: 'ueber-uns',
      title: 'Über uns',
      menuOrder: 1,
      excerpt: 'Wer wir sind und was wir tun.',
      content: 'Wir entwickeln Software für Partner in ganz Europa.\n\nUnser Team arbeitet in Berlin und Wien.',
      thumbnail: { url: 'https://images.example.org/team.jpg', width: 1200, height: 800 },
    },
  },
  {
    type: 'page',
    en: {
      slug: 'partners',
      title: 'Partners',
      menuOrder: 2,
      excerpt: 'Our partner programme.',
      content:
        'Join our partner programme and grow with us.\n\nPartners get early access, training and a dedicated contact.',
    },
    de: {
      slug: 'partner',
      title: 'Partner',
      menuOrder: 2,
      excerpt: 'Unser Partnerprogramm.',
      content:
        'Werden Sie Teil unseres Partnerprogramms und wachsen Sie mit uns.\n\nPartner erhalten frühen Zugang, Schulungen und einen festen Ansprechpartner.',
    },
  },
  {
    type: 'page',
    en: {
      slug: 'contact',
      title: 'Contact',
      menuOrder: 3,
      excerpt: 'How to reach us.',
      content: 'Write to partners@example.org or call +49 30 1234567.',
    },
    de: {
      slug: 'kontakt',
      title: 'Kontakt',
      menuOrder: 3,
      excerpt: 'So erreichen Sie uns.',
      content: 'Schreiben Sie an partners@example.org oder rufen Sie +49 30 1234567 an.',
    },
  },
  {
    // The booking page the sched/v1 booking-app snippet embeds (through its embed view).
    type: 'page',
    en: {
      slug: 'booking',
      title: 'Book an appointment',
      menuOrder: 5,
      excerpt: 'Book a meeting with our partner team.',
      content: 'Choose a time that suits you and our partner team will confirm your appointment by e-mail.',
    },
    de: {
      slug: 'booking',
      title: 'Termin buchen',
      menuOrder: 5,
      excerpt: 'Buchen Sie einen Termin mit unserem Partnerteam.',
      content: 'Wählen Sie eine passende Zeit; unser Partnerteam bestätigt Ihren Termin per E-Mail.',
    },
  },
  {
    type: 'page',
    en: { slug: 'news', title: 'News', menuOrder: 4, excerpt: 'The latest from our team.', content: '' },
    de: {
      slug: 'neuigkeiten',
      title: 'Neuigkeiten',
      menuOrder: 4,
      excerpt: 'Das Neueste von unserem Team.',
      content: '',
    },
  },
  {
    type: 'post',
    en: {
      slug: 'partner-portal-launched',
      title: 'Our new partner portal is live',
      excerpt: 'The portal is now available in English and German.',
      content: 'Today we launched our new partner portal.\n\nIt is available in English and German.',
    },
    de: {
      slug: 'partnerportal-gestartet',
      title: 'Unser neues Partnerportal ist online',
      excerpt: 'Das Portal ist jetzt auf Englisch und Deutsch verfügbar.',
      content: 'Heute haben wir unser neues Partnerportal gestartet.\n\nEs ist auf Englisch und Deutsch verfügbar.',
    },
  },
];

export interface SeededContent {
  /** English items by English slug; their German translations by German slug. */
  en: Record<string, ContentItem>;
  de: Record<string, ContentItem>;
}

async function ensure(
  app: AppServices,
  type: 'page' | 'post',
  lang: Lang,
  input: Omit<ContentInput, 'lang' | 'type'>,
  authorId: number | null,
  translationOf: number | undefined,
  origin: ActivityOrigin,
): Promise<ContentItem> {
  const existing = await getContentBySlug(app, lang, input.slug);
  if (existing) return existing;
  return createContent(
    app,
    { ...input, type, lang, authorId, ...(translationOf !== undefined ? { translationOf } : {}) },
    origin,
  );
}

export async function seedDemo(app: AppServices, origin: ActivityOrigin = CLI_ORIGIN): Promise<SeededContent> {
  const admin = await app.db
    .selectFrom('users')
    .select('id')
    .where('role', '=', 'administrator')
    .orderBy('id')
    .executeTakeFirst();
  const authorId = admin?.id ?? null;
  const out: SeededContent = { en: {}, de: {} };
  for (const pair of DEMO) {
    const en = await ensure(app, pair.type, 'en', pair.en, authorId, undefined, origin);
    const de = await ensure(app, pair.type, 'de', pair.de, authorId, en.id, origin).catch(async (err) => {
      // The German slug may exist unlinked from an earlier edit; keep it as it is.
      const existing = await getContentBySlug(app, 'de', pair.de.slug);
      if (existing) return existing;
      throw err;
    });
    out.en[en.slug] = en;
    out.de[de.slug] = de;
  }
  const home = out.en.home!;
  const news = out.en.news!;
  if (
    Number(app.options.get('page_on_front')) !== home.id ||
    app.options.get('show_on_front') !== 'page' ||
    Number(app.options.get('page_for_posts')) !== news.id
  ) {
    await app.options.setMany({ show_on_front: 'page', page_on_front: home.id, page_for_posts: news.id });
    await app.activity.log(
      loggerEntry(contentLogger, 'front_page_set', {
        content_id: home.id,
        content_title: home.title,
        page_for_posts: news.id,
      }),
      origin,
    );
  }
  await registerPageLabels(app);
  return out;
}
