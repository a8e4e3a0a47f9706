// Reading the string registry for GET strings / itemscount / filters and GET string-packages
// (contract §4.7), each filter (filters.ts) served by an index of migration 0005.
import { sql, type Expression, type SqlBool } from 'kysely';
import type { AppServices } from '../../site/services.ts';
import { likeContains } from '../../db/like.ts';
import type { Lang } from '../../rest/types.ts';
import { utcToZone } from '../../site/time.ts';
import { STATUS_NEEDS_REVIEW, type PackageFilters, type StringFilters } from './filters.ts';
import { ACTIVE_LANGUAGES, languageFlagUrl, languageName } from './languages.ts';
import { STATUS } from './registry.ts';

/** tm_jobs.status of a cancelled job (i18n/tm/v1): it no longer assigns its strings. */
export const JOB_CANCELLED = 0;

function containsCI(app: Pick<AppServices, 'dialect'>, column: string, text: string): Expression<SqlBool> {
  return likeContains(app.dialect, sql.ref(column), text, true);
}

/** Status codes → SQL condition on a translation row (30 = complete but needs review). */
function statusCondition(alias: string, statuses: number[]): Expression<SqlBool> {
  const plain = statuses.filter((s) => s !== STATUS_NEEDS_REVIEW);
  const parts: ReturnType<typeof sql<SqlBool>>[] = [];
  if (plain.length) parts.push(sql<SqlBool>`${sql.ref(`${alias}.status`)} in (${sql.join(plain)})`);
  if (statuses.includes(STATUS_NEEDS_REVIEW)) {
    parts.push(
      sql<SqlBool>`(${sql.ref(`${alias}.status`)} = ${STATUS.COMPLETE} and ${sql.ref(`${alias}.review_status`)} = 'NEEDS_REVIEW')`,
    );
  }
  return sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
}

type Omit1 = 'domain' | 'translationPriority' | null;

/**
 * The filtered strings. The status filter is a correlated EXISTS for pages (the scan in list
 * order stops after `limit` matches) and an IN over the status index for counts.
 */
function stringsWhere(
  app: Pick<AppServices, 'db' | 'dialect'>,
  f: StringFilters,
  omit: Omit1 = null,
  statusAs: 'in' | 'exists' = 'in',
) {
  let q = app.db.selectFrom('i18n_st_strings as s');
  if (f.kind !== null) q = q.where('s.kind', '=', f.kind);
  if (f.type !== null) q = q.where('s.type', '=', f.type);
  if (f.source !== null) q = q.where('s.source', '=', f.source);
  if (f.domain !== null && omit !== 'domain') q = q.where('s.domain', '=', f.domain);
  if (f.translationPriority !== null && omit !== 'translationPriority')
    q = q.where('s.translation_priority', '=', f.translationPriority);
  if (f.title !== null) q = q.where(containsCI(app, 's.value', f.title));
  if (f.sourceLanguageCode !== null) q = q.where('s.language', '=', f.sourceLanguageCode);
  if (f.targetLanguageCode !== null) q = q.where('s.language', '!=', f.targetLanguageCode);
  if (f.context !== null) q = q.where('s.context', '=', f.context);
  if (f.packageId !== null) q = q.where('s.package_id', '=', f.packageId);
  if (f.assignedTo !== null) {
    // One IN over a union (not an OR of INs), so the planner starts from the few assigned ids.
    const { userId, batchStringIds } = f.assignedTo;
    q = q.where('s.id', 'in', (eb) => {
      const rows = eb
        .selectFrom('i18n_st_translations as a')
        .select('a.string_id as id')
        .where('a.translator_id', '=', userId);
      const jobs = eb
        .selectFrom('tm_jobs as j')
        .select('j.element_id as id')
        .where('j.translator_id', '=', userId)
        .where('j.type', '=', 'string')
        .where('j.status', '!=', JOB_CANCELLED);
      const batch = eb
        .selectFrom('i18n_st_strings as b')
        .select('b.id')
        .where('b.id', 'in', batchStringIds.length ? batchStringIds : [0]);
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
              eb
                .selectFrom('i18n_st_translations as t')
                .select('t.id')
                .whereRef('t.string_id', '=', 's.id')
                .where('t.language', 'in', targets)
                .where(cond),
            ),
          )
        : q.where('s.id', 'in', (eb) =>
            eb
              .selectFrom('i18n_st_translations as t')
              .select('t.string_id')
              .where('t.language', 'in', targets)
              .where(cond),
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

/** The columns of a string's or a package's translation that its detail shows (both tables have them). */
const TRANSLATION_STATE_COLUMNS = [
  'language',
  'status',
  'review_status',
  'job_id',
  'method',
  'editor',
  'translator_id',
  'ate_job_id',
] as const;

/** Translation rows of a page of strings or packages, grouped by owner id and language. */
function translationsByOwner<T extends Parameters<typeof detail>[0] & { language: string }>(
  rows: T[],
  ownerId: (row: T) => number,
): Map<number, Record<string, TranslationDetail>> {
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
export async function listStrings(
  app: Pick<AppServices, 'db' | 'dialect'>,
  f: StringFilters,
  lang: Lang,
): Promise<StringItem[]> {
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
    .select(['string_id', ...TRANSLATION_STATE_COLUMNS])
    .where(
      'string_id',
      'in',
      rows.map((r) => r.id),
    );
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
export async function countStrings(
  app: Pick<AppServices, 'db' | 'dialect'>,
  f: StringFilters,
): Promise<{ totalCount: number }> {
  const row = await stringsWhere(app, f)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return { totalCount: Number(row.n) };
}

/**
 * GET strings/filters: the domains and translation priorities present, under the current
 * filters (each list ignores its own filter, so a menu still offers its other values).
 */
export async function stringFilterValues(
  app: Pick<AppServices, 'db' | 'dialect'>,
  f: StringFilters,
): Promise<{ domains: string[]; translationPriorities: string[] }> {
  const unfiltered = (except: keyof StringFilters) =>
    (Object.keys(f) as (keyof StringFilters)[]).every(
      (k) =>
        k === except ||
        k === 'limit' ||
        k === 'offset' ||
        k === 'sorting' ||
        f[k] === null ||
        (Array.isArray(f[k]) && (f[k] as unknown[]).length === 0),
    );
  const domains = unfiltered('domain')
    ? await distinctValues(app, 'domain')
    : (await stringsWhere(app, f, 'domain').select('s.domain').distinct().execute()).map((r) => r.domain);
  const prios = unfiltered('translationPriority')
    ? await distinctValues(app, 'translation_priority')
    : (await stringsWhere(app, f, 'translationPriority').select('s.translation_priority').distinct().execute()).map(
        (r) => r.translation_priority,
      );
  const ci = (a: string, b: string) =>
    a.localeCompare(b, 'en', { sensitivity: 'base' }) || (a < b ? -1 : a > b ? 1 : 0);
  return {
    domains: domains.filter((d) => d.length > 0).sort(ci),
    translationPriorities: prios.filter((d) => d.length > 0).sort(ci),
  };
}

/** Distinct values of an indexed column by skipping through its index (one probe per value). */
async function distinctValues(
  app: Pick<AppServices, 'db'>,
  column: 'domain' | 'translation_priority',
): Promise<string[]> {
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
export async function listPackages(
  app: Pick<AppServices, 'db' | 'dialect' | 'options'>,
  f: PackageFilters,
): Promise<PackageItem[]> {
  let q = app.db.selectFrom('i18n_st_packages as p');
  if (f.type !== null) q = q.where('p.kind_slug', '=', f.type);
  if (f.title !== null) q = q.where(containsCI(app, 'p.title', f.title));
  if (f.sourceLanguageCode !== null) q = q.where('p.language', '=', f.sourceLanguageCode);
  if (f.targetLanguageCode !== null) q = q.where('p.language', '!=', f.targetLanguageCode);
  if (f.translationStatuses.length) {
    const targets = f.targetLanguageCode ? [f.targetLanguageCode] : [...ACTIVE_LANGUAGES];
    const cond = statusCondition('t', f.translationStatuses);
    q = q.where('p.id', 'in', (eb) =>
      eb
        .selectFrom('i18n_st_package_translations as t')
        .select('t.package_id')
        .where('t.language', 'in', targets)
        .where(cond),
    );
  }
  let sq = q.selectAll('p');
  if (f.sorting?.by === 'title') sq = sq.orderBy('p.title', f.sorting.order);
  sq = sq.orderBy('p.id', f.sorting ? f.sorting.order : 'desc');
  const rows = await sq.limit(f.limit).offset(f.offset).execute();
  if (!rows.length) return [];
  let tq = app.db
    .selectFrom('i18n_st_package_translations')
    .select(['package_id', ...TRANSLATION_STATE_COLUMNS])
    .where(
      'package_id',
      'in',
      rows.map((r) => r.id),
    );
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
