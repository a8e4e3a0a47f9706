import { cap, endpoint, l, namespace, PUBLIC, route } from '../../rest/define.ts';
import type { NamespaceDef, RestRequest } from '../../rest/types.ts';
import { RestError, RestResponse } from '../../rest/types.ts';
import { absint, getLocalOembed, oembedXml } from './embed.ts';
import { proxyOembed } from './proxy.ts';

const XML_TYPE = 'text/xml; charset=UTF-8';

/** GET /oembed/1.0/embed: JSON, or XML with format=xml. */
export async function handleEmbed(req: RestRequest): Promise<unknown> {
  const data = await getLocalOembed(
    req.app,
    String(req.params.url ?? ''),
    absint(req.params.maxwidth ?? 600),
    req.lang,
  );
  return req.params.format === 'xml' ? RestResponse.raw(oembedXml(data), XML_TYPE) : data;
}

/**
 * With format=xml every error of /embed is XML too, with its status (reference §9.1). The
 * pipeline fills `params` with every arg that passed before an error is rendered; `format` always does.
 */
function embedErrorAsXml(err: RestError, req: RestRequest): RestResponse | null {
  return req.params.format === 'xml' ? RestResponse.raw(oembedXml(err.toBody()), XML_TYPE, err.status) : null;
}

export async function handleProxy(req: RestRequest): Promise<unknown> {
  const p = req.params;
  return proxyOembed(
    req.app,
    {
      url: String(p.url ?? ''),
      format: typeof p.format === 'string' ? p.format : 'json',
      maxwidth: typeof p.maxwidth === 'number' ? p.maxwidth : 600,
      ...(typeof p.maxheight === 'number' ? { maxheight: p.maxheight } : {}),
      discover: p.discover !== false,
    },
    req.lang,
  );
}

export const oembedNamespace: NamespaceDef = namespace('oembed/1.0', [
  route('/embed', [
    endpoint('GET', {
      args: {
        url: {
          description: l(
            'The URL of the resource for which to fetch oEmbed data.',
            'Die URL der Ressource, für die oEmbed-Daten abgerufen werden.',
          ),
          required: true,
          type: 'string',
          format: 'uri',
        },
        format: {
          description: l(
            'The oEmbed format to use (json or xml).',
            'Das zu verwendende oEmbed-Format (json oder xml).',
          ),
          default: 'json',
          sanitize: (v: unknown) => (v === 'xml' ? 'xml' : 'json'),
        },
        maxwidth: {
          description: l(
            'The maximum width of the embed frame in pixels.',
            'Die maximale Breite des Einbettungsrahmens in Pixeln.',
          ),
          default: 600,
          sanitize: (v: unknown) => absint(v),
        },
      },
      permission: PUBLIC,
      handler: handleEmbed,
      renderError: embedErrorAsXml,
    }),
  ]),
  route('/proxy', [
    endpoint('GET', {
      args: {
        url: {
          description: l(
            'The URL of the resource for which to fetch oEmbed data.',
            'Die URL der Ressource, für die oEmbed-Daten abgerufen werden.',
          ),
          required: true,
          type: 'string',
          format: 'uri',
        },
        format: {
          description: l('The oEmbed format to use.', 'Das zu verwendende oEmbed-Format.'),
          type: 'string',
          default: 'json',
          enum: ['json', 'xml'],
        },
        maxwidth: {
          description: l(
            'The maximum width of the embed frame in pixels.',
            'Die maximale Breite des Einbettungsrahmens in Pixeln.',
          ),
          type: 'integer',
          default: 600,
          sanitize: (v: unknown) => absint(v),
        },
        maxheight: {
          description: l(
            'The maximum height of the embed frame in pixels.',
            'Die maximale Höhe des Einbettungsrahmens in Pixeln.',
          ),
          type: 'integer',
          sanitize: (v: unknown) => absint(v),
        },
        discover: {
          description: l(
            'Whether to perform an oEmbed discovery request for unsanctioned providers.',
            'Ob für nicht freigegebene Anbieter eine oEmbed-Discovery-Anfrage ausgeführt wird.',
          ),
          type: 'boolean',
          default: true,
        },
      },
      permission: cap('edit_posts'),
      forbiddenMessage: l(
        'Sorry, you are not allowed to make proxied oEmbed requests.',
        'Du bist leider nicht berechtigt, oEmbed-Anfragen über den Proxy zu stellen.',
      ),
      handler: handleProxy,
    }),
  ]),
]);
