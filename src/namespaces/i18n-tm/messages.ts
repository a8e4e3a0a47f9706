// Messages of i18n/tm/v1 in both languages. A message with a value is a function returning its
// texts; read one as `MSG.key[lang]`.
import { l } from '../../rest/define.ts';

export const MSG = {
  localService: l('Local', 'Lokal'),
  jobNotFound: (id: number) => l(`There is no translation job with the ID ${id}.`, `Es gibt keinen Übersetzungsauftrag mit der ID ${id}.`),
  jobOfTypeNotFound: (type: string, id: number) =>
    l(`There is no translation job of type "${type}" with the ID ${id}.`, `Es gibt keinen Übersetzungsauftrag vom Typ „${type}“ mit der ID ${id}.`),
  assignOnlyYourself: l('You may only assign jobs to yourself.', 'Sie dürfen Aufträge nur sich selbst zuweisen.'),
  assignedToAnother: l('This job is assigned to another translator.', 'Dieser Auftrag ist einem anderen Übersetzer zugewiesen.'),
  translatorNotFound: (id: number) => l(`There is no user with the ID ${id}.`, `Es gibt keinen Benutzer mit der ID ${id}.`),
  notATranslator: (id: number) =>
    l(`User ${id} is not an active translator (capability "translate").`, `Der Benutzer ${id} ist kein aktiver Übersetzer (Berechtigung „translate“).`),
  jobRemote: l(
    'The job is with a translation service and cannot be assigned to a local translator.',
    'Der Auftrag liegt bei einem Übersetzungsdienst und kann keinem lokalen Übersetzer zugewiesen werden.',
  ),
  jobNotAssignable: (name: string, status: number) =>
    l(`A job with status "${name}" (${status}) cannot be assigned.`, `Ein Auftrag im Status „${name}“ (${status}) kann nicht zugewiesen werden.`),
  jobChanged: l('The job was changed concurrently; please retry.', 'Der Auftrag wurde gleichzeitig geändert; bitte erneut versuchen.'),
};
