// The labels of the page chrome ("Posts", "Read more", …) come from the string registry
// (i18n/st/v1), so translators change them like any other string of the site. The built-in
// texts are the fallback; an unknown label is captured for registration at run time.
import type { AppServices } from '../site/services.ts';
import type { Lang } from '../rest/types.ts';
import {
  SOURCE_BACKEND,
  SOURCE_FRONTEND,
  queueAutoregisteredString,
  registerString,
  saveStringTranslation,
  translateStrings,
} from '../namespaces/i18n-st/api.ts';
import { adminTextKey } from '../namespaces/i18n/api.ts';

export const LABELS_DOMAIN = 'content-site-pages';

const BUILT_IN = {
  en: {
    posts: 'Posts',
    by: 'By',
    noPosts: 'Nothing has been published yet.',
    languages: 'Languages',
    postsBy: 'Posts by',
    menu: 'Menu',
    notFound: 'Page not found',
    notFoundText: 'The page you asked for does not exist.',
    toHome: 'Go to the home page',
  },
  de: {
    posts: 'Beiträge',
    by: 'Von',
    noPosts: 'Es wurde noch nichts veröffentlicht.',
    languages: 'Sprachen',
    postsBy: 'Beiträge von',
    menu: 'Menü',
    notFound: 'Seite nicht gefunden',
    notFoundText: 'Die angeforderte Seite gibt es nicht.',
    toHome: 'Zur Startseite',
  },
} as const;

export type LabelName = keyof (typeof BUILT_IN)['en'];
export type Labels = Record<LabelName, string>;
const NAMES = Object.keys(BUILT_IN.en) as LabelName[];

/** The page labels in `lang` (one query); `page` is where they were seen, for the capture queue. */
export async function pageLabels(app: AppServices, lang: Lang, page: string): Promise<Labels> {
  const found = await translateStrings(
    app,
    NAMES.map((name) => ({ domain: LABELS_DOMAIN, name })),
    lang,
  );
  const labels = {} as Labels;
  NAMES.forEach((name, i) => {
    const text = found[i];
    if (text == null) {
      // Capturing must never break a page view.
      void queueAutoregisteredString(
        app,
        { domain: LABELS_DOMAIN, name, value: BUILT_IN.en[name], language: 'en', source: SOURCE_FRONTEND, page },
        { isAdmin: false },
      ).catch(() => {});
    }
    labels[name] = text ?? BUILT_IN[lang][name];
  });
  return labels;
}

/** The site's name and tagline shown on the pages: registered admin texts in `lang` (i18n DECISIONS), else the options. */
export async function siteTexts(app: AppServices, lang: Lang): Promise<{ name: string; tagline: string }> {
  const name = String(app.options.get('blogname') ?? '');
  const tagline = String(app.options.get('blogdescription') ?? '');
  if (lang === 'en') return { name, tagline };
  const [nameIn, taglineIn] = await translateStrings(
    app,
    [adminTextKey(['blogname']), adminTextKey(['blogdescription'])],
    lang,
  );
  return { name: nameIn ?? name, tagline: taglineIn ?? tagline };
}

/** German texts of the default site options (DEFAULT_OPTIONS) the demo registers. */
const SITE_TEXTS_DE: Record<string, string> = { 'Partner portal': 'Partnerportal' };

/**
 * Registers the labels with their German translations, and the site's tagline as an admin text
 * with its German translation when it is still the default (demo seed; safe to run again).
 */
export async function registerPageLabels(app: AppServices): Promise<void> {
  for (const name of NAMES) {
    const { id, created } = await registerString(app, {
      domain: LABELS_DOMAIN,
      name,
      value: BUILT_IN.en[name],
      language: 'en',
      source: SOURCE_FRONTEND,
    });
    if (created) await saveStringTranslation(app, id, 'de', { value: BUILT_IN.de[name] });
  }
  for (const option of ['blogname', 'blogdescription']) {
    const value = String(app.options.get(option) ?? '');
    if (!value) continue;
    const { id, created } = await registerString(app, {
      ...adminTextKey([option]),
      value,
      source: SOURCE_BACKEND,
      type: 0,
      kind: 0,
    });
    const german = SITE_TEXTS_DE[value];
    if (created && german) await saveStringTranslation(app, id, 'de', { value: german });
  }
}
