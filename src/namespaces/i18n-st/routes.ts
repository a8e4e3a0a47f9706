// i18n/st/v1: the string registry, string packages, string settings and the capture queue
// (contract §4.7, reference plugins §4), and translating strings beyond the contract's list
// (DECISIONS.md). Handlers stay thin; the logic is in query.ts, settings.ts, queue.ts,
// registry.ts, translatable.ts and translate.ts; the argument sets are in args.ts.
import { cap, custom, endpoint, namespace, route } from '../../rest/define.ts';
import type { NamespaceDef } from '../../rest/types.ts';
import {
  BULK_ARGS,
  CURRENT_FILTER_ARGS,
  PACKAGE_ARGS,
  SETTINGS_POST_ARGS,
  STRING_FILTER_ARGS,
  TRANSLATABLE_ARGS,
  TRANSLATION_ARGS,
} from './args.ts';
import { parsePackageFilters, parseStringFilters } from './filters.ts';
import { countStrings, listPackages, listStrings, stringFilterValues } from './query.ts';
import { processStringsQueue } from './queue.ts';
import { describeStringSettings, updateStringSettings } from './settings.ts';
import { bulkTranslations, saveTranslation } from './translate.ts';
import { listTranslatable } from './translatable.ts';

const MANAGE = cap('manage_translations');
/** Managers, and translators for the strings assigned to them (checked per string in translate.ts). */
const MANAGER_OR_TRANSLATOR = custom(
  'manage_translations, or translate for the strings assigned to them',
  (req) => !!req.user && (req.user.can('manage_translations') || req.user.can('translate')),
  'manage_translations',
);

export const i18nStNamespace: NamespaceDef = namespace('i18n/st/v1', [
  route('/strings/settings', [
    endpoint('POST', {
      args: SETTINGS_POST_ARGS,
      permission: MANAGE,
      handler: async (req) => {
        await updateStringSettings(req, {
          autoregisterType: req.params.autoregisterType,
          shouldRegisterBackendStrings: req.params.shouldRegisterBackendStrings,
          setNoticeThatCachePluginCanBlockAutoregisterAsDismissed:
            req.params.setNoticeThatCachePluginCanBlockAutoregisterAsDismissed,
          setDetectStringsInJS: req.params.setDetectStringsInJS,
          visibleColumns: req.params.visibleColumns,
        });
        return [];
      },
    }),
    endpoint('GET', {
      permission: MANAGE,
      handler: (req) => describeStringSettings(req.app, req.lang),
    }),
  ]),
  route('/strings/translations', [
    endpoint('GET', {
      args: TRANSLATABLE_ARGS,
      permission: MANAGER_OR_TRANSLATOR,
      handler: (req) => listTranslatable(req, parseStringFilters(req.params, req.lang)),
    }),
  ]),
  route('/strings/translations/bulk', [
    endpoint('POST', {
      args: BULK_ARGS,
      permission: MANAGER_OR_TRANSLATOR,
      handler: (req) => bulkTranslations(req, req.params),
    }),
  ]),
  route('/strings/(?P<id>[\\d]+)/translations', [
    endpoint('POST', {
      args: TRANSLATION_ARGS,
      permission: MANAGER_OR_TRANSLATOR,
      handler: (req) =>
        saveTranslation(req, {
          stringId: Number(req.urlParams.id),
          language: req.params.language,
          value: req.params.value,
          status: req.params.status,
        }),
    }),
  ]),
  route('/strings/itemscount', [
    endpoint('GET', {
      args: STRING_FILTER_ARGS,
      permission: MANAGE,
      handler: (req) => countStrings(req.app, parseStringFilters(req.params, req.lang)),
    }),
  ]),
  route('/strings', [
    endpoint('GET', {
      args: STRING_FILTER_ARGS,
      permission: MANAGE,
      handler: (req) => listStrings(req.app, parseStringFilters(req.params, req.lang), req.lang),
    }),
  ]),
  route('/strings/filters', [
    endpoint('GET', {
      args: CURRENT_FILTER_ARGS,
      permission: MANAGE,
      handler: (req) => stringFilterValues(req.app, parseStringFilters(req.params, req.lang)),
    }),
  ]),
  route('/string-packages', [
    endpoint('GET', {
      args: PACKAGE_ARGS,
      permission: MANAGE,
      handler: (req) => listPackages(req.app, parsePackageFilters(req.params, req.lang)),
    }),
  ]),
  route('/strings/processstringsqueue', [
    endpoint('POST', {
      permission: MANAGE,
      handler: (req) => processStringsQueue(req),
    }),
  ]),
]);
