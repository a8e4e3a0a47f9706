// i18n/v1: the custom XML translation configuration (contract §4.5, reference plugins §3).
import { cap, endpoint, l, namespace, restError, route } from '../../rest/define.ts';
import type { NamespaceDef, ParamsOf, RestRequest } from '../../rest/types.ts';
import { I18N_LOGGER_SLUG } from './logger.ts';
import { checkContentParam, validateCustomXml } from './xml-check.ts';
import { getCustomXml, saveCustomXml } from './xml-config.ts';
import { recordWrite } from '../../site/activity.ts';

const MANAGE = cap('manage_options');

/** `content` is the body field the reference reads; the contract lists no body fields. */
const CONTENT_ARGS = {
  content: { description: l('The XML configuration.', 'Die XML-Konfiguration.'), internal: true },
} as const;

function contentOf(req: RestRequest<ParamsOf<typeof CONTENT_ARGS>>): string {
  if (!req.has('content')) {
    throw restError(
      req,
      'i18n_xml_missing_content',
      l('Send the XML configuration in the "content" field.', 'Senden Sie die XML-Konfiguration im Feld „content“.'),
      400,
    );
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
      handler: async (req) => {
        const { content, config } = await saveCustomXml(req.app, contentOf(req), req.lang);
        const cleared = !/\w/.test(content);
        await recordWrite(
          req.app,
          {
            logger: I18N_LOGGER_SLUG,
            messageKey: cleared ? 'custom_xml_config_cleared' : 'custom_xml_config_updated',
            context: {
              bytes: Buffer.byteLength(content, 'utf8'),
              custom_types: config.customTypes.length,
              taxonomies: config.taxonomies.length,
              custom_fields: config.customFields.length,
              admin_texts: config.adminTexts.length,
              registered_strings: config.registeredStrings.length,
            },
          },
          req,
        );
        return content;
      },
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
