// A sandboxed Twig engine for notification and calendar templates (reference plugins.md §2.4).
//
// Twig.js has no sandbox of its own, so this module builds one around a private Twig.js
// instance (the package's factory, so the global instance stays untouched):
// - a static check of the compiled token tree before anything runs: only the allowed tags,
//   tests, filters and functions; no method calls (`a.b()`), no `_self` / `_context`, no keys
//   such as `constructor` or `__proto__`, no `matches` (a template's own regular expression);
// - runtime guards: tests, filters and functions resolve only from null-prototype tables of the
//   allowed names; variables and attributes are own properties of plain data; a value that is a
//   function is refused, never called; file loaders are removed, so nothing can be read from disk;
// - bounds: every argument that sizes a result (split chunks, trim masks, decimals, separators,
//   ranges, date formats) is bounded, and a render has a work budget (one step per expression,
//   tag and block, plus one per KiB a filter, function or operator reads or writes), a cap on
//   every text and list it makes, and a time limit;
// - the render context is deep-copied into null-prototype objects of plain data.
// Runaways that slip past all of this still cannot harm the server: templates are checked and
// rendered in worker threads with a heap cap and a kill timer (template-box.ts).
//
// `include` and `import` are in the reference's tag list, but every use of them loads another
// template file; this server has no template files to offer, so both are refused (as are
// `extends`, `embed`, `use`, `from`, `macro`, `source()`, `include()`, `template_from_string()`,
// `constant()`, `attribute()`).
import { Parser } from 'htmlparser2';
import { escapeHtml } from '../../site/html.ts';
import { TemplateError, TemplateLimitError } from './twig-errors.ts';
import './twig-guards.ts';
import { checkTree, lineAt, MAX_COMPILE_COST, MAX_TAGS, measureTags } from './twig-policy.ts';
import { isSafeKey, RENDER_TIME_MS, run, Twig, type TwigTemplate } from './twig-sandbox.ts';

// ---- normalisation and the static policy check ---------------------------------------------

/**
 * Normalisation before rendering (reference §2.4): HTML tags inside `{{ }}` and `{% %}` are
 * stripped (rich-text editors insert them), entities there decoded, and the spacing inside the
 * braces becomes one space.
 */
export function normalizeTemplate(source: string): string {
  const clean = (inner: string) =>
    inner
      .replace(/<[^<>]*>/g, '')
      .replace(/&nbsp;|&#160;/g, ' ')
      .replace(/&quot;|&#34;/g, '"')
      .replace(/&#0?39;|&apos;/g, "'")
      .replace(/&gt;/g, '>')
      .replace(/&lt;/g, '<')
      .replace(/&amp;/g, '&')
      .replace(/\s+/g, ' ')
      .trim();
  // A linear scan (no backtracking regex): each opening brace is matched with the next closing one.
  let out = '';
  let i = 0;
  let a = -2;
  let b = -2;
  while (i < source.length) {
    // Positions are searched again only once passed, so the scan stays linear.
    if (a !== -1 && a < i) a = source.indexOf('{{', i);
    if (b !== -1 && b < i) b = source.indexOf('{%', i);
    const start = a === -1 ? b : b === -1 ? a : Math.min(a, b);
    if (start === -1) break;
    const isOutput = start === a;
    const close = source.indexOf(isOutput ? '}}' : '%}', start + 2);
    if (close === -1) break;
    out += source.slice(i, start);
    let inner = source.slice(start + 2, close);
    if (isOutput) out += `{{ ${clean(inner)} }}`;
    else {
      const l = inner.startsWith('-') ? '-' : '';
      const r = inner.endsWith('-') && inner.length > l.length ? '-' : '';
      inner = inner.slice(l.length, inner.length - r.length);
      out += `{%${l} ${clean(inner)} ${r}%}`;
    }
    i = close + 2;
  }
  return out + source.slice(i);
}

function compile(source: string): TwigTemplate {
  const { tags, cost } = measureTags(source);
  if (tags > MAX_TAGS) throw new TemplateError('syntax', `The template has more than ${MAX_TAGS} tags.`, null);
  if (cost > MAX_COMPILE_COST)
    throw new TemplateLimitError(
      'work',
      `The template is too big to compile: (tags × characters) + (each tag's length)² must stay under ${MAX_COMPILE_COST}.`,
    );
  let template: TwigTemplate;
  try {
    template = Twig.twig({ data: source, rethrow: true, autoescape: false });
  } catch (err) {
    throw new TemplateError('syntax', friendlyMessage(err), guessLine(source, err));
  }
  checkTree(template.tokens, source, { offset: null });
  return template;
}

function friendlyMessage(err: unknown): string {
  let msg =
    err instanceof Error
      ? err.message
      : err && typeof err === 'object' && 'message' in err
        ? String((err as { message: unknown }).message)
        : String(err);
  const unclosed = /Unable to find an end tag for Twig\.logic\.type\.(\w+)/.exec(msg);
  if (unclosed) msg = `Unexpected end of template: the "${unclosed[1]}" tag is not closed.`;
  if (/Cannot read properties of undefined/.test(msg)) msg = 'Unexpected closing tag without a matching opening tag.';
  const unknownFilter = /Unable to find filter (\S+)/.exec(msg);
  if (unknownFilter) msg = `Filter "${unknownFilter[1]}" is not allowed.`;
  return msg.replace(/Twig\.(logic|expression)\.type\./g, '');
}

function guessLine(source: string, err: unknown): number | null {
  const msg = err && typeof err === 'object' && 'message' in err ? String((err as { message: unknown }).message) : '';
  const m = /position (\d+)/.exec(msg) ?? /template:(\d+)/.exec(msg);
  if (m) return lineAt(source, Number(m[1]));
  if (/Unable to find an end tag/.test(msg)) return source.split('\n').length;
  return null;
}

/** Deep copy into null-prototype plain data; functions and exotic objects are dropped. */
export function toSandboxData(value: unknown, depth = 0): unknown {
  if (depth > 20) return null;
  if (value === null || value === undefined) return value;
  const t = typeof value;
  if (t === 'string' || t === 'number' || t === 'boolean') return value;
  if (value instanceof Date) return Math.floor(value.getTime() / 1000);
  if (Array.isArray(value)) return value.map((v) => toSandboxData(v, depth + 1));
  if (t === 'object') {
    const out = Object.create(null) as Record<string, unknown>;
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (!isSafeKey(k) || typeof v === 'function') continue;
      out[k] = toSandboxData(v, depth + 1);
    }
    return out;
  }
  return null;
}

/** Renders a template in the sandbox. Throws TemplateError (TemplateLimitError when it needs too much). */
export function renderTemplate(source: string, context: Record<string, unknown>, lang: 'en' | 'de' = 'en'): string {
  const normalized = normalizeTemplate(source);
  const template = compile(normalized);
  run.lang = lang;
  run.offset = null;
  run.steps = 0;
  run.deadline = performance.now() + RENDER_TIME_MS;
  try {
    const out = template.render(toSandboxData(context) as Record<string, unknown>);
    return typeof out === 'string' ? out : String(out ?? '');
  } catch (err) {
    if (err instanceof TemplateLimitError) {
      err.line ??= lineAt(normalized, run.offset);
      throw err;
    }
    const msg = friendlyMessage(err);
    const security = /not allowed/.test(msg);
    throw new TemplateError(security ? 'security' : 'runtime', msg, lineAt(normalized, run.offset));
  } finally {
    run.deadline = Infinity;
  }
}

const JS_ERROR = 'JavaScript is not allowed in Twig templates.';

/**
 * Finds JavaScript in a template: <script> elements, inline on…= handlers, javascript:/vbscript:
 * URLs. The markup is read with htmlparser2 (linear time, no backtracking regexes).
 */
export function containsJavaScript(source: string): boolean {
  let found = false;
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (name === 'script') found = true;
        for (const [k, v] of Object.entries(attribs)) {
          if (/^on[a-z]/i.test(k) || k === 'srcdoc') found = true;
          const compact = v.replace(/[\u0000-\u0020\u007f-\u009f]+/g, '').toLowerCase();
          if (
            compact.startsWith('javascript:') ||
            compact.startsWith('vbscript:') ||
            compact.startsWith('data:text/html')
          )
            found = true;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(source);
  parser.end();
  if (found) return true;
  // Script-ish text outside tags, e.g. a URL written into an href by a template expression.
  const decoded = source.replace(/&#x0*3a;?|&#0*58;?|&colon;/gi, ':');
  return /<\s*script\b/i.test(decoded) || /\b(?:javascript|vbscript)\s*:/i.test(decoded.replace(/[\t\n\r]+/g, ''));
}

export interface ValidationResult {
  success: boolean;
  error?: string;
  line?: number | null;
}

/**
 * templates/validate: JavaScript check, then normalise and render once in the sandbox with no
 * variables (unknown variables do not fail, as in the reference). Throws only TemplateLimitError.
 */
export function validateTemplate(source: string): ValidationResult {
  if (containsJavaScript(source)) return { success: false, error: JS_ERROR };
  try {
    const out = renderTemplate(source, {});
    // Script assembled by the template itself ("<scr" ~ "ipt>") is refused as well.
    if (containsJavaScript(out)) return { success: false, error: JS_ERROR };
    return { success: true };
  } catch (err) {
    if (err instanceof TemplateLimitError) throw err;
    if (err instanceof TemplateError) return { success: false, error: `Error: ${err.message}`, line: err.line };
    return { success: false, error: `Error: ${err instanceof Error ? err.message : String(err)}` };
  }
}

/** The HTML error summary shown instead of a preview (line, message, offending line), escaped. */
export function errorSummaryHtml(source: string, err: TemplateError): string {
  const normalized = normalizeTemplate(source);
  const lines = normalized.split('\n');
  const line = err.line;
  const offending = line !== null && lines[line - 1] !== undefined ? lines[line - 1] : '';
  return (
    '<div class="sched-template-error">' +
    `<p><strong>Template error${line !== null ? ` on line ${line}` : ''}:</strong> ${escapeHtml(err.message)}</p>` +
    (offending ? `<pre>${escapeHtml(offending)}</pre>` : '') +
    '</div>'
  );
}
