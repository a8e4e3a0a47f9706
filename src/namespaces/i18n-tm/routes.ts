// i18n/tm/v1: translation jobs, the local translation-editor (ATE) records, XLIFF export,
// and the translation account service (AMS) features answered locally (contract §4.8,
// reference plugins §5), and doing jobs beyond the contract's list (DECISIONS.md). Handlers are
// thin; the logic lives in jobs.ts, assign.ts, work.ts, send-jobs.ts, ate.ts, xliff.ts,
// xliff-import.ts, ams.ts; the argument sets are in args.ts.
import { cap, custom, endpoint, l, namespace, route } from '../../rest/define.ts';
import { RestResponse, type Lang, type NamespaceDef, type RestError, type RestRequest } from '../../rest/types.ts';
import {
  amsConsole,
  amsStatus,
  getEngines,
  registerManager,
  synchronizeManagers,
  synchronizeTranslators,
  updateEngines,
} from './ams.ts';
import {
  ASSIGN_ARGS,
  ATE_CREATE_ARGS,
  ATE_STORE_ARGS,
  ENGINES_ARGS,
  JOBS_ARGS,
  SEND_ARGS,
  TRANSLATIONS_ARGS,
  XLIFF_UPLOAD_ARGS,
} from './args.ts';
import { createAteJobs, editorJobNotFound, getAteJob, storeAteJob } from './ate.ts';
import { assignJob } from './assign.ts';
import { jobNotFound, listJobs } from './jobs.ts';
import { parsePositiveInt } from './model.ts';
import { fetchXliff, jobXliff } from './xliff.ts';
import { getJobDetail, saveJobTranslations, uploadJobXliff } from './work.ts';
import { sendToTranslation } from './send-jobs.ts';

const MANAGE = cap('manage_translations');

/** Managers, and translators for what concerns their own jobs (checked again in the logic). */
const MANAGER_OR_TRANSLATOR = custom(
  l('manage_translations, or translate for own jobs.', 'manage_translations, oder translate für eigene Aufträge.'),
  (req) => !!req.user && (req.user.can('manage_translations') || req.user.can('translate')),
  'manage_translations',
);

/** A path's id; digits no row can have (0, past int4) are the unknown id's 404, naming it as given. */
function pathId(req: RestRequest, name: string, unknown: (id: string, lang: Lang) => RestError): number {
  const given = req.urlParams[name]!;
  const id = parsePositiveInt(given);
  if (id === null) throw unknown(given, req.lang);
  return id;
}

export const i18nTmNamespace: NamespaceDef = namespace('i18n/tm/v1', [
  route('/ate/jobs/store', [
    endpoint('POST', {
      args: ATE_STORE_ARGS,
      permission: MANAGE,
      handler: async (req) => {
        await storeAteJob(req, { jobId: req.params.i18n_job_id, ateJob: req.params.ate_job_data });
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
        await registerManager(req);
        return { enabled: true };
      },
    }),
  ]),
  route('/ams/synchronize/translators', [
    endpoint('GET', {
      permission: MANAGE,
      handler: (req) => synchronizeTranslators(req),
    }),
  ]),
  route('/ams/synchronize/managers', [
    endpoint('GET', {
      permission: MANAGE,
      handler: (req) => synchronizeManagers(req),
    }),
  ]),
  route('/ams/status', [endpoint('GET', { permission: MANAGE, handler: (req) => amsStatus(req.app) })]),
  route('/ams/console', [endpoint('GET', { permission: MANAGE, handler: (req) => amsConsole(req.app, req.user!) })]),
  route('/ams/engines', [
    endpoint('GET', { permission: MANAGE, handler: (req) => getEngines(req.app) }),
    endpoint('POST', {
      args: ENGINES_ARGS,
      permission: MANAGE,
      handler: async (req) => ({ engines: (await updateEngines(req, req.params.engines)).engines }),
    }),
  ]),
  route('/ate/jobs', [
    endpoint('POST', {
      args: ATE_CREATE_ARGS,
      permission: MANAGE,
      handler: (req) => createAteJobs(req, req.params),
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
      args: ASSIGN_ARGS,
      permission: MANAGER_OR_TRANSLATOR,
      handler: async (req) => ({
        assigned: (
          await assignJob(req, {
            jobId: req.params.jobId,
            type: req.params.type,
            translatorId: req.params.translatorId,
          })
        ).assigned,
      }),
    }),
  ]),
  route('/jobs/send', [
    endpoint('POST', {
      args: SEND_ARGS,
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
      args: TRANSLATIONS_ARGS,
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
      args: XLIFF_UPLOAD_ARGS,
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
