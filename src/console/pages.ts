// The console's pages as data (ConsolePage, declared beside the context it handles): where each
// lives, who may open it, its place in the navigation. A part of the console adds its pages to
// CONSOLE_PAGES (part 2: translation, appointments, sliders, pages and posts); index.ts routes
// to them and builds the navigation from them.
import { fmt } from '../web/api.ts';
import type { ConsolePage } from './context.ts';

export const ADMIN_PHP = '/cms-admin/admin.php';

/** The address of a page with query arguments, relative to the site's base path. */
export function pagePath(
  page: Pick<ConsolePage, 'path' | 'adminPage'>,
  query: Record<string, string | undefined> = {},
): string {
  const args = page.adminPage ? { page: page.adminPage, ...query } : query;
  const pairs = Object.entries(args).filter((e): e is [string, string] => e[1] !== undefined && e[1] !== '');
  return pairs.length
    ? `${page.path}?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`
    : page.path;
}

/** The page-number bar of a paged list (templates/pager.twig); null when everything fits on one page. */
export function pagerModel(
  pageOf: string,
  page: number,
  pages: number,
  link: (page: number) => string,
  hidden: [string, string][],
) {
  if (pages <= 1) return null;
  return {
    page,
    pages,
    label: fmt(pageOf, { page, pages }),
    first: page > 1 ? link(1) : '',
    prev: page > 1 ? link(Math.min(page - 1, pages)) : '',
    next: page < pages ? link(page + 1) : '',
    last: page < pages ? link(pages) : '',
    hidden: hidden.map(([name, value]) => ({ name, value })),
  };
}
