// sched/v1 (contract §4.3; reference plugins.md §2). Permissions (conventions): public — the
// two schema routes, GET settings (restricted fields removed), user/check and
// embed_booking_app; everything else needs manage_options (SSA's capabilities map onto it, see
// caps.ts). Bodies use the envelope {response_code, error, data} with honest HTTP statuses.
import { cap, endpoint, EDITABLE, l, namespace, PUBLIC, route } from '../../rest/define.ts';
import type { NamespaceDef, RestRequest } from '../../rest/types.ts';
import { ADMIN_CAP } from './caps.ts';
import { EMBED_ATTRIBUTES } from './embed.ts';
import { GUIDE_QUERY_KEYS } from './guides.ts';
import { noticesJsonSchema } from './notice-schema.ts';
import { settingsJsonSchema } from './settings.ts';
import * as op from './service.ts';

const ADMIN = cap(ADMIN_CAP);

const caller = (req: RestRequest): op.Caller => ({ app: req.app, user: req.user, lang: req.lang, ip: req.ip });
const param = (req: RestRequest, name: string) => String(req.params[name] ?? req.urlParams[name] ?? '');

const contextArg = {
  context: {
    description: l(
      'Scope under which the request is made; determines fields present in response.',
      'Bereich, in dem die Anfrage gestellt wird; bestimmt die Felder der Antwort.',
    ),
    default: 'view',
  },
};
const globalArg = {
  global: {
    description: l(
      'Whether the notice is dismissed for the whole site (true) or for the current user only (false).',
      'Ob der Hinweis für die ganze Website (true) oder nur für den aktuellen Benutzer (false) ausgeblendet wird.',
    ),
    required: true,
    validate: (v: unknown) => (op.truthy(v) === null ? 'global must be a boolean.' : true),
  },
};

/** A parameter the original reads without declaring it: passed on as sent, never listed (internal). */
const internal = (en: string, de: string) => ({ description: l(en, de), internal: true }) as const;

const previewArgs = {
  template: {
    description: l(
      'The Twig template to render with example appointment data.',
      'Die Twig-Vorlage, die mit Beispiel-Termindaten dargestellt wird.',
    ),
    required: true,
  },
  appointment_id: internal(
    'An appointment to render the template with (none is stored here).',
    'Ein Termin, mit dem die Vorlage dargestellt wird (hier ist keiner gespeichert).',
  ),
  appointment_type_id: internal(
    'The appointment type whose example data the template gets.',
    'Die Terminart, deren Beispieldaten die Vorlage erhält.',
  ),
} as const;
const downloadArgs = {
  download: internal('"true": the whole log as a file.', '„true“: das ganze Protokoll als Datei.'),
} as const;
const exportArgs = {
  settings: internal('Export the settings.', 'Die Einstellungen exportieren.'),
  notices: internal('Export the notices.', 'Die Hinweise exportieren.'),
  appointment_types: internal('Export the appointment types.', 'Die Terminarten exportieren.'),
  appointments: internal('Export the appointments.', 'Die Termine exportieren.'),
  backup: internal(
    'Keep the export as a backup (default true).',
    'Den Export als Sicherung aufbewahren (Standard true).',
  ),
} as const;
const importArgs = { content: internal('The JSON text of an export.', 'Der JSON-Text eines Exports.') } as const;
const guideArgs = Object.fromEntries(
  GUIDE_QUERY_KEYS.map((name) => [
    name,
    internal(`The guides' "${name}" filter.`, `Der Filter „${name}“ der Anleitungen.`),
  ]),
);
const embedArgs = Object.fromEntries(
  [...EMBED_ATTRIBUTES, 'token'].map((name) => [
    name,
    internal(`The booking app's "${name}" attribute.`, `Das Attribut „${name}“ der Buchungs-App.`),
  ]),
);

export const schedNamespace: NamespaceDef = namespace('sched/v1', [
  // --- settings ---
  route('/settings', [
    endpoint('GET', { permission: PUBLIC, handler: (req) => op.getSettingsOp(caller(req)) }),
    endpoint('POST', {
      permission: ADMIN,
      undeclaredParams: true,
      handler: (req) => op.postSettingsOp(caller(req), op.bodyFields(req)),
    }),
  ]),
  route('/settings/schema', [endpoint('GET', { permission: PUBLIC, handler: () => settingsJsonSchema() })]),
  route('/settings/(?P<setting_id>[a-zA-Z0-9_-]+)', [
    endpoint('GET', {
      args: contextArg,
      permission: ADMIN,
      handler: (req) => op.getSettingOp(caller(req), param(req, 'setting_id')),
    }),
    endpoint(EDITABLE, {
      permission: ADMIN,
      undeclaredParams: true,
      handler: (req) => op.updateSettingOp(caller(req), param(req, 'setting_id'), op.bodyFields(req)),
    }),
    endpoint('DELETE', {
      args: {
        force: {
          description: l(
            'Required to be true, as settings do not support trashing: resets the section to its defaults.',
            'Muss true sein, da Einstellungen keinen Papierkorb haben: setzt den Bereich auf die Standardwerte zurück.',
          ),
          default: false,
        },
      },
      permission: ADMIN,
      handler: (req) => op.deleteSettingOp(caller(req), param(req, 'setting_id'), req.params.force),
    }),
  ]),
  // --- notices ---
  route('/notices', [endpoint('GET', { permission: ADMIN, handler: (req) => op.listNoticesOp(caller(req)) })]),
  route('/notices/schema', [endpoint('GET', { permission: PUBLIC, handler: () => noticesJsonSchema() })]),
  route('/notices/(?P<notice_id>[a-zA-Z0-9_-]+)', [
    endpoint('GET', {
      args: contextArg,
      permission: ADMIN,
      handler: (req) => op.getNoticeOp(caller(req), param(req, 'notice_id')),
    }),
    endpoint(EDITABLE, {
      args: globalArg,
      permission: ADMIN,
      handler: (req) => op.dismissNoticeOp(caller(req), param(req, 'notice_id'), req.params.global),
    }),
    endpoint('DELETE', {
      args: globalArg,
      permission: ADMIN,
      handler: (req) => op.restoreNoticeOp(caller(req), param(req, 'notice_id'), req.params.global),
    }),
  ]),
  route('/notices/pinned/(?P<notice_id>[a-zA-Z0-9_-]+)', [
    endpoint(EDITABLE, {
      permission: ADMIN,
      handler: (req) => op.pinNoticeOp(caller(req), param(req, 'notice_id'), true),
    }),
  ]),
  route('/notices/pinned/delete/(?P<notice_id>[a-zA-Z0-9_-]+)', [
    endpoint(EDITABLE, {
      permission: ADMIN,
      handler: (req) => op.pinNoticeOp(caller(req), param(req, 'notice_id'), false),
    }),
  ]),
  route('/notices-errors', [endpoint('GET', { permission: ADMIN, handler: (req) => op.noticesErrorsOp(caller(req)) })]),
  // --- templates and notifications ---
  route('/templates/validate', [
    endpoint('POST', {
      args: {
        message: {
          type: 'string',
          description: l('The Twig template to validate.', 'Die zu prüfende Twig-Vorlage.'),
          required: true,
        },
      },
      permission: ADMIN,
      handler: (req) => op.validateTemplateOp(caller(req), req.params.message),
    }),
  ]),
  route('/notifications/preview', [
    endpoint('POST', {
      args: previewArgs,
      permission: ADMIN,
      handler: (req) => op.previewOp(caller(req), req.params.template, req.params),
    }),
  ]),
  // --- support ---
  route('/support_status', [endpoint('GET', { permission: ADMIN, handler: (req) => op.supportStatusOp(caller(req)) })]),
  route('/support_ticket', [
    endpoint('POST', {
      permission: ADMIN,
      undeclaredParams: true,
      handler: (req) => op.supportTicketOp(caller(req), op.bodyFields(req)),
    }),
  ]),
  route('/support_debug/wp', [
    endpoint('GET', {
      args: downloadArgs,
      permission: ADMIN,
      handler: (req) => op.readDebugOp(caller(req), 'wp', req.params.download),
    }),
  ]),
  route('/support_debug/wp/delete', [
    endpoint('POST', { permission: ADMIN, handler: (req) => op.clearDebugOp(caller(req), 'wp') }),
  ]),
  route('/support_debug/ssa', [
    endpoint('GET', {
      args: downloadArgs,
      permission: ADMIN,
      handler: (req) => op.readDebugOp(caller(req), 'ssa', req.params.download),
    }),
  ]),
  route('/support_debug/ssa/delete', [
    endpoint('POST', { permission: ADMIN, handler: (req) => op.clearDebugOp(caller(req), 'ssa') }),
  ]),
  route('/support_debug/logs', [
    endpoint('GET', {
      permission: ADMIN,
      handler: (req) =>
        op.debugLogsOp(caller(req), (kind) => req.restUrl(`/sched/v1/support_debug/${kind}`, { download: 'true' })),
    }),
  ]),
  route('/support/export', [
    endpoint('GET', { args: exportArgs, permission: ADMIN, handler: (req) => op.exportOp(caller(req), req.params) }),
  ]),
  route('/support/import', [
    endpoint('POST', {
      args: importArgs,
      permission: ADMIN,
      handler: (req) => op.importOp(caller(req), req.params.content),
    }),
  ]),
  route('/fetch-guides', [
    endpoint('GET', {
      args: guideArgs,
      permission: ADMIN,
      handler: (req) => op.fetchGuidesOp(caller(req), req.params),
    }),
  ]),
  // --- public helpers ---
  route('/user/check', [endpoint('GET', { permission: PUBLIC, handler: (req) => op.userCheckOp(caller(req)) })]),
  route('/embed_booking_app', [
    endpoint('GET', { args: embedArgs, permission: PUBLIC, handler: (req) => op.embedOp(caller(req), req.params) }),
  ]),
]);
