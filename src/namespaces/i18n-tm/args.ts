// i18n/tm/v1's argument sets (routes.ts declares the routes with them): each argument's
// description in English and German, type and bounds, and the checks beyond the schema (the job
// filters' in job-filters.ts; ids, job types and the editor job here), whose failures are 400
// rest_invalid_param; sanitizers hand the handlers ids as numbers and the editor job parsed.
// Kept apart from the routes so the declarations stay readable; `as const` keeps their literal
// types, from which handlers' params are typed.
import { l } from '../../rest/define.ts';
import type { ArgSchema, Args } from '../../rest/types.ts';
import { ateDataOf, type AteJobData } from './ate.ts';
import { JOB_FILTER_CHECKS } from './job-filters.ts';
import { JOB_TYPES, MAX_ID, parseDate, parsePositiveInt, type JobType } from './model.ts';
import { MAX_SEND_ITEMS, MAX_SEND_STRINGS } from './send-jobs.ts';
import { ACTIVE_LANGUAGES } from '../i18n-st/api.ts';

function check(fn: (v: unknown) => true | string): ArgSchema['validate'] {
  return (value) => fn(value);
}

const str = (en: string, de: string, name: string): ArgSchema => ({
  description: l(en, de),
  type: 'string',
  ...(JOB_FILTER_CHECKS[name] ? { validate: check(JOB_FILTER_CHECKS[name]!) } : {}),
});

/** GET /jobs: the filters of contract §4.8 (checked as the reference's validate callbacks). */
export const JOBS_ARGS: Record<string, ArgSchema> = {
  local_job_ids: str(
    'Comma-separated list of local job ids.',
    'Kommagetrennte Liste lokaler Auftrags-IDs.',
    'local_job_ids',
  ),
  scope: str(
    'Which jobs: all, local (on this site), remote (translation services) or ate (translation editor).',
    'Welche Aufträge: all, local (auf dieser Website), remote (Übersetzungsdienste) oder ate (Übersetzungseditor).',
    'scope',
  ),
  id: {
    description: l('Id of one job.', 'ID eines Auftrags.'),
    type: 'integer',
    validate: check(JOB_FILTER_CHECKS.id!),
  },
  title: str(
    'Part of the job title; several comma-separated.',
    'Teil des Auftragstitels; mehrere durch Kommas getrennt.',
    'title',
  ),
  source_language: str('Source language code.', 'Code der Ausgangssprache.', 'source_language'),
  target_language: str(
    'Target language code; several comma-separated.',
    'Code der Zielsprache; mehrere durch Kommas getrennt.',
    'target_language',
  ),
  status: str(
    'Comma-separated status codes (0, 1, 2, 3 needs update, 4, 9, 10, 20, 30 needs review, 40, 42, 102).',
    'Kommagetrennte Statuscodes (0, 1, 2, 3 Aktualisierung nötig, 4, 9, 10, 20, 30 Überprüfung nötig, 40, 42, 102).',
    'status',
  ),
  needs_update: str(
    'include: only jobs whose source changed; exclude: only up-to-date jobs.',
    'include: nur Aufträge mit geändertem Original; exclude: nur aktuelle Aufträge.',
    'needs_update',
  ),
  limit: {
    description: l(
      'Maximum number of jobs returned (all when not positive).',
      'Höchstzahl zurückgegebener Aufträge (alle, wenn nicht positiv).',
    ),
    type: 'integer',
  },
  offset: {
    description: l('Number of jobs to skip (with limit).', 'Anzahl zu überspringender Aufträge (mit limit).'),
    type: 'integer',
  },
  sorting: {
    description: l(
      'Sort order: object of column (id, title, batch_name, language, sent_date, deadline_date, status) → asc|desc.',
      'Sortierung: Objekt aus Spalte (id, title, batch_name, language, sent_date, deadline_date, status) → asc|desc.',
    ),
    validate: check(JOB_FILTER_CHECKS.sorting!),
  },
  translated_by: str('User id of the translator.', 'Benutzer-ID des Übersetzers.', 'translated_by'),
  sent_from: str(
    'Jobs sent on or after this date (YYYY-MM-DD).',
    'Aufträge, die an oder nach diesem Datum gesendet wurden (JJJJ-MM-TT).',
    'sent_from',
  ),
  sent_to: str(
    'Jobs sent on or before this date (YYYY-MM-DD).',
    'Aufträge, die an oder vor diesem Datum gesendet wurden (JJJJ-MM-TT).',
    'sent_to',
  ),
  deadline_from: str(
    'Jobs due on or after this date (YYYY-MM-DD).',
    'Aufträge mit Frist an oder nach diesem Datum (JJJJ-MM-TT).',
    'deadline_from',
  ),
  deadline_to: str(
    'Jobs due on or before this date (YYYY-MM-DD).',
    'Aufträge mit Frist an oder vor diesem Datum (JJJJ-MM-TT).',
    'deadline_to',
  ),
};

/** The body of POST /ams/engines, as the reference's console sends it; the contract lists none. */
export const ENGINES_ARGS = {
  engines: {
    description: l(
      'The engines: a list of {id, enabled, priority}, or {id: enabled}.',
      'Die Dienste: eine Liste von {id, enabled, priority} oder {id: enabled}.',
    ),
    internal: true,
  },
} as const;

/** The jobs of POST /ate/jobs, in any of the reference's three shapes; the contract lists none. */
// Any one of the three names the jobs (DECISIONS.md); createAteJobs says when none does.
export const ATE_CREATE_ARGS = {
  jobs: {
    description: l(
      'The jobs: a list of {"i18n_job_id": <id>} objects (or ids).',
      'Die Aufträge: eine Liste von {"i18n_job_id": <ID>}-Objekten (oder IDs).',
    ),
    type: ['array', 'object'],
  },
  job_ids: {
    description: l('The job ids, as a list or comma-separated.', 'Die Auftrags-IDs, als Liste oder kommagetrennt.'),
    type: ['array', 'string'],
  },
  i18n_job_id: { description: l('Id of one job.', 'ID eines Auftrags.'), type: ['integer', 'string'] },
} as const;

/** A positive id, given as a number or as digits, already validated. */
const validatedId = (v: unknown): number => parsePositiveInt(v)!;

/** POST /ate/jobs/store: the local job and the editor job to link to it. */
export const ATE_STORE_ARGS = {
  i18n_job_id: {
    description: l('Id of the local translation job.', 'ID des lokalen Übersetzungsauftrags.'),
    type: 'string',
    required: true,
    validate: check((v) =>
      parsePositiveInt(v) !== null ? true : 'i18n_job_id must be a job id (a positive integer).',
    ),
    sanitize: validatedId,
  },
  ate_job_data: {
    description: l(
      'The translation editor job to link, e.g. [{"ate_job_id": 123}].',
      'Der zu verknüpfende Übersetzungseditor-Auftrag, z. B. [{"ate_job_id": 123}].',
    ),
    type: 'array',
    required: true,
    validate: check((v) => {
      const parsed = ateDataOf(v);
      return typeof parsed === 'string' ? parsed : true;
    }),
    sanitize: (v: unknown) => ateDataOf(v) as AteJobData,
  },
} as const satisfies Args;

/** POST /jobs/assign: ids as numbers or digits, the type as a job type ('' = none, post). */
export const ASSIGN_ARGS = {
  jobId: {
    description: l('Id of the job to assign.', 'ID des zuzuweisenden Auftrags.'),
    required: true,
    validate: check((v) => (parsePositiveInt(v) !== null ? true : 'jobId must be a positive integer.')),
    sanitize: validatedId,
  },
  type: {
    description: l(
      'Job type: post (default), string, package or st-batch_strings.',
      'Auftragstyp: post (Standard), string, package oder st-batch_strings.',
    ),
    validate: check((v) =>
      v === '' || (JOB_TYPES as readonly unknown[]).includes(v) ? true : `type must be one of ${JOB_TYPES.join(', ')}.`,
    ),
    sanitize: (v: unknown) => (v === '' ? undefined : (v as JobType)),
  },
  translatorId: {
    description: l(
      'User id of the translator (must hold the translate capability).',
      'Benutzer-ID des Übersetzers (braucht die Berechtigung translate).',
    ),
    required: true,
    validate: check((v) =>
      parsePositiveInt(v) !== null ? true : 'translatorId must be a positive integer (a user id).',
    ),
    sanitize: validatedId,
  },
} as const satisfies Args;

/** POST /jobs/send. */
export const SEND_ARGS = {
  content_ids: {
    description: l('Ids of the pages and posts to translate.', 'IDs der zu übersetzenden Seiten und Beiträge.'),
    type: 'array',
    items: { type: 'integer', minimum: 1, maximum: MAX_ID },
    maxItems: MAX_SEND_ITEMS,
    default: [],
  },
  string_ids: {
    description: l(
      'Ids of strings to translate (one job for all).',
      'IDs zu übersetzender Strings (ein Auftrag für alle).',
    ),
    type: 'array',
    items: { type: 'integer', minimum: 1, maximum: MAX_ID },
    maxItems: MAX_SEND_STRINGS,
    default: [],
  },
  target_language: {
    description: l('Language to translate into.', 'Zielsprache.'),
    type: 'string',
    enum: ACTIVE_LANGUAGES,
    required: true,
  },
  translator_id: {
    description: l(
      'User id of the translator (default: any translator may take the jobs).',
      'Benutzer-ID des Übersetzers (Standard: jeder Übersetzer kann die Aufträge übernehmen).',
    ),
    type: 'integer',
    minimum: 1,
    maximum: MAX_ID,
  },
  deadline: {
    description: l('Deadline (YYYY-MM-DD).', 'Frist (JJJJ-MM-TT).'),
    type: 'string',
    validate: (v: unknown) => (parseDate(v) !== null ? true : 'deadline must be a date YYYY-MM-DD.'),
    sanitize: (v: unknown) => parseDate(v)!,
  },
  batch_name: {
    description: l('Name of the batch the jobs form.', 'Name des Stapels, den die Aufträge bilden.'),
    type: 'string',
    maxLength: 250,
  },
} as const satisfies Args;

/** POST /jobs/<id>/translations. */
export const TRANSLATIONS_ARGS = {
  fields: {
    description: l(
      'The translations: object of field id → text (fields not named keep theirs).',
      'Die Übersetzungen: Objekt aus Feld-ID → Text (nicht genannte Felder behalten ihre).',
    ),
    type: 'object',
    required: true,
  },
  complete: {
    description: l(
      'Complete the job: every field needs a text; the texts are applied to the page, post or strings.',
      'Den Auftrag abschließen: jedes Feld braucht einen Text; die Texte werden in die Seite, den Beitrag oder die Strings übernommen.',
    ),
    type: 'boolean',
    default: false,
  },
} as const satisfies Args;

/** POST /jobs/<id>/xliff: the uploaded file. */
export const XLIFF_UPLOAD_ARGS = {
  xliff: {
    description: l('The translated XLIFF 1.2 file (its text).', 'Die übersetzte XLIFF-1.2-Datei (ihr Text).'),
    type: 'string',
    required: true,
  },
} as const satisfies Args;
