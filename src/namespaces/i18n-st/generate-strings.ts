// The benchmark's bulk generator of strings (the `strings generate` command): synthetic strings
// with one translation row each, inserted in large multi-row batches straight into the tables
// (registerString takes one string at a time); not demo content.
import crypto from 'node:crypto';
import type { Insertable } from 'kysely';
import type { AppServices } from '../../site/services.ts';
import type { I18nStStringsTable } from '../../db/schema.ts';
import { vacuumAfterBulkLoad } from '../../db/index.ts';
import { utcNow } from '../../site/time.ts';
import { targetLanguages } from './languages.ts';
import {
  KIND_AUTOREGISTERED,
  KIND_DEFAULT,
  STATUS,
  countWords,
  rollUpStatus,
  sortKeyOf,
  stringKeyHash,
} from './registry.ts';

const WORDS = (
  'partner portal booking appointment download contract invoice meeting training webinar product service support contact ' +
  'account password profile settings language region country city street company team manager document report release'
).split(' ');
const PRIORITY_CYCLE = ['optional', 'optional', 'optional', 'required', 'not-needed'];
const STATUS_CYCLE = [0, 0, 0, 0, 0, 10, 10, 10, 1, 3];

/**
 * Inserts `count` synthetic strings (with one translation row each) in large batches, for the
 * benchmark. Returns the number inserted. Domains: `bench-0` … `bench-49`.
 */
export async function generateStrings(
  app: Pick<AppServices, 'db'> & Partial<Pick<AppServices, 'dialect'>>,
  count: number,
  opts: { chunk?: number } = {},
): Promise<number> {
  const chunk = opts.chunk ?? 500;
  const run = crypto.randomBytes(4).toString('hex');
  const now = utcNow();
  let done = 0;
  while (done < count) {
    const n = Math.min(chunk, count - done);
    const rows: Insertable<I18nStStringsTable>[] = [];
    const statusByHash = new Map<string, { target: string; status: number; value: string }>();
    for (let k = 0; k < n; k++) {
      const i = done + k;
      const words = 2 + (i % 7);
      const parts: string[] = [];
      for (let w = 0; w < words; w++) parts.push(WORDS[(i * 7 + w * 13 + (i >> 3)) % WORDS.length]!);
      const value = `${parts.join(' ')} ${i}`;
      const language = i % 10 === 9 ? 'de' : 'en';
      const domain = `bench-${i % 50}`;
      const name = `bench.${run}.${i}`;
      const hash = stringKeyHash(domain, '', name);
      const status = STATUS_CYCLE[Math.floor(i / 50) % STATUS_CYCLE.length]!;
      const target = targetLanguages(language)[0]!;
      statusByHash.set(hash, { target, status, value: `[${target}] ${value}` });
      rows.push({
        key_hash: hash,
        language,
        domain,
        context: '',
        name,
        value,
        sort_key: sortKeyOf(value),
        kind: Math.floor(i / 7) % 5 === 0 ? KIND_AUTOREGISTERED : KIND_DEFAULT,
        type: i % 4,
        source: i % 3 === 0 ? 1 : 0,
        sources: '[]',
        translation_priority: PRIORITY_CYCLE[i % PRIORITY_CYCLE.length]!,
        status: rollUpStatus([status]),
        word_count: countWords(value),
        package_id: null,
        created_at: now,
        updated_at: now,
      });
    }
    await app.db.transaction().execute(async (tx) => {
      const ids = await tx.insertInto('i18n_st_strings').values(rows).returning(['id', 'key_hash']).execute();
      const translations = ids.map(({ id, key_hash }) => {
        const t = statusByHash.get(key_hash)!;
        return {
          string_id: id,
          language: t.target,
          value: t.status === STATUS.COMPLETE || t.status === STATUS.NEEDS_UPDATE ? t.value : null,
          status: t.status,
          updated_at: now,
        };
      });
      for (let i = 0; i < translations.length; i += 1000) {
        await tx
          .insertInto('i18n_st_translations')
          .values(translations.slice(i, i + 1000))
          .execute();
      }
    });
    done += n;
  }
  if (done >= 1000) await vacuumAfterBulkLoad(app.db, app.dialect, ['i18n_st_strings', 'i18n_st_translations']);
  return done;
}
