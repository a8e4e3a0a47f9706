// oEmbed (oembed/1.0): embeds of the site's pages and the proxy for other providers.
import type { SiteModule } from '../../site/module.ts';
import { oembedNamespace } from './routes.ts';

export const oembedModule: SiteModule = {
  name: 'oembed',
  namespaces: [oembedNamespace],
};
