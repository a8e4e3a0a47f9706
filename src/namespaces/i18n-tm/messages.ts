// Messages of i18n/tm/v1 in both languages. A message with a value is a function returning its
// texts; read one as `MSG.key[lang]`, or pass it to restError().
import { l } from '../../rest/define.ts';

export const MSG = {
  localService: l('Local', 'Lokal'),
  jobNotFound: (id: number | string) =>
    l(`There is no translation job with the ID ${id}.`, `Es gibt keinen Übersetzungsauftrag mit der ID ${id}.`),
  jobOfTypeNotFound: (type: string, id: number) =>
    l(
      `There is no translation job of type "${type}" with the ID ${id}.`,
      `Es gibt keinen Übersetzungsauftrag vom Typ „${type}“ mit der ID ${id}.`,
    ),
  assignOnlyYourself: l('You may only assign jobs to yourself.', 'Sie dürfen Aufträge nur sich selbst zuweisen.'),
  assignedToAnother: l(
    'This job is assigned to another translator.',
    'Dieser Auftrag ist einem anderen Übersetzer zugewiesen.',
  ),
  translatorNotFound: (id: number) =>
    l(`There is no user with the ID ${id}.`, `Es gibt keinen Benutzer mit der ID ${id}.`),
  notATranslator: (id: number) =>
    l(
      `User ${id} is not an active translator (capability "translate").`,
      `Der Benutzer ${id} ist kein aktiver Übersetzer (Berechtigung „translate“).`,
    ),
  jobRemote: l(
    'The job is with a translation service and cannot be assigned to a local translator.',
    'Der Auftrag liegt bei einem Übersetzungsdienst und kann keinem lokalen Übersetzer zugewiesen werden.',
  ),
  jobNotAssignable: (name: string, status: number) =>
    l(
      `A job with status "${name}" (${status}) cannot be assigned.`,
      `Ein Auftrag im Status „${name}“ (${status}) kann nicht zugewiesen werden.`,
    ),
  jobChanged: l(
    'The job was changed concurrently; please retry.',
    'Der Auftrag wurde gleichzeitig geändert; bitte erneut versuchen.',
  ),

  // managers, translators and engines (ams.ts)
  notAManager: l(
    'Only active translation managers can be registered.',
    'Nur aktive Übersetzungsmanager können registriert werden.',
  ),
  enginesNotAList: l(
    'engines must be a list of {id, enabled, priority}.',
    'engines muss eine Liste von {id, enabled, priority} sein.',
  ),
  enginesInvalid: l('The engines configuration is invalid.', 'Die Konfiguration der Übersetzungsdienste ist ungültig.'),
  // translation editor jobs (ate.ts)
  jobNotInEditor: (id: number) =>
    l(
      `Job ${id} is with a translation service, not in the local translation editor.`,
      `Auftrag ${id} liegt bei einem Übersetzungsdienst, nicht im lokalen Übersetzungseditor.`,
    ),
  editorJobNotCreatable: (id: number, status: number) =>
    l(
      `Job ${id} has status ${status}; an editor job can only be created for waiting, in-progress, queued or outdated jobs.`,
      `Auftrag ${id} hat den Status ${status}; ein Editor-Auftrag kann nur für wartende, laufende, vorgemerkte oder veraltete Aufträge angelegt werden.`,
    ),
  editorJobsRequestInvalid: (reason: string) =>
    l(
      `Invalid editor job creation request: ${reason}`,
      `Ungültige Anfrage zum Anlegen von Editor-Aufträgen: ${reason}`,
    ),
  editorJobsTooMany: l('At most 500 jobs per request.', 'Höchstens 500 Aufträge pro Anfrage.'),
  editorJobsCreated: l('Jobs created.', 'Aufträge angelegt.'),
  editorJobLinked: (ateJobId: number, jobId: number) =>
    l(
      `Editor job ${ateJobId} is already linked to translation job ${jobId}.`,
      `Der Editor-Auftrag ${ateJobId} ist bereits mit dem Übersetzungsauftrag ${jobId} verknüpft.`,
    ),
  editorJobNotFound: (id: number | string) =>
    l(
      `There is no translation editor job with the ID ${id}.`,
      `Es gibt keinen Übersetzungseditor-Auftrag mit der ID ${id}.`,
    ),
  // doing jobs and sending to translation (work.ts)
  jobNotYours: l('This job is not assigned to you.', 'Dieser Auftrag ist Ihnen nicht zugewiesen.'),
  jobNotWorkable: (id: number, status: number) =>
    l(
      `Job ${id} (status ${status}) cannot be translated here: only local jobs that are waiting, in progress or complete can.`,
      `Auftrag ${id} (Status ${status}) kann hier nicht übersetzt werden: nur lokale Aufträge, die warten, in Bearbeitung oder fertig sind.`,
    ),
  unknownField: (jobId: number, field: string) =>
    l(`Job ${jobId} has no field "${field}".`, `Auftrag ${jobId} hat kein Feld „${field}“.`),
  fieldTextInvalid: (field: string, max: number) =>
    l(
      `The text of field "${field}" must be a string of at most ${max} characters.`,
      `Der Text des Felds „${field}“ muss eine Zeichenkette mit höchstens ${max} Zeichen sein.`,
    ),
  jobIncomplete: (missing: string) =>
    l(
      `To complete the job, every field needs a translation; missing: ${missing}.`,
      `Um den Auftrag abzuschließen, braucht jedes Feld eine Übersetzung; es fehlen: ${missing}.`,
    ),
  nothingToSend: l(
    'Name the pages, posts (content_ids) or strings (string_ids) to send.',
    'Nennen Sie die Seiten, Beiträge (content_ids) oder Strings (string_ids), die übersetzt werden sollen.',
  ),
  contentNotFound: (id: number) =>
    l(`There is no page or post ${id}.`, `Es gibt keine Seite und keinen Beitrag ${id}.`),
  contentInLanguage: (id: number, lang: string) =>
    l(`Page or post ${id} is already in ${lang}.`, `Seite oder Beitrag ${id} ist bereits in ${lang}.`),
  stringNotFound: (id: number) => l(`There is no string with the ID ${id}.`, `Es gibt keinen String mit der ID ${id}.`),
  stringInLanguage: (id: number, lang: string) =>
    l(`String ${id} is already in ${lang}.`, `String ${id} ist bereits in ${lang}.`),
  stringsMixLanguages: l(
    'The strings of one job must share their source language.',
    'Die Strings eines Auftrags müssen dieselbe Ausgangssprache haben.',
  ),
  openJobExists: (contentId: number, jobId: number, lang: string) =>
    l(
      `Page or post ${contentId} already has an open translation job (${jobId}) into ${lang}.`,
      `Seite oder Beitrag ${contentId} hat bereits einen offenen Übersetzungsauftrag (${jobId}) nach ${lang}.`,
    ),
  // XLIFF export (xliff.ts)
  xliffNotYours: l(
    'You may only fetch the XLIFF of your own jobs.',
    'Sie dürfen nur die XLIFF-Dateien Ihrer eigenen Aufträge herunterladen.',
  ),
  jobWithoutUnits: (id: number) =>
    l(`Job ${id} has no translation units.`, `Der Auftrag ${id} enthält keine übersetzbaren Einheiten.`),
  // XLIFF upload (xliff-import.ts)
  xliffTooLarge: (mib: number) =>
    l(`The XLIFF file is larger than ${mib} MiB.`, `Die XLIFF-Datei ist größer als ${mib} MiB.`),
  xliffEmpty: l('The XLIFF file is empty.', 'Die XLIFF-Datei ist leer.'),
  xliffDtd: (line: number, column: number) =>
    l(
      `The XLIFF file may not contain a DTD or entity declarations (line ${line}, column ${column}).`,
      `Die XLIFF-Datei darf keine DTD und keine Entity-Deklarationen enthalten (Zeile ${line}, Spalte ${column}).`,
    ),
  xliffEntity: (name: string, line: number, column: number) =>
    l(
      `The XLIFF file refers to the entity "&${name};"; only &amp; &lt; &gt; &quot; &apos; and character references are allowed (line ${line}, column ${column}).`,
      `Die XLIFF-Datei verweist auf die Entity „&${name};“; erlaubt sind nur &amp; &lt; &gt; &quot; &apos; und Zeichenreferenzen (Zeile ${line}, Spalte ${column}).`,
    ),
  xliffTooDeep: (max: number, line: number) =>
    l(
      `The XLIFF file nests elements deeper than ${max} levels (line ${line}).`,
      `Die XLIFF-Datei verschachtelt Elemente tiefer als ${max} Ebenen (Zeile ${line}).`,
    ),
  xliffNotWellFormed: (reason: string, line: number, column: number) =>
    l(
      `The XLIFF file is not well-formed XML: ${reason} (line ${line}, column ${column}).`,
      `Die XLIFF-Datei ist kein wohlgeformtes XML: ${reason} (Zeile ${line}, Spalte ${column}).`,
    ),
  xliffNotXliff: l(
    'The file is not an XLIFF 1.2 document (<xliff version="1.2">).',
    'Die Datei ist kein XLIFF-1.2-Dokument (<xliff version="1.2">).',
  ),
  xliffFileCount: (count: number) =>
    l(
      `The XLIFF file must hold one <file>, not ${count}.`,
      `Die XLIFF-Datei muss genau ein <file> enthalten, nicht ${count}.`,
    ),
  xliffOtherJob: (original: string, jobId: number) =>
    l(
      `The XLIFF file belongs to another job (original "${original}"), not to job ${jobId}.`,
      `Die XLIFF-Datei gehört zu einem anderen Auftrag (original „${original}“), nicht zu Auftrag ${jobId}.`,
    ),
  xliffOtherLanguages: (source: string, target: string, jobId: number, jobSource: string, jobTarget: string) =>
    l(
      `The XLIFF file translates ${source} → ${target}; job ${jobId} translates ${jobSource} → ${jobTarget}.`,
      `Die XLIFF-Datei übersetzt ${source} → ${target}; Auftrag ${jobId} übersetzt ${jobSource} → ${jobTarget}.`,
    ),
  xliffWithoutUnits: l(
    'The XLIFF file holds no translation units.',
    'Die XLIFF-Datei enthält keine Übersetzungseinheiten.',
  ),
  xliffUnknownUnit: (id: string, jobId: number) =>
    l(
      `The translation unit "${id}" is not part of job ${jobId}.`,
      `Die Übersetzungseinheit „${id}“ gehört nicht zu Auftrag ${jobId}.`,
    ),
  xliffDuplicateUnit: (id: string) =>
    l(`The translation unit "${id}" appears twice.`, `Die Übersetzungseinheit „${id}“ kommt doppelt vor.`),
  xliffUnitWithoutTarget: (id: string) =>
    l(
      `The translation unit "${id}" needs a <target> holding text only.`,
      `Die Übersetzungseinheit „${id}“ braucht ein <target>, das nur Text enthält.`,
    ),
};
