// The pages as other modules may use them: the content store's reads, the service's writes (each
// recorded in the activity log: cms/v2's and the translation jobs' language versions), their
// logger (the activity log's backfill records existing pages and posts with it), the site's URLs,
// and the public HTML the host's HTTP adapter serves.
export { paragraphs, renderNotFound, renderPublicPath } from './public.ts';
export {
  CONTENT_STATUSES,
  RESERVED_SLUGS,
  slugify,
  type ContentItem,
  type ContentStatus,
  type ContentType,
} from './content-item.ts';
export { getAuthor, getContent, getContentBySlug, getTranslations, listContent, type ContentPatch } from './store.ts';
export { queryContent, type ContentOrderBy, type ContentQuery } from './content-query.ts';
export { contentLogContext, createContent, deleteContent, trashContent, updateContent } from './service.ts';
export { contentLogger } from './logger.ts';
export { authorUrl, embedUrl, homeUrl, isLocalUrl, isViewable, permalink, resolveContentUrl, siteUrl } from './urls.ts';
