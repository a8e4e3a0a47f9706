// The console's script: what every page shares (relative times kept current, forms that send
// only what is set), and the page's own module, loaded when the page has one. Every page works
// without it; it only makes pages quicker to use.
import { relativeTime } from './relative-time.ts';

const lang = document.body.dataset.lang ?? 'en';

function refreshTimes(): void {
  const now = new Date();
  for (const el of document.querySelectorAll<HTMLTimeElement>('time[data-relative]')) {
    el.textContent = relativeTime(new Date(el.dateTime), now, lang);
  }
}

/**
 * A GET form's address without empty fields and default choices, so that a filtered view's
 * address holds the filters only (and can be bookmarked and shared).
 */
function tidyGetForms(): void {
  for (const form of document.querySelectorAll<HTMLFormElement>('form[method="get"]')) {
    form.addEventListener('submit', (event) => {
      if (event.defaultPrevented) return;
      event.preventDefault();
      const params = new URLSearchParams();
      for (const [name, value] of new FormData(form)) {
        if (typeof value !== 'string' || value === '' || (name.endsWith('_mode') && value === 'include')) continue;
        params.append(name, value);
      }
      const url = new URL(form.action);
      url.search = params.toString();
      window.location.assign(url.toString());
    });
  }
}

refreshTimes();
setInterval(refreshTimes, 30_000);
tidyGetForms();

// The page's own module, then a mark for measuring time to interactive (bench/console.ts).
const page = document.body.dataset.page;
const modules: Record<string, () => Promise<{ init(): void }>> = {
  history_admin_menu_page: () => import('./history.ts'),
  history_stats_page: () => import('./stats.ts'),
  'i18n-st/menu/string-translation.php': () => import('./strings.ts'),
  'i18n-tm/menu/translations-queue.php': () => import('./jobs.ts'),
  'i18n/menu/custom-xml-config.php': () => import('./xml-config.ts'),
  'sched-settings': () => import('./sched.ts'),
  edit: () => import('./content.ts'),
  post: () => import('./content.ts'),
};
void (modules[page ?? '']?.() ?? Promise.resolve(null)).then((m) => {
  m?.init();
  performance.mark('console-ready');
});
