// The activity log page in the browser: similar events expand in place, new events are
// announced (has-updates), `#history/event/<id>` opens that event in a dialog, stick/unstick
// and custom entries go through the REST API, users are suggested from search-user, and the
// export is streamed with a progress bar. The server-rendered page does all of this without
// the script, through links and forms.
import { errorMessage, fragment, rest } from './api.ts';

const EVENT_HASH = /^#history\/event\/(\d+)$/;

function say(region: Element | null, text: string): void {
  if (region) region.textContent = text;
}

function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (m, name: string) => (name in values ? String(values[name]) : m));
}

function strings(): Record<string, string> {
  return JSON.parse(document.getElementById('history-strings')?.dataset.strings ?? '{}') as Record<string, string>;
}

let t: Record<string, string> = {};

// ---- similar events ---------------------------------------------------------------------

async function toggleOccasions(link: HTMLAnchorElement): Promise<void> {
  const holder = link.closest('.occasions')!;
  const open = holder.nextElementSibling?.classList.contains('occasions-list')
    ? (holder.nextElementSibling as HTMLElement)
    : null;
  if (open) {
    open.remove();
    link.setAttribute('aria-expanded', 'false');
    link.textContent = link.dataset.showLabel!;
    return;
  }
  link.dataset.showLabel ??= link.textContent ?? '';
  link.setAttribute('aria-busy', 'true');
  const url = new URL(link.href);
  url.searchParams.set('partial', 'occasions');
  const { status, html } = await fragment(url.toString());
  link.removeAttribute('aria-busy');
  const list = document.createElement('div');
  list.className = 'occasions-list';
  list.id = `occasions-${link.dataset.below}`;
  list.innerHTML = status === 200 ? html : `<p class="notice notice-error">${t.loadFailed}</p>`;
  holder.after(list);
  link.setAttribute('aria-controls', list.id);
  link.setAttribute('aria-expanded', 'true');
  link.textContent = link.dataset.hideLabel!;
  enhance(list);
}

// ---- the list: reloading it in place ----------------------------------------------------

function listRegion(): HTMLElement {
  return document.getElementById('event-list')!;
}

/** Replaces the list with a fresh rendering of `url` (a list fragment address). */
async function reloadList(url: string): Promise<boolean> {
  const { status, html } = await fragment(url);
  if (status !== 200) return false;
  const holder = document.createElement('div');
  holder.innerHTML = html;
  const fresh = holder.firstElementChild as HTMLElement;
  listRegion().replaceWith(fresh);
  enhance(fresh);
  startPolling();
  return true;
}

function currentListFragment(): string {
  const url = new URL(window.location.href);
  url.hash = '';
  url.searchParams.set('partial', 'list');
  return url.toString();
}

// ---- live: new events --------------------------------------------------------------------

let poll: ReturnType<typeof setTimeout> | null = null;

function startPolling(): void {
  if (poll) clearTimeout(poll);
  // A single event's page or similar events on their own have no list to keep current.
  const region = document.getElementById('event-list');
  if (!region) return;
  const interval = Math.max(2000, Number(region.dataset.checkInterval) || 10000);
  const check = async () => {
    poll = setTimeout(check, interval);
    if (document.hidden) return;
    const since = region.dataset.newestId ?? '0';
    const query = region.dataset.apiQuery ? `&${region.dataset.apiQuery}` : '';
    const answer = await rest<{ new_events_count: number | null }>(
      'GET',
      `history/v1/events/has-updates?since_id=${since}${query}`,
    ).catch(() => null);
    const n = answer?.status === 200 ? Number(answer.body.new_events_count ?? 0) : 0;
    if (n > 0) announceNew(n);
  };
  poll = setTimeout(check, interval);
}

function announceNew(n: number): void {
  const live = document.getElementById('new-events')!;
  if (live.dataset.count === String(n)) return;
  live.dataset.count = String(n);
  live.replaceChildren();
  const text = document.createElement('span');
  text.textContent = n === 1 ? t.newEvent! : fill(t.newEvents!, { n });
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'button button-small';
  button.textContent = t.showNewEvents!;
  button.addEventListener('click', async () => {
    if (await reloadList(listRegion().dataset.fragmentUrl!)) {
      history.replaceState(null, '', listRegion().dataset.listUrl);
      document.getElementById('events-summary')?.setAttribute('tabindex', '-1');
      (document.getElementById('events-summary') ?? listRegion()).focus();
    }
  });
  live.append(text, ' ', button);
}

// ---- one event: #history/event/<id> ------------------------------------------------------

let returnFocus: HTMLElement | null = null;

async function openEventFromHash(): Promise<void> {
  const m = EVENT_HASH.exec(window.location.hash);
  const dialog = document.getElementById('event-dialog') as HTMLDialogElement | null;
  if (!dialog) return;
  if (!m) {
    if (dialog.open) dialog.close();
    return;
  }
  const id = m[1]!;
  const body = dialog.querySelector('.dialog-body')!;
  dialog.querySelector('#event-dialog-heading')!.textContent = fill(t.eventHeading!, { id });
  body.textContent = dialog.dataset.loading ?? '';
  returnFocus ??= document.activeElement as HTMLElement | null;
  if (!dialog.open) dialog.showModal();
  const url = new URL(window.location.href);
  url.hash = '';
  for (const key of [...url.searchParams.keys()]) if (key !== 'page') url.searchParams.delete(key);
  url.searchParams.set('partial', 'event');
  url.searchParams.set('event', id);
  const { html } = await fragment(url.toString());
  body.innerHTML = html;
  enhance(body as HTMLElement);
}

function setUpDialog(): void {
  const dialog = document.getElementById('event-dialog') as HTMLDialogElement | null;
  if (!dialog) return;
  dialog.querySelector('[data-close]')?.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => {
    if (EVENT_HASH.test(window.location.hash))
      history.replaceState(null, '', window.location.pathname + window.location.search);
    returnFocus?.focus();
    returnFocus = null;
  });
  window.addEventListener('hashchange', () => void openEventFromHash());
  void openEventFromHash();
}

// ---- actions through the REST API ------------------------------------------------------

async function stickOrUnstick(form: HTMLFormElement): Promise<void> {
  const action = form.dataset.rest as 'stick' | 'unstick';
  const id = form.dataset.eventId!;
  const status = document.getElementById('new-events');
  const answer = await rest('POST', `history/v1/events/${id}/${action}`);
  if (answer.status !== 200) {
    say(status, errorMessage(answer.body, t.loadFailed!));
    return;
  }
  const dialog = document.getElementById('event-dialog') as HTMLDialogElement | null;
  if (dialog?.open) await openEventFromHash();
  await reloadList(currentListFragment());
  say(document.getElementById('new-events'), action === 'stick' ? t.stuck! : t.unstuck!);
}

async function addEntry(form: HTMLFormElement): Promise<void> {
  const data = new FormData(form);
  const body: Record<string, unknown> = { message: data.get('message'), level: data.get('level') };
  if (data.get('note')) body.note = data.get('note');
  const answer = await rest('POST', 'history/v1/events', body);
  if (answer.status !== 201) {
    say(document.getElementById('new-events'), errorMessage(answer.body, t.loadFailed!));
    return;
  }
  form.reset();
  await reloadList(listRegion().dataset.fragmentUrl!);
  history.replaceState(null, '', listRegion().dataset.listUrl);
  say(document.getElementById('new-events'), t.entryAdded!);
}

// ---- user suggestions ----------------------------------------------------------------------

function setUpUserSuggestions(): void {
  const input = document.getElementById('f-add-user') as HTMLInputElement | null;
  const list = document.getElementById('user-suggestions') as HTMLDataListElement | null;
  const chosen = document.getElementById('chosen-users');
  if (!input || !list || !chosen) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const found = new Map<string, { id: string; label: string }>();
  input.addEventListener('input', () => {
    const picked = found.get(input.value);
    if (picked) {
      if (!chosen.querySelector(`input[value="${picked.id}"]`)) {
        const label = document.createElement('label');
        label.className = 'check';
        const box = document.createElement('input');
        box.type = 'checkbox';
        box.name = 'users[]';
        box.value = picked.id;
        box.checked = true;
        label.append(box, ` ${picked.label}`);
        chosen.append(label);
      }
      input.value = '';
      return;
    }
    clearTimeout(timer);
    const q = input.value.trim();
    if (q.length < 2) return;
    timer = setTimeout(async () => {
      const answer = await rest<
        { ID: string; id?: string; user_login: string; display_name: string; user_email: string }[]
      >('GET', `history/v1/search-user?q=${encodeURIComponent(q)}`);
      if (answer.status !== 200) return;
      list.replaceChildren();
      found.clear();
      for (const u of answer.body) {
        const label = `${u.display_name} (${u.user_login})`;
        found.set(label, { id: u.id ?? u.ID, label });
        const option = document.createElement('option');
        option.value = label;
        option.label = u.user_email;
        list.append(option);
      }
    }, 200);
  });
}

// ---- export with progress -----------------------------------------------------------------

/** Counts the records in a chunk: CSV rows end at line breaks outside quotes, JSON events start a line with `{`. */
function recordCounter(format: string): (chunk: string) => number {
  let quoted = false;
  let previous = '';
  return (chunk) => {
    let n = 0;
    for (const ch of chunk) {
      if (format === 'csv') {
        if (ch === '"') quoted = !quoted;
        else if (ch === '\n' && !quoted) n++;
      } else if (ch === '{' && previous === '\n') n++;
      previous = ch;
    }
    return n;
  };
}

async function exportFile(link: HTMLAnchorElement): Promise<void> {
  const status = document.getElementById('export-status')!;
  const format = link.dataset.export!;
  const res = await fetch(link.href, { credentials: 'same-origin' });
  if (res.status !== 200 || !res.body) {
    say(status, t.exportFailed!);
    return;
  }
  const total = Number(res.headers.get('X-Export-Total') ?? 0);
  const name = /filename="([^"]+)"/.exec(res.headers.get('Content-Disposition') ?? '')?.[1] ?? `activity-log.${format}`;
  const bar = document.createElement('progress');
  bar.max = Math.max(total, 1);
  bar.value = 0;
  const text = document.createElement('span');
  status.replaceChildren(bar, ' ', text);
  const count = recordCounter(format);
  // The CSV's header row is a line too.
  let done = format === 'csv' ? -1 : 0;
  const parts: Uint8Array[] = [];
  const decoder = new TextDecoder();
  const reader = res.body.getReader();
  for (;;) {
    const { value, done: finished } = await reader.read();
    if (finished) break;
    parts.push(value);
    done += count(decoder.decode(value, { stream: true }));
    bar.value = Math.min(done, bar.max);
    text.textContent = fill(t.exportProgress!, { done: Math.max(done, 0), total });
  }
  const blob = new Blob(parts as BlobPart[], { type: res.headers.get('Content-Type') ?? 'application/octet-stream' });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 60_000);
  status.dataset.count = String(Math.max(done, 0));
  status.replaceChildren(fill(t.exportDone!, { n: Math.max(done, 0) }));
}

// ---- wiring ----------------------------------------------------------------------------------

/** Runs `action` instead of the element's own behaviour (following the link, posting the form). */
function instead(el: HTMLElement, type: 'click' | 'submit', action: () => Promise<void>): void {
  el.addEventListener(type, (event) => {
    event.preventDefault();
    void action();
  });
}

function enhance(root: HTMLElement | Document): void {
  for (const link of root.querySelectorAll<HTMLAnchorElement>('a.occasions-toggle')) {
    link.setAttribute('role', 'button');
    link.setAttribute('aria-expanded', 'false');
    instead(link, 'click', () => toggleOccasions(link));
    // A button is pressed with the space bar too.
    link.addEventListener('keydown', (event) => {
      if (event.key === ' ') {
        event.preventDefault();
        void toggleOccasions(link);
      }
    });
  }
  for (const form of root.querySelectorAll<HTMLFormElement>('form[data-rest="stick"], form[data-rest="unstick"]')) {
    instead(form, 'submit', () => stickOrUnstick(form));
  }
}

export function init(): void {
  t = strings();
  enhance(document);
  startPolling();
  setUpDialog();
  setUpUserSuggestions();
  const entry = document.getElementById('add-entry-form') as HTMLFormElement | null;
  if (entry) instead(entry, 'submit', () => addEntry(entry));
  for (const link of document.querySelectorAll<HTMLAnchorElement>('a[data-export]'))
    instead(link, 'click', () => exportFile(link));
}
