// cms/v2: the site's pages and posts over REST, as WordPress core's wp/v2 pages and posts.
// Its writes are the pages' (src/pages), logged by their ContentLogger.
import type { SiteModule } from '../../site/module.ts';
import { cmsNamespace } from './routes.ts';

export const cmsModule: SiteModule = {
  name: 'cms',
  namespaces: [cmsNamespace],
};
