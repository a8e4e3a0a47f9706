// Errors of the template sandbox (twig.ts): what a template did wrong, or which limit it reached.

/** An error of a template: syntax, sandbox policy, runtime or a resource limit. `line` is 1-based when known. */
export class TemplateError extends Error {
  kind: 'syntax' | 'security' | 'runtime' | 'limit';
  line: number | null;
  constructor(kind: TemplateError['kind'], message: string, line: number | null) {
    super(message);
    this.kind = kind;
    this.line = line;
  }
}

/** Which resource a template exhausted: its work budget, a size cap, its time or its heap. */
export type TemplateLimit = 'work' | 'size' | 'time' | 'memory';

/** A template that needs more than a render may use (answered 422 `sched_template_limit`). */
export class TemplateLimitError extends TemplateError {
  limit: TemplateLimit;
  /** The settings field (`<section>.<path>`) whose template it is, when known. */
  param: string | null = null;
  constructor(limit: TemplateLimit, message: string, line: number | null = null) {
    super('limit', message, line);
    this.limit = limit;
  }
}
