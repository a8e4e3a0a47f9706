// Twig templates (src/web/templates/*.twig) with auto-escaping on: every `{{ value }}` is
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

function template(name: string): TwigTemplate {
  let t = compiled.get(name);
  if (!t) {
    t = Twig.twig({ path: path.join(TEMPLATE_DIR, name), async: false, autoescape: true, rethrow: true });
    compiled.set(name, t);
  }
  return t;
}

/** Renders `templates/<name>` with the context; returns the HTML text. */
export function render(name: string, context: Record<string, unknown>): string {
  return String(template(name).render(context));
}
