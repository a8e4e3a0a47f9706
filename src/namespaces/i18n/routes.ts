import { namespace } from '../../rest/define.ts';
import type { NamespaceDef } from '../../rest/types.ts';

export const i18nNamespace: NamespaceDef = namespace('i18n/v1', []);
