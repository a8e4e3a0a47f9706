// Links of slides to pages of this site follow the reader's language, as WPML adjusts links to
// translated content: read under /de/, a slide linking to /en/about/ links to that page's German
// translation (/de/ueber-uns/). Links elsewhere, or to pages without a published translation,
// are shown as stored.
import type { AppServices } from '../../site/services.ts';
import type { Lang } from '../../rest/types.ts';
import { getTranslations, isViewable, permalink, resolveContentUrl, siteUrl } from '../../pages/api.ts';
import type { StoredSlide } from './store.ts';

/** The slides with their links to this site's pages pointing at the pages in `lang`. */
export async function linksInLanguage(app: AppServices, slides: StoredSlide[], lang: Lang): Promise<StoredSlide[]> {
  const translated = new Map<string, Promise<string>>();
  const follow = (link: string): Promise<string> => {
    let found = translated.get(link);
    if (!found) {
      found = translateLink(app, link, lang);
      translated.set(link, found);
    }
    return found;
  };
  return Promise.all(
    slides.map(async (slide) => ({
      ...slide,
      link: await follow(slide.link),
      layers: await Promise.all(
        slide.layers.map(async (layer) =>
          layer.link === undefined ? layer : { ...layer, link: await follow(layer.link) },
        ),
      ),
    })),
  );
}

async function translateLink(app: AppServices, link: string, lang: Lang): Promise<string> {
  const relative = link.startsWith('/') && !link.startsWith('//');
  if (!relative && !/^https?:\/\//i.test(link)) return link;
  const absolute = relative ? siteUrl(app) + link : link;
  // Already in the reader's language (the first path segment below the site): nothing to look up.
  if (absolute.startsWith(`${siteUrl(app)}/${lang}/`)) return link;
  const item = await resolveContentUrl(app, absolute);
  if (!item || item.lang === lang) return link;
  const translation = (await getTranslations(app, item)).find((t) => t.lang === lang && isViewable(t));
  if (!translation) return link;
  const target = await permalink(app, translation);
  return relative ? target.slice(siteUrl(app).length) : target;
}
