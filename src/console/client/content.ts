// Pages and posts in the browser: the edit form saves through cms/v2 with the cookie and nonce
// without leaving the page (announced next to the button; the slug field shows the slug the
// server chose), and the list's trash, restore and delete buttons call the same routes. The
// server-rendered forms do the same through the page.
import { announcedSave, errorMessage, rest } from './api.ts';

let t: Record<string, string> = {};

async function save(form: HTMLFormElement): Promise<void> {
  const state = document.getElementById('ct-save-state')!;
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
  const data = new FormData(form);
  const body: Record<string, unknown> = {
    title: data.get('title'),
    content: data.get('content'),
    status: data.get('status'),
  };
  if (data.get('slug')) body.slug = data.get('slug');
  if (data.has('parent')) body.parent = Number(data.get('parent'));
  if (data.has('author')) body.author = Number(data.get('author'));
  await announcedSave(state, button, () => rest<{ slug: string }>('POST', form.dataset.rest!, body), {
    saving: t.ctSaving!,
    failed: t.loadFailed!,
    saved: (answer) => {
      form.querySelector<HTMLInputElement>('#ct-slug')!.value = answer.body.slug;
      return t.ctSaved!;
    },
  });
}

const DONE: Record<string, string> = { trash: 'trashed', restore: 'restored', delete: 'deleted' };

async function rowAction(form: HTMLFormElement, action: string, base: string): Promise<void> {
  const id = new FormData(form).get('post');
  const live = document.getElementById('ct-live')!;
  const answer =
    action === 'restore'
      ? await rest('POST', `${base}/${id}`, { status: 'draft' })
      : await rest('DELETE', `${base}/${id}${action === 'delete' ? '?force=true' : ''}`);
  if (answer.status !== 200) {
    live.textContent = errorMessage(answer.body, t.loadFailed!);
    return;
  }
  // The list and its counts as the server now sees them.
  const url = new URL(window.location.href);
  url.searchParams.set('done', DONE[action]!);
  window.location.assign(url.toString());
}

export function init(): void {
  t = JSON.parse(document.getElementById('content-strings')?.dataset.strings ?? '{}') as Record<string, string>;
  const form = document.querySelector<HTMLFormElement>('form.content-form[data-rest]');
  form?.addEventListener('submit', (event) => {
    event.preventDefault();
    void save(form);
  });
  const base = document.querySelector<HTMLElement>('table[data-rest-base]')?.dataset.restBase;
  if (!base) return;
  for (const actions of document.querySelectorAll<HTMLFormElement>('form.content-action')) {
    actions.addEventListener('submit', (event) => {
      const submitter = (event as SubmitEvent).submitter as HTMLButtonElement | null;
      if (!submitter) return;
      event.preventDefault();
      void rowAction(actions, submitter.value, base);
    });
  }
}
