// Translating strings (the routes beyond the contract's list; DECISIONS.md): saving one
// translation with its status, and bulk status changes or deletions. Managers
// (manage_translations) work on every string; translators (translate) on the strings assigned
// to them (translator-assignments.ts), each for its language. Reading them is translatable.ts.
// Every write is recorded in the activity log here, once it has committed. The public pages
// read the registry on every request (src/pages/labels.ts), so a saved text shows at once.
import type { AppServices } from '../../site/services.ts';
import type { AuthUser } from '../../auth/types.ts';
import { MAX_DB_INT } from '../../db/limits.ts';
import { restError } from '../../rest/define.ts';
import type { Lang } from '../../rest/types.ts';
import { loggerEntry, recordWrite } from '../../site/activity.ts';
import { utcNow } from '../../site/time.ts';
import { targetLanguages } from './languages.ts';
import { i18nStLogger } from './logger.ts';
import { ST_MSG } from './messages.ts';
import { STATUS, recomputeStringStatus } from './registry.ts';
import { assignedLanguages, isManager } from './translator-assignments.ts';

/** The statuses a translator sets: not translated, needs update, complete. */
export const EDITABLE_STATUSES = [STATUS.NOT_TRANSLATED, STATUS.NEEDS_UPDATE, STATUS.COMPLETE] as const;
export type EditableStatus = (typeof EDITABLE_STATUSES)[number];
export const BULK_ACTIONS = ['set_status', 'delete'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];
/** Ids one bulk request may name. */
export const MAX_BULK_IDS = 500;
/** Longest translation text (the registry's source limit). */
export const MAX_TRANSLATION = 65536;

/** Who asks, and where from: a RestRequest satisfies it. */
export interface Caller {
  app: AppServices;
  user: AuthUser | null;
  ip: string;
  lang: Lang;
}

interface TargetString {
  id: number;
  language: string;
  domain: string;
  context: string;
  name: string;
  value: string;
}

async function findStrings(caller: Caller, wanted: number[]): Promise<Map<number, TargetString>> {
  // Ids beyond the column's range name no string (and PostgreSQL would refuse them).
  const ids = wanted.filter((id) => id <= MAX_DB_INT);
  if (!ids.length) return new Map();
  const rows = await caller.app.db
    .selectFrom('i18n_st_strings')
    .select(['id', 'language', 'domain', 'context', 'name', 'value'])
    .where('id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [r.id, r]));
}

/** Throws 403 unless the caller may translate each string into each of its languages. */
async function checkAssigned(caller: Caller, wanted: Map<number, string[]>): Promise<void> {
  if (isManager(caller.user)) return;
  const assigned = await assignedLanguages(caller.app, caller.user!.id, [...wanted.keys()]);
  const refused = [...wanted]
    .filter(([id, languages]) => languages.some((language) => !assigned.get(id)?.has(language)))
    .map(([id]) => id);
  if (refused.length) {
    throw restError(caller, 'i18n_st_not_assigned', ST_MSG.notAssigned, 403, { ids: refused });
  }
}

function checkTarget(caller: Caller, s: TargetString, language: string): void {
  if (!targetLanguages(s.language).includes(language as Lang)) {
    throw restError(
      caller,
      'i18n_st_invalid_language',
      ST_MSG.notATarget(s.id, s.language, targetLanguages(s.language), language),
      400,
      { params: { language } },
    );
  }
}

/** The message keys of i18n/st/v1's logger. */
type StMessageKey = keyof typeof i18nStLogger.messages;

/**
 * Records a committed write of a REST request in the activity log (recordWrite: a failed log
 * write goes to the process log, never to the caller).
 */
export function recordStringWrite(
  caller: Caller,
  messageKey: StMessageKey,
  context: Record<string, unknown>,
): Promise<void> {
  return recordWrite(caller.app, loggerEntry(i18nStLogger, messageKey, context), {
    user: caller.user,
    ip: caller.ip,
    rest: true,
  });
}

/** The first characters of a text, for the activity log's message. */
function excerpt(text: string): string {
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

const SAVED_MESSAGE: Record<EditableStatus, StMessageKey> = {
  [STATUS.COMPLETE]: 'string_translated',
  [STATUS.NEEDS_UPDATE]: 'string_translation_needs_update',
  [STATUS.NOT_TRANSLATED]: 'string_translation_unfinished',
};

export interface SavedTranslation {
  id: number;
  language: string;
  value: string | null;
  status: EditableStatus;
  /** The string's rolled-up status after the save. */
  stringStatus: number;
}

/**
 * POST strings/<id>/translations: stores the translation of one string into `language` with
 * its status. Complete and needs-update translations need a text (the public pages show them);
 * an empty text is stored as none.
 */
export async function saveTranslation(
  caller: Caller,
  input: { stringId: number; language: string; value: string | undefined; status: EditableStatus },
): Promise<SavedTranslation> {
  const s = (await findStrings(caller, [input.stringId])).get(input.stringId);
  if (!s) throw restError(caller, 'i18n_st_string_not_found', ST_MSG.noString(input.stringId), 404);
  checkTarget(caller, s, input.language);
  await checkAssigned(caller, new Map([[s.id, [input.language]]]));
  const value = input.value === undefined || input.value.trim() === '' ? null : input.value;
  if (value === null && input.status !== STATUS.NOT_TRANSLATED) {
    throw restError(caller, 'i18n_st_empty_translation', ST_MSG.textNeeded, 400, { params: { value: 'empty' } });
  }
  const now = utcNow();
  const set = {
    value,
    status: input.status,
    updated_at: now,
    method: 'manual',
    editor: 'classic',
    ...(isManager(caller.user) ? {} : { translator_id: caller.user!.id }),
  };
  const stringStatus = await caller.app.db.transaction().execute(async (tx) => {
    await tx
      .insertInto('i18n_st_translations')
      .values({ string_id: s.id, language: input.language, ...set })
      .onConflict((oc) => oc.columns(['string_id', 'language']).doUpdateSet(set))
      .execute();
    return recomputeStringStatus(tx, s.id);
  });
  await recordStringWrite(caller, SAVED_MESSAGE[input.status], {
    string_id: s.id,
    domain: s.domain,
    string_context: s.context,
    string_name: s.name,
    string_value: excerpt(s.value),
    language: input.language,
    translation: value === null ? '' : excerpt(value),
    status: input.status,
  });
  return { id: s.id, language: input.language, value, status: input.status, stringStatus };
}

const BULK_MESSAGE: Record<EditableStatus | 'delete', StMessageKey> = {
  [STATUS.COMPLETE]: 'string_translations_completed',
  [STATUS.NEEDS_UPDATE]: 'string_translations_need_update',
  [STATUS.NOT_TRANSLATED]: 'string_translations_unfinished',
  delete: 'string_translations_deleted',
};

export interface BulkResult {
  action: BulkAction;
  status: EditableStatus | null;
  /** Translations changed. */
  updated: number;
  /** Translations left alone: a status of complete or needs update asks for a text they lack. */
  skipped: { id: number; language: string }[];
}

/**
 * POST strings/translations/bulk: sets the status of, or deletes, the translations of several
 * strings — into `language`, or into every language each is translated into — all or nothing.
 */
export async function bulkTranslations(
  caller: Caller,
  input: { ids: number[]; action: BulkAction; status?: EditableStatus; language?: string },
): Promise<BulkResult> {
  const ids = [...new Set(input.ids)];
  if (input.action === 'set_status' && input.status === undefined) {
    throw restError(caller, 'rest_missing_callback_param', ST_MSG.missingParam('status'), 400, { params: ['status'] });
  }
  const strings = await findStrings(caller, ids);
  const missing = ids.filter((id) => !strings.has(id));
  if (missing.length) {
    throw restError(caller, 'i18n_st_string_not_found', ST_MSG.noStrings(missing), 404, { ids: missing });
  }
  // In the order asked for, which the skipped translations keep (not the rows' order, which
  // PostgreSQL changes as rows are updated).
  const wanted = new Map<number, string[]>();
  for (const s of ids.map((id) => strings.get(id)!)) {
    if (input.language !== undefined) checkTarget(caller, s, input.language);
    wanted.set(s.id, input.language !== undefined ? [input.language] : targetLanguages(s.language));
  }
  await checkAssigned(caller, wanted);
  const status = input.action === 'delete' ? STATUS.NOT_TRANSLATED : input.status!;
  const needsText = status !== STATUS.NOT_TRANSLATED;
  const now = utcNow();
  const result = await caller.app.db.transaction().execute(async (tx) => {
    const rows = await tx
      .selectFrom('i18n_st_translations')
      .select(['string_id', 'language', 'value'])
      .where('string_id', 'in', ids)
      .execute();
    const texts = new Map(rows.map((r) => [`${r.string_id}:${r.language}`, r.value]));
    const pairs = [...wanted]
      .flatMap(([id, languages]) => languages.map((language) => ({ id, language })))
      .filter((p) => texts.has(`${p.id}:${p.language}`));
    const lacksText = (p: { id: number; language: string }) => !texts.get(`${p.id}:${p.language}`);
    const skipped = needsText ? pairs.filter(lacksText) : [];
    const changed = needsText ? pairs.filter((p) => !lacksText(p)) : pairs;
    const set =
      input.action === 'delete'
        ? { value: null, status, review_status: null, updated_at: now }
        : { status, updated_at: now };
    for (const language of new Set(changed.map((p) => p.language))) {
      const of = changed.filter((p) => p.language === language).map((p) => p.id);
      await tx
        .updateTable('i18n_st_translations')
        .set(set)
        .where('language', '=', language)
        .where('string_id', 'in', of)
        .execute();
    }
    for (const id of new Set(changed.map((p) => p.id))) await recomputeStringStatus(tx, id);
    return { updated: changed.length, skipped };
  });
  if (result.updated) {
    await recordStringWrite(caller, BULK_MESSAGE[input.action === 'delete' ? 'delete' : status], {
      count: result.updated,
      string_ids: ids.join(', '),
      language: input.language ?? 'all',
    });
  }
  return { action: input.action, status: input.action === 'delete' ? null : status, ...result };
}
