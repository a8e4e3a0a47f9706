// The REST API as the console's scripts call it: same origin, the session cookie, and the
// session's `wp_rest` nonce in X-WP-Nonce (from the page's meta tag, refreshed from each
// answer's X-WP-Nonce), as WordPress's api-fetch does.

function meta(name: string): string {
  return document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? '';
}

const root = meta('cms-rest-root');
let nonce = meta('cms-rest-nonce');

export interface RestAnswer<T> {
  status: number;
  body: T;
  headers: Headers;
}

/** `path` below the API root, e.g. `history/v1/events?per_page=5`. */
export async function rest<T>(
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: Record<string, unknown>,
): Promise<RestAnswer<T>> {
  const headers: Record<string, string> = { 'X-WP-Nonce': nonce, Accept: 'application/json' };
  if (body) headers['Content-Type'] = 'application/json';
  const res = await fetch(root + path, {
    method,
    headers,
    credentials: 'same-origin',
    body: body ? JSON.stringify(body) : undefined,
  });
  const fresh = res.headers.get('X-WP-Nonce');
  if (fresh) nonce = fresh;
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T, headers: res.headers };
}

/** A piece of a console page (server-rendered HTML), fetched with the session cookie. */
export async function fragment(url: string): Promise<{ status: number; html: string }> {
  const res = await fetch(url, { credentials: 'same-origin', headers: { Accept: 'text/html' } });
  return { status: res.status, html: await res.text() };
}

/** The message of an API error answer, or a fallback. */
export function errorMessage(body: unknown, fallback: string): string {
  const b = body as { message?: unknown } | null;
  return typeof b?.message === 'string' ? b.message : fallback;
}

export interface SaveAnnouncement<T> {
  saving: string;
  /** Also when the request itself fails. */
  failed: string;
  /** What a 200 answer leaves in the state (after any update of the form). */
  saved: (answer: RestAnswer<T>) => string;
  /** What an error answer leaves in the state; the API's message by default. */
  problem?: (body: unknown) => string;
}

/** Sends a save with its button disabled, announcing its progress and outcome in `state`. */
export async function announcedSave<T>(
  state: HTMLElement,
  button: HTMLButtonElement,
  send: () => Promise<RestAnswer<T>>,
  texts: SaveAnnouncement<T>,
): Promise<void> {
  state.classList.remove('is-error');
  state.textContent = texts.saving;
  button.disabled = true;
  try {
    const answer = await send();
    const ok = answer.status === 200;
    state.textContent = ok
      ? texts.saved(answer)
      : (texts.problem ?? ((body) => errorMessage(body, texts.failed)))(answer.body);
    state.classList.toggle('is-error', !ok);
  } catch {
    state.classList.add('is-error');
    state.textContent = texts.failed;
  } finally {
    button.disabled = false;
  }
}
