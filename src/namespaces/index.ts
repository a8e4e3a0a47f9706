// The namespaces of the site in the order of contract §1 (the index lists them so).
// Namespaces whose routes the contract does not show have only their namespace index.
import type { NamespaceDef } from '../rest/types.ts';
import { namespace } from '../rest/define.ts';
import { schedNamespace } from './sched/routes.ts';
import { oembedNamespace } from './oembed/routes.ts';
import { i18nNamespace } from './i18n/routes.ts';
import { i18nStNamespace } from './i18n-st/routes.ts';
import { i18nTmNamespace } from './i18n-tm/routes.ts';
import { sliderxNamespace } from './sliderx/routes.ts';
import { historyNamespace } from './history/routes.ts';

const indexOnly = (name: string): NamespaceDef => namespace(name, []);

export const NAMESPACES: NamespaceDef[] = [
  schedNamespace,
  oembedNamespace,
  i18nNamespace,
  i18nStNamespace,
  i18nTmNamespace,
  indexOnly('legalx/v1'),
  sliderxNamespace,
  historyNamespace,
  indexOnly('i18n/ate/v1'),
  indexOnly('filex/v1'),
  indexOnly('filex/public/v1'),
  indexOnly('awx/instagram'),
  indexOnly('awx'),
  indexOnly('vendorx/installer/v1'),
  indexOnly('cms/v2'),
  indexOnly('cms-site-health/v1'),
  indexOnly('cms-block-editor/v1'),
  indexOnly('cms-abilities/v1'),
];
