// The string registry: every translatable text of the site (domain, context, name, source
// value and language) with one translation row per target language, registered and
// translated here. Other namespaces use `registerString` and `translateString`
// (string-lookup.ts) for their localized text; run-time captures go through
// `queueAutoregisteredString` (capture.ts) and are moved into the registry by the queue worker.
import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AppServices } from '../../site/services.ts';
import type { Database } from '../../db/schema.ts';
import { RestError } from '../../rest/types.ts';
import { utcNow } from '../../site/time.ts';
import { DEFAULT_LANGUAGE, isActiveLanguage, targetLanguages } from './languages.ts';

/** String kinds (the `kind` filter). */
export const KIND_DEFAULT = 0;
export const KIND_AUTOREGISTERED = 1;
/** Component types (the `type` filter). */
export const COMPONENT_TYPES = { unknown: 0, plugin: 1, theme: 2, core: 3 } as const;
/** Where a string was seen (the `source` filter). */
export const SOURCE_FRONTEND = 0;
export const SOURCE_BACKEND = 1;

/** Translation statuses (per language, and rolled up per string). */
export const STATUS = {
  NOT_TRANSLATED: 0,
  WAITING_FOR_TRANSLATOR: 1,
  IN_PROGRESS: 2,
  NEEDS_UPDATE: 3,
  COMPLETE: 10,
} as const;
/** String status roll-up values (reference plugins §4.1). */
export const STRING_STATUS = { NOT_TRANSLATED: 0, WAITING: 1, PARTIAL: 2, NEEDS_UPDATE: 3, COMPLETE: 10 } as const;

export const DEFAULT_PRIORITY = 'optional';
export const PRIORITIES = ['optional', 'required', 'not-needed'] as const;

export const REVIEW_STATUSES = ['NEEDS_REVIEW', 'EDITING', 'ACCEPTED'] as const;
export const METHODS = ['duplicate', 'translation-service', 'automatic', 'manual', 'local-translator'] as const;
export const EDITORS = ['classic', 'wordpress', 'ate', 'none'] as const;

const MAX_DOMAIN = 191;
const MAX_CONTEXT = 191;
const MAX_NAME = 4096;
/** Longest value of a string or of a translation. */
export const MAX_VALUE = 65536;
const MAX_SOURCES = 20;

export interface StringKey {
  domain: string;
  /** gettext context; null or '' when none. */
  context?: string | null;
  name: string;
}

export interface RegisterStringInput extends StringKey {
  value: string;
  /** Source language of the value (default: the site's default language). */
  language?: string;
  kind?: number;
  type?: number;
  source?: number;
  translationPriority?: string;
  /** Where the string was seen (URL path or admin screen), added to `sources`. */
  location?: string | null;
  packageId?: number | null;
}

export interface RegisterResult {
  id: number;
  created: boolean;
  /** The source value changed (complete translations now need an update). */
  changed: boolean;
}

type Db = Kysely<Database>;

export function stringKeyHash(domain: string, context: string, name: string): string {
  return crypto.createHash('sha256').update(`${domain}\u0000${context}\u0000${name}`).digest('hex');
}

export function sortKeyOf(value: string): string {
  return value.toLowerCase().slice(0, 100);
}

/** Words of a text (tags removed); CJK characters count one word each. */
export function countWords(text: string): number {
  // Tags and printf placeholders (%s, %1$d) are not words.
  const plain = text.replace(/<[^>]*>/g, ' ').replace(/%(\d+\$)?[sdfu]/g, ' ');
  const cjk = plain.match(/[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/g)?.length ?? 0;
  const rest = plain.replace(/[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/g, ' ');
  const words = rest.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
  return words + cjk;
}

/** Roll-up of the per-language statuses of a string (reference plugins §4.2). */
export function rollUpStatus(statuses: number[]): number {
  if (statuses.length === 0) return STRING_STATUS.COMPLETE;
  if (statuses.every((s) => s === STATUS.COMPLETE)) return STRING_STATUS.COMPLETE;
  if (statuses.some((s) => s === STATUS.NEEDS_UPDATE)) return STRING_STATUS.NEEDS_UPDATE;
  if (statuses.some((s) => s === STATUS.COMPLETE)) return STRING_STATUS.PARTIAL;
  if (statuses.some((s) => s === STATUS.WAITING_FOR_TRANSLATOR || s === STATUS.IN_PROGRESS))
    return STRING_STATUS.WAITING;
  return STRING_STATUS.NOT_TRANSLATED;
}

function bad(message: string, param: string): RestError {
  return new RestError('i18n_st_invalid_string', message, 400, { param });
}

/** Checks and normalises a registration; throws a 400 RestError on unusable input. */
export function normaliseRegistration(input: RegisterStringInput): Required<
  Omit<RegisterStringInput, 'location' | 'packageId'>
> & {
  context: string;
  location: string | null;
  packageId: number | null;
} {
  const domain = typeof input.domain === 'string' ? input.domain.trim() : '';
  const context = input.context == null ? '' : String(input.context);
  const name = typeof input.name === 'string' ? input.name : '';
  if (!domain || domain.length > MAX_DOMAIN)
    throw bad(`The string domain must be 1 to ${MAX_DOMAIN} characters long.`, 'domain');
  if (context.length > MAX_CONTEXT)
    throw bad(`The string context must be at most ${MAX_CONTEXT} characters long.`, 'context');
  if (!name || name.length > MAX_NAME) throw bad(`The string name must be 1 to ${MAX_NAME} characters long.`, 'name');
  if (typeof input.value !== 'string') throw bad('The string value must be a string.', 'value');
  if (input.value.length > MAX_VALUE)
    throw bad(`The string value must be at most ${MAX_VALUE} characters long.`, 'value');
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(input.value))
    throw bad('The string value contains control characters.', 'value');
  const language = input.language ?? DEFAULT_LANGUAGE;
  if (!isActiveLanguage(language))
    throw bad(`"${String(language)}" is not an active language of the site.`, 'language');
  const kind = input.kind ?? KIND_DEFAULT;
  if (kind !== 0 && kind !== 1) throw bad('The string kind must be 0 or 1.', 'kind');
  const type = input.type ?? COMPONENT_TYPES.unknown;
  if (!Number.isInteger(type) || type < 0 || type > 3) throw bad('The component type must be 0, 1, 2 or 3.', 'type');
  const source = input.source ?? SOURCE_FRONTEND;
  if (source !== 0 && source !== 1) throw bad('The string source must be 0 (frontend) or 1 (backend).', 'source');
  const translationPriority = input.translationPriority ?? DEFAULT_PRIORITY;
  if (!/^[a-z0-9-]{1,100}$/.test(translationPriority))
    throw bad('The translation priority must be a slug.', 'translationPriority');
  const location = input.location ? String(input.location).slice(0, 255) : null;
  return {
    domain,
    context,
    name,
    value: input.value,
    language,
    kind,
    type,
    source,
    translationPriority,
    location,
    packageId: input.packageId ?? null,
  };
}

/**
 * Registers a string (or updates its value). Registering an existing string keeps its
 * translations; a changed source value marks complete translations "needs update" (3).
 * A string registered by hand (kind 0) stays kind 0 when it is also captured at run time.
 */
export async function registerString(
  app: Pick<AppServices, 'db'>,
  input: RegisterStringInput,
): Promise<RegisterResult> {
  const s = normaliseRegistration(input);
  return app.db.transaction().execute((tx) => registerInTx(tx, s));
}

async function registerInTx(tx: Db, s: ReturnType<typeof normaliseRegistration>): Promise<RegisterResult> {
  const hash = stringKeyHash(s.domain, s.context, s.name);
  const now = utcNow();
  const inserted = await tx
    .insertInto('i18n_st_strings')
    .values({
      key_hash: hash,
      language: s.language,
      domain: s.domain,
      context: s.context,
      name: s.name,
      value: s.value,
      sort_key: sortKeyOf(s.value),
      kind: s.kind,
      type: s.type,
      source: s.source,
      sources: JSON.stringify(s.location ? [s.location] : []),
      translation_priority: s.translationPriority,
      status: STRING_STATUS.NOT_TRANSLATED,
      word_count: countWords(s.value),
      package_id: s.packageId,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.column('key_hash').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted) {
    const targets = targetLanguages(s.language);
    if (targets.length) {
      await tx
        .insertInto('i18n_st_translations')
        .values(
          targets.map((language) => ({
            string_id: inserted.id,
            language,
            value: null,
            status: STATUS.NOT_TRANSLATED,
            updated_at: now,
          })),
        )
        .execute();
    } else {
      await tx
        .updateTable('i18n_st_strings')
        .set({ status: STRING_STATUS.COMPLETE })
        .where('id', '=', inserted.id)
        .execute();
    }
    return { id: inserted.id, created: true, changed: false };
  }

  const row = await tx
    .selectFrom('i18n_st_strings')
    .select(['id', 'value', 'kind', 'sources', 'language'])
    .where('key_hash', '=', hash)
    .executeTakeFirstOrThrow();
  const sources = parseSources(row.sources);
  const sourcesChanged = !!s.location && !sources.includes(s.location);
  if (sourcesChanged) {
    sources.push(s.location!);
    if (sources.length > MAX_SOURCES) sources.splice(0, sources.length - MAX_SOURCES);
  }
  const changed = row.value !== s.value;
  const kind = Math.min(row.kind, s.kind); // a registered string stays "default"
  if (changed || sourcesChanged || kind !== row.kind) {
    await tx
      .updateTable('i18n_st_strings')
      .set({
        value: s.value,
        sort_key: sortKeyOf(s.value),
        word_count: countWords(s.value),
        kind,
        sources: JSON.stringify(sources),
        updated_at: now,
      })
      .where('id', '=', row.id)
      .execute();
  }
  if (changed) {
    await tx
      .updateTable('i18n_st_translations')
      .set({ status: STATUS.NEEDS_UPDATE, updated_at: now })
      .where('string_id', '=', row.id)
      .where('status', '=', STATUS.COMPLETE)
      .execute();
    await recomputeStringStatus(tx, row.id);
  }
  return { id: row.id, created: false, changed };
}

function parseSources(raw: string): string[] {
  try {
    const v = JSON.parse(raw);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

export async function recomputeStringStatus(db: Db, stringId: number): Promise<number> {
  const rows = await db.selectFrom('i18n_st_translations').select('status').where('string_id', '=', stringId).execute();
  const status = rollUpStatus(rows.map((r) => r.status));
  await db.updateTable('i18n_st_strings').set({ status }).where('id', '=', stringId).execute();
  return status;
}

export interface TranslationInput {
  /** The translated text; null keeps the stored one. */
  value?: string | null;
  /** Default: 10 (complete) when a value is given, else unchanged. */
  status?: number;
  reviewStatus?: string | null;
  jobId?: number | null;
  method?: string | null;
  editor?: string | null;
  translatorId?: number | null;
  ateJobId?: number | null;
}

/** Stores the translation of a string into one target language and rolls up the string status. */
export async function saveStringTranslation(
  app: Pick<AppServices, 'db'>,
  stringId: number,
  language: string,
  input: TranslationInput,
): Promise<void> {
  if (!isActiveLanguage(language)) throw bad(`"${language}" is not an active language of the site.`, 'language');
  if (input.value != null && (typeof input.value !== 'string' || input.value.length > MAX_VALUE))
    throw bad('Invalid translation value.', 'value');
  if (input.reviewStatus != null && !(REVIEW_STATUSES as readonly string[]).includes(input.reviewStatus))
    throw bad('Invalid review status.', 'reviewStatus');
  if (input.method != null && !(METHODS as readonly string[]).includes(input.method))
    throw bad('Invalid translation method.', 'method');
  if (input.editor != null && !(EDITORS as readonly string[]).includes(input.editor))
    throw bad('Invalid translation editor.', 'editor');
  if (input.status !== undefined && (!Number.isInteger(input.status) || input.status < 0))
    throw bad('Invalid translation status.', 'status');
  await app.db.transaction().execute(async (tx) => {
    const str = await tx
      .selectFrom('i18n_st_strings')
      .select(['id', 'language'])
      .where('id', '=', stringId)
      .executeTakeFirst();
    if (!str) throw new RestError('i18n_st_string_not_found', 'No string with that id.', 404);
    if (str.language === language) throw bad('A string cannot be translated into its own language.', 'language');
    const now = utcNow();
    const set: {
      updated_at: string;
      value?: string;
      status?: number;
      review_status?: string | null;
      job_id?: number | null;
      method?: string | null;
      editor?: string | null;
      translator_id?: number | null;
      ate_job_id?: number | null;
    } = { updated_at: now };
    if (input.value !== undefined && input.value !== null) set.value = input.value;
    const status = input.status ?? (input.value != null ? STATUS.COMPLETE : undefined);
    if (status !== undefined) set.status = status;
    if (input.reviewStatus !== undefined) set.review_status = input.reviewStatus;
    if (input.jobId !== undefined) set.job_id = input.jobId;
    if (input.method !== undefined) set.method = input.method;
    if (input.editor !== undefined) set.editor = input.editor;
    if (input.translatorId !== undefined) set.translator_id = input.translatorId;
    if (input.ateJobId !== undefined) set.ate_job_id = input.ateJobId;
    await tx
      .insertInto('i18n_st_translations')
      .values({ string_id: stringId, language, value: null, status: STATUS.NOT_TRANSLATED, ...set })
      .onConflict((oc) => oc.columns(['string_id', 'language']).doUpdateSet(set))
      .execute();
    await recomputeStringStatus(tx, stringId);
  });
}

/** Bulk registration inside one transaction (used by the queue worker and the seeds). */
export async function registerStringsInTx(tx: Db, inputs: RegisterStringInput[]): Promise<RegisterResult[]> {
  const out: RegisterResult[] = [];
  for (const input of inputs) out.push(await registerInTx(tx, normaliseRegistration(input)));
  return out;
}
