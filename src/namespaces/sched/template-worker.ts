// A worker of the template box (template-box.ts): checks and renders templates with twig.ts, one
// job at a time. The main thread kills it when a job outlasts its time; V8 ends it when it
// outgrows its heap. Either way the server goes on.
import { parentPort } from 'node:worker_threads';
import { renderTemplate, validateTemplate } from './twig.ts';
import { TemplateError, TemplateLimitError } from './twig-errors.ts';
import type { BoxJob, BoxReply } from './template-box.ts';

const port = parentPort!;

function reply(message: BoxReply): void {
  port.postMessage(message);
}

port.on('message', (job: BoxJob) => {
  try {
    reply({
      ok: true,
      value: job.kind === 'validate' ? validateTemplate(job.source) : renderTemplate(job.source, job.context, job.lang),
    });
  } catch (err) {
    const e =
      err instanceof TemplateError
        ? err
        : new TemplateError('runtime', err instanceof Error ? err.message : String(err), null);
    reply({
      ok: false,
      error: {
        kind: e.kind,
        message: e.message,
        line: e.line,
        limit: e instanceof TemplateLimitError ? e.limit : null,
      },
    });
  }
});
reply({ ready: true });
