// Appointment settings at /cms-admin/admin.php?page=sched-settings (the scheduling plugin's
// settings screen): every settings section as a form generated from `sched/v1/settings/schema`,
// showing the fields `GET settings` answers for this user (the API's own visibility rules:
// fields needing a capability the user lacks are not there); notices with pin/dismiss/restore;
// template checks and previews (`templates/validate`, `notifications/preview`, rendered in the
// template box) with the error's line; the support tools (status, debug logs, export/import).
// Everything goes through the REST API as the signed-in user; the page's script
// (client/sched.ts) saves and previews over HTTP, and without it every form posts here.
// The page's parts live in src/console/sched/: the settings forms (settings-form.ts), template
// checks (template-check.ts), notices (notices.ts) and support tools (support.ts).
import type { FastifyReply } from 'fastify';
import type { RestOutput } from '../../rest/pipeline.ts';
import { fmt } from '../../web/api.ts';
import type { ConsoleContext, ConsolePage, Notice } from '../context.ts';
import { text } from '../context.ts';
import type { ConsoleStringKey } from '../i18n.ts';
import { ADMIN_PHP, pagePath } from '../pages.ts';
import { FIELDS_CONTROL, readSection, readValue, type PublishedSchema } from '../client/sched-form.ts';
import { errorNotices, noticeItems, NOTICE_OPS } from '../sched/notices.ts';
import { API, apiProblem } from '../sched/rest.ts';
import { loadSchema, sectionForms } from '../sched/settings-form.ts';
import { LOGS, logItems, statusItems } from '../sched/support.ts';
import { checkTemplate, type TemplateCheck } from '../sched/template-check.ts';

export const SCHED_PAGE = 'sched-settings';

function pageUrl(ctx: ConsoleContext, query: Record<string, string> = {}, hash = ''): string {
  return ctx.url(pagePath(schedPage, query)) + hash;
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

  const sections = sectionForms(ctx, schema, settings, state.posted, checks);

  const model = {
    notices,
    csrf,
    postUrl: pageUrl(ctx),
    fieldsControl: FIELDS_CONTROL,
    sections,
    schemaJson: JSON.stringify(Object.fromEntries(Object.entries(schema).map(([slug, def]) => [slug, def.properties]))),
    noticeItems: await noticeItems(ctx, listOut, noticeSchema),
    errorNotices: errorNotices(errorsOut),
    statusItems: statusItems(ctx, statusOut),
    logs: await logItems(ctx, logs),
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
