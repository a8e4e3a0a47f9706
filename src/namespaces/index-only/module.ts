// Namespaces whose routes the contract does not show: the REST index lists them, with only
// their namespace index. Three modules, because the index interleaves them with the others.
import type { NamespaceDef } from '../../rest/types.ts';
import { namespace } from '../../rest/define.ts';
import type { SiteModule } from '../../site/module.ts';

const indexOnly = (name: string): NamespaceDef => namespace(name, []);

export const legalxModule: SiteModule = {
  name: 'legalx',
  namespaces: [indexOnly('legalx/v1')],
};

export const indexOnlyModule: SiteModule = {
  name: 'index-only',
  namespaces: [
    indexOnly('i18n/ate/v1'),
    indexOnly('filex/v1'),
    indexOnly('filex/public/v1'),
    indexOnly('awx/instagram'),
    indexOnly('awx'),
    indexOnly('vendorx/installer/v1'),
  ],
};

/** The namespaces after cms/v2 (src/namespaces/cms) in the index. */
export const indexOnlyAfterCmsModule: SiteModule = {
  name: 'index-only-after-cms',
  namespaces: [indexOnly('cms-site-health/v1'), indexOnly('cms-block-editor/v1'), indexOnly('cms-abilities/v1')],
};
