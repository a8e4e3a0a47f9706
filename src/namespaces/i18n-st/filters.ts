// The filters of GET strings / itemscount / filters and GET string-packages (contract §4.7):
// parsing them from a request, with the reference's invalid-parameter errors in both languages,
// and the argument checks of those routes.
import { MAX_DB_INT } from '../../db/limits.ts';
import type { Lang, Localized } from '../../rest/types.ts';
import { MSG, fill } from '../../rest/messages.ts';
import { RestError } from '../../rest/types.ts';
import { ACTIVE_LANGUAGES, isActiveLanguage } from './languages.ts';
import { COMPONENT_TYPES } from './registry.ts';
import { ST_MSG } from './messages.ts';

export const MAX_LIMIT = 1000;
/** Virtual status: complete, but the review status says it needs review. */
export const STATUS_NEEDS_REVIEW = 30;

export interface Sorting {
  by: string;
  order: 'asc' | 'desc';
}

/** The filters, page and order that the string and package lists share. */
interface ListFilters {
  title: string | null;
  sourceLanguageCode: string | null;
  targetLanguageCode: string | null;
  translationStatuses: number[];
  limit: number;
  offset: number;
  sorting: Sorting | null;
}

export interface StringFilters extends ListFilters {
  kind: number | null;
  type: number | null;
  source: number | null;
  domain: string | null;
  translationPriority: string | null;
  /** gettext context, exactly ('' for strings without one); GET strings/translations only. */
  context: string | null;
  /** Package id; GET strings/translations only. */
  packageId: number | null;
  /** Only the strings assigned to this translator (set by the service, never read from a request). */
  assignedTo: Assignment | null;
}

/** A translator's strings: ids from their translation rows and string jobs (subqueries), and from their batch jobs' fields. */
export interface Assignment {
  userId: number;
  batchStringIds: number[];
}

export interface PackageFilters extends ListFilters {
  type: string | null;
}

/** Sortable columns: the reference sorts by title only (and by id otherwise); both are index scans. */
export const STRING_SORT_COLUMNS = ['title', 'id'] as const;
export const PACKAGE_SORT_COLUMNS = ['title', 'id'] as const;

/** Thrown by the parsers; carries the reference's invalid-parameter shape, in both languages. */
export class FilterError extends RestError {
  param: string;
  text: Localized;
  constructor(param: string, text: Localized, lang: Lang = 'en') {
    super('rest_invalid_param', fill(MSG.invalidParams[lang], param), 400, { params: { [param]: text[lang] } });
    this.param = param;
    this.text = text;
  }
  localize(lang: Lang): FilterError {
    return new FilterError(this.param, this.text, lang);
  }
}

function inLang<T>(lang: Lang, parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    if (err instanceof FilterError && lang !== 'en') throw err.localize(lang);
    throw err;
  }
}

const absent = (v: unknown) => v === undefined || v === null || v === '';

function parseInt01(v: unknown, name: string, allowed: number[]): number | null {
  if (absent(v)) return null;
  const n = typeof v === 'string' ? Number(v.trim()) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || !allowed.includes(n)) {
    throw new FilterError(name, ST_MSG.mustBeOneOf(name, allowed));
  }
  return n;
}

function parseComponentType(v: unknown): number | null {
  if (absent(v)) return null;
  const s = typeof v === 'string' || typeof v === 'number' ? String(v).trim().toLowerCase() : '';
  if (/^[0-3]$/.test(s)) return Number(s);
  if (Object.hasOwn(COMPONENT_TYPES, s)) return COMPONENT_TYPES[s as keyof typeof COMPONENT_TYPES];
  throw new FilterError('type', ST_MSG.componentTypeInvalid);
}

function parseText(v: unknown, name: string, max = 191): string | null {
  if (absent(v)) return null;
  if (typeof v !== 'string' && typeof v !== 'number') throw new FilterError(name, ST_MSG.notOfType(name, 'string'));
  const s = String(v);
  if (s.length > max) throw new FilterError(name, ST_MSG.tooLong(name, max));
  return s;
}

function parseLanguage(v: unknown, name: string): string | null {
  const s = parseText(v, name, 10);
  if (s === null) return null;
  if (!isActiveLanguage(s)) throw new FilterError(name, ST_MSG.notOneOf(name, ACTIVE_LANGUAGES));
  return s;
}

/** `translationStatuses`: a list of integers, or a comma-separated string of them. */
export function parseStatuses(v: unknown): number[] {
  if (absent(v)) return [];
  let items: unknown[];
  if (Array.isArray(v)) items = v;
  else if (typeof v === 'object') items = Object.values(v as Record<string, unknown>);
  else if (typeof v === 'string' || typeof v === 'number')
    items = String(v)
      .split(/[\s,]+/)
      .filter(Boolean);
  else items = [v];
  const out: number[] = [];
  for (const item of items) {
    const n = typeof item === 'string' ? Number(item.trim()) : item;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 1000) {
      throw new FilterError('translationStatuses', ST_MSG.statusesInvalid);
    }
    if (!out.includes(n)) out.push(n);
  }
  return out;
}

function parseBound(v: unknown, name: string, def: number, min: number, max: number): number {
  if (absent(v)) return def;
  const n = typeof v === 'string' ? Number(v.trim()) : v;
  if (typeof n !== 'number' || !Number.isInteger(n)) throw new FilterError(name, ST_MSG.notOfType(name, 'integer'));
  if (n < min || n > max) throw new FilterError(name, ST_MSG.outOfRange(name, min, max));
  return n;
}

/**
 * `sorting`: `{by, order}` (the reference UI's shape), a map `{column: direction}`, or a
 * string `column`, `column:direction` or `column direction`.
 */
export function parseSorting(v: unknown, columns: readonly string[]): Sorting | null {
  if (absent(v)) return null;
  let by: unknown;
  let order: unknown = 'asc';
  if (typeof v === 'string') {
    const m = /^\s*([A-Za-z]+)(?:[\s:]+([A-Za-z]+))?\s*$/.exec(v);
    if (!m) throw new FilterError('sorting', ST_MSG.sortingUnreadable(columns));
    by = m[1];
    order = m[2] ?? 'asc';
  } else if (typeof v === 'object' && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    if ('by' in o) {
      by = o.by;
      order = o.order ?? 'asc';
    } else {
      const entries = Object.entries(o);
      if (entries.length !== 1) throw new FilterError('sorting', ST_MSG.sortingOneColumn);
      [by, order] = entries[0]!;
    }
  } else {
    throw new FilterError('sorting', ST_MSG.notOfType('sorting', 'object'));
  }
  if (typeof by !== 'string' || !columns.includes(by)) {
    throw new FilterError('sorting', ST_MSG.sortingColumn(columns));
  }
  const dir = typeof order === 'string' ? order.toLowerCase() : '';
  if (dir !== 'asc' && dir !== 'desc') throw new FilterError('sorting', ST_MSG.sortingOrder);
  return { by, order: dir };
}

function parseListFilters(p: Record<string, unknown>, sortColumns: readonly string[]): ListFilters {
  return {
    title: parseText(p.title, 'title', 1000),
    sourceLanguageCode: parseLanguage(p.sourceLanguageCode, 'sourceLanguageCode'),
    targetLanguageCode: parseLanguage(p.targetLanguageCode, 'targetLanguageCode'),
    translationStatuses: parseStatuses(p.translationStatuses),
    limit: parseBound(p.limit, 'limit', 10, 1, MAX_LIMIT),
    offset: parseBound(p.offset, 'offset', 0, 0, Number.MAX_SAFE_INTEGER),
    sorting: parseSorting(p.sorting, sortColumns),
  };
}

/** Parses the string filters from request parameters (declared or raw). Throws FilterError. */
export function parseStringFilters(p: Record<string, unknown>, lang: Lang = 'en'): StringFilters {
  return inLang(lang, () => ({
    kind: parseInt01(p.kind, 'kind', [0, 1]),
    type: parseComponentType(p.type),
    source: parseInt01(p.source, 'source', [0, 1]),
    domain: parseText(p.domain, 'domain'),
    translationPriority: parseText(p.translationPriority, 'translationPriority', 100),
    ...parseListFilters(p, STRING_SORT_COLUMNS),
    context: p.context === undefined || p.context === null ? null : parseContext(p.context),
    packageId: absent(p.package) ? null : parseBound(p.package, 'package', 0, 1, MAX_DB_INT),
    assignedTo: null,
  }));
}

/** `context`: any text up to the column's length; '' selects the strings without a context. */
function parseContext(v: unknown): string {
  return parseText(v, 'context') ?? '';
}

export function parsePackageFilters(p: Record<string, unknown>, lang: Lang = 'en'): PackageFilters {
  return inLang(lang, () => ({
    type: parseText(p.type, 'type', 100),
    ...parseListFilters(p, PACKAGE_SORT_COLUMNS),
  }));
}

/** A validate callback for the route args: true, or the parser's message. */
export function argCheck(parse: (v: unknown) => unknown): (value: unknown, req: { lang: Lang }) => true | string {
  return (value, req) => {
    try {
      parse(value);
      return true;
    } catch (err) {
      if (err instanceof FilterError) return err.text[req?.lang ?? 'en'];
      throw err;
    }
  };
}
export const checkers = {
  kind: argCheck((v) => parseInt01(v, 'kind', [0, 1])),
  type: argCheck(parseComponentType),
  source: argCheck((v) => parseInt01(v, 'source', [0, 1])),
  sourceLanguageCode: argCheck((v) => parseLanguage(v, 'sourceLanguageCode')),
  targetLanguageCode: argCheck((v) => parseLanguage(v, 'targetLanguageCode')),
  translationStatuses: argCheck(parseStatuses),
  limit: argCheck((v) => parseBound(v, 'limit', 10, 1, MAX_LIMIT)),
  offset: argCheck((v) => parseBound(v, 'offset', 0, 0, Number.MAX_SAFE_INTEGER)),
  stringSorting: argCheck((v) => parseSorting(v, STRING_SORT_COLUMNS)),
  packageSorting: argCheck((v) => parseSorting(v, PACKAGE_SORT_COLUMNS)),
  context: argCheck(parseContext),
  package: argCheck((v) => parseBound(v, 'package', 0, 1, MAX_DB_INT)),
};

/** The column contains the text, ignoring case (on PostgreSQL under the column's own collation). */
