// Vocabulary of translation management (reference plugins §5.1): status codes, job types,
// scopes, review statuses, ATE statuses and sortable columns, plus small value parsers shared
// by the argument validators and the service functions.
import type { Lang } from '../../rest/types.ts';
import { parseIdList } from '../../rest/id-list.ts';
import { isFilterTime, parseYmd } from '../../site/zone-time.ts';

export const STATUS = {
  NOT_TRANSLATED: 0,
  WAITING_FOR_TRANSLATOR: 1,
  IN_PROGRESS: 2,
  /** Virtual: derived from needs_update, never stored. */
  NEEDS_UPDATE: 3,
  TRANSLATION_READY_TO_DOWNLOAD: 4,
  DUPLICATE: 9,
  COMPLETE: 10,
  IN_BASKET: 20,
  /** Virtual: complete with review status NEEDS_REVIEW or EDITING, never stored. */
  NEEDS_REVIEW: 30,
  ATE_NEEDS_RETRY: 40,
  ATE_CANCELLED: 42,
  PENDING_AT_PROXY: 102,
} as const;

/** Every status code a client may name in the `status` filter. */
export const STATUS_CODES: readonly number[] = Object.values(STATUS);
/** Status codes a job row may hold. */
export const STORED_STATUS_CODES: readonly number[] = STATUS_CODES.filter(
  (s) => s !== STATUS.NEEDS_UPDATE && s !== STATUS.NEEDS_REVIEW,
);

export const STATUS_NAMES: Record<number, { en: string; de: string }> = {
  0: { en: 'Not translated', de: 'Nicht übersetzt' },
  1: { en: 'Waiting for translator', de: 'Wartet auf Übersetzer' },
  2: { en: 'In progress', de: 'In Bearbeitung' },
  3: { en: 'Needs update', de: 'Aktualisierung nötig' },
  4: { en: 'Translation ready to download', de: 'Übersetzung bereit zum Herunterladen' },
  9: { en: 'Duplicate', de: 'Duplikat' },
  10: { en: 'Complete', de: 'Fertig' },
  20: { en: 'In basket', de: 'Im Übersetzungskorb' },
  30: { en: 'Needs review', de: 'Überprüfung nötig' },
  40: { en: 'In progress (connecting)', de: 'In Bearbeitung (Verbindung wird hergestellt)' },
  42: { en: 'Cancelled in the translation editor', de: 'Im Übersetzungseditor abgebrochen' },
  102: { en: 'Pending at the translation proxy', de: 'Wartet beim Übersetzungs-Proxy' },
};

export const JOB_TYPES = ['post', 'string', 'package', 'st-batch_strings'] as const;
export type JobType = (typeof JOB_TYPES)[number];
export const DEFAULT_JOB_TYPE: JobType = 'post';

export const SCOPES = ['all', 'local', 'remote', 'ate'] as const;
export type Scope = (typeof SCOPES)[number];

export const REVIEW_STATUSES = ['NEEDS_REVIEW', 'EDITING', 'ACCEPTED'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

export const ATE_STATUS = {
  CREATED: 0,
  TRANSLATING: 1,
  TRANSLATED: 6,
  DELIVERING: 7,
  DELIVERED: 8,
  EDITED: 15,
} as const;
export const ATE_STATUS_CODES: readonly number[] = Object.values(ATE_STATUS);
export const ATE_STATUS_NAMES: Record<number, string> = {
  0: 'created',
  1: 'translating',
  6: 'translated',
  7: 'delivering',
  8: 'delivered',
  15: 'edited',
};

export const SORT_COLUMNS = ['id', 'title', 'batch_name', 'language', 'sent_date', 'deadline_date', 'status'] as const;
export type SortColumn = (typeof SORT_COLUMNS)[number];
export type SortDirection = 'asc' | 'desc';

export const NEEDS_UPDATE_VALUES = ['include', 'exclude'] as const;

/** Display name of a language code in the request's language ("German" / "Deutsch"). */
const displayNames = new Map<Lang, Intl.DisplayNames>();
export function languageName(code: string, lang: Lang): string {
  let names = displayNames.get(lang);
  if (!names) {
    names = new Intl.DisplayNames([lang], { type: 'language' });
    displayNames.set(lang, names);
  }
  try {
    return names.of(code) ?? code;
  } catch {
    return code;
  }
}

// --- value parsers: each returns the parsed value or a message (for `validate` callbacks) ---

const INT = /^\s*\d+\s*$/;

/** Text of a scalar request value; null for objects, lists and nullish values (which may lack toString). */
export function scalarText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return null;
}

/** A comma list given as text or as a list of scalars; null when anything else. */
function listText(value: unknown): string | null {
  if (Array.isArray(value)) {
    const parts = value.map(scalarText);
    return parts.every((p) => p !== null) ? parts.join(',') : null;
  }
  return scalarText(value);
}

/** Largest id the databases' integer columns hold. */
export const MAX_ID = 2_147_483_647;

/** A positive integer id (up to MAX_ID) given as a number or a digit string. */
export function parsePositiveInt(value: unknown): number | null {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0 && value <= MAX_ID) return value;
  if (typeof value === 'string' && INT.test(value)) {
    const n = Number(value.trim());
    if (Number.isSafeInteger(n) && n > 0 && n <= MAX_ID) return n;
  }
  return null;
}

/** Job ids: a comma list ("3, 5,8") or a list of them ('' none); null when any is not an id up to MAX_ID. */
export function parseJobIdList(value: unknown): number[] | null {
  const text = listText(value);
  const ids = text === null ? null : text === '' ? [] : parseIdList(text);
  return ids && ids.every((id) => id > 0 && id <= MAX_ID) ? ids : null;
}

/** Comma list of status codes; null when any piece is not a known code. */
export function parseStatusList(value: unknown): number[] | null {
  const text = listText(value);
  if (text === null) return null;
  const pieces = text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const out: number[] = [];
  for (const p of pieces) {
    if (!/^\d+$/.test(p)) return null;
    const n = Number(p);
    if (!STATUS_CODES.includes(n)) return null;
    out.push(n);
  }
  return out;
}

/** Comma list of non-empty strings. */
export function parseStringList(value: unknown): string[] {
  const text = (listText(value) ?? '').replace(/\u0000/g, '');
  return text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

/** A calendar date `YYYY-MM-DD` of the years 1000–9999, as the site's dates (a time part after it is accepted and ignored). */
export function parseDate(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const m = /^(\d{4}-\d{2}-\d{2})(?:[ T]\d{2}:\d{2}(?::\d{2})?)?$/.exec(value.trim());
  const day = m ? parseYmd(m[1]!) : null;
  return day && isFilterTime(Date.UTC(day.y, day.m - 1, day.d) / 1000) ? m![1]! : null;
}

export interface Sorting {
  column: SortColumn;
  direction: SortDirection;
}

/** `sorting` is an object column → asc|desc (the query form `sorting[id]=desc`). */
export function parseSorting(value: unknown): Sorting[] | string {
  if (value === null || value === undefined || value === '') return [];
  let obj = value;
  if (typeof obj === 'string') {
    try {
      obj = JSON.parse(obj);
    } catch {
      return 'sorting must be an object of column → asc|desc.';
    }
  }
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj))
    return 'sorting must be an object of column → asc|desc.';
  const out: Sorting[] = [];
  for (const [column, dir] of Object.entries(obj as Record<string, unknown>)) {
    if (!(SORT_COLUMNS as readonly string[]).includes(column))
      return `sorting: "${column}" is not sortable; columns are ${SORT_COLUMNS.join(', ')}.`;
    const d = typeof dir === 'string' ? dir.toLowerCase() : '';
    if (d !== 'asc' && d !== 'desc') return `sorting: the direction of "${column}" must be asc or desc.`;
    out.push({ column: column as SortColumn, direction: d });
  }
  return out;
}
