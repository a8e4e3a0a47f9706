// The pages as other modules may use them: the content store (translation jobs write its
// language versions), the site's URLs, and the public HTML the host's HTTP adapter serves.
export { renderNotFound, renderPublicPath } from './public.ts';
export {
  type ContentItem, createContent, getAuthor, getContent, getContentBySlug, getTranslations, listContent, RESERVED_SLUGS,
  updateContent,
} from './store.ts';
export { authorUrl, embedUrl, homeUrl, isLocalUrl, isViewable, permalink, resolveContentUrl, siteUrl } from './urls.ts';
