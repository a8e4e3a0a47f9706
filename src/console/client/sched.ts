// Appointment settings in the browser: a section is saved through `POST sched/v1/settings/<id>`
// (the values read from its form as the server reads a plain post, sched-form.ts), and every
// template field is checked and previewed while it is typed (`templates/validate`, then
// `notifications/preview` in a sandboxed frame); an error names its line, and a button puts
// the cursor on that line. Notices, logs and import keep their plain forms.
import { announcedSave, errorMessage, rest } from './api.ts';
import { readSection, type PublishedSchema } from './sched-form.ts';

let t: Record<string, string> = {};
let schema: Record<string, Record<string, PublishedSchema>> = {};

const fill = (text: string, args: Record<string, string | number>) =>
  text.replace(/\{(\w+)\}/g, (m, k: string) => (k in args ? String(args[k]) : m));

function problemText(body: unknown): string {
  const params = (body as { data?: { params?: Record<string, string> } } | null)?.data?.params ?? {};
  return [errorMessage(body, t.loadFailed!), ...Object.entries(params).map(([k, v]) => `${k}: ${v}`)].join(' — ');
}

async function saveSection(form: HTMLFormElement): Promise<void> {
  const state = form.querySelector<HTMLElement>('.save-state')!;
  const button = form.querySelector<HTMLButtonElement>('.save button')!;
  const data = new FormData(form);
  const slug = form.dataset.section!;
  const values = readSection(schema[slug] ?? {}, (name) => {
    const v = data.get(name);
    return typeof v === 'string' ? v : undefined;
  });
  await announcedSave(state, button, () => rest('POST', `sched/v1/settings/${slug}`, values), {
    saving: t.scSaving!,
    failed: t.loadFailed!,
    saved: () => t.scSavedNotice!,
    problem: problemText,
  });
}

/** Puts the cursor at the start of a line of a textarea (1-based). */
function goToLine(area: HTMLTextAreaElement, line: number): void {
  const lines = area.value.split('\n');
  const start = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0);
  area.focus();
  area.setSelectionRange(start, start + (lines[line - 1]?.length ?? 0));
}

async function checkTemplate(area: HTMLTextAreaElement): Promise<void> {
  const box = document.getElementById(`${area.id}-check`)!;
  box.classList.remove('is-error');
  box.textContent = t.scChecking!;
  const source = area.value;
  const validated = await rest<{ success?: boolean; error?: string; line?: number | null }>(
    'POST',
    'sched/v1/templates/validate',
    { message: source },
  );
  if (area.value !== source) return; // a newer check is under way
  let frame = box.parentElement!.querySelector<HTMLIFrameElement>('iframe.template-preview');
  const v = validated.body;
  if (validated.status !== 200 || !v.success) {
    const message = validated.status === 200 ? String(v.error ?? '').replace(/^Error: /, '') : problemText(v);
    const line = typeof v.line === 'number' ? v.line : null;
    box.classList.add('is-error');
    area.setAttribute('aria-invalid', 'true');
    const p = document.createElement('p');
    p.textContent = line ? fill(t.scErrorAtLine!, { line, message }) : message;
    box.replaceChildren(p);
    if (line) {
      const excerpt = document.createElement('pre');
      excerpt.className = 'code';
      excerpt.textContent = `${line}: ${source.split('\n')[line - 1] ?? ''}`;
      const go = document.createElement('button');
      go.type = 'button';
      go.className = 'button-link';
      go.textContent = fill(t.scGoToLine!, { line });
      go.addEventListener('click', () => goToLine(area, line));
      box.append(excerpt, go);
    }
    frame?.remove();
    return;
  }
  area.removeAttribute('aria-invalid');
  const preview = await rest<{ data: { preview: string } }>('POST', 'sched/v1/notifications/preview', {
    template: source,
  });
  if (area.value !== source) return;
  if (preview.status !== 200) {
    box.classList.add('is-error');
    box.textContent = problemText(preview.body);
    return;
  }
  box.textContent = t.scTemplateOk!;
  if (!frame) {
    frame = document.createElement('iframe');
    frame.className = 'template-preview';
    frame.setAttribute('sandbox', '');
    frame.title = area.closest('.field')?.querySelector('label')?.textContent ?? '';
    (box.parentElement!.querySelector('.template-preview-button') ?? box).after(frame);
  }
  frame.srcdoc = preview.body.data.preview;
}

export function init(): void {
  t = JSON.parse(document.getElementById('sched-strings')?.dataset.strings ?? '{}') as Record<string, string>;
  schema = JSON.parse(document.getElementById('sched-schema')?.dataset.schema ?? '{}') as typeof schema;
  for (const form of document.querySelectorAll<HTMLFormElement>('form.sched-form')) {
    form.addEventListener('submit', (event) => {
      const button = event.submitter as HTMLButtonElement | null;
      event.preventDefault();
      if (button?.name === 'preview') {
        const area = document.querySelector<HTMLTextAreaElement>(`textarea[name="${CSS.escape(button.value)}"]`);
        if (area)
          void checkTemplate(area).catch(
            () => (document.getElementById(`${area.id}-check`)!.textContent = t.loadFailed!),
          );
        return;
      }
      void saveSection(form);
    });
    // Enter in a field saves (the form's first button may be a template's "Check and preview").
    form.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter' || !(event.target instanceof HTMLInputElement) || event.target.type === 'checkbox')
        return;
      event.preventDefault();
      void saveSection(form);
    });
  }
  for (const area of document.querySelectorAll<HTMLTextAreaElement>('textarea.template-source')) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    area.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(() => void checkTemplate(area).catch(() => undefined), 400);
    });
  }
}
