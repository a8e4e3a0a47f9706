// history/v1's arguments of the statistics (GET /stats/…): a range of Unix timestamps and the
// paging of their detail lists.
import { l } from '../../../rest/define.ts';
import type { Args, ParamsOf } from '../../../rest/types.ts';
import { validTimestamp } from './checks.ts';
import { CONTEXT_DESCRIPTION, PAGE_DESCRIPTION, PER_PAGE, SEARCH } from './shared.ts';

export const STATS_ARGS = {
  context: {
    description: CONTEXT_DESCRIPTION,
    type: 'string',
  },
  page: {
    description: PAGE_DESCRIPTION,
    type: 'integer',
    default: 1,
    minimum: 1,
  },
  per_page: PER_PAGE,
  search: SEARCH,
  date_from: {
    description: l(
      'Start date as Unix timestamp (default: 30 days ago).',
      'Startzeitpunkt als Unix-Zeitstempel (Standard: vor 30 Tagen).',
    ),
    type: 'integer',
    validate: validTimestamp,
  },
  date_to: {
    description: l(
      'End date as Unix timestamp (default: end of today).',
      'Endzeitpunkt als Unix-Zeitstempel (Standard: Ende des heutigen Tages).',
    ),
    type: 'integer',
    validate: validTimestamp,
  },
  limit: {
    description: l('Maximum number of detail items.', 'Höchstzahl der Detaileinträge.'),
    type: 'integer',
    default: 50,
    minimum: 1,
    maximum: 100,
  },
  include_details: {
    description: l('Include detailed stats.', 'Detaillierte Statistik einschließen.'),
    type: 'boolean',
    default: false,
  },
} as const satisfies Args;

export type StatsParams = ParamsOf<typeof STATS_ARGS>;
