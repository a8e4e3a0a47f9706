import { namespace } from '../../rest/define.ts';
import type { NamespaceDef } from '../../rest/types.ts';

export const sliderxNamespace: NamespaceDef = namespace('sliderx', []);
