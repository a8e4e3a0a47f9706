// The site's pages and posts (public HTML under /<lang>/…; their table is in the kernel's
// 0007_content migration, which also made the sliders' and oEmbed's; the parent column is ours).
import type { SiteModule } from '../site/module.ts';
import { contentLogger } from './logger.ts';
import { seedDemo } from './seed.ts';
import { contentParentMigration } from './migrations/0021_content_parent.ts';

export const pagesModule: SiteModule = {
  name: 'pages',
  loggers: [contentLogger],
  migrations: [contentParentMigration],
  seed: seedDemo,
};
