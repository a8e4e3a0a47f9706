// Reading registered strings in a language: a string's id, and its text in `lang` (the
// translation when there is one, else the source value), one at a time or many at once.
import type { AppServices } from '../../site/services.ts';
import type { Lang } from '../../rest/types.ts';
import { registerString, STATUS, stringKeyHash, type RegisterStringInput, type StringKey } from './registry.ts';

/** The id of a registered string, or null. */
export async function findStringId(app: Pick<AppServices, 'db'>, key: StringKey): Promise<number | null> {
  const row = await app.db
    .selectFrom('i18n_st_strings')
    .select('id')
    .where('key_hash', '=', stringKeyHash(key.domain, key.context ?? '', key.name))
    .executeTakeFirst();
  return row ? row.id : null;
}

/**
 * The text of a registered string in `lang`: the translation when one exists (complete, or
 * needing an update after a source change), else the source value. Null when the string is
 * not registered.
 */
export async function translateString(
  app: Pick<AppServices, 'db'>,
  key: StringKey,
  lang: Lang | string,
): Promise<string | null> {
  return (await translateStrings(app, [key], lang))[0] ?? null;
}

/**
 * Many strings at once (one query): the text of each key in `lang`, in the order of `keys`;
 * null for keys that are not registered. For pages that show many registered texts.
 */
export async function translateStrings(
  app: Pick<AppServices, 'db'>,
  keys: StringKey[],
  lang: Lang | string,
): Promise<(string | null)[]> {
  if (!keys.length) return [];
  const hashes = keys.map((k) => stringKeyHash(k.domain, k.context ?? '', k.name));
  const found = new Map<string, string>();
  const unique = [...new Set(hashes)];
  for (let i = 0; i < unique.length; i += 500) {
    const rows = await app.db
      .selectFrom('i18n_st_strings as s')
      .leftJoin('i18n_st_translations as t', (j) =>
        j.onRef('t.string_id', '=', 's.id').on('t.language', '=', String(lang)),
      )
      .select([
        's.key_hash',
        's.value as source',
        's.language as sourceLanguage',
        't.value as translation',
        't.status as status',
      ])
      .where('s.key_hash', 'in', unique.slice(i, i + 500))
      .execute();
    for (const r of rows) {
      const useTranslation =
        r.sourceLanguage !== lang &&
        r.translation != null &&
        (r.status === STATUS.COMPLETE || r.status === STATUS.NEEDS_UPDATE);
      found.set(r.key_hash, useTranslation ? r.translation! : r.source);
    }
  }
  return hashes.map((h) => found.get(h) ?? null);
}

/** `translateString`, registering the string first when it is unknown. */
export async function translateOrRegister(
  app: Pick<AppServices, 'db'>,
  input: RegisterStringInput,
  lang: Lang | string,
): Promise<string> {
  const found = await translateString(app, input, lang);
  if (found !== null) return found;
  await registerString(app, input);
  return (await translateString(app, input, lang)) ?? input.value;
}
