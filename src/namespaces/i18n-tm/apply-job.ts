// Applying a completed job (work.ts completes it): its texts go into what the job names — the
// target language version of the page or post (updated, or created with a free slug), or the
// strings of the string registry (through i18n-st's api.ts). Apart from work.ts because it
// writes other modules' content, not the job's own rows.
import type { AppServices } from '../../site/services.ts';
import {
  createContent,
  getContent,
  getContentBySlug,
  getTranslations,
  RESERVED_SLUGS,
  slugify,
  updateContent,
} from '../../pages/api.ts';
import { isActiveLanguage, saveStringTranslation } from '../i18n-st/api.ts';
import { isManager, type Caller, type JobRow } from './jobs.ts';
import { STATUS } from './model.ts';

/** What a completed job wrote: the language version of its page or post, and strings. */
export interface AppliedTexts {
  content_id: number | null;
  string_ids: number[];
}

const CONTENT_FIELDS = { title: 'title', body: 'content', excerpt: 'excerpt' } as const;

/** The completed job's texts, written into what it names (packages: nothing to write here). */
export async function applyJob(caller: Caller, job: JobRow, targets: Map<string, string>): Promise<AppliedTexts> {
  if (job.type === 'post') return { content_id: await applyToContent(caller, job, targets), string_ids: [] };
  if (job.type === 'st-batch_strings' || job.type === 'string')
    return { content_id: null, string_ids: await applyToStrings(caller, job, targets) };
  return { content_id: null, string_ids: [] };
}

/** The target language version of the job's page or post, updated or created; null when the original is gone. */
async function applyToContent(caller: Caller, job: JobRow, targets: Map<string, string>): Promise<number | null> {
  const app = caller.app;
  const source = await getContent(app, job.element_id);
  const lang = job.target_language;
  if (
    !source ||
    `post_${source.type}` !== job.element_type ||
    source.lang !== job.source_language ||
    (lang !== 'en' && lang !== 'de')
  )
    return null;
  const patch: { title?: string; content?: string; excerpt?: string } = {};
  for (const [field, key] of Object.entries(CONTENT_FIELDS)) {
    const text = targets.get(field);
    if (text !== undefined) patch[key] = text;
  }
  const existing = (await getTranslations(app, source)).find((t) => t.lang === lang);
  if (existing) return (await updateContent(app, existing.id, patch, caller)).id;
  const created = await createContent(
    app,
    {
      type: source.type,
      lang,
      slug: await freeSlug(app, lang, patch.title ?? source.title, source.slug),
      title: patch.title ?? source.title,
      content: patch.content ?? '',
      excerpt: patch.excerpt ?? '',
      status: source.status,
      authorId: source.authorId,
      translationOf: source.id,
      menuOrder: source.menuOrder,
      thumbnail: source.thumbnail,
    },
    caller,
  );
  return created.id;
}

/** A slug made from the translated title that no item of the language uses yet. */
async function freeSlug(app: AppServices, lang: 'en' | 'de', title: string, fallback: string): Promise<string> {
  const base = slugify(title) || fallback;
  for (let n = 1; ; n++) {
    const slug = n === 1 ? base : `${base}-${n}`;
    if (!RESERVED_SLUGS.has(slug) && !(await getContentBySlug(app, lang, slug))) return slug;
  }
}

/** The strings a completed string job names (fields `string-<id>`, or the job's element), translated. */
async function applyToStrings(caller: Caller, job: JobRow, targets: Map<string, string>): Promise<number[]> {
  const wanted = new Map<number, string>();
  if (job.type === 'string') {
    const first = [...targets.values()][0];
    if (first !== undefined) wanted.set(job.element_id, first);
  } else {
    for (const [field, text] of targets) {
      const m = /^string-(\d{1,9})$/.exec(field);
      if (m) wanted.set(Number(m[1]), text);
    }
  }
  if (!wanted.size || !isActiveLanguage(job.target_language)) return [];
  const existing = await caller.app.db
    .selectFrom('i18n_st_strings')
    .select(['id', 'language'])
    .where('id', 'in', [...wanted.keys()])
    .execute();
  const applied: number[] = [];
  for (const s of existing) {
    if (s.language === job.target_language) continue;
    await saveStringTranslation(caller.app, s.id, job.target_language, {
      value: wanted.get(s.id)!,
      status: STATUS.COMPLETE,
      jobId: job.id,
      translatorId: job.translator_id ?? (isManager(caller.user) ? null : caller.user!.id),
      method: 'local-translator',
      editor: 'classic',
    });
    applied.push(s.id);
  }
  return applied.sort((a, b) => a - b);
}
