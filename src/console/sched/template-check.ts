// "Check and preview" of a template field: `templates/validate` finds the error's line, and a
// template that passes is rendered with example data by `notifications/preview`, both shown
// under the field (the page's script does the same over HTTP).
import { fmt } from '../../web/api.ts';
import type { ConsoleContext } from '../context.ts';
import { API, apiProblem } from './rest.ts';

/** A template's check and preview, shown under its field. */
export interface TemplateCheck {
  ok: boolean;
  message: string;
  line: number | null;
  excerpt: string;
  html: string;
}

/** A template's check (line of the error) and, when it passes, its preview with example data. */
export async function checkTemplate(ctx: ConsoleContext, source: string): Promise<TemplateCheck> {
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
