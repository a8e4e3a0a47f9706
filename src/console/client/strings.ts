// String translation in the browser: a translation is saved through the REST API without
// leaving the page (its state announced next to the button), a bulk action likewise (then the
// page shows the strings again), and "select all" appears. The server-rendered page does the
// same through its forms.
import { announcedSave, errorMessage, rest } from './api.ts';

let t: Record<string, string> = {};

async function saveTranslation(form: HTMLFormElement): Promise<void> {
  const state = form.querySelector<HTMLElement>('.save-state')!;
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
  const data = new FormData(form);
  const send = () =>
    rest<{ status: number }>('POST', `i18n/st/v1/strings/${form.dataset.stringId}/translations`, {
      language: form.dataset.language,
      value: data.get('value'),
      status: Number(data.get('status')),
    });
  await announcedSave(state, button, send, { saving: t.stSaving!, failed: t.loadFailed!, saved: () => t.stSaved! });
}

async function applyBulk(form: HTMLFormElement): Promise<void> {
  const live = document.getElementById('st-live')!;
  const ids = [...document.querySelectorAll<HTMLInputElement>('input[name="ids[]"]:checked')].map((box) =>
    Number(box.value),
  );
  if (!ids.length) {
    live.textContent = t.stBulkNone!;
    return;
  }
  const choice = String(new FormData(form).get('bulk_action'));
  const body = choice.startsWith('status:')
    ? { ids, action: 'set_status', status: Number(choice.slice(7)) }
    : { ids, action: choice };
  const answer = await rest<{ updated: number; skipped: unknown[] }>(
    'POST',
    'i18n/st/v1/strings/translations/bulk',
    body,
  );
  if (answer.status !== 200) {
    live.textContent = errorMessage(answer.body, t.loadFailed!);
    return;
  }
  // The rows show the new statuses after a fresh rendering of the same view.
  const url = new URL(window.location.href);
  url.searchParams.set('done', 'bulk');
  url.searchParams.set('count', String(answer.body.updated));
  url.searchParams.set('skipped', String(answer.body.skipped.length));
  url.hash = '';
  window.location.assign(url.toString());
}

function setUpSelectAll(): void {
  const all = document.getElementById('st-select-all') as HTMLInputElement | null;
  if (!all) return;
  all.closest<HTMLElement>('.select-all-row')!.hidden = false;
  const boxes = () => [...document.querySelectorAll<HTMLInputElement>('input[name="ids[]"]')];
  all.addEventListener('change', () => boxes().forEach((box) => (box.checked = all.checked)));
}

export function init(): void {
  t = JSON.parse(document.getElementById('strings-strings')?.dataset.strings ?? '{}') as Record<string, string>;
  for (const form of document.querySelectorAll<HTMLFormElement>('form.translation-form')) {
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void saveTranslation(form);
    });
  }
  const bulk = document.getElementById('bulk-form') as HTMLFormElement | null;
  bulk?.addEventListener('submit', (event) => {
    event.preventDefault();
    void applyBulk(bulk);
  });
  setUpSelectAll();
}
