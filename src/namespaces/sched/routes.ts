// sched/v1 (contract §4.3; reference plugins.md §2). Permissions (conventions): public — the
// two schema routes, GET settings (restricted fields removed), user/check and
// embed_booking_app; everything else needs manage_options (SSA's capabilities map onto it, see
// caps.ts). Bodies use the envelope {response_code, error, data} with honest HTTP statuses.
import { cap, endpoint, EDITABLE, l, namespace, PUBLIC, route } from '../../rest/define.ts';
import type { NamespaceDef, RestRequest } from '../../rest/types.ts';
import { ADMIN_CAP } from './caps.ts';
import { noticesJsonSchema } from './notices.ts';
import { settingsJsonSchema } from './settings.ts';
import * as op from './service.ts';

const ADMIN = cap(ADMIN_CAP);

const caller = (req: RestRequest): op.Caller => ({ app: req.app, user: req.user, lang: req.lang, ip: req.ip });
const param = (req: RestRequest, name: string) => String(req.params[name] ?? req.urlParams[name] ?? '');

const contextArg = { context: { description: l('Scope under which the request is made; determines fields present in response.', 'Bereich, in dem die Anfrage gestellt wird; bestimmt die Felder der Antwort.'), default: 'view' } };
const globalArg = {
  global: {
    description: l('Whether the notice is dismissed for the whole site (true) or for the current user only (false).', 'Ob der Hinweis für die ganze Website (true) oder nur für den aktuellen Benutzer (false) ausgeblendet wird.'),
    required: true,
    validate: (v: unknown) => (op.truthy(v) === null ? 'global must be a boolean.' : true),
  },
};

export const schedNamespace: NamespaceDef = namespace('sched/v1', [
  // --- settings ---
  route('/settings', [
    endpoint('GET', { permission: PUBLIC, handler: (req) => op.getSettingsOp(caller(req)) }),
    endpoint('POST', { permission: ADMIN, handler: (req) => op.postSettingsOp(caller(req), op.bodyFields(req)) }),
  ]),
  route('/settings/schema', [endpoint('GET', { permission: PUBLIC, handler: () => settingsJsonSchema() })]),
  route('/settings/(?P<setting_id>[a-zA-Z0-9_-]+)', [
    endpoint('GET', { args: contextArg, permission: ADMIN, handler: (req) => op.getSettingOp(caller(req), param(req, 'setting_id')) }),
    endpoint(EDITABLE, { permission: ADMIN, handler: (req) => op.updateSettingOp(caller(req), param(req, 'setting_id'), op.bodyFields(req)) }),
    endpoint('DELETE', {
      args: { force: { description: l('Required to be true, as settings do not support trashing: resets the section to its defaults.', 'Muss true sein, da Einstellungen keinen Papierkorb haben: setzt den Bereich auf die Standardwerte zurück.'), default: false } },
      permission: ADMIN,
      handler: (req) => op.deleteSettingOp(caller(req), param(req, 'setting_id'), req.params.force),
    }),
  ]),
  // --- notices ---
  route('/notices', [endpoint('GET', { permission: ADMIN, handler: (req) => op.listNoticesOp(caller(req)) })]),
  route('/notices/schema', [endpoint('GET', { permission: PUBLIC, handler: () => noticesJsonSchema() })]),
  route('/notices/(?P<notice_id>[a-zA-Z0-9_-]+)', [
    endpoint('GET', { args: contextArg, permission: ADMIN, handler: (req) => op.getNoticeOp(caller(req), param(req, 'notice_id')) }),
    endpoint(EDITABLE, { args: globalArg, permission: ADMIN, handler: (req) => op.dismissNoticeOp(caller(req), param(req, 'notice_id'), req.params.global) }),
    endpoint('DELETE', { args: globalArg, permission: ADMIN, handler: (req) => op.restoreNoticeOp(caller(req), param(req, 'notice_id'), req.params.global) }),
  ]),
  route('/notices/pinned/(?P<notice_id>[a-zA-Z0-9_-]+)', [endpoint(EDITABLE, { permission: ADMIN, handler: (req) => op.pinNoticeOp(caller(req), param(req, 'notice_id'), true) })]),
  route('/notices/pinned/delete/(?P<notice_id>[a-zA-Z0-9_-]+)', [endpoint(EDITABLE, { permission: ADMIN, handler: (req) => op.pinNoticeOp(caller(req), param(req, 'notice_id'), false) })]),
  route('/notices-errors', [endpoint('GET', { permission: ADMIN, handler: (req) => op.noticesErrorsOp(caller(req)) })]),
  // --- templates and notifications ---
  route('/templates/validate', [
    endpoint('POST', {
      args: { message: { type: 'string', description: l('The Twig template to validate.', 'Die zu prüfende Twig-Vorlage.'), required: true } },
      permission: ADMIN,
      handler: (req) => op.validateTemplateOp(caller(req), req.params.message),
    }),
  ]),
  route('/notifications/preview', [
    endpoint('POST', {
      args: { template: { description: l('The Twig template to render with example appointment data.', 'Die Twig-Vorlage, die mit Beispiel-Termindaten dargestellt wird.'), required: true } },
      permission: ADMIN,
      handler: (req) => op.previewOp(caller(req), req.params.template, req.rawParams),
    }),
  ]),
  // --- support ---
  route('/support_status', [endpoint('GET', { permission: ADMIN, handler: (req) => op.supportStatusOp(caller(req)) })]),
  route('/support_ticket', [endpoint('POST', { permission: ADMIN, handler: (req) => op.supportTicketOp(caller(req), op.bodyFields(req)) })]),
  route('/support_debug/wp', [endpoint('GET', { permission: ADMIN, handler: (req) => op.readDebugOp(caller(req), 'wp', req.rawParams.download) })]),
  route('/support_debug/wp/delete', [endpoint('POST', { permission: ADMIN, handler: (req) => op.clearDebugOp(caller(req), 'wp') })]),
  route('/support_debug/ssa', [endpoint('GET', { permission: ADMIN, handler: (req) => op.readDebugOp(caller(req), 'ssa', req.rawParams.download) })]),
  route('/support_debug/ssa/delete', [endpoint('POST', { permission: ADMIN, handler: (req) => op.clearDebugOp(caller(req), 'ssa') })]),
  route('/support_debug/logs', [
    endpoint('GET', { permission: ADMIN, handler: (req) => op.debugLogsOp(caller(req), (kind) => req.restUrl(`/sched/v1/support_debug/${kind}`, { download: 'true' })) }),
  ]),
  route('/support/export', [endpoint('GET', { permission: ADMIN, handler: (req) => op.exportOp(caller(req), req.rawParams) })]),
  route('/support/import', [endpoint('POST', { permission: ADMIN, handler: (req) => op.importOp(caller(req), req.rawParams.content) })]),
  route('/fetch-guides', [endpoint('GET', { permission: ADMIN, handler: (req) => op.fetchGuidesOp(caller(req), req.rawParams) })]),
  // --- public helpers ---
  route('/user/check', [endpoint('GET', { permission: PUBLIC, handler: (req) => op.userCheckOp(caller(req)) })]),
  route('/embed_booking_app', [endpoint('GET', { permission: PUBLIC, handler: (req) => op.embedOp(caller(req), req.rawParams) })]),
]);
