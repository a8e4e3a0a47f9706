// The writes of pages and posts: each performs the store's write, then records it in the
// activity log (recordWrite: a failed log write after the committed write is not the caller's error).
import type { AppServices } from '../site/services.ts';
import { CLI_ORIGIN, loggerEntry, recordWrite, type ActivityOrigin } from '../site/activity.ts';
import { contentLogger } from './logger.ts';
import { insertContent, markTrashed, patchContent, removeContent, type ContentPatch } from './store.ts';
import type { ContentInput, ContentItem } from './content-item.ts';

/** The context of a page's or post's activity-log entry (the activity log's backfill writes it too). */
export function contentLogContext(item: {
  id: number;
  type: string;
  title: string;
  lang: string;
  slug: string;
  status: string;
}): Record<string, unknown> {
  return {
    content_id: item.id,
    content_type: item.type,
    content_title: item.title,
    content_lang: item.lang,
    content_slug: item.slug,
    content_status: item.status,
  };
}

/** Creates a page or post and records it in the activity log. */
export async function createContent(
  app: AppServices,
  input: ContentInput,
  origin: ActivityOrigin = CLI_ORIGIN,
): Promise<ContentItem> {
  const item = await insertContent(app, input);
  await recordWrite(app, loggerEntry(contentLogger, 'content_created', contentLogContext(item)), origin);
  return item;
}

/** Updates fields of a page or post (a trashed one is restored by giving it a status) and records it. */
export async function updateContent(
  app: AppServices,
  id: number,
  patch: ContentPatch,
  origin: ActivityOrigin = CLI_ORIGIN,
): Promise<ContentItem> {
  const item = await patchContent(app, id, patch);
  await recordWrite(
    app,
    loggerEntry(contentLogger, 'content_updated', {
      ...contentLogContext(item),
      changed_fields: Object.keys(patch).join(','),
    }),
    origin,
  );
  return item;
}

/** Moves a page or post to the trash and records it. */
export async function trashContent(app: AppServices, item: ContentItem, origin: ActivityOrigin): Promise<ContentItem> {
  const trashed = await markTrashed(app, item);
  await recordWrite(app, loggerEntry(contentLogger, 'content_trashed', contentLogContext(trashed)), origin);
  return trashed;
}

/** Deletes a page or post for good (children move up to its parent) and records it. */
export async function deleteContent(app: AppServices, item: ContentItem, origin: ActivityOrigin): Promise<void> {
  await removeContent(app, item);
  await recordWrite(app, loggerEntry(contentLogger, 'content_deleted', contentLogContext(item)), origin);
}
