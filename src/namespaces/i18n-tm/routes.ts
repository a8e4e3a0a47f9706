import { namespace } from '../../rest/define.ts';
import type { NamespaceDef } from '../../rest/types.ts';

export const i18nTmNamespace: NamespaceDef = namespace('i18n/tm/v1', []);
