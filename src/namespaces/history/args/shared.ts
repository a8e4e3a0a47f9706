// What history/v1's argument sets share: the builders of list and integer arguments (bounded
// by this server's limits) and the arguments the event list and the statistics both take,
// declared once here.
import { l } from '../../../rest/define.ts';
import type { ArgSchema } from '../../../rest/types.ts';
import { MAX_LIST_ITEMS } from '../../../db/limits.ts';
import { atMost, dbInteger, type Validator } from './checks.ts';

// The helpers keep their literal types (`as const`): a handler's params are typed from them (ParamsOf).
export const strings = (description: ArgSchema['description'], validate: Validator = atMost(MAX_LIST_ITEMS)) =>
  ({ description, type: 'array', items: { type: 'string' }, validate }) as const;
export const integers = (description: ArgSchema['description']) =>
  ({ description, type: 'array', items: { type: 'integer' }, validate: atMost(MAX_LIST_ITEMS, dbInteger) }) as const;
/** A single integer arg, bounded by dbInteger. */
export const integer = <const M extends Partial<ArgSchema> = {}>(description: ArgSchema['description'], more?: M) =>
  ({ description, type: 'integer', validate: dbInteger, ...more }) as {
    readonly description: ArgSchema['description'];
    readonly type: 'integer';
    readonly validate: Validator;
  } & NoInfer<M>;

export const CONTEXT_DESCRIPTION = l(
  'Scope under which the request is made; determines fields present in response.',
  'Bereich, in dem die Anfrage gestellt wird; bestimmt die Felder der Antwort.',
);

export const PAGE_DESCRIPTION = l('Current page of the collection.', 'Aktuelle Seite der Sammlung.');

export const PER_PAGE = {
  description: l('Maximum number of items to be returned in result set.', 'Höchstzahl der Einträge im Ergebnis.'),
  type: 'integer',
  default: 10,
  minimum: 1,
  maximum: 100,
} as const;

export const SEARCH = {
  description: l('Limit results to those matching a string.', 'Nur Ergebnisse, die zu diesem Text passen.'),
  type: 'string',
} as const;
