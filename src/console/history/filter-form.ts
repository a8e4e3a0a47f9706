// The filter form of the activity log page: its choices from the API's `search-options` (dates,
// levels, the message types of each logger, initiators; the chosen users by name), and what of
// them the address (query.ts) has chosen.
import { LOG_LEVELS } from '../../namespaces/history/api.ts';
import type { Lang } from '../../rest/types.ts';
import { fmt } from '../../web/api.ts';
import type { ConsoleContext } from '../context.ts';
import { displayLocale } from '../i18n.ts';
import { contextFilters, type LogFilters } from './query.ts';

export interface SearchOptions {
  dates: { result_months: { yearMonth: string }[] };
  loggers: { slug: string; name: string; search_data: SearchData | unknown[] }[];
  initiators: { value: string; label: string }[];
  new_events_check_interval: number;
}

interface SearchData {
  search?: { label: string; options: string[] };
  search_all?: { label: string; options: string[] };
  search_options?: { label: string; options?: string[]; value?: string[] }[];
}

/** The message-type choices of one logger: each a label and the pairs it stands for. */
function messageChoices(data: SearchData | unknown[]): { label: string; value: string }[] {
  if (Array.isArray(data)) return [];
  const seen = new Set<string>();
  const out: { label: string; value: string }[] = [];
  const add = (label: string, pairs: string[] | undefined) => {
    const value = (pairs ?? []).join(',');
    if (value && !seen.has(value)) {
      seen.add(value);
      out.push({ label, value });
    }
  };
  if (data.search_all) add(data.search_all.label, data.search_all.options);
  if (data.search) add(data.search.label, data.search.options);
  for (const o of data.search_options ?? []) add(o.label, o.value ?? o.options);
  return out;
}

export async function searchOptions(ctx: ConsoleContext): Promise<SearchOptions> {
  const out = await ctx.api('GET', '/history/v1/search-options');
  if (out.status !== 200) throw new Error(`search-options answered ${out.status}`);
  return out.body as SearchOptions;
}

/** The pieces of the filter form: choices and what is chosen. */
export async function filterForm(ctx: ConsoleContext, f: LogFilters, options: SearchOptions) {
  const { t } = ctx;
  const checked = (list: string[]) => new Set(list);
  const levels = checked(f.loglevels.values);
  const messages = checked(f.messages.values);
  const initiators = checked(f.initiator.values);
  const canListUsers = ctx.user.can('list_users');
  // The chosen users by name (search-user finds an id exactly).
  const users = [];
  if (canListUsers) {
    for (const id of f.users.values) {
      const found = await ctx.api('GET', '/history/v1/search-user', { q: id });
      const u = (
        found.status === 200 ? (found.body as { ID: string; user_login: string; display_name: string }[]) : []
      ).find((r) => r.ID === id);
      users.push({ id, label: u ? `${u.display_name} (${u.user_login})` : `#${id}` });
    }
  }
  const dateChoices = [
    { value: '', label: t.allDates },
    { value: 'lastdays:1', label: t.today },
    { value: 'yesterday', label: t.yesterday },
    ...[7, 14, 30, 60, 90].map((n) => ({ value: `lastdays:${n}`, label: fmt(t.lastDays, { n }) })),
  ];
  const months = options.dates.result_months
    .slice(0, 36)
    .map((m) => ({ value: `month:${m.yearMonth}`, label: monthLabel(m.yearMonth, ctx.lang) }));
  const loggers = options.loggers
    .map((l) => ({
      name: l.name,
      choices: messageChoices(l.search_data).map((c) => ({ ...c, checked: messages.has(c.value) })),
    }))
    .filter((l) => l.choices.length);
  const more = !!(
    f.messages.values.length ||
    f.users.values.length ||
    f.initiator.values.length ||
    f.ip ||
    f.context ||
    f.excludeSearch ||
    f.metadataSearch
  );
  return {
    f,
    more,
    dateChoices: dateChoices.map((d) => ({ ...d, selected: d.value === f.dates })),
    months: months.map((d) => ({ ...d, selected: d.value === f.dates })),
    custom: f.dates === 'custom',
    levels: LOG_LEVELS.map((l) => ({ value: l, label: t[`level_${l}`], checked: levels.has(l) })),
    loggers,
    messagesChosen: f.messages.values.length,
    initiators: options.initiators.map((i) => ({ ...i, checked: initiators.has(i.value) })),
    canListUsers,
    users,
    showIp: options.loggers.some((l) => l.slug === 'SimpleUserLogger'),
    contextInvalid: f.context !== '' && contextFilters(f.context) === null,
  };
}

function monthLabel(yearMonth: string, lang: Lang): string {
  const [y, m] = yearMonth.split('-').map(Number);
  return new Intl.DateTimeFormat(displayLocale(lang), { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(Date.UTC(y!, m! - 1, 15)),
  );
}
