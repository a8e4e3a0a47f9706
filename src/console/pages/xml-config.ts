// The custom XML configuration at /cms-admin/admin.php?page=i18n/menu/custom-xml-config.php
// (the reference's "Custom XML Configuration"): the text of i18n/v1 custom-xml-config edited in
// a form, checked (custom-xml-config/validate) or saved (custom-xml-config), and every problem
// the check finds shown at the line it concerns: listed with its line and column, and in a
// numbered view of the text around that line. Works without scripts; `client/xml-config.ts`
// lets a problem's link select its line in the text field.
import type { FastifyReply } from 'fastify';
import type { RestOutput } from '../../rest/pipeline.ts';
import { fmt } from '../../web/api.ts';
import type { ConsoleContext, ConsolePage, Notice } from '../context.ts';
import { text } from '../context.ts';
import { ADMIN_PHP, pagePath } from '../pages.ts';

export const XML_CONFIG_PAGE = 'i18n/menu/custom-xml-config.php';
const API = '/i18n/v1/custom-xml-config';
/** Lines shown before and after a line with a problem. */
const CONTEXT_LINES = 2;

interface XmlIssue {
  level: number;
  line: number;
  column: number;
  message: string;
}

function issuesOf(out: RestOutput): XmlIssue[] | null {
  if (out.status === 200 && Array.isArray(out.body)) return out.body as XmlIssue[];
  const errors = (out.body as { data?: { errors?: unknown } } | null)?.data?.errors;
  return Array.isArray(errors) ? (errors as XmlIssue[]) : null;
}

/** The lines of the text around each problem, numbered, with the problems under their line. */
function excerpt(ctx: ConsoleContext, content: string, issues: XmlIssue[]) {
  const lines = content.split(/\r\n|\r|\n/);
  const byLine = new Map<number, XmlIssue[]>();
  for (const i of issues) {
    const line = Math.min(Math.max(1, i.line), lines.length);
    byLine.set(line, [...(byLine.get(line) ?? []), i]);
  }
  const shown = new Set<number>();
  for (const line of byLine.keys()) {
    for (let n = Math.max(1, line - CONTEXT_LINES); n <= Math.min(lines.length, line + CONTEXT_LINES); n++)
      shown.add(n);
  }
  const numbers = [...shown].sort((a, b) => a - b);
  // Runs of consecutive lines, each an ordered list starting at its first number.
  const blocks: {
    start: number;
    lines: { number: number; text: string; issues: { where: string; text: string }[] }[];
  }[] = [];
  for (const n of numbers) {
    const last = blocks.at(-1);
    const entry = {
      number: n,
      text: lines[n - 1] ?? '',
      issues: (byLine.get(n) ?? []).map((i) => ({
        where: fmt(ctx.t.xmlAt, { line: i.line, column: i.column }),
        text: i.message.trim(),
      })),
    };
    if (last && last.lines.at(-1)!.number === n - 1) last.lines.push(entry);
    else blocks.push({ start: n, lines: [entry] });
  }
  return blocks;
}

async function show(
  ctx: ConsoleContext,
  content: string | null,
  notices: Notice[],
  issues: XmlIssue[] = [],
  status = 200,
): Promise<FastifyReply> {
  const { t } = ctx;
  let current = content;
  if (current === null) {
    const out = await ctx.api('GET', API);
    if (out.status !== 200)
      notices.push({
        kind: 'error',
        text: fmt(t.apiError, { message: String((out.body as { message?: string })?.message ?? '') }),
      });
    current = out.status === 200 ? String(out.body ?? '') : '';
  }
  const done = text(ctx.query.done);
  if (done === 'saved') notices.push({ kind: 'success', text: t.xmlSavedNotice });
  return ctx.html(
    'xml-config.twig',
    t.xmlTitle,
    {
      notices,
      content: current,
      csrf: await ctx.csrf(),
      postUrl: ctx.url(pagePath(xmlConfigPage)),
      issues: issues.map((i) => ({
        line: i.line,
        where: fmt(t.xmlAt, { line: i.line, column: i.column }),
        kind: t[i.level >= 3 ? 'xmlFatal' : i.level === 2 ? 'xmlError' : 'xmlWarning'],
        text: i.message.trim(),
      })),
      blocks: excerpt(ctx, current, issues),
    },
    status,
  );
}

async function act(ctx: ConsoleContext): Promise<FastifyReply> {
  if (!(await ctx.csrfOk())) return ctx.csrfFailed();
  const content = text(ctx.body.content);
  const action = text(ctx.body.action);
  if (action === 'validate') {
    const out = await ctx.api('POST', `${API}/validate`, { content });
    const issues = issuesOf(out);
    if (issues === null)
      return show(
        ctx,
        content,
        [
          {
            kind: 'error',
            text: fmt(ctx.t.apiError, { message: String((out.body as { message?: string })?.message ?? '') }),
          },
        ],
        [],
        out.status,
      );
    const notice: Notice = issues.length
      ? { kind: 'error', text: fmt(ctx.t.xmlProblems, { count: issues.length }) }
      : { kind: 'success', text: ctx.t.xmlValid };
    return show(ctx, content, [notice], issues, issues.length ? 400 : 200);
  }
  if (action === 'save') {
    const out = await ctx.api('POST', API, { content });
    if (out.status === 200) return ctx.redirect(ctx.url(pagePath(xmlConfigPage, { done: 'saved' })));
    const issues = issuesOf(out) ?? [];
    return show(
      ctx,
      content,
      [{ kind: 'error', text: String((out.body as { message?: string })?.message ?? '') }],
      issues,
      out.status,
    );
  }
  return show(ctx, content, [{ kind: 'error', text: ctx.t.badAction }], [], 400);
}

export const xmlConfigPage: ConsolePage = {
  path: ADMIN_PHP,
  adminPage: XML_CONFIG_PAGE,
  capability: 'manage_options',
  title: 'xmlTitle',
  navOrder: 47,
  handle: (ctx) => (ctx.isPost ? act(ctx) : show(ctx, null, [])),
};
