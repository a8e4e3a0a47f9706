// The components every operation of the OpenAPI documents refers to: the security schemes, the
// global parameters (`_fields`, `_envelope`, `_pretty`), the error responses and the shapes of the
// error, the site descriptor and a batch answer.
import type { Lang, Localized } from '../types.ts';
import { l } from '../define.ts';
import type { Json } from './json-schema.ts';

const T = {
  basic: l(
    'An application password with HTTP Basic authentication: `login:password` (spaces in the password are ignored).',
    'Ein Anwendungspasswort mit HTTP-Basic-Authentifizierung: `Anmeldename:Passwort` (Leerzeichen im Passwort werden ignoriert).',
  ),
  cookie: l(
    'The session cookie of a login on this site; it only counts together with a valid `X-WP-Nonce`.',
    'Das Sitzungs-Cookie einer Anmeldung auf dieser Website; es zählt nur zusammen mit einer gültigen `X-WP-Nonce`.',
  ),
  nonce: l(
    'The REST nonce issued to the session (header `X-WP-Nonce` or parameter `_wpnonce`).',
    'Die der Sitzung ausgestellte REST-Nonce (Header `X-WP-Nonce` oder Parameter `_wpnonce`).',
  ),
  error: l('An error in the shape every route shares.', 'Ein Fehler in der Form, die alle Routen teilen.'),
  invalid: l(
    'Missing or invalid parameters (`rest_missing_callback_param`, `rest_invalid_param`).',
    'Fehlende oder ungültige Parameter (`rest_missing_callback_param`, `rest_invalid_param`).',
  ),
  unauthorized: l(
    'Not logged in, or the credentials are wrong.',
    'Nicht angemeldet, oder die Anmeldedaten sind falsch.',
  ),
  forbidden: l(
    'Logged in without the permission this route needs.',
    'Angemeldet, aber ohne die Berechtigung, die diese Route verlangt.',
  ),
  fields: l(
    'Comma-separated list of the fields to return (dot paths reach into objects).',
    'Kommagetrennte Liste der zurückzugebenden Felder (Punktpfade reichen in Objekte).',
  ),
  envelope: l(
    'Answer 200 with `{body, status, headers}` instead of the real status and headers.',
    'Mit 200 und `{body, status, headers}` antworten statt mit dem echten Status und den Headern.',
  ),
  pretty: l('Indent the JSON answer.', 'Die JSON-Antwort einrücken.'),
  params: l(
    '`rest_invalid_param`: each invalid parameter with its message; `rest_missing_callback_param`: the names of the missing ones.',
    '`rest_invalid_param`: jeder ungültige Parameter mit seiner Meldung; `rest_missing_callback_param`: die Namen der fehlenden.',
  ),
};

/** The document's `components`; `sessionCookie` is the name of the web session cookie. */
export function components(lang: Lang, sessionCookie: string): Json {
  const errorContent = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };
  const global = (name: string, description: Localized, schema: Json): Json => ({
    name,
    in: 'query',
    required: false,
    description: description[lang],
    schema,
  });
  return {
    securitySchemes: {
      applicationPassword: { type: 'http', scheme: 'basic', description: T.basic[lang] },
      sessionCookie: { type: 'apiKey', in: 'cookie', name: sessionCookie, description: T.cookie[lang] },
      restNonce: { type: 'apiKey', in: 'header', name: 'X-WP-Nonce', description: T.nonce[lang] },
    },
    parameters: {
      _fields: { ...global('_fields', T.fields, { type: 'string' }) },
      _envelope: { ...global('_envelope', T.envelope, { type: 'boolean' }), allowEmptyValue: true },
      _pretty: { ...global('_pretty', T.pretty, { type: 'boolean' }), allowEmptyValue: true },
    },
    responses: {
      Error: { description: T.error[lang], content: errorContent },
      InvalidParameters: { description: T.invalid[lang], content: errorContent },
      Unauthorized: { description: T.unauthorized[lang], content: errorContent },
      Forbidden: { description: T.forbidden[lang], content: errorContent },
    },
    schemas: {
      Error: {
        type: 'object',
        required: ['code', 'message', 'data'],
        properties: {
          code: { type: 'string', examples: ['rest_invalid_param'] },
          message: { type: 'string' },
          data: {
            type: 'object',
            required: ['status'],
            properties: {
              status: { type: 'integer' },
              params: { description: T.params[lang], type: ['object', 'array'] },
              details: { type: 'object' },
            },
          },
          additional_errors: {
            type: 'array',
            items: {
              type: 'object',
              properties: { code: { type: 'string' }, message: { type: 'string' }, data: {} },
            },
          },
        },
      },
      SiteDescriptor: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          description: { type: 'string' },
          url: { type: 'string', format: 'uri' },
          home: { type: 'string', format: 'uri' },
          gmt_offset: { type: 'number' },
          timezone_string: { type: 'string' },
          page_for_posts: { type: 'integer' },
          page_on_front: { type: 'integer' },
          show_on_front: { type: 'string' },
          namespaces: { type: 'array', items: { type: 'string' } },
          authentication: { type: 'object' },
          routes: {
            type: 'object',
            additionalProperties: {
              type: 'object',
              properties: {
                namespace: { type: 'string' },
                methods: { type: 'array', items: { type: 'string' } },
                endpoints: { type: 'array' },
              },
            },
          },
        },
      },
      BatchResponse: {
        type: 'object',
        required: ['responses'],
        properties: {
          failed: { type: 'string', enum: ['validation'] },
          responses: {
            type: 'array',
            items: {
              type: ['object', 'null'],
              properties: { body: {}, status: { type: 'integer' }, headers: { type: ['object', 'array'] } },
            },
          },
        },
      },
    },
  };
}
