// Who may read, edit, publish and delete pages and posts: the reference's meta capabilities
// (map_meta_cap for edit_post, delete_post, read_post) mapped onto our roles' capabilities.
// Authors edit and delete their own posts, editors everyone's, contributors their own
// drafts; pages are the editors'. Our roles have no separate private/others-delete
// capabilities for pages, so `edit_others_pages` and `edit_published_pages` stand for them.
import type { AuthUser } from '../../auth/types.ts';
import type { ContentItem, ContentStatus, ContentType } from '../../pages/api.ts';

export interface TypeCapabilities {
  edit: string;
  editOthers: string;
  editPublished: string;
  publish: string;
  delete: string;
  deleteOthers: string;
  deletePublished: string;
}

export const CAPABILITIES: Record<ContentType, TypeCapabilities> = {
  post: {
    edit: 'edit_posts',
    editOthers: 'edit_others_posts',
    editPublished: 'edit_published_posts',
    publish: 'publish_posts',
    delete: 'delete_posts',
    deleteOthers: 'delete_others_posts',
    deletePublished: 'delete_published_posts',
  },
  page: {
    edit: 'edit_pages',
    editOthers: 'edit_others_pages',
    editPublished: 'edit_published_pages',
    publish: 'publish_pages',
    delete: 'delete_pages',
    deleteOthers: 'edit_others_pages',
    deletePublished: 'edit_published_pages',
  },
};

function isOwn(user: AuthUser, item: ContentItem): boolean {
  return item.authorId === user.id;
}

/** The shape map_meta_cap gives edit_post and delete_post: `base` for one's own items, `others` too for
 * anyone else's, and `published` too once the item is published or private. */
function mayChange(user: AuthUser | null, item: ContentItem, base: string, others: string, published: string): boolean {
  if (!user || !user.can(base)) return false;
  if (!isOwn(user, item) && !user.can(others)) return false;
  if ((item.status === 'publish' || item.status === 'private') && !user.can(published)) return false;
  return true;
}

/** edit_post. */
export function canEdit(user: AuthUser | null, item: ContentItem): boolean {
  const caps = CAPABILITIES[item.type];
  return mayChange(user, item, caps.edit, caps.editOthers, caps.editPublished);
}

/** delete_post. */
export function canDelete(user: AuthUser | null, item: ContentItem): boolean {
  const caps = CAPABILITIES[item.type];
  return mayChange(user, item, caps.delete, caps.deleteOthers, caps.deletePublished);
}

/** read_post: published items are public; any other needs edit rights on it. */
export function canRead(user: AuthUser | null, item: ContentItem): boolean {
  if (item.status === 'publish') return true;
  return canEdit(user, item);
}

/** Which unpublished items a caller may list: all (editors), their own, or none. */
export function unpublishedVisibleTo(user: AuthUser | null, type: ContentType): 'all' | { authorId: number } | null {
  const caps = CAPABILITIES[type];
  if (!user || !user.can(caps.edit)) return null;
  return user.can(caps.editOthers) ? 'all' : { authorId: user.id };
}

/** Setting a status: publish and private need `publish`; draft and pending anyone who may edit. */
export function canSetStatus(user: AuthUser, type: ContentType, status: ContentStatus): boolean {
  return status === 'draft' || status === 'pending' || user.can(CAPABILITIES[type].publish);
}
