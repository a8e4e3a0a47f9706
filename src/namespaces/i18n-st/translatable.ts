// Reading strings to translate (GET strings/translations, beyond the contract's list;
// DECISIONS.md): a page of the registry's strings with their translation texts, and for each
// the languages the caller may save (translate.ts). Translators see only the strings assigned
// to them (translator-assignments.ts).
import type { StringFilters } from './filters.ts';
import { targetLanguages } from './languages.ts';
import { countStrings, listStrings, type StringItem, type TranslationDetail } from './query.ts';
import type { Caller } from './translate.ts';
import { assignedLanguages, batchAssignments, isManager } from './translator-assignments.ts';

export interface TranslatableItem extends Omit<StringItem, 'translations'> {
  packageId: number | null;
  translations: Record<string, TranslationDetail & { value: string | null }>;
  /** The languages the caller may save for this string. */
  editable: string[];
}

/**
 * GET strings/translations: a page of strings with their translation texts, and the total.
 * Translators see only the strings assigned to them.
 */
export async function listTranslatable(
  caller: Caller,
  filters: StringFilters,
): Promise<{ totalCount: number; items: TranslatableItem[] }> {
  const { app, user } = caller;
  const manager = isManager(user);
  const batch = manager ? [] : await batchAssignments(app, user!.id);
  const f: StringFilters = manager
    ? filters
    : { ...filters, assignedTo: { userId: user!.id, batchStringIds: [...new Set(batch.map((b) => b.stringId))] } };
  const [{ totalCount }, items] = await Promise.all([countStrings(app, f), listStrings(app, f, caller.lang)]);
  if (!items.length) return { totalCount, items: [] };
  const ids = items.map((i) => i.id);
  const extra = await app.db
    .selectFrom('i18n_st_strings as s')
    .leftJoin('i18n_st_translations as t', 't.string_id', 's.id')
    .select(['s.id', 's.package_id', 't.language', 't.value'])
    .where('s.id', 'in', ids)
    .execute();
  const packages = new Map<number, number | null>();
  const values = new Map<string, string | null>();
  for (const r of extra) {
    packages.set(r.id, r.package_id);
    if (r.language) values.set(`${r.id}:${r.language}`, r.value);
  }
  const assigned = manager ? null : await assignedLanguages(app, user!.id, ids, batch);
  return {
    totalCount,
    items: items.map((item) => ({
      ...item,
      packageId: packages.get(item.id) ?? null,
      translations: Object.fromEntries(
        Object.entries(item.translations).map(([language, d]) => [
          language,
          { ...d, value: values.get(`${item.id}:${language}`) ?? null },
        ]),
      ),
      editable: targetLanguages(item.language).filter((language) => !assigned || assigned.get(item.id)?.has(language)),
    })),
  };
}
