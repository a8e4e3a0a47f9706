// Twig templates (src/web/templates/*.twig, and the console's) with auto-escaping on: every `{{ value }}` is
// HTML-escaped (text and attribute values alike); the templates never use `|raw`.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

interface TwigTemplate {
  render(context: Record<string, unknown>): unknown;
}
interface TwigModule {
  twig(options: { path: string; async: false; autoescape: true; rethrow: true; id?: string }): TwigTemplate;
  cache(enabled: boolean): void;
}

const Twig = createRequire(import.meta.url)('twig') as TwigModule;
const TEMPLATE_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'templates');

const compiled = new Map<string, TwigTemplate>();

function template(file: string): TwigTemplate {
  let t = compiled.get(file);
  if (!t) {
    t = Twig.twig({ path: file, async: false, autoescape: true, rethrow: true });
    compiled.set(file, t);
  }
  return t;
}

/** A renderer of the templates in `dir` (`{% extends %}` and `{% include %}` resolve there). */
export function templateRenderer(dir: string): (name: string, context: Record<string, unknown>) => string {
  return (name, context) => String(template(path.join(dir, name)).render(context));
}

/** Renders `templates/<name>` with the context; returns the HTML text. */
export const render = templateRenderer(TEMPLATE_DIR);
