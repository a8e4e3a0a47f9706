// The labels of the page chrome ("Posts", "Read more", …) come from the string registry
// (i18n/st/v1), so translators change them like any other string of the site. The built-in
// texts are the fallback; an unknown label is captured for registration at run time.
import type { AppServices } from '../app.ts';
import type { Lang } from '../rest/types.ts';
import { SOURCE_FRONTEND, queueAutoregisteredString, registerString, saveStringTranslation, translateStrings } from '../namespaces/i18n-st/registry.ts';

export const LABELS_DOMAIN = 'content-site-pages';

const BUILT_IN = {
  en: { posts: 'Posts', by: 'By', noPosts: 'Nothing has been published yet.', languages: 'Languages', postsBy: 'Posts by', menu: 'Menu' },
  de: { posts: 'Beiträge', by: 'Von', noPosts: 'Es wurde noch nichts veröffentlicht.', languages: 'Sprachen', postsBy: 'Beiträge von', menu: 'Menü' },
} as const;

export type LabelName = keyof (typeof BUILT_IN)['en'];
export type Labels = Record<LabelName, string>;
const NAMES = Object.keys(BUILT_IN.en) as LabelName[];

/** The page labels in `lang` (one query); `page` is where they were seen, for the capture queue. */
export async function pageLabels(app: AppServices, lang: Lang, page: string): Promise<Labels> {
  const found = await translateStrings(app, NAMES.map((name) => ({ domain: LABELS_DOMAIN, name })), lang);
  const labels = {} as Labels;
  NAMES.forEach((name, i) => {
    const text = found[i];
    if (text == null) {
      // Capturing must never break a page view.
      void queueAutoregisteredString(app, { domain: LABELS_DOMAIN, name, value: BUILT_IN.en[name], language: 'en', source: SOURCE_FRONTEND, page }, { isAdmin: false }).catch(() => {});
    }
    labels[name] = text ?? BUILT_IN[lang][name];
  });
  return labels;
}

/** Registers the labels with their German translations (demo seed; safe to run again). */
export async function registerPageLabels(app: AppServices): Promise<void> {
  for (const name of NAMES) {
    const { id, created } = await registerString(app, { domain: LABELS_DOMAIN, name, value: BUILT_IN.en[name], language: 'en', source: SOURCE_FRONTEND });
    if (created) await saveStringTranslation(app, id, 'de', { value: BUILT_IN.de[name] });
  }
}
