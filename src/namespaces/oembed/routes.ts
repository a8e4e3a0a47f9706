import { namespace } from '../../rest/define.ts';
import type { NamespaceDef } from '../../rest/types.ts';

export const oembedNamespace: NamespaceDef = namespace('oembed/1.0', []);
