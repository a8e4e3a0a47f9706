// String packages: groups of strings that belong to one piece of content (a form, a widget,
// a page-builder layout), translated together.
import type { AppServices } from '../../site/services.ts';
import { RestError } from '../../rest/types.ts';
import { utcNow } from '../../site/time.ts';
import { DEFAULT_LANGUAGE, isActiveLanguage, targetLanguages } from './languages.ts';
import { STATUS } from './registry.ts';

export interface PackageInput {
  /** Package kind slug, e.g. `gravity_form`, `widget`, `elementor`. */
  kind: string;
  /** Unique name inside the kind (the content's id). */
  name: string;
  title: string;
  language?: string;
  translatorNote?: string;
  viewLink?: string;
  editLink?: string;
}

/** Creates or updates a package; returns its id. */
export async function registerPackage(app: Pick<AppServices, 'db'>, input: PackageInput): Promise<number> {
  const kind = String(input.kind ?? '').trim();
  const name = String(input.name ?? '').trim();
  const title = String(input.title ?? '').trim();
  const language = input.language ?? DEFAULT_LANGUAGE;
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(kind))
    throw new RestError('i18n_st_invalid_package', 'The package kind must be a slug.', 400, { param: 'kind' });
  if (!name || name.length > 191)
    throw new RestError('i18n_st_invalid_package', 'The package name must be 1 to 191 characters long.', 400, {
      param: 'name',
    });
  if (!title || title.length > 255)
    throw new RestError('i18n_st_invalid_package', 'The package title must be 1 to 255 characters long.', 400, {
      param: 'title',
    });
  if (!isActiveLanguage(language))
    throw new RestError('i18n_st_invalid_package', 'The package language is not active.', 400, { param: 'language' });
  const now = utcNow();
  return app.db.transaction().execute(async (tx) => {
    const values = {
      title,
      language,
      translator_note: input.translatorNote ?? '',
      view_link: input.viewLink ?? '',
      edit_link: input.editLink ?? '',
      last_edit: now,
    };
    const inserted = await tx
      .insertInto('i18n_st_packages')
      .values({ kind_slug: kind, name, word_count: 0, created_at: now, ...values })
      .onConflict((oc) => oc.columns(['kind_slug', 'name']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted) {
      const targets = targetLanguages(language);
      if (targets.length) {
        await tx
          .insertInto('i18n_st_package_translations')
          .values(
            targets.map((l) => ({
              package_id: inserted.id,
              language: l,
              status: STATUS.NOT_TRANSLATED,
              updated_at: now,
            })),
          )
          .execute();
      }
      return inserted.id;
    }
    const row = await tx
      .selectFrom('i18n_st_packages')
      .select('id')
      .where('kind_slug', '=', kind)
      .where('name', '=', name)
      .executeTakeFirstOrThrow();
    await tx.updateTable('i18n_st_packages').set(values).where('id', '=', row.id).execute();
    return row.id;
  });
}

/** Recomputes a package's word count from its strings. */
export async function refreshPackageWordCount(app: Pick<AppServices, 'db'>, packageId: number): Promise<number> {
  const row = await app.db
    .selectFrom('i18n_st_strings')
    .select((eb) => eb.fn.sum<number>('word_count').as('n'))
    .where('package_id', '=', packageId)
    .executeTakeFirst();
  const n = Number(row?.n ?? 0);
  await app.db.updateTable('i18n_st_packages').set({ word_count: n }).where('id', '=', packageId).execute();
  return n;
}

export interface PackageTranslationInput {
  status: number;
  reviewStatus?: string | null;
  jobId?: number | null;
  method?: string | null;
  editor?: string | null;
  translatorId?: number | null;
  ateJobId?: number | null;
}

export async function savePackageTranslation(
  app: Pick<AppServices, 'db'>,
  packageId: number,
  language: string,
  input: PackageTranslationInput,
): Promise<void> {
  if (!isActiveLanguage(language))
    throw new RestError('i18n_st_invalid_package', 'The language is not active.', 400, { param: 'language' });
  if (!Number.isInteger(input.status) || input.status < 0)
    throw new RestError('i18n_st_invalid_package', 'Invalid status.', 400, { param: 'status' });
  const now = utcNow();
  const set = {
    status: input.status,
    review_status: input.reviewStatus ?? null,
    job_id: input.jobId ?? null,
    method: input.method ?? null,
    editor: input.editor ?? null,
    translator_id: input.translatorId ?? null,
    ate_job_id: input.ateJobId ?? null,
    updated_at: now,
  };
  await app.db.transaction().execute(async (tx) => {
    const pkg = await tx
      .selectFrom('i18n_st_packages')
      .select(['id', 'language'])
      .where('id', '=', packageId)
      .executeTakeFirst();
    if (!pkg) throw new RestError('i18n_st_package_not_found', 'No package with that id.', 404);
    if (pkg.language === language)
      throw new RestError('i18n_st_invalid_package', 'A package cannot be translated into its own language.', 400, {
        param: 'language',
      });
    await tx
      .insertInto('i18n_st_package_translations')
      .values({ package_id: packageId, language, ...set })
      .onConflict((oc) => oc.columns(['package_id', 'language']).doUpdateSet(set))
      .execute();
    await tx.updateTable('i18n_st_packages').set({ last_edit: now }).where('id', '=', packageId).execute();
  });
}
