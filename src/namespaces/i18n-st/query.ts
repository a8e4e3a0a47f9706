// Reading the string registry: the filters of GET strings / itemscount / filters and
// GET string-packages (contract §4.7), each served by an index of migration 0005.
import { sql, type Expression, type SqlBool } from 'kysely';
import type { AppServices } from '../../site/services.ts';
import { likeContains } from '../../db/like.ts';
import { MAX_DB_INT } from '../../db/limits.ts';
import type { Lang, Localized } from '../../rest/types.ts';
import { l } from '../../rest/define.ts';
import { MSG, fill } from '../../rest/messages.ts';
import { RestError } from '../../rest/types.ts';
import { utcToZone } from '../../site/time.ts';
import { ACTIVE_LANGUAGES, isActiveLanguage, languageFlagUrl, languageName } from './languages.ts';
import { COMPONENT_TYPES, STATUS } from './registry.ts';

export const MAX_LIMIT = 1000;
/** tm_jobs.status of a cancelled job (i18n/tm/v1): it no longer assigns its strings. */
export const JOB_CANCELLED = 0;
/** Virtual status: complete, but the review status says it needs review. */
export const STATUS_NEEDS_REVIEW = 30;

export interface Sorting {
  by: string;
  order: 'asc' | 'desc';
}

export interface StringFilters {
  kind: number | null;
  type: number | null;
  source: number | null;
  domain: string | null;
  translationPriority: string | null;
  title: string | null;
  sourceLanguageCode: string | null;
  targetLanguageCode: string | null;
  translationStatuses: number[];
  limit: number;
  offset: number;
  sorting: Sorting | null;
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

export interface PackageFilters {
  type: string | null;
  title: string | null;
  sourceLanguageCode: string | null;
  targetLanguageCode: string | null;
  translationStatuses: number[];
  limit: number;
  offset: number;
  sorting: Sorting | null;
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
    throw new FilterError(name, l(`${name} must be one of ${allowed.join(', ')}.`, `${name} muss einer der Werte ${allowed.join(', ')} sein.`));
  }
  return n;
}

function parseComponentType(v: unknown): number | null {
  if (absent(v)) return null;
  const s = typeof v === 'string' || typeof v === 'number' ? String(v).trim().toLowerCase() : '';
  if (/^[0-3]$/.test(s)) return Number(s);
  if (Object.hasOwn(COMPONENT_TYPES, s)) return COMPONENT_TYPES[s as keyof typeof COMPONENT_TYPES];
  throw new FilterError('type', l('type must be 0 (unknown), 1 (plugin), 2 (theme) or 3 (core).', 'type muss 0 (unbekannt), 1 (Plugin), 2 (Theme) oder 3 (Kern) sein.'));
}

function parseText(v: unknown, name: string, max = 191): string | null {
  if (absent(v)) return null;
  if (typeof v !== 'string' && typeof v !== 'number') throw new FilterError(name, l(`${name} is not of type string.`, `${name} ist nicht vom Typ string.`));
  const s = String(v);
  if (s.length > max) throw new FilterError(name, l(`${name} must be at most ${max} characters long.`, `${name} darf höchstens ${max} Zeichen lang sein.`));
  return s;
}

function parseLanguage(v: unknown, name: string): string | null {
  const s = parseText(v, name, 10);
  if (s === null) return null;
  if (!isActiveLanguage(s)) throw new FilterError(name, l(`${name} is not one of ${ACTIVE_LANGUAGES.join(', ')}.`, `${name} ist keiner der Werte ${ACTIVE_LANGUAGES.join(', ')}.`));
  return s;
}

/** `translationStatuses`: a list of integers, or a comma-separated string of them. */
export function parseStatuses(v: unknown): number[] {
  if (absent(v)) return [];
  let items: unknown[];
  if (Array.isArray(v)) items = v;
  else if (typeof v === 'object') items = Object.values(v as Record<string, unknown>);
  else if (typeof v === 'string' || typeof v === 'number') items = String(v).split(/[\s,]+/).filter(Boolean);
  else items = [v];
  const out: number[] = [];
  for (const item of items) {
    const n = typeof item === 'string' ? Number(item.trim()) : item;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 1000) {
      throw new FilterError('translationStatuses', l('translationStatuses must be a list of status codes (integers such as 0, 1, 2, 3, 10).', 'translationStatuses muss eine Liste von Statuscodes sein (ganze Zahlen wie 0, 1, 2, 3, 10).'));
    }
    if (!out.includes(n)) out.push(n);
  }
  return out;
}

function parseBound(v: unknown, name: string, def: number, min: number, max: number): number {
  if (absent(v)) return def;
  const n = typeof v === 'string' ? Number(v.trim()) : v;
  if (typeof n !== 'number' || !Number.isInteger(n)) throw new FilterError(name, l(`${name} is not of type integer.`, `${name} ist nicht vom Typ integer.`));
  if (n < min || n > max) throw new FilterError(name, l(`${name} must be between ${min} (inclusive) and ${max} (inclusive)`, `${name} muss zwischen ${min} (inklusive) und ${max} (inklusive) liegen`));
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
    if (!m) throw new FilterError('sorting', l(`sorting must name a column (${columns.join(', ')}) and a direction (asc, desc).`, `sorting muss eine Spalte (${columns.join(', ')}) und eine Richtung (asc, desc) nennen.`));
    by = m[1];
    order = m[2] ?? 'asc';
  } else if (typeof v === 'object' && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    if ('by' in o) {
      by = o.by;
      order = o.order ?? 'asc';
    } else {
      const entries = Object.entries(o);
      if (entries.length !== 1) throw new FilterError('sorting', l('sorting must hold exactly one column.', 'sorting muss genau eine Spalte enthalten.'));
      [by, order] = entries[0]!;
    }
  } else {
    throw new FilterError('sorting', l('sorting is not of type object.', 'sorting ist nicht vom Typ object.'));
  }
  if (typeof by !== 'string' || !columns.includes(by)) {
    throw new FilterError('sorting', l(`sorting column must be one of ${columns.join(', ')}.`, `Die Spalte von sorting muss eine der Spalten ${columns.join(', ')} sein.`));
  }
  const dir = typeof order === 'string' ? order.toLowerCase() : '';
  if (dir !== 'asc' && dir !== 'desc') throw new FilterError('sorting', l('sorting order must be asc or desc.', 'Die Richtung von sorting muss asc oder desc sein.'));
  return { by, order: dir };
}

/** Parses the string filters from request parameters (declared or raw). Throws FilterError. */
export function parseStringFilters(p: Record<string, unknown>, lang: Lang = 'en'): StringFilters {
  return inLang(lang, () => ({
    kind: parseInt01(p.kind, 'kind', [0, 1]),
    type: parseComponentType(p.type),
    source: parseInt01(p.source, 'source', [0, 1]),
    domain: parseText(p.domain, 'domain'),
    translationPriority: parseText(p.translationPriority, 'translationPriority', 100),
    title: parseText(p.title, 'title', 1000),
    sourceLanguageCode: parseLanguage(p.sourceLanguageCode, 'sourceLanguageCode'),
    targetLanguageCode: parseLanguage(p.targetLanguageCode, 'targetLanguageCode'),
    translationStatuses: parseStatuses(p.translationStatuses),
    limit: parseBound(p.limit, 'limit', 10, 1, MAX_LIMIT),
    offset: parseBound(p.offset, 'offset', 0, 0, Number.MAX_SAFE_INTEGER),
    sorting: parseSorting(p.sorting, STRING_SORT_COLUMNS),
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
    title: parseText(p.title, 'title', 1000),
    sourceLanguageCode: parseLanguage(p.sourceLanguageCode, 'sourceLanguageCode'),
    targetLanguageCode: parseLanguage(p.targetLanguageCode, 'targetLanguageCode'),
    translationStatuses: parseStatuses(p.translationStatuses),
    limit: parseBound(p.limit, 'limit', 10, 1, MAX_LIMIT),
    offset: parseBound(p.offset, 'offset', 0, 0, Number.MAX_SAFE_INTEGER),
    sorting: parseSorting(p.sorting, PACKAGE_SORT_COLUMNS),
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
function containsCI(app: Pick<AppServices, 'dialect'>, column: string, text: string): Expression<SqlBool> {
  return likeContains(app.dialect, sql.ref(column), text, true);
}

/** Status codes → SQL condition on a translation row (30 = complete but needs review). */
function statusCondition(alias: string, statuses: number[]): Expression<SqlBool> {
  const plain = statuses.filter((s) => s !== STATUS_NEEDS_REVIEW);
  const parts: ReturnType<typeof sql<SqlBool>>[] = [];
  if (plain.length) parts.push(sql<SqlBool>`${sql.ref(`${alias}.status`)} in (${sql.join(plain)})`);
  if (statuses.includes(STATUS_NEEDS_REVIEW)) {
    parts.push(sql<SqlBool>`(${sql.ref(`${alias}.status`)} = ${STATUS.COMPLETE} and ${sql.ref(`${alias}.review_status`)} = 'NEEDS_REVIEW')`);
  }
  return sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
}

type Omit1 = 'domain' | 'translationPriority' | null;

/**
 * The filtered strings. The status filter is a correlated EXISTS for pages (the scan in list
 * order stops after `limit` matches) and an IN over the status index for counts.
 */
function stringsWhere(app: Pick<AppServices, 'db' | 'dialect'>, f: StringFilters, omit: Omit1 = null, statusAs: 'in' | 'exists' = 'in') {
  let q = app.db.selectFrom('i18n_st_strings as s');
  if (f.kind !== null) q = q.where('s.kind', '=', f.kind);
  if (f.type !== null) q = q.where('s.type', '=', f.type);
  if (f.source !== null) q = q.where('s.source', '=', f.source);
  if (f.domain !== null && omit !== 'domain') q = q.where('s.domain', '=', f.domain);
  if (f.translationPriority !== null && omit !== 'translationPriority') q = q.where('s.translation_priority', '=', f.translationPriority);
  if (f.title !== null) q = q.where(containsCI(app, 's.value', f.title));
  if (f.sourceLanguageCode !== null) q = q.where('s.language', '=', f.sourceLanguageCode);
  if (f.targetLanguageCode !== null) q = q.where('s.language', '!=', f.targetLanguageCode);
  if (f.context !== null) q = q.where('s.context', '=', f.context);
  if (f.packageId !== null) q = q.where('s.package_id', '=', f.packageId);
  if (f.assignedTo !== null) {
    // One IN over a union (not an OR of INs), so the planner starts from the few assigned ids.
    const { userId, batchStringIds } = f.assignedTo;
    q = q.where('s.id', 'in', (eb) => {
      const rows = eb.selectFrom('i18n_st_translations as a').select('a.string_id as id').where('a.translator_id', '=', userId);
      const jobs = eb.selectFrom('tm_jobs as j').select('j.element_id as id').where('j.translator_id', '=', userId).where('j.type', '=', 'string').where('j.status', '!=', JOB_CANCELLED);
      const batch = eb.selectFrom('i18n_st_strings as b').select('b.id').where('b.id', 'in', batchStringIds.length ? batchStringIds : [0]);
      return rows.union(jobs).union(batch);
    });
  }
  if (f.translationStatuses.length) {
    const targets = f.targetLanguageCode ? [f.targetLanguageCode] : [...ACTIVE_LANGUAGES];
    const cond = statusCondition('t', f.translationStatuses);
    q =
      statusAs === 'exists'
        ? q.where((eb) =>
            eb.exists(
              eb.selectFrom('i18n_st_translations as t').select('t.id').whereRef('t.string_id', '=', 's.id').where('t.language', 'in', targets).where(cond),
            ),
          )
        : q.where('s.id', 'in', (eb) =>
            eb.selectFrom('i18n_st_translations as t').select('t.string_id').where('t.language', 'in', targets).where(cond),
          );
  }
  return q;
}

export interface TranslationDetail {
  status: number;
  reviewStatus: string | null;
  jobId: number | null;
  method: string | null;
  editor: string | null;
  isTranslated: boolean;
  translatorId: number | null;
  ateJobId: number | null;
}

interface TranslationRow {
  language: string;
  status: number;
  review_status: string | null;
  job_id: number | null;
  method: string | null;
  editor: string | null;
  translator_id: number | null;
  ate_job_id: number | null;
}

/** Translation rows of a page of strings or packages, grouped by owner id and language. */
function translationsByOwner<T extends Parameters<typeof detail>[0] & { language: string }>(rows: T[], ownerId: (row: T) => number): Map<number, Record<string, TranslationDetail>> {
  const out = new Map<number, Record<string, TranslationDetail>>();
  for (const row of rows) {
    let byLanguage = out.get(ownerId(row));
    if (!byLanguage) out.set(ownerId(row), (byLanguage = {}));
    byLanguage[row.language] = detail(row);
  }
  return out;
}

function detail(t: TranslationRow): TranslationDetail {
  return {
    status: t.status,
    reviewStatus: t.review_status,
    jobId: t.job_id,
    method: t.method,
    editor: t.editor,
    isTranslated: t.status === STATUS.COMPLETE || t.status === STATUS.NEEDS_UPDATE,
    translatorId: t.translator_id,
    ateJobId: t.ate_job_id,
  };
}

export interface StringItem {
  id: number;
  language: string;
  languageFullName: string;
  languageFlagUrl: string;
  domain: string;
  context: string | null;
  name: string;
  title: string;
  status: number;
  translationPriority: string;
  sources: string[];
  kind: number;
  type: number;
  translations: Record<string, TranslationDetail>;
  wordCount: number;
}


/** GET strings: one page of string items. */
export async function listStrings(app: Pick<AppServices, 'db' | 'dialect'>, f: StringFilters, lang: Lang): Promise<StringItem[]> {
  let q = stringsWhere(app, f, null, 'exists').select([
    's.id',
    's.language',
    's.domain',
    's.context',
    's.name',
    's.value',
    's.status',
    's.translation_priority',
    's.sources',
    's.kind',
    's.type',
    's.word_count',
  ]);
  // Autoregistered strings first (reference), then the chosen column, newest first by default.
  q = q.orderBy('s.kind', 'desc');
  if (f.sorting?.by === 'title') q = q.orderBy('s.sort_key', f.sorting.order);
  q = q.orderBy('s.id', f.sorting ? f.sorting.order : 'desc');
  const rows = await q.limit(f.limit).offset(f.offset).execute();
  if (!rows.length) return [];
  let tq = app.db
    .selectFrom('i18n_st_translations')
    .select(['string_id', 'language', 'status', 'review_status', 'job_id', 'method', 'editor', 'translator_id', 'ate_job_id'])
    .where('string_id', 'in', rows.map((r) => r.id));
  if (f.targetLanguageCode) tq = tq.where('language', '=', f.targetLanguageCode);
  const translations = translationsByOwner(await tq.orderBy('language').execute(), (t) => t.string_id);
  return rows.map((r) => ({
    id: r.id,
    language: r.language,
    languageFullName: languageName(r.language, lang),
    languageFlagUrl: languageFlagUrl(r.language),
    domain: r.domain,
    context: r.context === '' ? null : r.context,
    name: r.name,
    title: r.value,
    status: r.status,
    translationPriority: r.translation_priority,
    sources: safeList(r.sources),
    kind: r.kind,
    type: r.type,
    translations: translations.get(r.id) ?? {},
    wordCount: r.word_count,
  }));
}

function safeList(raw: string): string[] {
  try {
    const v = JSON.parse(raw);
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

/** GET strings/itemscount. */
export async function countStrings(app: Pick<AppServices, 'db' | 'dialect'>, f: StringFilters): Promise<{ totalCount: number }> {
  const row = await stringsWhere(app, f)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return { totalCount: Number(row.n) };
}

/**
 * GET strings/filters: the domains and translation priorities present, under the current
 * filters (each list ignores its own filter, so a menu still offers its other values).
 */
export async function stringFilterValues(app: Pick<AppServices, 'db' | 'dialect'>, f: StringFilters): Promise<{ domains: string[]; translationPriorities: string[] }> {
  const unfiltered = (except: keyof StringFilters) =>
    (Object.keys(f) as (keyof StringFilters)[]).every(
      (k) => k === except || k === 'limit' || k === 'offset' || k === 'sorting' || f[k] === null || (Array.isArray(f[k]) && (f[k] as unknown[]).length === 0),
    );
  const domains = unfiltered('domain')
    ? await distinctValues(app, 'domain')
    : (await stringsWhere(app, f, 'domain').select('s.domain').distinct().execute()).map((r) => r.domain);
  const prios = unfiltered('translationPriority')
    ? await distinctValues(app, 'translation_priority')
    : (await stringsWhere(app, f, 'translationPriority').select('s.translation_priority').distinct().execute()).map((r) => r.translation_priority);
  const ci = (a: string, b: string) => a.localeCompare(b, 'en', { sensitivity: 'base' }) || (a < b ? -1 : a > b ? 1 : 0);
  return {
    domains: domains.filter((d) => d.length > 0).sort(ci),
    translationPriorities: prios.filter((d) => d.length > 0).sort(ci),
  };
}

/** Distinct values of an indexed column by skipping through its index (one probe per value). */
async function distinctValues(app: Pick<AppServices, 'db'>, column: 'domain' | 'translation_priority'): Promise<string[]> {
  const col = sql.ref(column);
  const res = await sql<{ v: string | null }>`
    with recursive d(v) as (
      select min(${col}) from i18n_st_strings
      union all
      select (select min(${col}) from i18n_st_strings where ${col} > d.v) from d where d.v is not null
    )
    select v from d where v is not null`.execute(app.db);
  return res.rows.map((r) => r.v!);
}

export interface PackageItem {
  id: number;
  title: string;
  lastEdit: string;
  type: string;
  translations: Record<string, TranslationDetail>;
  wordCount: number;
  translatorNote: string;
  viewLink: string;
  editLink: string;
  createdAt: string;
  status: string;
}

/** GET string-packages. Without `type`, packages of every kind are listed. */
export async function listPackages(app: Pick<AppServices, 'db' | 'dialect' | 'options'>, f: PackageFilters): Promise<PackageItem[]> {
  let q = app.db.selectFrom('i18n_st_packages as p');
  if (f.type !== null) q = q.where('p.kind_slug', '=', f.type);
  if (f.title !== null) q = q.where(containsCI(app, 'p.title', f.title));
  if (f.sourceLanguageCode !== null) q = q.where('p.language', '=', f.sourceLanguageCode);
  if (f.targetLanguageCode !== null) q = q.where('p.language', '!=', f.targetLanguageCode);
  if (f.translationStatuses.length) {
    const targets = f.targetLanguageCode ? [f.targetLanguageCode] : [...ACTIVE_LANGUAGES];
    const cond = statusCondition('t', f.translationStatuses);
    q = q.where('p.id', 'in', (eb) =>
      eb.selectFrom('i18n_st_package_translations as t').select('t.package_id').where('t.language', 'in', targets).where(cond),
    );
  }
  let sq = q.selectAll('p');
  if (f.sorting?.by === 'title') sq = sq.orderBy('p.title', f.sorting.order);
  sq = sq.orderBy('p.id', f.sorting ? f.sorting.order : 'desc');
  const rows = await sq.limit(f.limit).offset(f.offset).execute();
  if (!rows.length) return [];
  let tq = app.db
    .selectFrom('i18n_st_package_translations')
    .select(['package_id', 'language', 'status', 'review_status', 'job_id', 'method', 'editor', 'translator_id', 'ate_job_id'])
    .where('package_id', 'in', rows.map((r) => r.id));
  if (f.targetLanguageCode) tq = tq.where('language', '=', f.targetLanguageCode);
  const translations = translationsByOwner(await tq.orderBy('language').execute(), (t) => t.package_id);
  const zone = String(app.options.get('timezone_string'));
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    lastEdit: utcToZone(r.last_edit, zone),
    type: r.kind_slug,
    translations: translations.get(r.id) ?? {},
    wordCount: r.word_count,
    translatorNote: r.translator_note,
    viewLink: r.view_link,
    editLink: r.edit_link,
    createdAt: `${r.created_at.replace(' ', 'T')}+00:00`,
    status: 'external',
  }));
}
