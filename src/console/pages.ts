// The console's pages as data: where each lives, who may open it, its place in the navigation.
// A part of the console adds its pages to CONSOLE_PAGES (part 2: translation, appointments,
// sliders, pages and posts); index.ts routes to them and builds the navigation from them.
import type { FastifyReply } from 'fastify';
import type { ConsoleContext } from './context.ts';
import type { ConsoleStringKey } from './i18n.ts';

export interface ConsolePage {
  /** Path below the site's base address (`/cms-admin/profile.php`, `/cms-admin/admin.php`). */
  path: string;
  /** For `/cms-admin/admin.php`: the `page` argument that selects this page. */
  adminPage?: string;
  /** Capability needed to open the page; null: every logged-in user. */
  capability: string | null;
  /** Its title (a string key), also its label in the navigation. */
  title: ConsoleStringKey;
  /** Position in the navigation; pages without one are reached through links only. */
  navOrder?: number;
  /** Handles GET (and HEAD) and POST requests of a logged-in user who may open the page. */
  handle(ctx: ConsoleContext): Promise<FastifyReply>;
}

export const ADMIN_PHP = '/cms-admin/admin.php';

/** The address of a page with query arguments, relative to the site's base path. */
export function pagePath(page: Pick<ConsolePage, 'path' | 'adminPage'>, query: Record<string, string | undefined> = {}): string {
  const args = page.adminPage ? { page: page.adminPage, ...query } : query;
  const pairs = Object.entries(args).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== '');
  return pairs.length ? `${page.path}?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}` : page.path;
}
