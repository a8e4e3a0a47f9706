import { namespace } from '../../rest/define.ts';
import type { NamespaceDef } from '../../rest/types.ts';

export const i18nStNamespace: NamespaceDef = namespace('i18n/st/v1', []);
