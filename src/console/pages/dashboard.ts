// The console's start page (/cms-admin/): a greeting, the activity of today and the last
// seven days, and the latest events, as far as the user's role lets them see events.
import type { ConsolePage } from '../context.ts';
import { fmt } from '../../web/api.ts';
import { HISTORY_PAGE } from '../history/query.ts';
import { eventViews, viewOptions, type ApiEvent } from '../history/view.ts';
import { STATS_PAGE } from './stats.ts';
import { displayLocale } from '../i18n.ts';

export const dashboardPage: ConsolePage = {
  path: '/cms-admin/',
  capability: null,
  title: 'dashboardTitle',
  navOrder: 10,
  async handle(ctx) {
    const [options, latest] = await Promise.all([
      ctx.api('GET', '/history/v1/search-options'),
      ctx.api('GET', '/history/v1/events', { per_page: 5 }),
    ]);
    const o = options.body as {
      loggers: unknown[];
      initiators: { value: string; label: string }[];
      stats: { num_events_today: number; num_events_last_7_days: number };
    };
    const readsEvents = options.status === 200 && o.loggers.length > 0;
    const number = (n: number) => n.toLocaleString(displayLocale(ctx.lang));
    return ctx.html('dashboard.twig', ctx.t.dashboardTitle, {
      welcome: fmt(ctx.t.welcome, { name: ctx.user.displayName }),
      readsEvents,
      counts: readsEvents
        ? [
            { label: ctx.t.eventsToday, value: number(o.stats.num_events_today) },
            { label: ctx.t.eventsWeek, value: number(o.stats.num_events_last_7_days) },
          ]
        : [],
      events:
        readsEvents && latest.status === 200 ? await eventViews(latest.body as ApiEvent[], viewOptions(ctx, o)) : [],
      logUrl: ctx.url(`/cms-admin/admin.php?page=${HISTORY_PAGE}`),
      statsUrl: ctx.user.can('manage_options') ? ctx.url(`/cms-admin/admin.php?page=${STATS_PAGE}`) : '',
    });
  },
};
