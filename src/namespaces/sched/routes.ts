import { namespace } from '../../rest/define.ts';
import type { NamespaceDef } from '../../rest/types.ts';

export const schedNamespace: NamespaceDef = namespace('sched/v1', []);
