// The filters of GET /jobs (reference plugins §5.2): each parameter's check (the route's
// `validate` callbacks), and the filters parsed from the checked parameters.
import { MAX_ALTERNATIVES, MAX_LIST_ITEMS } from '../../db/limits.ts';
import { invalidParamsError } from '../../rest/param-errors.ts';
import type { Lang } from '../../rest/types.ts';
import {
  MAX_ID,
  NEEDS_UPDATE_VALUES,
  SCOPES,
  parseDate,
  parseJobIdList,
  parsePositiveInt,
  parseSorting,
  parseStatusList,
  parseStringList,
  scalarText,
  type Scope,
  type Sorting,
} from './model.ts';

export interface JobFilters {
  localJobIds?: number[];
  scope?: Scope;
  id?: number;
  titles?: string[];
  sourceLanguage?: string;
  targetLanguages?: string[];
  statuses?: number[];
  needsUpdate?: 'include' | 'exclude';
  limit?: number;
  offset?: number;
  sorting: Sorting[];
  translatedBy?: number;
  sentFrom?: string;
  sentTo?: string;
  deadlineFrom?: string;
  deadlineTo?: string;
}

const integerCheck = (name: string) => (v: unknown) =>
  Number.isInteger(typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v)
    ? true
    : `${name} must be an integer.`;
const dateCheck = (name: string) => (v: unknown) =>
  v === '' || parseDate(v) !== null ? true : `${name} must be a date YYYY-MM-DD.`;

// Per-parameter checks: the route's `validate` callbacks (args.ts); parseJobQuery trusts them.
export const JOB_FILTER_CHECKS: Record<string, (value: unknown) => true | string> = {
  local_job_ids: (v) => {
    const ids = parseJobIdList(v);
    if (ids === null) return 'local_job_ids must be a comma-separated list of job ids.';
    return ids.length <= MAX_LIST_ITEMS ? true : `local_job_ids may list at most ${MAX_LIST_ITEMS} jobs.`;
  },
  // Each title part is one alternative of an OR; each language one bound value.
  title: (v) =>
    parseStringList(v).length <= MAX_ALTERNATIVES ? true : `title may hold at most ${MAX_ALTERNATIVES} parts.`,
  target_language: (v) =>
    parseStringList(v).length <= MAX_LIST_ITEMS
      ? true
      : `target_language may list at most ${MAX_LIST_ITEMS} languages.`,
  scope: (v) =>
    typeof v === 'string' && (v === '' || (SCOPES as readonly string[]).includes(v))
      ? true
      : `scope must be one of ${SCOPES.join(', ')}.`,
  id: (v) => (v === '' || v === 0 || parsePositiveInt(v) !== null ? true : 'id must be a positive integer.'),
  status: (v) =>
    parseStatusList(v) !== null
      ? true
      : 'status must be a comma-separated list of status codes (0, 1, 2, 3, 4, 9, 10, 20, 30, 40, 42, 102).',
  needs_update: (v) =>
    v === '' || (NEEDS_UPDATE_VALUES as readonly unknown[]).includes(v)
      ? true
      : 'needs_update must be include or exclude.',
  limit: integerCheck('limit'),
  offset: integerCheck('offset'),
  sorting: (v) => {
    const s = parseSorting(v);
    return typeof s === 'string' ? s : true;
  },
  translated_by: (v) => (v === '' || parsePositiveInt(v) !== null ? true : 'translated_by must be a user id.'),
  sent_from: dateCheck('sent_from'),
  sent_to: dateCheck('sent_to'),
  deadline_from: dateCheck('deadline_from'),
  deadline_to: dateCheck('deadline_to'),
};

const present = (v: unknown) => v !== undefined && v !== null && v !== '';

/**
 * The filters of `GET /jobs` from its validated parameters (each passed JOB_FILTER_CHECKS);
 * throws 400 rest_invalid_param for a date range that ends before it starts.
 */
export function parseJobQuery(params: Record<string, unknown>, lang: Lang = 'en'): JobFilters {
  const f: JobFilters = { sorting: [] };
  if (present(params.local_job_ids)) {
    const ids = parseJobIdList(params.local_job_ids)!;
    if (ids.length) f.localJobIds = ids;
  }
  if (present(params.scope)) f.scope = params.scope as Scope;
  if (present(params.id) && params.id !== 0) f.id = parsePositiveInt(params.id)!;
  if (present(params.title)) {
    const titles = parseStringList(params.title);
    if (titles.length) f.titles = titles;
  }
  if (present(params.source_language))
    f.sourceLanguage = (scalarText(params.source_language) ?? '').replace(/\u0000/g, '').trim();
  if (present(params.target_language)) {
    const langs = parseStringList(params.target_language);
    if (langs.length) f.targetLanguages = langs;
  }
  if (params.status !== undefined && params.status !== null) {
    const statuses = parseStatusList(params.status)!;
    if (statuses.length) f.statuses = statuses;
  }
  if (present(params.needs_update)) f.needsUpdate = params.needs_update as 'include' | 'exclude';
  const limit = present(params.limit) ? Number(params.limit) : 0;
  if (limit > 0) {
    f.limit = Math.min(limit, MAX_ID);
    const offset = present(params.offset) ? Number(params.offset) : 0;
    if (offset > 0) f.offset = Math.min(offset, MAX_ID);
  }
  f.sorting = present(params.sorting) ? (parseSorting(params.sorting) as Sorting[]) : [];
  if (present(params.translated_by)) f.translatedBy = parsePositiveInt(params.translated_by)!;
  const [sentFrom, sentTo] = dateRange(params, 'sent_from', 'sent_to', lang);
  if (sentFrom) f.sentFrom = sentFrom;
  if (sentTo) f.sentTo = sentTo;
  const [deadlineFrom, deadlineTo] = dateRange(params, 'deadline_from', 'deadline_to', lang);
  if (deadlineFrom) f.deadlineFrom = deadlineFrom;
  if (deadlineTo) f.deadlineTo = deadlineTo;
  return f;
}

/** The dates of a from/to pair (already checked), refusing a range that ends before it starts. */
function dateRange(
  params: Record<string, unknown>,
  from: string,
  to: string,
  lang: Lang,
): [string | null, string | null] {
  const a = present(params[from]) ? parseDate(params[from]) : null;
  const b = present(params[to]) ? parseDate(params[to]) : null;
  if (a && b && a > b) throw invalidParamsError({ lang }, { [to]: `${to} must not be before ${from}.` });
  return [a, b];
}
