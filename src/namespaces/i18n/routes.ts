// i18n/v1: the custom XML translation configuration (contract §4.5, reference plugins §3).
import { cap, endpoint, l, namespace, restError, route } from '../../rest/define.ts';
import type { NamespaceDef, ParamsOf, RestRequest } from '../../rest/types.ts';
import { MSG } from './messages.ts';
import { checkContentParam, validateCustomXml } from './xml-check.ts';
import { getCustomXml, saveCustomXml } from './xml-config.ts';

const MANAGE = cap('manage_options');

/** `content` is the body field the reference reads; the contract lists no body fields. */
const CONTENT_ARGS = {
  content: { description: l('The XML configuration.', 'Die XML-Konfiguration.'), internal: true },
} as const;

function contentOf(req: RestRequest<ParamsOf<typeof CONTENT_ARGS>>): string {
  if (!req.has('content')) {
    throw restError(req, 'i18n_xml_missing_content', MSG.xmlMissingContent, 400);
  }
  return checkContentParam(req.params.content, req.lang);
}

export const i18nNamespace: NamespaceDef = namespace('i18n/v1', [
  route('/custom-xml-config', [
    endpoint('GET', {
      permission: MANAGE,
      handler: (req) => getCustomXml(req.app),
    }),
    endpoint('POST', {
      args: CONTENT_ARGS,
      permission: MANAGE,
      handler: async (req) => (await saveCustomXml(req, contentOf(req))).content,
    }),
  ]),
  route('/custom-xml-config/validate', [
    endpoint('POST', {
      args: CONTENT_ARGS,
      permission: MANAGE,
      handler: (req) => validateCustomXml(contentOf(req), req.lang),
    }),
  ]),
]);
