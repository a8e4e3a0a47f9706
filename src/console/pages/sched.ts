// Appointment settings at /cms-admin/admin.php?page=sched-settings (the scheduling plugin's
// settings screen): every settings section as a form generated from `sched/v1/settings/schema`,
// showing the fields `GET settings` answers for this user (the API's own visibility rules:
// fields needing a capability the user lacks are not there); notices with pin/dismiss/restore;
// template checks and previews (`templates/validate`, `notifications/preview`, rendered in the
// template box) with the error's line; the support tools (status, debug logs, export/import).
// Everything goes through the REST API as the signed-in user; the page's script
// (client/sched.ts) saves and previews over HTTP, and without it every form posts here.
import type { FastifyReply } from 'fastify';
import type { RestOutput } from '../../rest/pipeline.ts';
import { fmt, restNonce } from '../../web/api.ts';
import type { ConsoleContext, ConsolePage, Notice } from '../context.ts';
import { text } from '../context.ts';
import type { ConsoleStringKey } from '../i18n.ts';
import { ADMIN_PHP, pagePath } from '../pages.ts';
import {
  ADD,
  controlName,
  COUNT,
  FIELDS_CONTROL,
  isLineList,
  isObjectList,
  KEEP,
  readSection,
  readValue,
  typesOf,
  type PublishedSchema,
} from '../client/sched-form.ts';

export const SCHED_PAGE = 'sched-settings';
const API = '/sched/v1';
const LOGS = ['ssa', 'wp'] as const;
const NOTICE_OPS: Record<string, { method: 'POST' | 'DELETE'; route: (id: string) => string; global?: boolean }> = {
  pin: { method: 'POST', route: (id) => `notices/pinned/${id}` },
  unpin: { method: 'POST', route: (id) => `notices/pinned/delete/${id}` },
  dismiss_me: { method: 'POST', route: (id) => `notices/${id}`, global: false },
  dismiss_all: { method: 'POST', route: (id) => `notices/${id}`, global: true },
  restore_me: { method: 'DELETE', route: (id) => `notices/${id}`, global: false },
  restore_all: { method: 'DELETE', route: (id) => `notices/${id}`, global: true },
};

interface SectionSchema {
  title: string;
  readOnly?: boolean;
  properties: Record<string, PublishedSchema>;
}

/** One control (or the start/end of a group of them) of a section's form, as the template draws it. */
type Row = Record<string, unknown> & { kind: string };

/** A template's check and preview, shown under its field. */
interface TemplateCheck {
  ok: boolean;
  message: string;
  line: number | null;
  excerpt: string;
  html: string;
}

function pageUrl(ctx: ConsoleContext, query: Record<string, string> = {}, hash = ''): string {
  return ctx.url(pagePath(schedPage, query)) + hash;
}

/** The API's error answer as one line, with the fields it names. */
function apiProblem(out: RestOutput): string {
  const body = out.body as {
    message?: string;
    error?: string;
    data?: { params?: Record<string, string>; problems?: unknown };
  } | null;
  const params = Object.entries(body?.data?.params ?? {}).map(([k, v]) => `${k}: ${v}`);
  const raw = body?.data?.problems;
  const problems = Array.isArray(raw)
    ? raw.map(String)
    : raw && typeof raw === 'object'
      ? Object.entries(raw).map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join('; ') : String(v)}`)
      : [];
  return [body?.message ?? body?.error ?? '', ...params, ...problems].filter(Boolean).join(' — ');
}

const humanize = (name: string) => (name.charAt(0).toUpperCase() + name.slice(1)).replace(/_/g, ' ');
/** A field's label in the console's language (its name, readable, for a field without one). */
const labelOf = (ctx: ConsoleContext, name: string) => ctx.t[`scField_${name}` as ConsoleStringKey] ?? humanize(name);
const idOf = (name: string) => `sc-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;

/** The rows of one field (and of its properties or items), from its schema and current value. */
function fieldRows(
  ctx: ConsoleContext,
  schema: PublishedSchema,
  path: (string | number)[],
  label: string,
  value: unknown,
  checks: Map<string, TemplateCheck>,
  rows: Row[],
): void {
  const { t } = ctx;
  const name = controlName(path);
  const id = idOf(name);
  const types = typesOf(schema);
  if (isObjectList(schema)) {
    const items = Array.isArray(value) ? value : [];
    rows.push({ kind: 'open', legend: label, id });
    rows.push({ kind: 'hidden', name: `${name}.${COUNT}`, value: String(items.length + 1) });
    items.forEach((item, i) => {
      const itemLabel = fmt(t.scItem, { list: label, n: i + 1 });
      rows.push({ kind: 'open', legend: itemLabel, id: idOf(`${name}.${i}`) });
      rows.push({
        kind: 'keep',
        name: `${name}.${i}.${KEEP}`,
        id: idOf(`${name}.${i}.${KEEP}`),
        label: fmt(t.scKeepItem, { item: itemLabel }),
      });
      objectRows(ctx, schema.items!, [...path, i], item, checks, rows);
      rows.push({ kind: 'close' });
    });
    const n = items.length;
    rows.push({ kind: 'open', legend: fmt(t.scNewItem, { list: label }), id: idOf(`${name}.${n}`) });
    rows.push({
      kind: 'add',
      name: `${name}.${n}.${ADD}`,
      id: idOf(`${name}.${n}.${ADD}`),
      label: fmt(t.scAddItem, { list: label }),
    });
    objectRows(ctx, schema.items!, [...path, n], {}, checks, rows);
    rows.push({ kind: 'close' });
    rows.push({ kind: 'close' });
    return;
  }
  if (schema.properties && types.includes('object')) {
    rows.push({ kind: 'open', legend: label, id });
    objectRows(ctx, schema, path, value, checks, rows);
    rows.push({ kind: 'close' });
    return;
  }
  const base = { name, id, label, help: '' as string };
  if (schema.readOnly) {
    rows.push({
      kind: 'readonly',
      ...base,
      value: value === null || value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value),
    });
  } else if (isLineList(schema)) {
    rows.push({
      kind: 'textarea',
      ...base,
      value: Array.isArray(value) ? value.join('\n') : '',
      rows: 3,
      help: t.scOnePerLine,
    });
  } else if (types.length === 1 && types[0] === 'boolean') {
    rows.push({ kind: 'checkbox', ...base, checked: value === true });
  } else if (schema.enum) {
    rows.push({
      kind: 'select',
      ...base,
      options: schema.enum.map((v) => ({ value: String(v), selected: v === value })),
    });
  } else if (schema['x-format'] === 'twig-template') {
    const check = checks.get(name);
    rows.push({
      kind: 'template',
      ...base,
      value: typeof value === 'string' ? value : '',
      rows: (schema.maxLength ?? 0) > 1000 ? 8 : 2,
      check,
      previewLabel: fmt(t.scPreviewOf, { field: label }),
    });
  } else if (schema['x-format'] === 'css' || (schema.maxLength ?? 0) > 1000) {
    rows.push({ kind: 'textarea', ...base, value: typeof value === 'string' ? value : '', rows: 6 });
  } else {
    const number = (types.includes('integer') || types.includes('number')) && !types.includes('string');
    rows.push({
      kind: 'input',
      ...base,
      type: schema.writeOnly ? 'password' : number ? 'number' : schema.format === 'email' ? 'email' : 'text',
      value: value === null || value === undefined ? '' : String(value),
      min: schema.minimum ?? '',
      max: schema.maximum ?? '',
      help: types.includes('boolean') && types.length > 1 ? t.scTrueFalse : schema.writeOnly ? t.scSecret : '',
    });
  }
}

function objectRows(
  ctx: ConsoleContext,
  schema: PublishedSchema,
  path: (string | number)[],
  value: unknown,
  checks: Map<string, TemplateCheck>,
  rows: Row[],
): void {
  const values = value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  for (const [key, prop] of Object.entries(schema.properties ?? {})) {
    // An item's id and schema version travel with it; when it was last changed is set on save.
    if (key === 'last_modified') continue;
    if (key === 'id' || key === 'schema') {
      if (values[key] !== undefined)
        rows.push({ kind: 'hidden', name: controlName([...path, key]), value: String(values[key]) });
      continue;
    }
    fieldRows(ctx, prop, [...path, key], labelOf(ctx, key), values[key], checks, rows);
  }
}

async function loadSchema(ctx: ConsoleContext): Promise<Record<string, SectionSchema>> {
  const out = await ctx.api('GET', `${API}/settings/schema`);
  return (out.body as { properties: Record<string, SectionSchema> }).properties;
}

/** A template's check (line of the error) and, when it passes, its preview with example data. */
async function checkTemplate(ctx: ConsoleContext, source: string): Promise<TemplateCheck> {
  const validated = await ctx.api('POST', `${API}/templates/validate`, { message: source });
  const v = validated.body as { success?: boolean; error?: string; line?: number | null; message?: string };
  if (validated.status !== 200 || !v.success) {
    const line = typeof v.line === 'number' ? v.line : null;
    const message = validated.status === 200 ? String(v.error ?? '').replace(/^Error: /, '') : apiProblem(validated);
    return {
      ok: false,
      message: line ? fmt(ctx.t.scErrorAtLine, { line, message }) : message,
      line,
      excerpt: line ? (source.split('\n')[line - 1] ?? '') : '',
      html: '',
    };
  }
  const preview = await ctx.api('POST', `${API}/notifications/preview`, { template: source });
  if (preview.status !== 200) return { ok: false, message: apiProblem(preview), line: null, excerpt: '', html: '' };
  return {
    ok: true,
    message: ctx.t.scTemplateOk,
    line: null,
    excerpt: '',
    html: (preview.body as { data: { preview: string } }).data.preview,
  };
}

interface PageState {
  notices: Notice[];
  /** Posted values of a section shown again (a refused save, a preview), instead of the stored ones. */
  posted?: { section: string; values: Record<string, unknown> };
  checks?: Map<string, TemplateCheck>;
  status?: number;
}

async function showPage(ctx: ConsoleContext, state: PageState): Promise<FastifyReply> {
  const { t } = ctx;
  const notices = state.notices;
  const done = text(ctx.query.done);
  const doneKey: Record<string, ConsoleStringKey> = {
    saved: 'scSavedNotice',
    notice: 'scNoticeDone',
    cleared: 'scLogCleared',
    imported: 'scImported',
  };
  if (doneKey[done]) notices.push({ kind: 'success', text: t[doneKey[done]!] });
  const [schema, settingsOut, listOut, noticeSchema, errorsOut, statusOut, ...logs] = await Promise.all([
    loadSchema(ctx),
    ctx.api('GET', `${API}/settings`),
    ctx.api('GET', `${API}/notices`),
    ctx.api('GET', `${API}/notices/schema`),
    ctx.api('GET', `${API}/notices-errors`),
    ctx.api('GET', `${API}/support_status`),
    ...LOGS.map((kind) => ctx.api('GET', `${API}/support_debug/${kind}`)),
  ]);
  if (settingsOut.status !== 200)
    notices.push({ kind: 'error', text: fmt(t.apiError, { message: apiProblem(settingsOut) }) });
  const settings =
    settingsOut.status === 200 ? (settingsOut.body as { data: Record<string, Record<string, unknown>> }).data : {};
  const checks = state.checks ?? new Map<string, TemplateCheck>();
  const csrf = await ctx.csrf();

  const sections = Object.entries(schema)
    .filter(([slug]) => settings[slug] && typeof settings[slug] === 'object')
    .map(([slug, def]) => {
      const current = state.posted?.section === slug ? { ...settings[slug], ...state.posted.values } : settings[slug]!;
      // The fields GET settings answered for this user: the API's visibility rules decide.
      const shown = Object.keys(def.properties).filter((f) => Object.hasOwn(current, f) && f !== 'schema_version');
      const rows: Row[] = [];
      for (const field of shown)
        fieldRows(
          ctx,
          def.readOnly ? { ...def.properties[field]!, readOnly: true } : def.properties[field]!,
          [field],
          labelOf(ctx, field),
          current[field],
          checks,
          rows,
        );
      // Every section has an `enabled`: ids carry the section.
      for (const row of rows) if (typeof row.id === 'string') row.id = `${slug}-${row.id}`;
      const editable = def.readOnly ? [] : shown.filter((f) => !def.properties[f]!.readOnly);
      const titleKey = `scSection_${slug}` as ConsoleStringKey;
      return {
        slug,
        title: t[titleKey] ?? def.title,
        rows,
        fields: editable.join(','),
        editable: editable.length > 0,
        headingId: `section-${slug}-heading`,
      };
    });

  const list =
    listOut.status === 200 ? (listOut.body as { data: { notice_to_display: string } }).data : { notice_to_display: '' };
  const noticeIds = (noticeSchema.body as { properties: { id: { enum: string[] } } }).properties.id.enum;
  const noticeItems = await Promise.all(
    noticeIds.map(async (id) => {
      const out = await ctx.api('GET', `${API}/notices/${id}`);
      const d = (
        out.body as {
          data: { notice: { name: string; description: string; priority: string }; state: Record<string, boolean> };
        }
      ).data;
      const s = d.state;
      const ops = [
        s.pinned ? 'unpin' : 'pin',
        s.dismissed_for_user ? 'restore_me' : 'dismiss_me',
        s.dismissed_globally ? 'restore_all' : 'dismiss_all',
      ];
      return {
        id,
        name: d.notice.name,
        description: d.notice.description,
        shown: list.notice_to_display === id,
        states: [
          s.pinned && t.scPinned,
          s.dismissed_for_user && t.scDismissedMe,
          s.dismissed_globally && t.scDismissedAll,
          !s.eligible && t.scNotEligible,
          list.notice_to_display === id && t.scShownNow,
        ].filter(Boolean),
        ops: ops.map((op) => ({
          op,
          label: t[`scOp_${op}` as ConsoleStringKey],
          aria: fmt(t.scOpOn, { op: t[`scOp_${op}` as ConsoleStringKey], notice: d.notice.name }),
        })),
      };
    }),
  );
  const errorNotices =
    errorsOut.status === 200
      ? (errorsOut.body as { data: { error_notices: { id: string; type: string; message: string }[] } }).data
          .error_notices
      : [];
  const status =
    statusOut.status === 200
      ? (
          statusOut.body as {
            data: { site_status: Record<string, { status: string; value: unknown; notices: string[] }> };
          }
        ).data.site_status
      : {};
  const nonceArg = `_wpnonce=${encodeURIComponent(await restNonce(ctx.app, ctx.session))}`;
  const restRoot = `${ctx.site.basePath}/${ctx.lang}/cms-json`;

  const model = {
    notices,
    csrf,
    postUrl: pageUrl(ctx),
    fieldsControl: FIELDS_CONTROL,
    sections,
    schemaJson: JSON.stringify(Object.fromEntries(Object.entries(schema).map(([slug, def]) => [slug, def.properties]))),
    noticeItems,
    errorNotices,
    statusItems: Object.entries(status).map(([key, item]) => ({
      label: t[`scStatusItem_${key}` as ConsoleStringKey] ?? humanize(key),
      status: item.status,
      statusLabel: t[`scStatus_${item.status}` as ConsoleStringKey] ?? item.status,
      value: typeof item.value === 'boolean' ? (item.value ? t.scYes : t.scNo) : String(item.value),
      notes: item.notices.join(' '),
    })),
    logs: LOGS.map((kind, i) => ({
      kind,
      title: t[`scLog_${kind}` as ConsoleStringKey],
      content: logs[i]!.status === 200 ? String(logs[i]!.body ?? '') : '',
      downloadUrl: `${restRoot}/sched/v1/support_debug/${kind}?download=true&${nonceArg}`,
    })),
    exportUrl: pageUrl(ctx, { download: 'export' }),
    clientStrings: JSON.stringify(
      Object.fromEntries(
        (
          [
            'scSaving',
            'scSavedNotice',
            'scChecking',
            'scTemplateOk',
            'scErrorAtLine',
            'scGoToLine',
            'loadFailed',
          ] as const
        ).map((k) => [k, t[k]]),
      ),
    ),
  };
  return ctx.html('sched.twig', t.scTitle, model, state.status ?? 200);
}

/** The export as a file (the API's `support/export`, every part). */
async function sendExport(ctx: ConsoleContext): Promise<FastifyReply> {
  const out = await ctx.api('GET', `${API}/support/export`, {
    settings: 'true',
    notices: 'true',
    appointment_types: 'true',
    appointments: 'true',
  });
  if (out.status !== 200)
    return showPage(ctx, {
      notices: [{ kind: 'error', text: fmt(ctx.t.apiError, { message: apiProblem(out) }) }],
      status: out.status,
    });
  return ctx.reply
    .code(200)
    .headers({
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Disposition': 'attachment; filename="sched-export.json"',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    })
    .send(JSON.stringify(out.body, null, 2));
}

/** The page's forms without its script. */
async function act(ctx: ConsoleContext): Promise<FastifyReply> {
  if (!(await ctx.csrfOk())) return ctx.csrfFailed();
  const { t } = ctx;
  const action = text(ctx.body.action);
  const read = (name: string) => (Object.hasOwn(ctx.body, name) ? text(ctx.body[name]) : undefined);
  const failed = (out: RestOutput, extra: Partial<PageState> = {}) =>
    showPage(ctx, {
      notices: [{ kind: 'error', text: fmt(t.apiError, { message: apiProblem(out) }) }],
      status: out.status,
      ...extra,
    });

  if (action === 'section') {
    const slug = text(ctx.body.section);
    const schema = await loadSchema(ctx);
    const def = Object.hasOwn(schema, slug) ? schema[slug]! : undefined;
    if (!def || def.readOnly) return showPage(ctx, { notices: [{ kind: 'error', text: t.badAction }], status: 400 });
    const values = readSection(def.properties, read);
    const previewOf = text(ctx.body.preview);
    if (previewOf) {
      // "Check and preview" of one template field: the form comes back with what was typed.
      const path = previewOf.split('.').slice(1);
      const fieldSchema = path.reduce<PublishedSchema | undefined>(
        (s, key) => s && (/^\d+$/.test(key) ? s.items : s.properties?.[key]),
        { properties: def.properties, type: 'object' },
      );
      if (!fieldSchema || fieldSchema['x-format'] !== 'twig-template')
        return showPage(ctx, { notices: [{ kind: 'error', text: t.badAction }], status: 400 });
      const source = String(readValue(fieldSchema, path, read) ?? '');
      return showPage(ctx, {
        notices: [],
        posted: { section: slug, values },
        checks: new Map([[previewOf, await checkTemplate(ctx, source)]]),
      });
    }
    const out = await ctx.api('POST', `${API}/settings/${slug}`, values);
    if (out.status !== 200) return failed(out, { posted: { section: slug, values } });
    return ctx.redirect(pageUrl(ctx, { done: 'saved' }, `#section-${slug}`));
  }
  if (action === 'notice') {
    const op = Object.hasOwn(NOTICE_OPS, text(ctx.body.op)) ? NOTICE_OPS[text(ctx.body.op)]! : undefined;
    const id = text(ctx.body.notice);
    if (!op || !/^[a-zA-Z0-9_-]{1,100}$/.test(id))
      return showPage(ctx, { notices: [{ kind: 'error', text: t.badAction }], status: 400 });
    const out = await ctx.api(
      op.method,
      `${API}/${op.route(id)}`,
      op.global === undefined ? {} : { global: op.global },
    );
    if (out.status !== 200) return failed(out);
    return ctx.redirect(pageUrl(ctx, { done: 'notice' }, `#notice-${id}`));
  }
  if (action === 'clear_log') {
    const kind = LOGS.find((k) => k === text(ctx.body.log));
    if (!kind) return showPage(ctx, { notices: [{ kind: 'error', text: t.badAction }], status: 400 });
    const out = await ctx.api('POST', `${API}/support_debug/${kind}/delete`);
    if (out.status !== 200) return failed(out);
    return ctx.redirect(pageUrl(ctx, { done: 'cleared' }, '#sched-logs'));
  }
  if (action === 'import') {
    const out = await ctx.api('POST', `${API}/support/import`, { content: text(ctx.body.content) });
    if (out.status !== 200) return failed(out);
    return ctx.redirect(pageUrl(ctx, { done: 'imported' }, '#sched-transfer'));
  }
  return showPage(ctx, { notices: [{ kind: 'error', text: t.badAction }], status: 400 });
}

export const schedPage: ConsolePage = {
  path: ADMIN_PHP,
  adminPage: SCHED_PAGE,
  capability: 'manage_options',
  title: 'scTitle',
  navOrder: 60,
  handle: (ctx) =>
    ctx.isPost ? act(ctx) : text(ctx.query.download) === 'export' ? sendExport(ctx) : showPage(ctx, { notices: [] }),
};
