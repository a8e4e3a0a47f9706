// Messages of string translation in both languages. A message with values is a function
// returning its texts; read one as `MSG.key[lang]`.
import { l } from '../../rest/define.ts';

export const ST_MSG = {
  mustBeOneOf: (name: string, allowed: number[]) =>
    l(`${name} must be one of ${allowed.join(', ')}.`, `${name} muss einer der Werte ${allowed.join(', ')} sein.`),
  visibleColumnsNotObject: l('visibleColumns must be an object.', 'visibleColumns muss ein Objekt sein.'),
};
