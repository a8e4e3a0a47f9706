// i18n/tm/v1: translation jobs, the local translation-editor (ATE) records, XLIFF export,
// and the translation account service (AMS) features answered locally (contract §4.8,
// reference plugins §5), and doing jobs beyond the contract's list (DECISIONS.md). Handlers are
// thin; the logic lives in jobs.ts, work.ts, ate.ts, xliff.ts, xliff-import.ts, ams.ts.
import { cap, custom, endpoint, l, namespace, route } from '../../rest/define.ts';
import {
  RestResponse,
  type ArgSchema,
  type Lang,
  type NamespaceDef,
  type RestError,
  type RestRequest,
} from '../../rest/types.ts';
import {
  amsConsole,
  amsStatus,
  getEngines,
  registerManager,
  synchronizeManagers,
  synchronizeTranslators,
  updateEngines,
} from './ams.ts';
import { STORE_CHECKS, createAteJobs, editorJobNotFound, getAteJob, storeAteJob } from './ate.ts';
import { ASSIGN_CHECKS, assignJob } from './assign.ts';
import { JOB_FILTER_CHECKS } from './job-filters.ts';
import { jobNotFound, listJobs } from './jobs.ts';
import { i18nTmLogger } from './logger.ts';
import { MAX_ID, parseDate, parsePositiveInt } from './model.ts';
import { fetchXliff, jobXliff } from './xliff.ts';
import {
  MAX_SEND_ITEMS,
  MAX_SEND_STRINGS,
  getJobDetail,
  saveJobTranslations,
  sendToTranslation,
  uploadJobXliff,
} from './work.ts';
import { ACTIVE_LANGUAGES } from '../i18n-st/api.ts';
import { recordWrite } from '../../site/activity.ts';

const MANAGE = cap('manage_translations');

/** Managers, and translators for what concerns their own jobs (checked again in the logic). */
const MANAGER_OR_TRANSLATOR = custom(
  l('manage_translations, or translate for own jobs.', 'manage_translations, oder translate für eigene Aufträge.'),
  (req) => !!req.user && (req.user.can('manage_translations') || req.user.can('translate')),
  'manage_translations',
);

function check(fn: (v: unknown) => true | string): ArgSchema['validate'] {
  return (value) => fn(value);
}

const str = (en: string, de: string, name: string): ArgSchema => ({
  description: l(en, de),
  type: 'string',
  ...(JOB_FILTER_CHECKS[name] ? { validate: check(JOB_FILTER_CHECKS[name]!) } : {}),
});

const JOBS_ARGS: Record<string, ArgSchema> = {
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

/** A path's id; digits no row can have (0, past int4) are the unknown id's 404, naming it as given. */
function pathId(req: RestRequest, name: string, unknown: (id: string, lang: Lang) => RestError): number {
  const given = req.urlParams[name]!;
  const id = parsePositiveInt(given);
  if (id === null) throw unknown(given, req.lang);
  return id;
}

/** The body of POST /ams/engines, as the reference's console sends it; the contract lists none. */
const ENGINES_ARGS = {
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
const ATE_CREATE_ARGS = {
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

export const i18nTmNamespace: NamespaceDef = namespace('i18n/tm/v1', [
  route('/ate/jobs/store', [
    endpoint('POST', {
      args: {
        i18n_job_id: {
          description: l('Id of the local translation job.', 'ID des lokalen Übersetzungsauftrags.'),
          type: 'string',
          required: true,
          validate: check(STORE_CHECKS.i18n_job_id),
        },
        ate_job_data: {
          description: l(
            'The translation editor job to link, e.g. [{"ate_job_id": 123}].',
            'Der zu verknüpfende Übersetzungseditor-Auftrag, z. B. [{"ate_job_id": 123}].',
          ),
          type: 'array',
          required: true,
          validate: check(STORE_CHECKS.ate_job_data),
        },
      },
      permission: MANAGE,
      handler: async (req) => {
        const stored = await storeAteJob(
          req.app,
          { i18n_job_id: req.params.i18n_job_id, ate_job_data: req.params.ate_job_data },
          req.lang,
        );
        await recordWrite(
          req.app,
          {
            logger: i18nTmLogger.slug,
            messageKey: 'ate_job_stored',
            context: { job_id: stored.jobId, ate_job_id: stored.ateJobId, created: stored.created },
          },
          req,
        );
        return true;
      },
    }),
  ]),
  route('/xliff/fetch/(?P<job_id>\\d+)', [
    endpoint('GET', {
      permission: MANAGER_OR_TRANSLATOR,
      handler: (req) => fetchXliff(req.app, pathId(req, 'job_id', jobNotFound), req.user, req.lang),
    }),
  ]),
  route('/ams/register_manager', [
    endpoint('POST', {
      permission: MANAGE,
      handler: async (req) => {
        const result = await registerManager(req.app, req.user!, req.lang);
        await recordWrite(
          req.app,
          {
            logger: i18nTmLogger.slug,
            messageKey: 'manager_registered',
            context: {
              manager_id: result.manager.id,
              manager_name: result.manager.name,
              translators: result.translators,
              managers: result.managers,
            },
          },
          req,
        );
        return { enabled: true };
      },
    }),
  ]),
  route('/ams/synchronize/translators', [
    endpoint('GET', {
      permission: MANAGE,
      handler: async (req) => {
        const result = await synchronizeTranslators(req.app);
        await recordWrite(
          req.app,
          {
            logger: i18nTmLogger.slug,
            messageKey: 'translators_synchronized',
            context: {
              count: result.result.translators.length,
              translator_ids: result.result.translators.map((t) => t.id).join(','),
            },
          },
          req,
        );
        return result;
      },
    }),
  ]),
  route('/ams/synchronize/managers', [
    endpoint('GET', {
      permission: MANAGE,
      handler: async (req) => {
        const result = await synchronizeManagers(req.app);
        await recordWrite(
          req.app,
          {
            logger: i18nTmLogger.slug,
            messageKey: 'managers_synchronized',
            context: {
              count: result.result.managers.length,
              manager_ids: result.result.managers.map((t) => t.id).join(','),
            },
          },
          req,
        );
        return result;
      },
    }),
  ]),
  route('/ams/status', [endpoint('GET', { permission: MANAGE, handler: (req) => amsStatus(req.app) })]),
  route('/ams/console', [endpoint('GET', { permission: MANAGE, handler: (req) => amsConsole(req.app, req.user!) })]),
  route('/ams/engines', [
    endpoint('GET', { permission: MANAGE, handler: (req) => getEngines(req.app) }),
    endpoint('POST', {
      args: ENGINES_ARGS,
      permission: MANAGE,
      handler: async (req) => {
        const result = await updateEngines(req.app, req.params, req.lang);
        await recordWrite(
          req.app,
          {
            logger: i18nTmLogger.slug,
            messageKey: 'engines_updated',
            context: {
              enabled_engines:
                result.engines
                  .filter((e) => e.enabled)
                  .map((e) => e.id)
                  .join(', ') || '-',
              changed_engines: result.changed.join(','),
            },
          },
          req,
        );
        return { engines: result.engines };
      },
    }),
  ]),
  route('/ate/jobs', [
    endpoint('POST', {
      args: ATE_CREATE_ARGS,
      permission: MANAGE,
      handler: async (req) => {
        const result = await createAteJobs(req.app, req.params, req.lang);
        const ids = Object.keys(result.jobs);
        await recordWrite(
          req.app,
          {
            logger: i18nTmLogger.slug,
            messageKey: 'ate_jobs_created',
            context: { count: ids.length, job_ids: ids.join(', '), ate_job_ids: Object.values(result.jobs).join(',') },
          },
          req,
        );
        return result;
      },
    }),
  ]),
  route('/ate/jobs/(?P<ate_job_id>\\d+)', [
    endpoint('GET', {
      permission: MANAGE,
      handler: (req) => getAteJob(req.app, pathId(req, 'ate_job_id', editorJobNotFound), req.lang),
    }),
  ]),
  route('/jobs', [
    endpoint('GET', {
      args: JOBS_ARGS,
      permission: MANAGER_OR_TRANSLATOR,
      handler: (req) => listJobs(req.app, req.params, req.user, req.lang),
    }),
  ]),
  route('/jobs/assign', [
    endpoint('POST', {
      args: {
        jobId: {
          description: l('Id of the job to assign.', 'ID des zuzuweisenden Auftrags.'),
          required: true,
          validate: check(ASSIGN_CHECKS.jobId),
          sanitize: (v: unknown) => parsePositiveInt(v),
        },
        type: {
          description: l(
            'Job type: post (default), string, package or st-batch_strings.',
            'Auftragstyp: post (Standard), string, package oder st-batch_strings.',
          ),
          validate: check(ASSIGN_CHECKS.type),
        },
        translatorId: {
          description: l(
            'User id of the translator (must hold the translate capability).',
            'Benutzer-ID des Übersetzers (braucht die Berechtigung translate).',
          ),
          required: true,
          validate: check(ASSIGN_CHECKS.translatorId),
          sanitize: (v: unknown) => parsePositiveInt(v),
        },
      },
      permission: MANAGER_OR_TRANSLATOR,
      handler: async (req) => {
        const result = await assignJob(
          req.app,
          { jobId: req.params.jobId, type: req.params.type, translatorId: req.params.translatorId },
          req.user,
          req.lang,
        );
        const translator = await req.app.db
          .selectFrom('users')
          .select(['display_name', 'login'])
          .where('id', '=', result.assigned)
          .executeTakeFirst();
        await recordWrite(
          req.app,
          {
            logger: i18nTmLogger.slug,
            messageKey: 'job_assigned',
            context: {
              job_id: result.job.id,
              job_type: result.job.type,
              job_title: result.job.title,
              source_language: result.job.source_language,
              target_language: result.job.target_language,
              translator_id: result.assigned,
              translator_name: translator?.display_name ?? '',
              translator_login: translator?.login ?? '',
              previous_translator_id: result.previousTranslatorId ?? '',
              previous_status: result.previousStatus,
              new_status: result.job.status,
            },
          },
          req,
        );
        return { assigned: result.assigned };
      },
    }),
  ]),
  route('/jobs/send', [
    endpoint('POST', {
      args: {
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
      },
      permission: MANAGE,
      handler: (req) =>
        sendToTranslation(req, {
          contentIds: req.params.content_ids,
          stringIds: req.params.string_ids,
          targetLanguage: req.params.target_language,
          translatorId: req.params.translator_id,
          deadline: req.params.deadline,
          batchName: req.params.batch_name,
        }),
    }),
  ]),
  route('/jobs/(?P<job_id>\\d+)', [
    endpoint('GET', {
      permission: MANAGER_OR_TRANSLATOR,
      handler: (req) => getJobDetail(req, pathId(req, 'job_id', jobNotFound)),
    }),
  ]),
  route('/jobs/(?P<job_id>\\d+)/translations', [
    endpoint('POST', {
      args: {
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
      },
      permission: MANAGER_OR_TRANSLATOR,
      handler: (req) =>
        saveJobTranslations(req, pathId(req, 'job_id', jobNotFound), {
          fields: req.params.fields,
          complete: req.params.complete,
        }),
    }),
  ]),
  route('/jobs/(?P<job_id>\\d+)/xliff', [
    endpoint('GET', {
      permission: MANAGER_OR_TRANSLATOR,
      handler: async (req) => {
        const { job, xml } = await jobXliff(req.app, pathId(req, 'job_id', jobNotFound), req.user, req.lang);
        return RestResponse.raw(xml, 'application/x-xliff+xml; charset=utf-8', 200, {
          'Content-Disposition': `attachment; filename="${xliffFileName(job)}"`,
          'Cache-Control': 'no-store',
        });
      },
    }),
    endpoint('POST', {
      args: {
        xliff: {
          description: l('The translated XLIFF 1.2 file (its text).', 'Die übersetzte XLIFF-1.2-Datei (ihr Text).'),
          type: 'string',
          required: true,
        },
      },
      permission: MANAGER_OR_TRANSLATOR,
      handler: (req) => uploadJobXliff(req, pathId(req, 'job_id', jobNotFound), req.params.xliff),
    }),
  ]),
]);

/** The download's file name: job id, languages, and the title's letters. */
function xliffFileName(job: { id: number; title: string; source_language: string; target_language: string }): string {
  const title = job.title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40);
  return `job-${job.id}-${job.source_language}-${job.target_language}${title ? `-${title}` : ''}.xliff`;
}
