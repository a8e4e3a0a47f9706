// The pages as other modules may use them: the content store's reads, the service's writes (each
// recorded in the activity log: cms/v2's and the translation jobs' language versions), the
// site's URLs, and the public HTML the host's HTTP adapter serves.
export { paragraphs, renderNotFound, renderPublicPath } from './public.ts';
export {
  CONTENT_STATUSES,
  getAuthor,
  getContent,
  getContentBySlug,
  getTranslations,
  listContent,
  queryContent,
  RESERVED_SLUGS,
  type ContentItem,
  type ContentOrderBy,
  type ContentPatch,
  type ContentQuery,
  type ContentStatus,
  type ContentType,
} from './store.ts';
export { createContent, deleteContent, trashContent, updateContent } from './service.ts';
export { authorUrl, embedUrl, homeUrl, isLocalUrl, isViewable, permalink, resolveContentUrl, siteUrl } from './urls.ts';
