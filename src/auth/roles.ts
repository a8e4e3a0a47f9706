// Roles and their capabilities, mapped from the reference's WordPress roles
// (conventions: administrator, editor, author, contributor, subscriber, translator).

export const ROLES = ['administrator', 'editor', 'author', 'contributor', 'subscriber', 'translator'] as const;
export type Role = (typeof ROLES)[number];

const SUBSCRIBER = ['read'];
const CONTRIBUTOR = [...SUBSCRIBER, 'edit_posts', 'delete_posts'];
const AUTHOR = [...CONTRIBUTOR, 'upload_files', 'publish_posts', 'edit_published_posts', 'delete_published_posts'];
const EDITOR = [
  ...AUTHOR,
  'edit_pages',
  'edit_others_pages',
  'publish_pages',
  'delete_pages',
  'edit_published_pages',
  'edit_others_posts',
  'delete_others_posts',
  'moderate_comments',
  'manage_categories',
  'unfiltered_html',
];
const ADMINISTRATOR = [
  ...EDITOR,
  'manage_options',
  'list_users',
  'create_users',
  'edit_users',
  'delete_users',
  'promote_users',
  'activate_plugins',
  'install_plugins',
  'update_plugins',
  'update_core',
  'switch_themes',
  'edit_theme_options',
  'export',
  'import',
  'translate',
  'manage_translations',
];
const TRANSLATOR = [...SUBSCRIBER, 'translate'];

export const ROLE_CAPABILITIES: Record<Role, ReadonlySet<string>> = {
  administrator: new Set(ADMINISTRATOR),
  editor: new Set(EDITOR),
  author: new Set(AUTHOR),
  contributor: new Set(CONTRIBUTOR),
  subscriber: new Set(SUBSCRIBER),
  translator: new Set(TRANSLATOR),
};

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

export function roleCan(role: Role, cap: string): boolean {
  return ROLE_CAPABILITIES[role].has(cap);
}
